#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-27-pairs/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-27-pairs/reproduce.sh             every step, in order
#   bash results/2026-11-27-pairs/reproduce.sh STEP ...    some of them: run_2 run_3 run_4 run_5 run_6 run_7
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run-2.sh, as it was (its text unchanged) ----
run_2() {
#!/usr/bin/env bash
# Second call (one GPU): laplace-pairs with the warp-strip pass (no shared memory)
# against HEAD f0416d2's binary (laplace-final); run-1.sh's checks, its strips of 16
# and 64 rows forced on some, and the timings of strips of 16, 32 and 64 rows. Part 1:
# the same iteration count and the same .bin field on lattices where pairs run by
# default (stops inside batches, max_iter tails, odd sizes, double, --check-every) and,
# forced with LAPLACE_PAIRS=1 --loop batched, on small ones. Part 2: us an iteration,
# medians of 3 interleaved rounds, norm every iteration.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
pass=0; fail=0
same() { # NAME ENV ARGS...: old and new give the same iterations and field
  local name=$1 envs=$2; shift 2
  timeout -s KILL 30 $B/laplace-final --backend gpu --csv --output /tmp/o.bin "$@" > /tmp/o.csv 2> /tmp/o.err
  local ro=$?
  timeout -s KILL 30 env $envs $B/laplace-pairs --backend gpu --csv --output /tmp/n.bin "$@" > /tmp/n.csv 2> /tmp/n.err
  local rn=$?
  local io=$(tail -1 /tmp/o.csv | cut -d, -f8) in=$(tail -1 /tmp/n.csv | cut -d, -f8)
  local lo=$(tail -1 /tmp/o.csv | cut -d, -f22) ln=$(tail -1 /tmp/n.csv | cut -d, -f22)
  if [ $ro -eq 0 ] && [ $rn -eq 0 ] && [ "$io" = "$in" ] && cmp -s /tmp/o.bin /tmp/n.bin; then
    pass=$((pass+1)); echo "ok     $name: $in iterations, field identical (loops $lo -> $ln)"
  else
    fail=$((fail+1)); echo "FAILED $name: rc $ro/$rn, iterations $io/$in, loops $lo/$ln $(head -c 300 /tmp/n.err)"
  fi
}
P="--top 1 --left 0.3"
P="$P --max-iter 3000"
same f2048-eps6e-2 "" $P --nx 2048 --ny 2048 --eps 6e-2
same f2048-eps4.6e-2 "" $P --nx 2048 --ny 2048 --eps 4.6e-2
same f2048-max1003 "" $P --nx 2048 --ny 2048 --eps 0 --max-iter 1003
same f2048-every7 "" $P --nx 2048 --ny 2048 --eps 5e-2 --check-every 7
same d2048-eps5.5e-2 "" $P --nx 2048 --ny 2048 --eps 5.5e-2 --precision double
same f2049x1537 "" $P --nx 2049 --ny 1537 --eps 6e-2
same d3001x2111 "" $P --nx 3001 --ny 2111 --eps 1e-1 --precision double
same f4096-max517 "" $P --nx 4096 --ny 4096 --eps 0 --max-iter 517
P="--top 1 --left 0.3 --max-iter 100000"
same f67x35-forced "LAPLACE_PAIRS=1" $P --nx 67 --ny 35 --eps 1e-9 --loop batched
same d130x66-forced "LAPLACE_PAIRS=1" $P --nx 130 --ny 66 --eps 1e-12 --loop batched --precision double
same f3x3-forced "LAPLACE_PAIRS=1" $P --nx 3 --ny 3 --eps 1e-9 --loop batched
same f5x300-forced "LAPLACE_PAIRS=1" $P --nx 5 --ny 300 --eps 1e-7 --loop batched
same f300x5-forced "LAPLACE_PAIRS=1" $P --nx 300 --ny 5 --eps 1e-7 --loop batched
same f67x35-rows16 "LAPLACE_PAIRS=1 LAPLACE_PAIRS_ROWS=16" $P --nx 67 --ny 35 --eps 1e-9 --loop batched
same d130x66-rows64 "LAPLACE_PAIRS=1 LAPLACE_PAIRS_ROWS=64" $P --nx 130 --ny 66 --eps 1e-12 --loop batched --precision double
same f1001x999-rows16 "LAPLACE_PAIRS=1 LAPLACE_PAIRS_ROWS=16" $P --nx 1001 --ny 999 --eps 1e-3 --loop batched
same f2048-rows64 "LAPLACE_PAIRS_ROWS=64" $P --nx 2048 --ny 2048 --eps 6e-2 --max-iter 3000
same f2048-off "LAPLACE_PAIRS=0" $P --nx 2048 --ny 2048 --eps 6e-2
echo "part 1: $pass passed, $fail failed"
timeout -s KILL 30 $B/laplace-pairs --backend gpu $P --nx 2048 --ny 2048 --eps 6e-2 | grep -E "loop|iterations"
P="--top 1 --left 0.3"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f2048 float 2048 3000" "f4096 float 4096 1000" "d4096 double 4096 500" "f8192 float 8192 300" "f16384 float 16384 100"; do
    set -- $case
    run="--backend gpu $P --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 final $(us $B/laplace-final $run)"
    for h in 16 32 64; do echo "$round $1 pairs$h $(us env LAPLACE_PAIRS_ROWS=$h $B/laplace-pairs $run)"; done
  done
done > $OUT/times-2.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-2.txt | sort -s -k1,1 | tee $OUT/medians-2.txt
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
#!/usr/bin/env bash
# Third call (one GPU): the warp-strip pass loading D rows ahead (LAPLACE_PAIRS_AHEAD)
# in strips of H rows (LAPLACE_PAIRS_ROWS), against HEAD f0416d2's binary
# (laplace-final): a few fields against it (forced small lattices, every D), then us an
# iteration, medians of 3 interleaved rounds, norm every iteration.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
pass=0; fail=0
same() { # NAME ENV ARGS...: old and new give the same iterations and field
  local name=$1 envs=$2; shift 2
  timeout -s KILL 30 $B/laplace-final --backend gpu --csv --output /tmp/o.bin "$@" > /tmp/o.csv 2> /tmp/o.err
  local ro=$?
  timeout -s KILL 30 env $envs $B/laplace-pairs --backend gpu --csv --output /tmp/n.bin "$@" > /tmp/n.csv 2> /tmp/n.err
  local rn=$?
  local io=$(tail -1 /tmp/o.csv | cut -d, -f8) in=$(tail -1 /tmp/n.csv | cut -d, -f8)
  if [ $ro -eq 0 ] && [ $rn -eq 0 ] && [ "$io" = "$in" ] && cmp -s /tmp/o.bin /tmp/n.bin; then
    pass=$((pass+1)); echo "ok     $name: $in iterations, field identical"
  else
    fail=$((fail+1)); echo "FAILED $name: rc $ro/$rn, iterations $io/$in $(head -c 300 /tmp/n.err)"
  fi
}
P="--top 1 --left 0.3 --max-iter 100000"
for d in 1 4 8; do for h in 16 32 64; do
  same f67x35-d$d-h$h "LAPLACE_PAIRS=1 LAPLACE_PAIRS_AHEAD=$d LAPLACE_PAIRS_ROWS=$h" $P --nx 67 --ny 35 --eps 1e-9 --loop batched
  same d130x66-d$d-h$h "LAPLACE_PAIRS=1 LAPLACE_PAIRS_AHEAD=$d LAPLACE_PAIRS_ROWS=$h" $P --nx 130 --ny 66 --eps 1e-12 --loop batched --precision double
done; done
same f2049x1537 "" --top 1 --left 0.3 --max-iter 3000 --nx 2049 --ny 1537 --eps 6e-2
same d3001x2111 "" --top 1 --left 0.3 --max-iter 3000 --nx 3001 --ny 2111 --eps 1e-1 --precision double
echo "part 1: $pass passed, $fail failed"
P="--top 1 --left 0.3"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f2048 float 2048 3000" "f4096 float 4096 1000" "d4096 double 4096 500" "f16384 float 16384 100"; do
    set -- $case
    run="--backend gpu $P --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 final $(us $B/laplace-final $run)"
    for v in 1:32 4:16 4:32 4:64 8:16 8:32; do
      echo "$round $1 d${v%:*}h${v#*:} $(us env LAPLACE_PAIRS_AHEAD=${v%:*} LAPLACE_PAIRS_ROWS=${v#*:} $B/laplace-pairs $run)"
    done
  done
done > $OUT/times-3.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-3.txt | sort -s -k1,1 | tee $OUT/medians-3.txt
}

