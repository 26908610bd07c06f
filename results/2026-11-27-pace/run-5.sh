#!/usr/bin/env bash
# Fifth call (one GPU): the course table's 1024^2 on laplace-cand, whose one tile runs
# the spread loop with the fields in shared memory (1024 columns: too wide for a thread
# a column) and the new deciding warp: the one tile's field, then the host loop on one
# tile and 2x1 and 3x2 tiles in both loops against it, 1399571 iterations each.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='course 1024' GPU_SUITE_COURSE_MAX=1024 GPU_SUITE_JOBS=1 timeout -s KILL 300 \
    bash tests/gpu_suite.sh build/gpu/laplace-cand > $OUT/gpu-suite-course1024-5.log 2>&1
echo "suite rc $?"; grep -E "^FAILED|^ok" $OUT/gpu-suite-course1024-5.log; tail -1 $OUT/gpu-suite-course1024-5.log
