#!/usr/bin/env bash
# run-5.sh - on nvidia-h100-x1: the GPU suite on the binary with one protocol of
# batches (a lone tile's singles and pairs through loop_batches.c), 10 checks at a time.
set -o pipefail
export NCCL_NVLS_ENABLE=0
cp gpu-bin/laplace-new laplace
nvidia-smi -L > "$OUT/machine-5.txt"
GPU_SUITE_JOBS=10 timeout 560 bash tests/gpu_suite.sh ./laplace > "$OUT/gpu-suite-5.log" 2>&1
echo "suite status $?"; grep '^FAILED' "$OUT/gpu-suite-5.log" | head -20; tail -1 "$OUT/gpu-suite-5.log"