# ---- run-4.sh, as it was (its text unchanged) ----
run_4() {
#!/usr/bin/env bash
# Fourth call (one GPU): make test-gpu's suite on laplace-pairs (the committed
# candidate: passes of two iterations, 16-row strips, 4 rows ahead), 10 checks at a time.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
start=$(date +%s)
GPU_SUITE_JOBS=10 timeout -s KILL 560 bash tests/gpu_suite.sh $B/laplace-pairs > $OUT/gpu-suite-4.log 2>&1
echo "suite rc $? in $(( $(date +%s) - start )) s"; grep -E "^FAILED" $OUT/gpu-suite-4.log | head; tail -1 $OUT/gpu-suite-4.log
}

# ---- run-5.sh, as it was (its text unchanged) ----
run_5() {
#!/usr/bin/env bash
# Fifth call (one GPU), on laplace-pairs (the committed binary; run-4's suite ran it):
# the suite's checks of the passes of two iterations and of what they changed (its two
# mended checks included), compute-sanitizer on the passes (memcheck, racecheck,
# synccheck, and faults under memcheck's leak check), then the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
start=$(date +%s)
GPU_SUITE_JOBS=10 GPU_SUITE_MATCH='pairs|two iterations|the host at every iteration. --partition 1x1|on 2049x1537|SIGINT x[12] on 2048\^2 --partition 1x1|many-block|wide-blocks' \
  timeout -s KILL 200 bash tests/gpu_suite.sh $B/laplace-pairs > $OUT/gpu-suite-5.log 2>&1
echo "suite rc $? in $(( $(date +%s) - start )) s"; grep -E "^FAILED" $OUT/gpu-suite-5.log | head; tail -1 $OUT/gpu-suite-5.log
start=$(date +%s)
GPU_SANITIZE_JOBS=12 GPU_SANITIZE_OUT=$OUT/sanitize GPU_SANITIZE_MATCH='--nx 131 |--nx 67 --ny 35 |--nx 2048 --ny 1031|faulted.*--loop batched' \
  timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-pairs > $OUT/gpu-sanitize-5.log 2>&1
echo "sanitize rc $? in $(( $(date +%s) - start )) s"; grep -E "^FAILED" $OUT/gpu-sanitize-5.log | head; tail -1 $OUT/gpu-sanitize-5.log
rm -rf $OUT/sanitize
start=$(date +%s)
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-pairs --bench > $OUT/bench-sweep-5.txt 2>&1
echo "bench rc $? in $(( $(date +%s) - start )) s"; tail -14 $OUT/bench-sweep-5.txt
}

