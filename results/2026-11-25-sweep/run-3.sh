#!/usr/bin/env bash
# device call (issue 24, item 3, a first step): a lone GPU tile whose batch would hold
# fewer than 256 iterations runs the host loop (device_cuda_alone.c). The GPU suite on
# it, then loops.sh's measurement again (auto against host), and the sweep.
set -u
cp build/gpu/laplace-new ./laplace
( time GPU_SUITE_JOBS=2 timeout 300 bash tests/gpu_suite.sh ./laplace ) > "$OUT/gpu-suite.log" 2>&1
echo "rc=$?" >> "$OUT/gpu-suite.log"
tail -2 "$OUT/gpu-suite.log"
timeout 120 bash results/2026-11-25-sweep/loops.sh > /dev/null 2>&1
grep ",1," "$OUT/loops.csv"
LAPLACE_BENCH_ONLY=sweep LAPLACE_BENCH_DIR="$OUT" timeout 100 ./laplace --bench > "$OUT/bench-sweep.txt" 2>&1
echo "rc=$?" >> "$OUT/bench-sweep.txt"
sed -n '/^lattice /,/^one GPU/p' "$OUT/bench-sweep.txt"
