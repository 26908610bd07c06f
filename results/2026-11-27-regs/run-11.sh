#!/usr/bin/env bash
# Eleventh call (one H100): make test-gpu's suite on the committed change (laplace-fin:
# stop_rule_wants_norm tells check_every 1 first; the spread loop tries a lag of 3 at
# depth 2 first), 8 checks at a time.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=8 timeout -s KILL 570 bash tests/gpu_suite.sh build/gpu/laplace-fin > $OUT/gpu-suite-11.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-11.log | head; tail -1 $OUT/gpu-suite-11.log
