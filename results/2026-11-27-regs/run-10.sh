#!/usr/bin/env bash
# Tenth call (one H100): stop_rule_wants_norm tells check_every 1 first, so that the
# deciding warps skip two 64-bit remainders an iteration (laplace-wm), against HEAD
# (laplace-new); each also with the spread loop's lag of 3; medians of 3 interleaved
# rounds; the cluster's 128^2 and 256^2 too.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f128 float 128 100000" "f256 float 256 50000" "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "f1024 float 1024 20000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in new wm; do
      echo "$round $1 $bin $(us $B/laplace-$bin $run)"
      echo "$round $1 $bin-lag3 $(LAPLACE_SPREAD_LAG=3 us $B/laplace-$bin $run)"
    done
  done
  for bin in new wm; do
    echo "$round course $bin $(course $B/laplace-$bin)"
    echo "$round course $bin-lag3 $(LAPLACE_SPREAD_LAG=3 course $B/laplace-$bin)"
  done
done > $OUT/times-10.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-10.txt | sort -s -k1,1 | tee $OUT/medians-10.txt
grep course $OUT/times-10.txt | awk '{print $3, $5, $6}' | sort | uniq -c
