#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-25-chip-blocks/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-25-chip-blocks/reproduce.sh             every step, in order
#   bash results/2026-11-25-chip-blocks/reproduce.sh STEP ...    some of them: blocks double rules run_3 run_4 threads
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- blocks.sh, as it was (its text unchanged) ----
blocks() {
#!/usr/bin/env bash
# The loop on chip with 1, 2, 4, 8 and 16 blocks in its cluster (LAPLACE_CHIP_BLOCKS;
# "auto" = the plan's own choice), float, the norm every iteration and every 1000th,
# 100000 iterations at --eps 0, 3 rounds: microseconds an iteration from the compute
# time. Then the fields of every cluster size against each other (md5, 1000 iterations).
set -u
L=${1:-build/gpu/laplace-new}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "n,precision,blocks,check_every,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for n in 128 256 384 512; do
    for prec in float double; do
      [ $prec = double ] && [ $n -gt 384 ] && continue
      for b in auto 1 2 4 8 16; do
        for c in 1 1000; do
          if [ $b = auto ]; then unset LAPLACE_CHIP_BLOCKS; else export LAPLACE_CHIP_BLOCKS=$b; fi
          line=$($L --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --loop chip --eps 0 --max-iter 100000 --check-every $c --csv 2>/dev/null | tail -1)
          it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
          echo "$n,$prec,$b,$c,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
        done
      done
    done
  done
done
unset LAPLACE_CHIP_BLOCKS
for n in 128 512; do
  for b in auto 1 2 4 8 16; do
    if [ $b = auto ]; then unset LAPLACE_CHIP_BLOCKS; else export LAPLACE_CHIP_BLOCKS=$b; fi
    $L --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision float --loop chip --eps 0 --max-iter 1000 --output /tmp/f.bin > /tmp/r.txt 2>&1
    echo "# $n blocks $b: $(grep -o 'loop .*' /tmp/r.txt | head -1 | cut -c1-90) md5 $(md5sum < /tmp/f.bin | cut -c1-12)"
  done
done
}

