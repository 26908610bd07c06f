#!/usr/bin/env bash
# Final call 4 (one H100): way_on_chip plans only the ways that may be taken (the
# spread strips no longer planned where the cluster is taken): the GPU suite's checks of
# the loop on chip (both ways, forced and auto, every rule, refusals, faults, Ctrl-C).
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=4 GPU_SUITE_MATCH='chip|spread|on chip|cluster|batched on the GPUs' timeout 400 \
  bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-chip-4.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-chip-4.log | tail -20
