#!/usr/bin/env bash
# Fourteenth call (one H100): on laplace-fin, only the course table's 1024^2 (one tile,
# then the host loop on one tile and 2x1 and 3x2 tiles of one GPU in both loops, each
# field equal to the one tile's), alone on the GPU.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='course 1024' GPU_SUITE_COURSE_MAX=1024 GPU_SUITE_JOBS=1 timeout -s KILL 500 \
    bash tests/gpu_suite.sh build/gpu/laplace-fin > $OUT/gpu-suite-course1024-14.log 2>&1
echo "suite rc $?"; grep -E "^FAILED|^ok" $OUT/gpu-suite-course1024-14.log; tail -1 $OUT/gpu-suite-course1024-14.log
