#!/usr/bin/env bash
# Final call 5 (one H100), the committed tree plus the suite's wide-block checks: the
# rows kernel's new blocks (32x4, 64x4, 128x4) against serial at every size class and
# under compute-sanitizer (memcheck with leak check, racecheck), 3 iterations each.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=2 GPU_SUITE_MATCH='wide-blocks|many-block-sums' timeout 300 \
  bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-wide-5.log 2>&1; echo "suite status $?"
grep -E "^ok|^FAILED|gpu suite:" $OUT/gpu-suite-wide-5.log | tail -12
for spec in "1000 900 --loop batched" "3000 3000" "4200 4200" "8200 8200" "8201 8195" "4200 4200 --partition 2x1 --devices 0,0"; do
  set -- $spec; n=$1; m=$2; shift 2
  tools=("memcheck --leak-check full")
  [ "$n" -le 4200 ] && tools+=(racecheck)
  for tool in "${tools[@]}"; do
    echo "-- $tool: $n x $m float $*"
    timeout 150 compute-sanitizer --tool $tool build/gpu/laplace-new --backend gpu --nx $n --ny $m --precision float --top 1 --left 0.3 --eps 0 --max-iter 3 -q "$@" 2>&1 | tail -2
  done
done
