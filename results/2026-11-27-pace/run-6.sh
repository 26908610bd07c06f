#!/usr/bin/env bash
# Sixth call (one GPU): the bench sweep three more times on laplace-cand (3282436's
# code), each measuring its own copy bandwidth: how far 2048^2 and 4096^2, the two
# lattices nearest their targets, move from run to run.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for n in 1 2 3; do
  mkdir -p $OUT/sweep-$n
  LAPLACE_BENCH_DIR=$OUT/sweep-$n LAPLACE_BENCH_ONLY=sweep timeout -s KILL 80 build/gpu/laplace-cand --bench > $OUT/bench-sweep-6-$n.txt 2>&1
  echo "sweep $n rc $?: $(grep -o 'copy  *[0-9.]* GB/s' $OUT/bench-sweep-6-$n.txt | head -1)"
  grep -E "^(2048|4096)\^2" $OUT/bench-sweep-6-$n.txt
done
