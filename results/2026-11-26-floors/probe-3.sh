#!/usr/bin/env bash
# Third call: the deciding warps poll the blocks' sums with a pause between tries
# (LAPLACE_SPREAD_NAP ns, a probe knob) and the sweepers the halos
# (LAPLACE_SPREAD_HALO_NAP); us an iteration, float, eps 0, the norm every iteration,
# medians of 3 interleaved rounds; laplace-new is HEAD, laplace-nap HEAD + the knobs.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for n in 128 256 512 1024; do
    args="--backend gpu --precision float --nx $n --ny $n --top 1 --left 0.3 --max-iter 50000"
    echo "$round $n head $(us $B/laplace-new $args)"
    for nap in 0 50 100 200 500 1000; do
      echo "$round $n nap$nap $(LAPLACE_SPREAD_NAP=$nap LAPLACE_CHIP_WAY=spread us $B/laplace-nap $args)"
    done
    for hn in 20 60; do
      echo "$round $n nap200-halo$hn $(LAPLACE_SPREAD_NAP=200 LAPLACE_SPREAD_HALO_NAP=$hn LAPLACE_CHIP_WAY=spread us $B/laplace-nap $args)"
    done
  done
done > $OUT/times.txt
python3 - $OUT/times.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(int(n), what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in sorted(d.items()):
    print(f"{n:5d} {what:18s} {statistics.median(vs):7.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
