#!/usr/bin/env bash
# The loop on chip with 512 threads a block and strips of at least 16 rows (fewer
# blocks for lattices under 256 rows): the GPU suite, the chip sanitizer subset, and
# old (fd13cff: 1024 threads, 8 rows) against new, µs an iteration at 100000
# iterations with the norm every iteration, and the course problem, 3 rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=3 timeout 300 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite.log 2>&1
echo "suite status $?: $(tail -1 $OUT/gpu-suite.log)"
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:' timeout 150 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize.log 2>&1
echo "sanitize status $?: $(tail -1 $OUT/gpu-sanitize.log)"
{
echo "binary,n,precision,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 16:float 32:float 64:float 128:float 256:float 384:float 512:float 640:float 128:double 256:double 384:double; do
    n=${spec%%:*}; prec=${spec#*:}
    for bin in old new; do
      line=$($B/laplace-$bin --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --loop chip --eps 0 --max-iter 100000 --check-every 1 --csv 2>/dev/null | tail -1)
      it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$n,$prec,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/steady.csv 2>&1
{
echo "course problem (config/course-512.ini, auto), stored serial: iterations 423553 md5 7b365cae394aa52809a7d138fc24438a"
for round in 1 2 3; do
  for bin in old new; do
    $B/laplace-$bin config/course-512.ini --backend gpu --csv --output $OUT/c.dat > $OUT/c.csv 2>/dev/null
    echo "$bin round $round: iterations $(tail -1 $OUT/c.csv | cut -d, -f8) compute $(tail -1 $OUT/c.csv | cut -d, -f12) s loop $(tail -1 $OUT/c.csv | cut -d, -f22) md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
  done
done
} > $OUT/course.txt 2>&1
cat $OUT/course.txt
rm -f $OUT/c.dat
