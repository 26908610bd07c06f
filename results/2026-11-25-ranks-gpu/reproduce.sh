#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-25-ranks-gpu/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-25-ranks-gpu/reproduce.sh             every step, in order
#   bash results/2026-11-25-ranks-gpu/reproduce.sh STEP ...    some of them: run_2 run_3 run_4
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run-2.sh, as it was (its text unchanged) ----
run_2() {
#!/usr/bin/env bash
# device call 2: the overlapped exchange (pinned buffers, the column pack kernel, the
# interior swept while MPI carries the edges). The GPU suite on the new one-process
# binary (every kernel now takes a window of blocks); two and four ranks on GPU 0
# against the serial reference for every kernel, precision and rank layout; the
# sanitizers under two ranks; old against new at 16384^2 float.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
GPU_SUITE_JOBS=3 timeout 300 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite-2.log 2>&1
echo "suite status $?: $(tail -1 $OUT/gpu-suite-2.log)"
. build/mpi-runtime/env.sh || exit 1
N=$B/laplace-mpi-new; O=$B/laplace-mpi-old
mp() { local np=$1; shift; timeout 120 mpirun --allow-run-as-root --oversubscribe -np $np "$@"; }
P="--top 1 --left 0.3 --right -0.7 --bottom 2.5 --nx 302 --ny 257 --max-iter 600 --eps 0"
{
echo "== ranks on GPU 0 against serial ($P)"
pass=0; fail=0
check() { # what, serial file, ranks file, status
  if [ "$4" = 0 ] && cmp -s "$2" "$3"; then pass=$((pass+1)); echo "ok   $1"
  else fail=$((fail+1)); echo "FAIL $1: status $4 $(head -c 300 $OUT/m.err)"; fi; }
for prec in float double; do
  $N --backend serial $P --precision $prec -q --output $OUT/s-$prec.bin
  for k in global readonly shared rows general; do
    for lay in "2:--partition 2x1 --ranks 2x1 --devices 0" "2:--partition 1x2 --ranks 1x2 --devices 0" \
               "4:--partition 2x2 --ranks 2x2 --devices 0" "2:--partition 3x2 --ranks 1x2 --devices 0,0,0"; do
      mp ${lay%%:*} $N --backend gpu $P --precision $prec --kernel $k ${lay#*:} -q --output $OUT/m.bin 2> $OUT/m.err
      check "$prec $k ${lay#*:}" $OUT/s-$prec.bin $OUT/m.bin $?
    done
  done
  mp 2 $N --backend gpu $P --precision $prec --reduce device --partition 2x1 --ranks 2x1 --devices 0 -q --output $OUT/m.bin 2> $OUT/m.err
  check "$prec --reduce device 2x1 ranks" $OUT/s-$prec.bin $OUT/m.bin $?
done
for p in poisson-sine obstacle heater; do
  for extra in "" "--method sor" "--precision float --method sor"; do
    $N config/$p.ini --backend serial --max-iter 3000 $extra -q --output $OUT/s.bin
    mp 4 $N config/$p.ini --backend gpu --partition 2x2 --ranks 2x2 --devices 0 --max-iter 3000 $extra -q --output $OUT/m.bin 2> $OUT/m.err
    check "$p $extra, 2x2 ranks" $OUT/s.bin $OUT/m.bin $?
  done
done
echo "course 512^2 float, stored serial: $(tr '\n' ' ' < tests/data/course-512-float.serial)"
mp 2 $N config/course-512.ini --backend gpu --partition 2x1 --ranks 2x1 --devices 0 --csv > $OUT/c.csv 2> $OUT/m.err
echo "2x1 ranks: status $? $(tail -1 $OUT/c.csv | cut -d, -f5-14)"
echo "ranks on GPU 0: $pass passed, $fail failed"
echo "== compute-sanitizer under two ranks (2x2 tiles on 2x1 ranks, 101x67, 24 iterations)"
for tool in memcheck racecheck synccheck; do
  mp 2 compute-sanitizer --tool $tool --error-exitcode 9 $N --backend gpu --nx 101 --ny 67 --top 1 --left 0.3 --bottom 2.5 --eps 0 --max-iter 24 --partition 2x2 --ranks 2x1 --devices 0,0 -q --output $OUT/z.bin > $OUT/san.txt 2>&1
  echo "$tool: status $? $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/san.txt) of 2 ranks with 0 errors"
done
echo "== 16384^2 float, 1000 iterations, the norm every iteration: compute s (old = 0738ba7)"
for rep in 1 2 3; do
  $N --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --check-every 1 --csv --output $OUT/a.bin > $OUT/a.csv
  echo "1 process: $(tail -1 $OUT/a.csv | cut -d, -f12)"
  for lay in 2x1 1x2; do
    for bin in old new; do
      L=$O; [ $bin = new ] && L=$N
      mp 2 $L --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --check-every 1 --partition $lay --ranks $lay --devices 0 --output $OUT/b.bin > $OUT/b.txt 2> $OUT/b.err
      cmp -s $OUT/a.bin $OUT/b.bin && r=identical || r=DIFFERENT
      echo "2 ranks $lay $bin: $(grep -o 'compute [0-9.]* s' $OUT/b.txt) $(grep -o "exchange [0-9.]* us an iteration" $OUT/b.txt) field $r $(head -c 200 $OUT/b.err)"
    done
  done
done
grep 'ranks ' $OUT/b.txt
} > $OUT/ranks-2.txt 2>&1
cat $OUT/ranks-2.txt
rm -f $OUT/*.bin
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
#!/usr/bin/env bash
# device call 3: the binaries rebuilt after the Makefile fix (kernels/*.o now rebuilt
# when laplace_kernels.h changes; call 2's one-process binary had a stale loop on chip).
# The GPU suite and the chip sanitizer subset again; a fault injected on one of two
# ranks sharing GPU 0; a few two-rank checks against serial with the rebuilt binary.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
GPU_SUITE_JOBS=3 timeout 300 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite-3.log 2>&1
echo "suite status $?: $(tail -1 $OUT/gpu-suite-3.log)"
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:' timeout 150 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize-3.log 2>&1
echo "sanitize status $?: $(tail -1 $OUT/gpu-sanitize-3.log)"
. build/mpi-runtime/env.sh || exit 1
N=$B/laplace-mpi-new
R="--allow-run-as-root --oversubscribe"
A="--backend gpu --nx 2048 --ny 2048 --top 1 --left 0.3 --eps 0 --max-iter 5000 --partition 2x1 --ranks 2x1 --devices 0"
{
echo "== a fault injected on rank 1 at iteration 300 (LAPLACE_INJECT_FAULT=0:300 on that rank only)"
s=$(date +%s%N)
timeout 60 mpirun $R -np 1 $N $A --output $OUT/f.bin : -np 1 env LAPLACE_INJECT_FAULT=0:300 $N $A --output $OUT/f.bin > $OUT/f.out 2> $OUT/f.err
echo "status $? after $(( ($(date +%s%N) - s) / 1000000 )) ms; output left: $(ls $OUT/f.bin* 2>/dev/null | wc -l) files"
head -c 600 $OUT/f.err; echo
echo "== two ranks against serial with the rebuilt binary"
for extra in "--method sor" "--precision float" "--precision float --kernel shared"; do
  $N config/poisson-sine.ini --backend serial --max-iter 3000 $extra -q --output $OUT/s.bin
  timeout 120 mpirun $R -np 2 $N config/poisson-sine.ini --backend gpu --partition 2x2 --ranks 2x1 --devices 0,0 --max-iter 3000 --snapshot-every 1000 $extra -q --output $OUT/m.bin 2> $OUT/m.err
  st=$?; cmp -s $OUT/s.bin $OUT/m.bin && r=identical || r=DIFFERENT
  echo "poisson-sine $extra, 2x2 tiles on 2x1 ranks: status $st, field $r $(head -c 200 $OUT/m.err)"
done
} > $OUT/ranks-3.txt 2>&1
cat $OUT/ranks-3.txt
rm -f $OUT/*.bin
}

# ---- run-4.sh, as it was (its text unchanged) ----
run_4() {
#!/usr/bin/env bash
# device call 4: the edges' part of a sweep is no longer launched when its interior
# was not queued (a fault there); two ranks on GPU 0 against serial for every kernel
# in float, the fault on one rank, memcheck under two ranks.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
. build/mpi-runtime/env.sh || exit 1
N=$B/laplace-mpi-new
R="--allow-run-as-root --oversubscribe"
mp() { local np=$1; shift; timeout 120 mpirun $R -np $np "$@"; }
P="--top 1 --left 0.3 --right -0.7 --bottom 2.5 --nx 302 --ny 257 --max-iter 600 --eps 0 --precision float"
{
pass=0; fail=0
$N --backend serial $P -q --output $OUT/s.bin
for k in global readonly shared rows general; do
  for lay in "2:--partition 2x1 --ranks 2x1 --devices 0" "4:--partition 2x2 --ranks 2x2 --devices 0"; do
    rm -f $OUT/m.bin
    mp ${lay%%:*} $N --backend gpu $P --kernel $k ${lay#*:} -q --output $OUT/m.bin 2> $OUT/m.err
    st=$?
    if [ $st = 0 ] && cmp -s $OUT/s.bin $OUT/m.bin; then pass=$((pass+1)); echo "ok   $k ${lay#*:}"
    else fail=$((fail+1)); echo "FAIL $k ${lay#*:}: status $st $(head -c 300 $OUT/m.err)"; fi
  done
done
echo "ranks on GPU 0 against serial: $pass passed, $fail failed"
A="--backend gpu --nx 2048 --ny 2048 --top 1 --left 0.3 --eps 0 --max-iter 5000 --partition 2x1 --ranks 2x1 --devices 0"
for at in 300 1; do
  s=$(date +%s%N)
  timeout 60 mpirun $R -np 1 $N $A --output $OUT/f.bin : -np 1 env LAPLACE_INJECT_FAULT=0:$at $N $A --output $OUT/f.bin > $OUT/f.out 2> $OUT/f.err
  echo "fault on rank 1 at iteration $at: status $? after $(( ($(date +%s%N) - s) / 1000000 )) ms; output left: $(ls $OUT/f.bin* 2>/dev/null | wc -l) files; $(head -1 $OUT/f.err)"
done
LAPLACE_INJECT_FAULT=0:12 mp 2 compute-sanitizer --tool memcheck --leak-check full $N --backend gpu --nx 101 --ny 67 --top 1 --eps 0 --max-iter 24 --partition 2x2 --ranks 2x1 --devices 0,0 -q --output $OUT/z.bin > $OUT/san.txt 2>&1
echo "memcheck, fault at 12 on both ranks: status $? $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/san.txt) of 2 ranks with 0 errors"
mp 2 compute-sanitizer --tool memcheck --leak-check full $N --backend gpu --nx 101 --ny 67 --top 1 --eps 0 --max-iter 24 --partition 2x2 --ranks 2x1 --devices 0,0 -q --output $OUT/z.bin > $OUT/san.txt 2>&1
echo "memcheck: status $? $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/san.txt) of 2 ranks with 0 errors"
} > $OUT/ranks-4.txt 2>&1
cat $OUT/ranks-4.txt
rm -f $OUT/*.bin
}

steps=(run_2 run_3 run_4)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
