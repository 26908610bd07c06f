#!/usr/bin/env bash
# reproduce.sh - results/pictures/course-512-2x2.png on 2x2 host tiles (any machine;
# 3 min 50 s on the 2-core CPU machine).
set -u
OMP_WAIT_POLICY=passive ./laplace config/course-512.ini --backend cpu --partition 2x2 \
    --output course.png --png-tiles
