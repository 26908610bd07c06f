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
