#!/usr/bin/env bash
# Fourth call: compute-sanitizer (memcheck with its leak check, racecheck, synccheck)
# on every check of tests/gpu_sanitize.sh, the tree whose sweeps overlap.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=12 timeout -s KILL 560 bash tests/gpu_sanitize.sh build/gpu/laplace-overlap > $OUT/gpu-sanitize-4.log 2>&1
echo "sanitize rc $?"; grep -E "^FAILED" $OUT/gpu-sanitize-4.log | head -20; grep -c "^ok" $OUT/gpu-sanitize-4.log; tail -1 $OUT/gpu-sanitize-4.log
