#!/usr/bin/env bash
# device call (the session's last): the GPU suite on the final main of 2026-11-25
# (after the review's fixes), built here without MPI.
set -u
cp build/gpu/laplace-new ./laplace
./laplace --version > "$OUT/machine.txt" 2>&1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >> "$OUT/machine.txt" 2>&1
( time GPU_SUITE_JOBS=3 timeout 330 bash tests/gpu_suite.sh ./laplace ) > "$OUT/gpu-suite.log" 2>&1
echo "rc=$?" >> "$OUT/gpu-suite.log"
tail -3 "$OUT/gpu-suite.log"
