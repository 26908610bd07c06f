#!/usr/bin/env bash
# Sixteenth call: the spread loop at 512^2 float (the course lattice) with fewer, taller
# strips (LAPLACE_SPREAD_BLOCKS) and deeper halos (LAPLACE_SPREAD_DEPTH), HEAD's binary;
# us an iteration (eps 0, the norm every iteration) and the course problem's seconds,
# medians of 3 interleaved rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for knobs in "X=0" "LAPLACE_SPREAD_BLOCKS=128" "LAPLACE_SPREAD_BLOCKS=103" "LAPLACE_SPREAD_BLOCKS=86" "LAPLACE_SPREAD_BLOCKS=66" "LAPLACE_SPREAD_DEPTH=3" "LAPLACE_SPREAD_DEPTH=4" "LAPLACE_SPREAD_BLOCKS=86 LAPLACE_SPREAD_DEPTH=3" "LAPLACE_SPREAD_BLOCKS=66 LAPLACE_SPREAD_DEPTH=4"; do
    name=$(echo "$knobs" | sed 's/LAPLACE_SPREAD_//g; s/ /,/g')
    echo "$round us-$name x $(env $knobs LAPLACE_CHIP_WAY=spread bash -c "$(declare -f us); us $B/laplace-final --backend gpu --precision float --nx 512 --ny 512 --top 1 --left 0.3 --max-iter 50000")"
    env $knobs timeout -s KILL 20 $B/laplace-final config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round course-$name x $(tail -1 /tmp/t.csv | cut -d, -f8,12 | tr ',' ' ')"
  done
done > $OUT/times-16.txt
python3 - $OUT/times-16.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list); it = {}
for line in open(sys.argv[1]):
    f = line.split()
    try:
        if f[1].startswith("course"):
            it[f[1]] = f[3]; d[f[1]].append(float(f[4]))
        else:
            d[f[1]].append(float(f[3]))
    except (ValueError, IndexError): print("bad", line.strip())
for k, vs in d.items():
    print(f"{k:40s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)} {it.get(k, '')}")
PY
