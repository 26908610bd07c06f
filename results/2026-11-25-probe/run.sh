#!/usr/bin/env bash
# device call (issue 24, item 5's on-chip floor): the ceilings now measure the floor
# of the two mechanisms a loop resident on the GPU meets by, with empty kernels
# (kernels/laplace_probe.cu): a grid barrier of one block per multiprocessor, and a
# cluster barrier with a read of a neighbour block's shared memory; then the sweep.
set -u
cp build/gpu/laplace-new ./laplace
LAPLACE_BENCH_ONLY=sweep LAPLACE_BENCH_DIR="$OUT" timeout 150 ./laplace --bench > "$OUT/bench-sweep.txt" 2>&1
echo "rc=$?" >> "$OUT/bench-sweep.txt"
cat "$OUT/bench-sweep.txt"
