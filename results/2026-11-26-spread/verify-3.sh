#!/usr/bin/env bash
# The last call: the tagged words in their own header (laplace_tagged.cuh, one loader
# for the edge rows and the sums, no spill: 77 registers), the report's "meeting
# through L2". The loop-on-chip checks of the suite, the sanitizers on the loops on
# chip, and the speed.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=4 GPU_SUITE_MATCH='spread|one a multiprocessor|900|250|chip|batched on the GPUs' timeout 300 \
  bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite-chip.log 2>&1
echo "suite status $?"; grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-chip.log
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:' timeout 200 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize.log
for round in 1 2 3; do
  for n in 512 1024; do
    line=$(timeout 30 $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision float --eps 0 --max-iter 100000 --check-every 1 --csv | tail -1)
    echo "round $round $n^2 float: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us an iteration, loop $(echo $line | cut -d, -f22)"
  done
  $B/laplace-new config/course-512.ini --backend gpu --csv --output $OUT/c.dat > $OUT/c.csv 2>/dev/null
  echo "course round $round: iterations $(tail -1 $OUT/c.csv | cut -d, -f8) compute $(tail -1 $OUT/c.csv | cut -d, -f12) s md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
done
rm -f $OUT/c.dat
$B/laplace-new --backend gpu --nx 800 --ny 800 --precision float --eps 1e-6 | grep "loop"
