#!/usr/bin/env bash
# Fourth call (one H100): block 0's deciding warp adds the sums and publishes the total,
# every other block's takes it (laplace-tot), against HEAD (laplace-new), and
# laplace-tot with a lag of 3; medians of 3 interleaved rounds. Then the GPU suite's
# loop-on-chip, spread and course checks, and compute-sanitizer's loop-on-chip checks,
# on laplace-tot.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "f1024 float 1024 20000" "d512 double 512 30000" "d1024 double 1024 20000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 new $(us $B/laplace-new $run)"
    echo "$round $1 tot $(us $B/laplace-tot $run)"
    echo "$round $1 tot-lag3 $(LAPLACE_SPREAD_LAG=3 us $B/laplace-tot $run)"
  done
  echo "$round course new $(course $B/laplace-new)"
  echo "$round course tot $(course $B/laplace-tot)"
  echo "$round course tot-lag3 $(LAPLACE_SPREAD_LAG=3 course $B/laplace-tot)"
done > $OUT/times-4.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-4.txt | sort -s -k1,1 | tee $OUT/medians-4.txt
grep course $OUT/times-4.txt | awk '{print $3, $5, $6}' | sort | uniq -c
faster=$(awk '$1 == "course" && $2 == "new" {n = $3} $1 == "course" && $2 == "tot" {t = $3} END {print (t < 0.95 * n) ? 1 : 0}' $OUT/medians-4.txt)
[ "$faster" = 1 ] || { echo "not faster on the course problem: no suite run"; exit 0; }
GPU_SUITE_MATCH='chip|spread|course-512' GPU_SUITE_JOBS=8 timeout -s KILL 300 bash tests/gpu_suite.sh $B/laplace-tot > $OUT/gpu-suite-2.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-2.log | head; tail -1 $OUT/gpu-suite-2.log
GPU_SANITIZE_MATCH='chip' GPU_SANITIZE_JOBS=12 timeout -s KILL 100 bash tests/gpu_sanitize.sh $B/laplace-tot > $OUT/gpu-sanitize-2.log 2>&1
echo "sanitize rc $?"; grep -v "^ok" $OUT/gpu-sanitize-2.log | tail -5
