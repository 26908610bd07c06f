#!/usr/bin/env bash
# reproduce.sh - the bench sweep of results/2026-11-25-probe (one H100), run.sh's
# command: the ceilings then timed the two empty loops of kernels/laplace_probe.cu,
# which the binary of commit c3ceddd holds (build it there: git checkout c3ceddd && make).
# OUT: where the CSV, its plot and bench-sweep.txt go.
set -u
OUT=${OUT:-/tmp/probe}
mkdir -p "$OUT"
LAPLACE_BENCH_ONLY=sweep LAPLACE_BENCH_DIR="$OUT" timeout 150 ./laplace --bench > "$OUT/bench-sweep.txt" 2>&1
echo "rc=$?" >> "$OUT/bench-sweep.txt"
cat "$OUT/bench-sweep.txt"
