#!/usr/bin/env bash
# Second call: (1) the floor of a chain of dependent kernels in a graph, with and
# without programmatic dependent launch (overlap_floor.cu); (2) the rows sweep launched
# to overlap the sweep before it (laplace-overlap) against HEAD (laplace-head) and
# against itself with LAPLACE_OVERLAP=0: us an iteration, auto, medians of 3
# interleaved rounds; (3) equal fields: md5 of the field after 700 iterations, one tile
# and 2x1 / 3x2 tiles of GPU 0, both binaries.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== floor: us a kernel in a graph of 200 dependent kernels"
timeout -s KILL 60 $B/overlap_floor
echo "== equal fields"
for run in "--nx 2048 --ny 2048" "--nx 2048 --ny 2048 --precision double" "--nx 1999 --ny 2001" "--nx 2048 --ny 2048 --devices 0,0 --partition 2x1" "--nx 1500 --ny 1300 --devices 0,0,0,0,0,0 --partition 3x2" "--nx 2048 --ny 2048 --check-every 7"; do
  for b in head overlap; do
    timeout -s KILL 30 $B/laplace-$b --backend gpu $run --top 1 --left 0.3 --max-iter 700 --eps 0 --output /tmp/f.dat > /tmp/o.txt 2>&1
    echo "$b [$run] rc $? $(grep -E '^  (loop|iterations|final norm|norm) ' /tmp/o.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/f.dat)"
  done
done
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 1448 10000" "float 2048 8000" "float 2896 4000" "float 4096 2000" "float 8192 500" "double 2048 4000" "double 4096 1000"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $2 --top 1 --left 0.3 --max-iter $3"
    for b in head overlap; do echo "$round $1-$2 $b $(us $B/laplace-$b $run)"; done
    echo "$round $1-$2 overlap-off $(LAPLACE_OVERLAP=0 us $B/laplace-overlap $run)"
  done
  run="--backend gpu --nx 2048 --ny 2048 --top 1 --left 0.3 --max-iter 4000 --devices 0,0 --partition 2x1"
  for b in head overlap; do echo "$round 2x1-2048 $b $(us $B/laplace-$b $run)"; done
done > $OUT/times-2.txt
python3 - $OUT/times-2.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
