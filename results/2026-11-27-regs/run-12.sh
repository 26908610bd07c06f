#!/usr/bin/env bash
# Twelfth call (one H100): make test-gpu's compute-sanitizer checks on laplace-fin, then
# the bench sweep (the ceilings and the lattice sweep on one GPU) with its plot data.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=12 timeout -s KILL 400 bash tests/gpu_sanitize.sh build/gpu/laplace-fin > $OUT/gpu-sanitize-12.log 2>&1
echo "sanitize rc $?"; grep -v "^ok" $OUT/gpu-sanitize-12.log | tail -5
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 build/gpu/laplace-fin --bench > $OUT/bench-sweep-12.txt 2>&1
echo "bench rc $?"; tail -14 $OUT/bench-sweep-12.txt
