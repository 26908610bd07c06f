#!/usr/bin/env bash
# Call 13 (one GPU): memcheck, racecheck and synccheck on the final tree (4d2b4ab:
# backwards rows sweeps reverse only their rows of blocks), the alternate order forced
# on lattices that fit in L2, and the same checks in the default order beside them.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_MATCH='block 16x4|1031 .*--partition 1x1$|1x2 --devices 0,0 --reduce device|2x1 --devices 0,0 --loop host' \
  timeout 200 bash tests/gpu_sanitize.sh build/gpu/laplace-new > $OUT/gpu-sanitize-13.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize-13.log | cut -c1-160
grep -c "^ok.*SWEEP_ORDER=alternate" $OUT/gpu-sanitize-13.log
