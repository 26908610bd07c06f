#!/usr/bin/env bash
# Second call: the same profiles as probe-1, the per-instruction samples summarised on
# the machine (stalls.py), since the raw source pages are too many files to bring back.
set -u
B=build/gpu; D=results/2026-11-26-floors
for n in 512 128; do
  kernel=$([ $n = 512 ] && echo spread_loop || echo chip_loop)
  timeout -s KILL 200 ncu --clock-control none -k regex:$kernel --launch-count 1 \
    --section SourceCounters --section WarpStateStats -o /tmp/prof$n -f $B/laplace-li --backend gpu \
    --precision float --nx $n --ny $n --top 1 --left 0.3 --eps 0 --check-every 1 --max-iter 20000 --loop chip > /tmp/ncu$n.txt 2>&1
  echo "ncu $n rc $?"
  timeout -s KILL 60 ncu -i /tmp/prof$n.ncu-rep --page source --csv --print-source sass > /tmp/sass$n.csv 2>&1
  python3 $D/stalls.py /tmp/sass$n.csv 90 > $OUT/stalls$n.txt 2>&1; echo "stalls $n rc $?"
  gzip -c /tmp/sass$n.csv > $OUT/sass$n.csv.gz
done
head -40 $OUT/stalls512.txt
