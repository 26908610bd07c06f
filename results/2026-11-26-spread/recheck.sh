#!/usr/bin/env bash
# After racecheck's hazards on the decision words (block-scope acquire/release
# loads and stores, which racecheck takes for plain accesses): the words now go
# through atomic operations by lane 0 of each warp. The sanitizers on the spread loop
# and the chip subset, the bits of the spread loop, and its speed, on main + this change.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:|loop batched' timeout 240 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize.log
GPU_SUITE_JOBS=4 GPU_SUITE_MATCH='spread|one a multiprocessor|900|course' timeout 240 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite-spread.log 2>&1
echo "suite status $?"; grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-spread.log
for round in 1 2 3; do
  for n in 512 1024; do
    line=$(timeout 30 $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision float --eps 0 --max-iter 100000 --check-every 1 --csv | tail -1)
    echo "round $round $n^2 float: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us an iteration, loop $(echo $line | cut -d, -f22)"
  done
  $B/laplace-new config/course-512.ini --backend gpu --csv --output $OUT/c.dat > $OUT/c.csv 2>/dev/null
  echo "course round $round: iterations $(tail -1 $OUT/c.csv | cut -d, -f8) compute $(tail -1 $OUT/c.csv | cut -d, -f12) s md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
done
rm -f $OUT/c.dat
