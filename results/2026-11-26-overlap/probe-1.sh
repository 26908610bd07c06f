#!/usr/bin/env bash
# First call of the sixth session: (1) the course problem's iterations and field on
# the new binary; (2) us an iteration, HEAD (2d791e9, laplace-head) against the norm's
# squares widened to double on the integer units (laplace-widen), auto, medians of 3
# interleaved rounds, and the course problem's seconds; (3) the spread loop's blocks
# (LAPLACE_SPREAD_BLOCKS) on the widened binary, float 400^2 ... 1448^2 and double 512^2.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
for b in head widen; do
  timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
  echo "$b $(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
done
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 128 20000" "float 256 20000" "float 512 20000" "float 1024 10000" "float 1448 10000" "float 2048 8000" "float 2896 4000" "float 4096 2000" "double 1024 10000" "double 2048 4000"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $2 --top 1 --left 0.3 --max-iter $3"
    for b in head widen; do echo "$round $1-$2 $b $(us $B/laplace-$b $run)"; done
  done
  for b in head widen; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round course-s $b $(tail -1 /tmp/t.csv | cut -d, -f12)"
  done
  timeout -s KILL 20 env LAPLACE_SPREAD_BLOCKS=104 $B/laplace-widen config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
  echo "$round course-s widen-b104 $(tail -1 /tmp/t.csv | cut -d, -f12)"
  for case in "float 400" "float 512" "float 724" "float 1024" "float 1448" "double 512"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $2 --top 1 --left 0.3 --max-iter 10000"
    for blocks in 132 120 112 104 96 88; do
      echo "$round $1-$2 b$blocks $(LAPLACE_SPREAD_BLOCKS=$blocks us $B/laplace-widen $run)"
    done
  done
done > $OUT/times-1.txt
python3 - $OUT/times-1.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== the report's loop line at 1024^2 and 1448^2 (spread?)"
for n in 1024 1448 2048; do $B/laplace-widen --backend gpu --nx $n --ny $n --max-iter 10 --eps 0 2>&1 | grep -E "^  (loop|kernel)" | tr -s ' '; done
