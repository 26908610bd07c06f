#!/usr/bin/env bash
# Tenth call, asked of the nvidia-h200 kind, which served an H100 (not an H200): the
# course problem, old (8124d8a) and new (run-7's binary) interleaved, then the bench
# sweep of the new one. (Run as h200-10.sh, its output named h200-10; renamed here.)
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for round in 1 2 3; do
  for b in old new; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round $b $(tail -1 /tmp/t.csv | cut -d, -f8,12)"
  done
done
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-new --bench > $OUT/bench-sweep-repeat-10.txt 2>&1
grep -A12 "^lattice " $OUT/bench-sweep-repeat-10.txt; grep "GPU 0 copy" $OUT/bench-sweep-h200-10.txt
