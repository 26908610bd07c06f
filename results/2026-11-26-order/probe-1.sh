#!/usr/bin/env bash
# Probe 1 (one GPU): every other sweep runs its blocks in reverse order (laplace-new),
# against HEAD 9bc95e3 (laplace-old) and against laplace-new with
# LAPLACE_SWEEP_ORDER=forward (the same binary, the order switched off). First the
# bits (field and final norm of old and new equal), then µs an iteration, medians of
# 3 interleaved rounds, --eps 0, the norm every iteration.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
P="--top 1 --left 0.3 --eps 0 --check-every 1"
echo "-- bits: old against new"
for c in "--nx 4096 --ny 4096 --precision float --max-iter 300" \
         "--nx 2049 --ny 3001 --precision double --max-iter 200" \
         "--nx 2048 --ny 2048 --precision float --partition 2x1 --devices 0,0 --max-iter 301" \
         "--nx 2048 --ny 2048 --precision float --method sor --max-iter 101" \
         "--nx 3000 --ny 2000 --precision float --loop host --max-iter 51"; do
  # shellcheck disable=SC2086
  a=$(build/gpu/laplace-old --backend gpu $P $c --csv --output /tmp/old.dat | tail -1 | cut -d, -f8,10,22)
  # shellcheck disable=SC2086
  b=$(build/gpu/laplace-new --backend gpu $P $c --csv --output /tmp/new.dat | tail -1 | cut -d, -f8,10,22)
  if cmp -s /tmp/old.dat /tmp/new.dat && [ "$a" = "$b" ]; then echo "same: $c ($b)"; else echo "DIFFER: $c ($a / $b)"; fi
done
{
echo "binary,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for c in "f2048|--nx 2048 --ny 2048 --precision float|6000" \
           "f4096|--nx 4096 --ny 4096 --precision float|1500" \
           "f8192|--nx 8192 --ny 8192 --precision float|400" \
           "f16384|--nx 16384 --ny 16384 --precision float|150" \
           "d4096|--nx 4096 --ny 4096 --precision double|800" \
           "d8192|--nx 8192 --ny 8192 --precision double|200" \
           "sor-f4096|--nx 4096 --ny 4096 --precision float --method sor|500" \
           "f4096-2x1|--nx 4096 --ny 4096 --precision float --partition 2x1 --devices 0,0|1000"; do
    IFS='|' read -r name opts it <<< "$c"
    for bin in old new forward; do
      exe=build/gpu/laplace-$bin; env=""
      if [ $bin = forward ]; then exe=build/gpu/laplace-new; env="LAPLACE_SWEEP_ORDER=forward"; fi
      # shellcheck disable=SC2086
      line=$(env $env timeout -s KILL 60 $exe --backend gpu $opts $P --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-1.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-1.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    o=st.median(d[(c,'old')]); n=st.median(d[(c,'new')]); f=st.median(d[(c,'forward')])
    print(f"{c} ({loop[c]}): old {o:.2f} new {n:.2f} ({100*(n/o-1):+.1f}%) forward {f:.2f} us/it")
PY
