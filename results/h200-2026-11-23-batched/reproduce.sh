#!/usr/bin/env bash
# reproduce.sh - results/h200-2026-11-23-batched on one H200 (the two tiles of 2x1 and
# 1x2 share GPU 0 through --devices 0,0). OUT: where the loop timings go.
set -u
OUT=${OUT:-/tmp/batched}
mkdir -p "$OUT"
GPU_SUITE_JOBS=4 bash tests/gpu_suite.sh ./laplace 2>&1 | tee "$OUT/test-gpu.log"
bash tests/gpu_sanitize.sh ./laplace 2>&1 | tee "$OUT/test-gpu-sanitize.log"
PAIR=0,0 bash scripts/loop_session.sh "$OUT" course large
