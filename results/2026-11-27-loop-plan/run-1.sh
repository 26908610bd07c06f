#!/usr/bin/env bash
# run-1.sh - on nvidia-h100-x1: the GPU suite (make test-gpu's first half) on the loop
# plan's binary (gpu-bin/laplace-new, built on the CPU machine), 10 checks at a time.
set -o pipefail
export NCCL_NVLS_ENABLE=0
cp gpu-bin/laplace-new laplace
nvidia-smi -L > "$OUT/machine.txt"; nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv >> "$OUT/machine.txt"
GPU_SUITE_JOBS=10 timeout 560 bash tests/gpu_suite.sh ./laplace > "$OUT/gpu-suite-1.log" 2>&1
echo "suite status $?"; grep -c '^ok' "$OUT/gpu-suite-1.log"; grep '^FAILED' "$OUT/gpu-suite-1.log" | head -20; tail -2 "$OUT/gpu-suite-1.log"
