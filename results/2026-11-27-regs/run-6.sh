#!/usr/bin/env bash
# Sixth call (one H100): the columns in registers, three changes on top of run-5's
# laplace-col: colB (the ring's copy counted, not k % F; the rows outside a step's
# range not shuffled), colC (colB, thread 0 sleeping 32 ns between polls for the
# decision), colD (colB, thread 0 taking its halos before it waits); against HEAD
# (laplace-new); medians of 3 interleaved rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in new col colB colC colD; do echo "$round $1 $bin $(us $B/laplace-$bin $run)"; done
  done
  for bin in new col colB colC colD; do echo "$round course $bin $(course $B/laplace-$bin)"; done
done > $OUT/times-6.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-6.txt | sort -s -k1,1 | tee $OUT/medians-6.txt
grep course $OUT/times-6.txt | awk '{print $3, $5, $6}' | sort | uniq -c
