#!/usr/bin/env bash
# Call 11 (one GPU). laplace-new: a backwards rows sweep now starts from the window's
# last place and steps by -1 (x0 + step i), where call 10's binary chose between i and
# gridDim - 1 - i: that select made the 32-register rows kernel spill more (float pairs
# at 4 rows 12 -> 32 bytes, ptxas) and cost 2% at float 16384^2 and double 8192^2 with
# the order off. Now the spills equal 9bc95e3's. Old (9bc95e3) against new as committed
# (alternating up to 8 L2s), new forced to alternate (alt) and forced forward (fwd),
# medians of 3 interleaved rounds; then the sanitizers on the forced alternate order.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
P="--top 1 --left 0.3 --eps 0 --check-every 1"
echo "-- bits: old against new forced to alternate"
for c in "--nx 16384 --ny 16384 --precision float --max-iter 21" "--nx 4096 --ny 4096 --precision double --max-iter 101"; do
  # shellcheck disable=SC2086
  a=$(build/gpu/laplace-old --backend gpu $P $c --csv --output /tmp/old.dat | tail -1 | cut -d, -f8,10,22)
  # shellcheck disable=SC2086
  b=$(LAPLACE_SWEEP_ORDER=alternate build/gpu/laplace-new --backend gpu $P $c --csv --output /tmp/new.dat | tail -1 | cut -d, -f8,10,22)
  if cmp -s /tmp/old.dat /tmp/new.dat && [ "$a" = "$b" ]; then echo "same: $c ($b)"; else echo "DIFFER: $c ($a / $b)"; fi
done
rm -f /tmp/old.dat /tmp/new.dat
{
echo "binary,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for c in "f2048|--nx 2048 --ny 2048 --precision float|20000" \
           "f2896|--nx 2896 --ny 2896 --precision float|6000" \
           "f4096|--nx 4096 --ny 4096 --precision float|3000" \
           "f8192|--nx 8192 --ny 8192 --precision float|400" \
           "f16384|--nx 16384 --ny 16384 --precision float|150" \
           "d2048|--nx 2048 --ny 2048 --precision double|6000" \
           "d4096|--nx 4096 --ny 4096 --precision double|1500" \
           "d8192|--nx 8192 --ny 8192 --precision double|300"; do
    IFS='|' read -r name opts it <<< "$c"
    for bin in old new alt fwd; do
      exe=build/gpu/laplace-new; env=""
      case $bin in old) exe=build/gpu/laplace-old;; alt) env="LAPLACE_SWEEP_ORDER=alternate";; fwd) env="LAPLACE_SWEEP_ORDER=forward";; esac
      # shellcheck disable=SC2086
      line=$(env $env timeout -s KILL 60 $exe --backend gpu $opts $P --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-11.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-11.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    o=st.median(d[(c,'old')])
    print(f"{c} ({loop[c]}): old {o:.2f} " + "  ".join(f"{b} {st.median(d[(c,b)]):.2f} ({100*(st.median(d[(c,b)])/o-1):+.1f}%)" for b in ('new','alt','fwd')))
PY
GPU_SANITIZE_MATCH='block 16x4|1031 .*--partition 1x1$|1x2 --devices 0,0 --reduce device|2x1 --devices 0,0 --loop host' \
  timeout 150 bash tests/gpu_sanitize.sh build/gpu/laplace-new > $OUT/gpu-sanitize-11.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize-11.log | cut -c1-160
