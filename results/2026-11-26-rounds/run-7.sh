#!/usr/bin/env bash
# Seventh call: the committed tree (the cluster up to 128 rows, the spread strips in
# rounds above): the whole GPU suite, then the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=6 timeout -s KILL 420 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite-7.log 2>&1
echo "suite rc $?"
grep -E "FAILED|passed" $OUT/gpu-suite-7.log | tail -12
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 120 $B/laplace-new --bench > $OUT/bench-sweep-7.txt 2>&1
grep -A12 "^lattice " $OUT/bench-sweep-7.txt; grep "GPU 0 copy" $OUT/bench-sweep-7.txt
