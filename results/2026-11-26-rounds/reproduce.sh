#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-26-rounds/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-26-rounds/reproduce.sh             every step, in order
#   bash results/2026-11-26-rounds/reproduce.sh STEP ...    some of them: repeat_10 run_6 run_7 run_8
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- repeat-10.sh, as it was (its text unchanged) ----
repeat_10() {
#!/usr/bin/env bash
# Tenth call, asked of the nvidia-h200 kind, which served an H100 (not an H200): the
# course problem, old (8124d8a) and new (run-7's binary) interleaved, then the bench
# sweep of the new one. (Run as h200-10.sh, its output named h200-10; renamed here.)
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for round in 1 2 3; do
  for b in old new; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round $b $(tail -1 /tmp/t.csv | cut -d, -f8,12)"
  done
done
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-new --bench > $OUT/bench-sweep-repeat-10.txt 2>&1
grep -A12 "^lattice " $OUT/bench-sweep-repeat-10.txt; grep "GPU 0 copy" $OUT/bench-sweep-h200-10.txt
}

# ---- run-6.sh, as it was (its text unchanged) ----
run_6() {
#!/usr/bin/env bash
# Sixth call: the tree as it will be committed (depth 0 compiled apart; the cluster up
# to 16 rows). (1) course problem, (2) us an iteration, old (8124d8a) against new, auto,
# medians of 3 interleaved rounds, (3) compute-sanitizer on the loops on chip, (4) the
# bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-new config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
grep -E "loop|iterations" /tmp/c.txt | head -4; md5sum < /tmp/c.dat
echo "== us an iteration (eps 0, the norm every iteration)"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 32 32" "float 64 64" "float 128 128" "float 256 256" "float 512 512" "float 1024 1024" "float 1448 1448" "float 1600 1500" "float 1800 1790" "double 32 32" "double 64 64" "double 128 128" "double 256 256" "double 512 512" "double 1024 1024" "double 1100 1000" "double 1300 1290"; do
    set -- $case
    it=50000; [ $2 -ge 1024 ] && it=20000
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter $it"
    echo "$round $case old $(us $B/laplace-old $run)"
    echo "$round $case new $(us $B/laplace-new $run)"
    [ $2 -le 256 ] && echo "$round $case new-cluster $(LAPLACE_CHIP_WAY=cluster us $B/laplace-new $run --loop chip)"
    [ $2 -le 256 ] && echo "$round $case new-spread $(LAPLACE_CHIP_WAY=spread us $B/laplace-new $run --loop chip)"
    [ $2 -ge 1448 ] && echo "$round $case batched $(us $B/laplace-new $run --loop batched)"
  done
done
echo "== course problem seconds, old and new (auto)"
for round in 1 2 3; do
  for b in old new; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round $b $(tail -1 /tmp/t.csv | cut -d, -f8,12)"
  done
done
echo "== compute-sanitizer on the loops on chip"
GPU_SANITIZE_JOBS=8 GPU_SANITIZE_MATCH='--loop chip|--ny 67|--ny 12|--ny 13' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize-6.log 2>&1
grep -E "FAIL|passed" $OUT/gpu-sanitize-6.log | tail -6
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-new --bench > $OUT/bench-sweep-6.txt 2>&1
tail -14 $OUT/bench-sweep-6.txt
}

# ---- run-7.sh, as it was (its text unchanged) ----
run_7() {
#!/usr/bin/env bash
# Seventh call: the committed tree (the cluster up to 128 rows, the spread strips in
# rounds above): the whole GPU suite, then the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=6 timeout -s KILL 420 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite-7.log 2>&1
echo "suite rc $?"
grep -E "FAILED|passed" $OUT/gpu-suite-7.log | tail -12
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 120 $B/laplace-new --bench > $OUT/bench-sweep-7.txt 2>&1
grep -A12 "^lattice " $OUT/bench-sweep-7.txt; grep "GPU 0 copy" $OUT/bench-sweep-7.txt
}

# ---- run-8.sh, as it was (its text unchanged) ----
run_8() {
#!/usr/bin/env bash
# Eighth call: run-7's two failures were the suite's (a 16^2 lattice runs in a cluster
# of 1 block, not 16): the report checks again, with 128^2 and 256^2.
set -u
GPU_SUITE_JOBS=6 GPU_SUITE_MATCH='the report names the loop' timeout -s KILL 200 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-8.log 2>&1
echo "suite rc $?"; grep -E "FAILED|passed" $OUT/gpu-suite-8.log | tail -8
}

steps=(repeat_10 run_6 run_7 run_8)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
