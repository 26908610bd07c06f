#!/usr/bin/env bash
# Fourteenth call: the whole GPU suite on the final tree (rounds of 8, the report
# saying how often the blocks meet), and the report's loop line at three lattices.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for args in "--nx 128 --ny 128 --precision float" "--nx 256 --ny 256 --precision double" "--nx 512 --ny 512 --precision float" "--nx 128 --ny 128 --method sor"; do
  echo "$args: $(timeout -s KILL 20 $B/laplace-final --backend gpu $args --max-iter 1000 2>&1 | grep -E '^  loop ')"
done
GPU_SUITE_JOBS=6 timeout -s KILL 560 bash tests/gpu_suite.sh $B/laplace-final > $OUT/gpu-suite-14.log 2>&1
echo "suite rc $?"
grep -E "^FAILED" $OUT/gpu-suite-14.log | head -20; tail -1 $OUT/gpu-suite-14.log
