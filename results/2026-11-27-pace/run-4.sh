#!/usr/bin/env bash
# Fourth call (one GPU, the machine of run-3): make test-gpu's compute-sanitizer checks
# on laplace-cand (racecheck's lone-tile plates now 120 iterations), then the bench
# sweep (the ceilings and the lattice sweep on one GPU) with its plot data.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
start=$(date +%s)
GPU_SANITIZE_JOBS=12 timeout -s KILL 360 bash tests/gpu_sanitize.sh build/gpu/laplace-cand > $OUT/gpu-sanitize-4.log 2>&1
echo "sanitize rc $? in $(( $(date +%s) - start )) s"; grep -v "^ok" $OUT/gpu-sanitize-4.log | grep -v "^skipped" | tail -5
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 build/gpu/laplace-cand --bench > $OUT/bench-sweep-4.txt 2>&1
echo "bench rc $?"; tail -14 $OUT/bench-sweep-4.txt
