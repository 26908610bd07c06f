#!/usr/bin/env bash
# reproduce.sh - results/h200-2026-11-23-plan on one H200: before (build/laplace-old,
# main at b2332f3) against after, median of 3 in turn; the two tiles of 2x1 share GPU 0.
set -u
OUT=${OUT:-/tmp/plan}
mkdir -p "$OUT"
PAIR=0,0 bash scripts/before_after.sh build/laplace-old ./laplace "$OUT"
LAPLACE_BENCH_ONLY=sweep LAPLACE_BENCH_DIR="$OUT" ./laplace --bench > "$OUT/bench-sweep.txt" 2>&1
make test-gpu 2>&1 | tee "$OUT/test-gpu-all.log"
