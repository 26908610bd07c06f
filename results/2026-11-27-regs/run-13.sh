#!/usr/bin/env bash
# Thirteenth call (one H100): on laplace-fin, the course table 16^2 ... 1024^2 on one
# tile and on 2x1 and 3x2 tiles of one GPU in both loops (GPU_SUITE_COURSE_MAX=1024,
# last run on 2026-11-25); beside it, the racecheck checks that run-12's time limit cut
# off (the plate on one tile: plain, --monitor 50, --reduce device).
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='course' GPU_SUITE_COURSE_MAX=1024 GPU_SUITE_JOBS=6 timeout -s KILL 560 \
    bash tests/gpu_suite.sh build/gpu/laplace-fin > $OUT/gpu-suite-course-13.log 2>&1 &
suite=$!
GPU_SANITIZE_OUT=tests/out/sanitize-13 GPU_SANITIZE_TOOLS=racecheck \
    GPU_SANITIZE_MATCH='racecheck 1 --nx 101 --ny 67 .*--max-iter 1500 --partition 1x1( --monitor 50| --reduce device)?$' \
    timeout -s KILL 560 bash tests/gpu_sanitize.sh build/gpu/laplace-fin > $OUT/gpu-sanitize-13.log 2>&1
echo "sanitize rc $?"; cat $OUT/gpu-sanitize-13.log | tail -5
wait $suite; echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-course-13.log | head; grep -c "^ok" $OUT/gpu-suite-course-13.log; tail -1 $OUT/gpu-suite-course-13.log
