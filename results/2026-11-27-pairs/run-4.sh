#!/usr/bin/env bash
# Fourth call (one GPU): make test-gpu's suite on laplace-pairs (the committed
# candidate: passes of two iterations, 16-row strips, 4 rows ahead), 10 checks at a time.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
start=$(date +%s)
GPU_SUITE_JOBS=10 timeout -s KILL 560 bash tests/gpu_suite.sh $B/laplace-pairs > $OUT/gpu-suite-4.log 2>&1
echo "suite rc $? in $(( $(date +%s) - start )) s"; grep -E "^FAILED" $OUT/gpu-suite-4.log | head; tail -1 $OUT/gpu-suite-4.log