# ---- run-6.sh, as it was (its text unchanged) ----
run_6() {
#!/usr/bin/env bash
# Sixth call (one GPU): issue 24's table, old (laplace-final, HEAD f0416d2) and new
# (laplace-pairs, 73c22d8) side by side, medians of 3 interleaved rounds, float with
# the norm every iteration (--eps 0), and the course problem to eps 1e-10 (iterations
# and field md5); the bench sweep (the copy bandwidth of this machine, floors); and
# compute-sanitizer on a lone tile's batches of single sweeps (whose tail changed).
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f128 128 10000" "f256 256 10000" "f1024 1024 10000" "f2048 2048 5000" "f4096 4096 2000" "f16384 16384 200"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision float --nx $2 --ny $2 --max-iter $3"
    for v in final pairs; do echo "$round $1 $v $(us $B/laplace-$v $run)"; done
  done
  for v in final pairs; do echo "$round course $v $(course $B/laplace-$v)"; done
done > $OUT/times-6.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-6.txt | sort -s -k1,1 | tee $OUT/medians-6.txt
grep course $OUT/times-6.txt | awk '{print $3, $5, $6}' | sort | uniq -c
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 100 $B/laplace-pairs --bench > $OUT/bench-sweep-6.txt 2>&1
echo "bench rc $?"; grep -A10 "^lattice " $OUT/bench-sweep-6.txt | head -10
start=$(date +%s)
GPU_SANITIZE_JOBS=12 GPU_SANITIZE_OUT=$OUT/sanitize GPU_SANITIZE_MATCH='--loop batched' \
  timeout -s KILL 150 bash tests/gpu_sanitize.sh $B/laplace-pairs > $OUT/gpu-sanitize-6.log 2>&1
echo "sanitize rc $? in $(( $(date +%s) - start )) s"; grep -E "^FAILED" $OUT/gpu-sanitize-6.log | head; tail -1 $OUT/gpu-sanitize-6.log
rm -rf $OUT/sanitize
}

# ---- run-7.sh, as it was (its text unchanged) ----
run_7() {
#!/usr/bin/env bash
# Seventh call (one GPU): the same code with the passes' choice and queueing moved into
# devices/device_cuda_pairs.c (and a check that their grid fits): the suite's checks
# of the passes, the sanitizer's, and 4096^2 against HEAD f0416d2 (medians of 3).
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
start=$(date +%s)
GPU_SUITE_JOBS=10 GPU_SUITE_MATCH='pairs|two iterations|on 2049x1537' \
  timeout -s KILL 170 bash tests/gpu_suite.sh $B/laplace-pairs > $OUT/gpu-suite-7.log 2>&1
echo "suite rc $? in $(( $(date +%s) - start )) s"; grep -E "^FAILED" $OUT/gpu-suite-7.log | head; tail -1 $OUT/gpu-suite-7.log
GPU_SANITIZE_JOBS=12 GPU_SANITIZE_OUT=$OUT/sanitize GPU_SANITIZE_MATCH='--nx 131 |--nx 67 --ny 35 |faulted.*--loop batched|--max-iter 12 --partition 1x1$' \
  timeout -s KILL 60 bash tests/gpu_sanitize.sh $B/laplace-pairs > $OUT/gpu-sanitize-7.log 2>&1
echo "sanitize rc $?"; grep -E "^FAILED" $OUT/gpu-sanitize-7.log | head; tail -1 $OUT/gpu-sanitize-7.log
rm -rf $OUT/sanitize
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for v in final pairs; do echo "$round f4096 $v $(us $B/laplace-$v --backend gpu --top 1 --left 0.3 --nx 4096 --ny 4096 --max-iter 2000)"; done
done > $OUT/times-7.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-7.txt | tee $OUT/medians-7.txt
}

steps=(run_2 run_3 run_4 run_5 run_6 run_7)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
