#!/usr/bin/env bash
# Fifth call (one H100): the spread loop with each sweeping thread's column in
# registers (laplace-col, kernels/laplace_spread_columns.cuh) against HEAD 210f543
# (laplace-new): first the course problem's iterations and md5, then medians of 3
# interleaved rounds (col-fields: the same binary with LAPLACE_SPREAD_COLUMNS=0, the
# fields in shared memory after their move to laplace_spread_fields.cuh), then the GPU
# suite's loop-on-chip, spread and course checks and compute-sanitizer's loop-on-chip
# checks on laplace-col.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
timeout -s KILL 30 $B/laplace-col config/course-512.ini --backend gpu --output /tmp/first.dat | grep -E "iterations|loop"
echo "first course md5 $(md5sum < /tmp/first.dat | cut -c1-32)"
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f288 float 288 30000" "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "d384 double 384 30000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 new $(us $B/laplace-new $run)"
    echo "$round $1 col $(us $B/laplace-col $run)"
    echo "$round $1 col-fields $(LAPLACE_SPREAD_COLUMNS=0 us $B/laplace-col $run)"
  done
  echo "$round course new $(course $B/laplace-new)"
  echo "$round course col $(course $B/laplace-col)"
  echo "$round course col-fields $(LAPLACE_SPREAD_COLUMNS=0 course $B/laplace-col)"
done > $OUT/times-5.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-5.txt | sort -s -k1,1 | tee $OUT/medians-5.txt
grep course $OUT/times-5.txt | awk '{print $3, $5, $6}' | sort | uniq -c
GPU_SUITE_MATCH='chip|spread|course-512' GPU_SUITE_JOBS=8 timeout -s KILL 330 bash tests/gpu_suite.sh $B/laplace-col > $OUT/gpu-suite-5.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-5.log | head; tail -1 $OUT/gpu-suite-5.log
GPU_SANITIZE_MATCH='chip' GPU_SANITIZE_JOBS=12 timeout -s KILL 100 bash tests/gpu_sanitize.sh $B/laplace-col > $OUT/gpu-sanitize-5.log 2>&1
echo "sanitize rc $?"; grep -v "^ok" $OUT/gpu-sanitize-5.log | tail -5
