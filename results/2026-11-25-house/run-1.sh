#!/usr/bin/env bash
# device call 1 (issue 23, the layout by concern): the GPU suite on the new main, and
# old (3137453, before the restructuring) against new on every preset and the course
# table 16^2 .. 1024^2, one GPU. Both binaries built here without MPI (build/gpu/).
set -u
cp build/gpu/laplace-new ./laplace
{ date -u; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; ./laplace --version; } > "$OUT/machine.txt" 2>&1
( time GPU_SUITE_JOBS=2 timeout 330 bash tests/gpu_suite.sh ./laplace ) > "$OUT/gpu-suite.log" 2>&1
echo "rc=$?" >> "$OUT/gpu-suite.log"
tail -3 "$OUT/gpu-suite.log"
timeout 240 scripts/identity.sh build/gpu/laplace-old build/gpu/laplace-new /tmp/identity > "$OUT/identity-1gpu.txt" 2>&1
echo "rc=$?" >> "$OUT/identity-1gpu.txt"
tail -3 "$OUT/identity-1gpu.txt"
