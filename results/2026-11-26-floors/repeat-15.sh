#!/usr/bin/env bash
# Fifteenth call, on another machine (asked of the nvidia-h200 kind): the session's start
# (laplace-new, 3e39ae2) against HEAD (laplace-final, 86db44f): the course problem, us an
# iteration where the cluster now runs (medians of 3 interleaved rounds), the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 64 64" "float 128 128" "float 256 256" "double 128 128"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter 50000"
    for b in new final; do echo "$round $1-$2x$3 $b $(us $B/laplace-$b $run)"; done
  done
  for b in new final; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round course-s $b $(tail -1 /tmp/t.csv | cut -d, -f12)"
  done
done > $OUT/times-15.txt
python3 - $OUT/times-15.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:10s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 120 $B/laplace-final --bench > $OUT/bench-sweep-15.txt 2>&1
grep -E "copy|^[0-9]+\^2" $OUT/bench-sweep-15.txt | head -12