# ---- double.sh, as it was (its text unchanged) ----
double() {
#!/usr/bin/env bash
# Should auto take the loop on chip for double too? The loop on chip (--loop chip)
# against the batches (--kernel rows, or general for SOR), double, 200000 iterations at
# --eps 0, the norm every iteration, 3 rounds: microseconds an iteration.
set -u
L=${1:-build/gpu/laplace-new}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "n,method,loop,round,iterations,compute_s,us_per_iteration,loop_ran"
for round in 1 2 3; do
  for spec in 128:jacobi 256:jacobi 384:jacobi 448:jacobi 256:sor; do
    n=${spec%%:*}; m=${spec#*:}
    batches="--kernel rows"; [ $m = sor ] && batches="--kernel general"
    for loop in chip batches; do
      how="--loop chip"; [ $loop = batches ] && how=$batches
      line=$($L --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision double --method $m $how --eps 0 --max-iter 200000 --check-every 1 --csv 2>/dev/null | tail -1)
      it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$n,$m,$loop,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
    done
  done
done
}

# ---- rules.sh, as it was (its text unchanged) ----
rules() {
#!/usr/bin/env bash
# The loop on chip against the batches for rules other than plain Jacobi (the general
# kernel): SOR, a source (poisson-sine), relaxation (--omega 0.9), float and double,
# 100000 iterations at --eps 0, the norm every iteration, 3 rounds.
set -u
L=${1:-build/gpu/laplace-new}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "n,precision,rule,loop,round,iterations,compute_s,us_per_iteration,loop_ran"
for round in 1 2 3; do
  for spec in "128:sor:--method sor" "256:sor:--method sor" "256:source:config/poisson-sine.ini --method jacobi" "256:omega:--omega 0.9" "512:sor:--method sor"; do
    n=${spec%%:*}; rest=${spec#*:}; rule=${rest%%:*}; args=${rest#*:}
    for prec in float double; do
      [ $prec = double ] && [ $n = 512 ] && continue
      for loop in chip batches; do
        how="--loop chip"; [ $loop = batches ] && how="--kernel general"
        line=$($L $args --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec $how --eps 0 --max-iter 100000 --check-every 1 --csv 2>/dev/null | tail -1)
        it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
        echo "$n,$prec,$rule,$loop,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
      done
    done
  done
done
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
#!/usr/bin/env bash
# The loop on chip with 512 threads a block and strips of at least 16 rows (fewer
# blocks for lattices under 256 rows): the GPU suite, the chip sanitizer subset, and
# old (fd13cff: 1024 threads, 8 rows) against new, µs an iteration at 100000
# iterations with the norm every iteration, and the course problem, 3 rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=3 timeout 300 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite.log 2>&1
echo "suite status $?: $(tail -1 $OUT/gpu-suite.log)"
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:' timeout 150 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize.log 2>&1
echo "sanitize status $?: $(tail -1 $OUT/gpu-sanitize.log)"
{
echo "binary,n,precision,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 16:float 32:float 64:float 128:float 256:float 384:float 512:float 640:float 128:double 256:double 384:double; do
    n=${spec%%:*}; prec=${spec#*:}
    for bin in old new; do
      line=$($B/laplace-$bin --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --loop chip --eps 0 --max-iter 100000 --check-every 1 --csv 2>/dev/null | tail -1)
      it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$n,$prec,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/steady.csv 2>&1
{
echo "course problem (config/course-512.ini, auto), stored serial: iterations 423553 md5 7b365cae394aa52809a7d138fc24438a"
for round in 1 2 3; do
  for bin in old new; do
    $B/laplace-$bin config/course-512.ini --backend gpu --csv --output $OUT/c.dat > $OUT/c.csv 2>/dev/null
    echo "$bin round $round: iterations $(tail -1 $OUT/c.csv | cut -d, -f8) compute $(tail -1 $OUT/c.csv | cut -d, -f12) s loop $(tail -1 $OUT/c.csv | cut -d, -f22) md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
  done
done
} > $OUT/course.txt 2>&1
cat $OUT/course.txt
rm -f $OUT/c.dat
}

# ---- run-4.sh, as it was (its text unchanged) ----
run_4() {
#!/usr/bin/env bash
# The loop on chip, a thread a column and rows of threads until a block has at least
# 512, strips of at least 16 rows (fewer blocks under 256 rows): the GPU suite, then
# old (fd13cff: 1024 threads, 8 rows) against new, us an iteration at 100000
# iterations with the norm every iteration, and the course problem, 3 rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=3 timeout 300 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite.log 2>&1
echo "suite status $?: $(tail -1 $OUT/gpu-suite.log)"
{
echo "binary,n,precision,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 16:float 64:float 128:float 256:float 384:float 512:float 640:float 128:double 256:double 384:double; do
    n=${spec%%:*}; prec=${spec#*:}
    for bin in old new; do
      line=$($B/laplace-$bin --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --loop chip --eps 0 --max-iter 100000 --check-every 1 --csv 2>/dev/null | tail -1)
      it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$n,$prec,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/steady.csv 2>&1
{
echo "course problem (config/course-512.ini, auto), stored serial: iterations 423553 md5 7b365cae394aa52809a7d138fc24438a"
for round in 1 2 3; do
  for bin in old new; do
    $B/laplace-$bin config/course-512.ini --backend gpu --csv --output $OUT/c.dat > $OUT/c.csv 2>/dev/null
    echo "$bin round $round: iterations $(tail -1 $OUT/c.csv | cut -d, -f8) compute $(tail -1 $OUT/c.csv | cut -d, -f12) s loop $(tail -1 $OUT/c.csv | cut -d, -f22) md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
  done
done
} > $OUT/course.txt 2>&1
cat $OUT/course.txt
rm -f $OUT/c.dat
}

# ---- threads.sh, as it was (its text unchanged) ----
threads() {
#!/usr/bin/env bash
# The loop on chip: blocks of the cluster (LAPLACE_CHIP_BLOCKS) against threads a block
# (LAPLACE_CHIP_THREADS), float and double, the norm every iteration, 100000 iterations
# at --eps 0, 3 rounds; microseconds an iteration. Each warp sends its sum to every
# block, so fewer warps and fewer blocks send fewer remote stores.
set -u
L=${1:-build/gpu/laplace-new}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "n,precision,blocks,threads,check_every,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for n in 128 256 512; do
    for prec in float double; do
      [ $prec = double ] && [ $n = 512 ] && continue
      for b in 4 8 16; do
        [ $n -gt 128 ] && [ $b != 16 ] && continue
        for th in 128 256 512 1024; do
          export LAPLACE_CHIP_BLOCKS=$b LAPLACE_CHIP_THREADS=$th
          line=$($L --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --loop chip --eps 0 --max-iter 100000 --check-every 1 --csv 2>/dev/null | tail -1)
          it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
          echo "$n,$prec,$b,$th,1,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
        done
      done
    done
  done
done
unset LAPLACE_CHIP_BLOCKS LAPLACE_CHIP_THREADS
for th in 128 256 1024; do
  LAPLACE_CHIP_THREADS=$th $L --backend gpu --nx 128 --ny 128 --top 1 --left 0.3 --precision float --loop chip --eps 0 --max-iter 1000 --output /tmp/f.bin > /dev/null 2>&1
  echo "# 128 float threads $th md5 $(md5sum < /tmp/f.bin | cut -c1-12)"
done
}

steps=(blocks double rules run_3 run_4 threads)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
