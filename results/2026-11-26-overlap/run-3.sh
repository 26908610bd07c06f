#!/usr/bin/env bash
# Third call: the whole GPU suite on the tree whose sweeps overlap (laplace-overlap).
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=6 timeout -s KILL 540 bash tests/gpu_suite.sh build/gpu/laplace-overlap > $OUT/gpu-suite-3.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-3.log | head -20; tail -1 $OUT/gpu-suite-3.log
