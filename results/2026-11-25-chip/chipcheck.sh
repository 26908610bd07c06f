#!/bin/bash
N=build/gpu/laplace-new
nvidia-smi --query-gpu=name --format=csv,noheader
GPU_SUITE_JOBS=3 GPU_SUITE_MATCH='chip' GPU_SUITE_OUT=/tmp/gs4 timeout 240 bash tests/gpu_suite.sh $N > $OUT/gpu_suite-chip.log 2>&1
echo "suite rc $?"; tail -1 $OUT/gpu_suite-chip.log; grep FAILED $OUT/gpu_suite-chip.log | head
GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:' GPU_SANITIZE_OUT=/tmp/san4 timeout 150 bash tests/gpu_sanitize.sh $N > $OUT/gpu_sanitize-chip.log 2>&1
echo "sanitize rc $?"; tail -1 $OUT/gpu_sanitize-chip.log; grep FAILED $OUT/gpu_sanitize-chip.log | head
