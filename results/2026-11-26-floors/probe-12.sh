#!/usr/bin/env bash
# Twelfth call: the cluster's rounds deeper than 4 (a throwaway build allowing up to 8,
# laplace-deep; the static sums then take 64 KiB of shared memory), depths 4-8 by
# LAPLACE_CHIP_DEPTH; us an iteration, eps 0, the norm every iteration, medians of 3.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 64 64" "float 128 128" "float 256 256" "double 128 128"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter 50000"
    echo "$round $1-$2x$3 final $(us $B/laplace-final $run)"
    for d in 4 5 6 8; do
      echo "$round $1-$2x$3 d$d $(LAPLACE_CHIP_DEPTH=$d LAPLACE_CHIP_WAY=cluster us $B/laplace-deep $run --loop chip)"
    done
  done
done > $OUT/times.txt
python3 - $OUT/times.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:10s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
