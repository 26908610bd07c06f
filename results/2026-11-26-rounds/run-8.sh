#!/usr/bin/env bash
# Eighth call: run-7's two failures were the suite's (a 16^2 lattice runs in a cluster
# of 1 block, not 16): the report checks again, with 128^2 and 256^2.
set -u
GPU_SUITE_JOBS=6 GPU_SUITE_MATCH='the report names the loop' timeout -s KILL 200 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-8.log 2>&1
echo "suite rc $?"; grep -E "FAILED|passed" $OUT/gpu-suite-8.log | tail -8
