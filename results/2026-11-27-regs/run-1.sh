#!/bin/bash
# First call of the ninth session (one H100): the sweep probe at the course problem's
# shape, then compute-sanitizer on the loop-on-chip checks with the spread loop's lag 3.
set -u
out=${OUT:-.}
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout -s KILL 120 build/gpu/sweep_floor 2>&1 | tee "$out/sweep-floor-1.txt"
LAPLACE_SPREAD_LAG=3 GPU_SANITIZE_MATCH='chip' GPU_SANITIZE_JOBS=12 \
    timeout -s KILL 300 bash tests/gpu_sanitize.sh build/gpu/laplace-new \
    > "$out/gpu-sanitize-lag3.log" 2>&1
echo "sanitize rc $?"
tail -5 "$out/gpu-sanitize-lag3.log"
