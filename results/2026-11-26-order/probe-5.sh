#!/usr/bin/env bash
# Probe 5 (one GPU). laplace-new: every other sweep backwards where the two fields
# exceed L2 (the gate after probe 4). laplace-probe: the same, plus a throwaway knob
# (not committed): LAPLACE_PROBE_SUMS=1 makes the host loop's sweeps write their block
# sums into device memory instead of mapped host memory (the host then reads zeros,
# --eps 0 runs to --max-iter). Is the norm's cost at 2048^2 (probe 4: 14.9 us with the
# norm every iteration, 13.0 without) the 8-byte writes across PCIe, or the block sums
# themselves? Then bits of new against HEAD.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
P="--top 1 --left 0.3 --eps 0"
{
echo "variant,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3 4 5; do
  for c in "f2048|--nx 2048 --ny 2048 --precision float|30000" \
           "f2896|--nx 2896 --ny 2896 --precision float|8000" \
           "f4096|--nx 4096 --ny 4096 --precision float|4000" \
           "d2048|--nx 2048 --ny 2048 --precision double|10000"; do
    IFS='|' read -r name opts it <<< "$c"
    for v in mapped device none; do
      env=""; ce=1; exe=build/gpu/laplace-probe
      [ $v = device ] && env="LAPLACE_PROBE_SUMS=1"
      [ $v = none ] && ce=1000
      # shellcheck disable=SC2086
      line=$(env $env timeout -s KILL 60 $exe --backend gpu $opts $P --check-every $ce --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$v,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-5.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-5.csv')):
    d[r['case']].append(r); loop[r['case']]=r['loop']
for c,rows in d.items():
    by=collections.defaultdict(list)
    for r in rows: by[r['variant']].append(float(r['us_per_iteration']))
    print(f"{c} ({loop[c]}): " + "  ".join(f"{v} {st.median(x):.2f} [{min(x):.2f}-{max(x):.2f}]" for v,x in by.items()))
PY
echo "-- bits: HEAD against new"
for c in "--nx 4096 --ny 4096 --precision float --max-iter 300" \
         "--nx 2049 --ny 3001 --precision double --max-iter 200" \
         "--nx 2048 --ny 2048 --precision double --partition 2x1 --devices 0,0 --max-iter 301" \
         "--nx 4096 --ny 2048 --precision float --method sor --max-iter 101" \
         "--nx 6000 --ny 2000 --precision float --loop batched --max-iter 151"; do
  # shellcheck disable=SC2086
  a=$(build/gpu/laplace-old --backend gpu $P --check-every 1 $c --csv --output /tmp/old.dat | tail -1 | cut -d, -f8,10,22)
  # shellcheck disable=SC2086
  b=$(build/gpu/laplace-new --backend gpu $P --check-every 1 $c --csv --output /tmp/new.dat | tail -1 | cut -d, -f8,10,22)
  if cmp -s /tmp/old.dat /tmp/new.dat && [ "$a" = "$b" ]; then echo "same: $c ($b)"; else echo "DIFFER: $c ($a / $b)"; fi
done
