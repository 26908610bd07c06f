#!/usr/bin/env bash
# Second call (one H100): how many rows the spread loop's threads walk at a time
# (walk_column's unrolling), now a plan choice: laplace-unr with LAPLACE_SPREAD_UNROLL
# 2, 3, 4 (the default, as HEAD) and 6, against HEAD (laplace-new), over the lattices the
# spread loop runs, medians of 3 interleaved rounds; the course problem's time, count and
# md5 for each.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f288 float 288 30000" "f384 float 384 30000" "f512 float 512 30000" "f640 float 640 30000" "f768 float 768 30000" "f1024 float 1024 20000" "f1448 float 1448 20000" "d384 double 384 30000" "d512 double 512 30000" "d768 double 768 30000" "d1024 double 1024 20000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 new $(us $B/laplace-new $run)"
    for u in 2 3 4 6; do echo "$round $1 u$u $(LAPLACE_SPREAD_UNROLL=$u us $B/laplace-unr $run)"; done
  done
  for u in 2 3 4 6; do
    LAPLACE_SPREAD_UNROLL=$u timeout -s KILL 20 $B/laplace-unr config/course-512.ini --backend gpu --csv --output /tmp/c-$u.dat > /tmp/c.csv 2>&1
    echo "$round course u$u $(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c-$u.dat | cut -c1-32)"
  done
done > $OUT/times-2.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-2.txt | sort -s -k1,1 | tee $OUT/medians-2.txt
grep course $OUT/times-2.txt | awk '{print $3, $5, $6}' | sort | uniq -c
timeout -s KILL 20 $B/laplace-unr config/course-512.ini --backend gpu | grep -E "^  loop"
