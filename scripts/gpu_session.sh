#!/usr/bin/env bash
# gpu_session.sh - what one call on a GPU machine runs, in one go: the machine,
# the GPU test suite, the scaling table and the course problem's timings.
# Logs go to $OUT (the device tool's folder) or results/session/.
#   bash scripts/gpu_session.sh            (./laplace built and carried along)
set -uo pipefail
out=${OUT:-results/session}
mkdir -p "$out"
{
    date -u
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv
    nvidia-smi topo -m
    ./laplace --version
    ./laplace --topology
} 2>&1 | tee "$out/machine.txt"

scripts/bench_scaling.sh 16384 1000 float 2>&1 | tee "$out/scaling-16384-float.csv"

if command -v make > /dev/null; then
    make --no-print-directory test-gpu 2>&1 | tee "$out/test-gpu.log"
else
    bash tests/gpu_suite.sh ./laplace 2>&1 | tee "$out/test-gpu.log"
fi

./laplace config/default.ini 2>&1 | tee "$out/make-run.txt"
