#!/usr/bin/env bash
# Fifteenth call (one H100): on laplace-fin, the course table's 512^2 on every layout
# of one GPU (GPU_SUITE_COURSE_MAX=512: one tile, the rows kernel, the host loop, 2x1
# and 3x2 tiles in both loops), each against the stored md5, one at a time.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='course-512' GPU_SUITE_COURSE_MAX=512 GPU_SUITE_JOBS=1 timeout -s KILL 400 \
    bash tests/gpu_suite.sh build/gpu/laplace-fin > $OUT/gpu-suite-course512-15.log 2>&1
echo "suite rc $?"; grep -E "^FAILED|^ok" $OUT/gpu-suite-course512-15.log | cut -c1-150; tail -1 $OUT/gpu-suite-course512-15.log
