#!/usr/bin/env bash
# Sixth call: where to let the next sweep launch. run-5 and probe-2 found the
# overlapping sweeps (trigger at each block's start, laplace-overlap) bimodal at 2048^2:
# some runs 10-20% slower than HEAD. Against HEAD: no trigger (laplace-notrigger: the
# next sweep launches as this one ends) and a trigger after each block's work
# (laplace-endtrigger). us an iteration, 5 interleaved rounds, every value shown.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3 4 5; do
  for case in "f2048 --precision float --nx 2048 --ny 2048 --max-iter 8000" "d2048 --precision double --nx 2048 --ny 2048 --max-iter 4000" "global-d2048 --precision double --nx 2048 --ny 2048 --kernel global --max-iter 3000" "f4096 --precision float --nx 4096 --ny 4096 --max-iter 2000" "tiles-f2048 --precision float --nx 2048 --ny 2048 --devices 0,0 --partition 2x1 --max-iter 4000"; do
    set -- $case; name=$1; shift
    run="--backend gpu --top 1 --left 0.3 $*"
    for b in head overlap notrigger endtrigger; do echo "$round $name $b $(us $B/laplace-$b $run)"; done
  done
done > $OUT/times-6.txt
python3 - $OUT/times-6.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:14s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
