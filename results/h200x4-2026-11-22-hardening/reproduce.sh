#!/usr/bin/env bash
# reproduce.sh - results/h200x4-2026-11-22-hardening on 4 H200s (nvidia-h200-x4): the
# sanitizer runs and the GPU suite, in the calls the README lists.
set -u
GPU_SANITIZE_JOBS=8 bash tests/gpu_sanitize.sh ./laplace 2>&1 | tee test-gpu-sanitize-run1.log
GPU_SANITIZE_TOOLS=racecheck bash tests/gpu_sanitize.sh ./laplace 2>&1 | tee test-gpu-sanitize-racecheck.log
GPU_SUITE_JOBS=6 bash tests/gpu_suite.sh ./laplace 2>&1 | tee test-gpu-4-part1.log
GPU_SUITE_RESUME=359 bash tests/gpu_suite.sh ./laplace 2>&1 | tee test-gpu-4-part2.log
