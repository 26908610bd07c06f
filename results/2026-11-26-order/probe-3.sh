#!/usr/bin/env bash
# Probe 3 (one GPU): laplace-lf and laplace-sl = laplace-new (every other sweep backwards) whose
# rows kernel loads the old field with an L2 evict_first policy (lf) or stores the new
# one with an L2 evict_last policy (sl), so that L2 keeps the rows just written.
# Against HEAD 9bc95e3 (laplace-old) and laplace-new; µs an iteration, medians of 3
# interleaved rounds, --eps 0, the norm every iteration. Bits of stream against old.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
P="--top 1 --left 0.3 --eps 0 --check-every 1"
for c in "--nx 4096 --ny 4096 --precision float --max-iter 300" \
         "--nx 2049 --ny 3001 --precision double --max-iter 200"; do
  # shellcheck disable=SC2086
  a=$(build/gpu/laplace-old --backend gpu $P $c --csv --output /tmp/old.dat | tail -1 | cut -d, -f8,10,22)
  # shellcheck disable=SC2086
  b=$(build/gpu/laplace-lf --backend gpu $P $c --csv --output /tmp/new.dat | tail -1 | cut -d, -f8,10,22)
  if cmp -s /tmp/old.dat /tmp/new.dat && [ "$a" = "$b" ]; then echo "same: $c ($b)"; else echo "DIFFER: $c ($a / $b)"; fi
done
{
echo "binary,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for c in "f2048|--nx 2048 --ny 2048 --precision float|6000" \
           "f2896|--nx 2896 --ny 2896 --precision float|3000" \
           "f4096|--nx 4096 --ny 4096 --precision float|1500" \
           "f5792|--nx 5792 --ny 5792 --precision float|800" \
           "f8192|--nx 8192 --ny 8192 --precision float|400" \
           "f16384|--nx 16384 --ny 16384 --precision float|150" \
           "d2048|--nx 2048 --ny 2048 --precision double|3000" \
           "d4096|--nx 4096 --ny 4096 --precision double|800"; do
    IFS='|' read -r name opts it <<< "$c"
    for bin in old new lf sl; do
      # shellcheck disable=SC2086
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu $opts $P --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-3.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-3.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    o=st.median(d[(c,'old')])
    print(f"{c} ({loop[c]}): old {o:.2f} " + " ".join(f"{b} {st.median(d[(c,b)]):.2f} ({100*(st.median(d[(c,b)])/o-1):+.1f}%)" for b in ('new','lf','sl')) + " us/it")
PY
