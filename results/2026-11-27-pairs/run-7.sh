#!/usr/bin/env bash
# Seventh call (one GPU): the same code with the passes' choice and queueing moved into
# devices/device_cuda_pairs.c (and a check that their grid fits): the suite's checks
# of the passes, the sanitizer's, and 4096^2 against HEAD f0416d2 (medians of 3).
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
start=$(date +%s)
GPU_SUITE_JOBS=10 GPU_SUITE_MATCH='pairs|two iterations|on 2049x1537' \
  timeout -s KILL 170 bash tests/gpu_suite.sh $B/laplace-pairs > $OUT/gpu-suite-7.log 2>&1
echo "suite rc $? in $(( $(date +%s) - start )) s"; grep -E "^FAILED" $OUT/gpu-suite-7.log | head; tail -1 $OUT/gpu-suite-7.log
GPU_SANITIZE_JOBS=12 GPU_SANITIZE_OUT=$OUT/sanitize GPU_SANITIZE_MATCH='--nx 131 |--nx 67 --ny 35 |faulted.*--loop batched|--max-iter 12 --partition 1x1$' \
  timeout -s KILL 60 bash tests/gpu_sanitize.sh $B/laplace-pairs > $OUT/gpu-sanitize-7.log 2>&1
echo "sanitize rc $?"; grep -E "^FAILED" $OUT/gpu-sanitize-7.log | head; tail -1 $OUT/gpu-sanitize-7.log
rm -rf $OUT/sanitize
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for v in final pairs; do echo "$round f4096 $v $(us $B/laplace-$v --backend gpu --top 1 --left 0.3 --nx 4096 --ny 4096 --max-iter 2000)"; done
done > $OUT/times-7.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-7.txt | tee $OUT/medians-7.txt
