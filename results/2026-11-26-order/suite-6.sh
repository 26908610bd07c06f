#!/usr/bin/env bash
# Call 6 (one GPU): the whole GPU suite and the whole sanitizer suite (memcheck with
# leak check, racecheck, synccheck) on laplace-new, the tree to be committed: every
# other sweep backwards where the two fields exceed L2, and its new checks (the order
# forced both ways, equal to serial and to each other). Also the first GPU run of
# 41085ee and 9bc95e3, which the previous session could not run.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=4 timeout 340 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-6.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-6.log | tail -12
grep -E "order|orders" $OUT/gpu-suite-6.log | head -30
timeout 230 bash tests/gpu_sanitize.sh build/gpu/laplace-new > $OUT/gpu-sanitize-6.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|SWEEP_ORDER|gpu sanitize:" $OUT/gpu-sanitize-6.log | tail -20
