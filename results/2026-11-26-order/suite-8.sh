#!/usr/bin/env bash
# Call 8 (one GPU), laplace-new = the tree to be committed: only the rows kernel
# alternates its order of blocks (the other kernels' code is HEAD's again, after call 7
# found SOR 2.6% slower in the binary that reversed every kernel). The whole GPU suite,
# then racecheck, synccheck and memcheck on the forced alternate order and beside it.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=4 timeout 360 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-8.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-8.log | tail -6
GPU_SANITIZE_MATCH='block 16x4|1031 .*--partition 1x1$|1x2 --devices 0,0 --reduce device|2x1 --devices 0,0 --loop host' \
  timeout 200 bash tests/gpu_sanitize.sh build/gpu/laplace-new > $OUT/gpu-sanitize-8.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize-8.log | cut -c1-160
grep -c "^ok.*SWEEP_ORDER" $OUT/gpu-sanitize-8.log
