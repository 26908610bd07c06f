#!/usr/bin/env bash
# device call (issue 24, item 5): the lattice sweep on a one-GPU machine, the GPU
# against its floor: LAPLACE_BENCH_ONLY=sweep ./laplace --bench (the ceilings first,
# then 128^2 .. 16384^2 float, 5 timed runs after 1 warm-up each). The CSV lands in
# $OUT; its plot is drawn on the CPU machine (make plots CSV=...).
set -u
cp build/gpu/laplace-new ./laplace
./laplace --version
LAPLACE_BENCH_ONLY=sweep LAPLACE_BENCH_DIR="$OUT" timeout 400 ./laplace --bench 2>&1 | tee "$OUT/bench-sweep.txt"
echo "rc=${PIPESTATUS[0]}" | tee -a "$OUT/bench-sweep.txt"
