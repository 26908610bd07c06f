#!/usr/bin/env bash
# Ninth call: the whole GPU suite on the final tree (laplace-overlap, as in run-8).
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=6 timeout -s KILL 540 bash tests/gpu_suite.sh build/gpu/laplace-overlap > $OUT/gpu-suite-9.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-9.log | head -20; tail -1 $OUT/gpu-suite-9.log
