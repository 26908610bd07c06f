#!/usr/bin/env bash
# Probe 4 (one GPU), laplace-new = every other sweep backwards (the cache hints of
# probes 2 and 3 dropped). (1) Does the order cost anything where both fields fit in L2
# (float 2048^2, 1448^2; 1024^2 on 2x1 tiles)? Long runs, 5 interleaved rounds, new
# against new with LAPLACE_SWEEP_ORDER=forward. (2) What the norm costs at 2048^2
# (--check-every 1000: no block sums). (3) The rows shapes again with the order on, at
# 4096^2 and 2896^2 float: auto, blocks 64x4 and 32x8, 8 rows a thread.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
P="--top 1 --left 0.3 --eps 0"
{
echo "variant,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3 4 5; do
  for c in "f2048|--nx 2048 --ny 2048 --precision float --check-every 1|30000" \
           "f2048-check1000|--nx 2048 --ny 2048 --precision float --check-every 1000|30000" \
           "f1448|--nx 1448 --ny 1448 --precision float --check-every 1|50000" \
           "f1024-2x1|--nx 1024 --ny 1024 --precision float --partition 2x1 --devices 0,0 --check-every 1|30000" \
           "f2896|--nx 2896 --ny 2896 --precision float --check-every 1|6000" \
           "f4096|--nx 4096 --ny 4096 --precision float --check-every 1|3000"; do
    IFS='|' read -r name opts it <<< "$c"
    for v in backwards forward; do
      env=""; [ $v = forward ] && env="LAPLACE_SWEEP_ORDER=forward"
      # shellcheck disable=SC2086
      line=$(env $env timeout -s KILL 60 build/gpu/laplace-new --backend gpu $opts $P --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$v,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
for round in 1 2 3; do
  for c in "f4096|--nx 4096 --ny 4096 --precision float|3000" \
           "f2896|--nx 2896 --ny 2896 --precision float|6000" \
           "f5792|--nx 5792 --ny 5792 --precision float|1500"; do
    IFS='|' read -r name opts it <<< "$c"
    for v in auto block64x4 block32x8 rows8 block64x4-rows8; do
      env=""; extra=""
      case $v in block64x4) extra="--block 64x4";; block32x8) extra="--block 32x8";;
        rows8) env="LAPLACE_ROWS_PER_THREAD=8";; block64x4-rows8) extra="--block 64x4"; env="LAPLACE_ROWS_PER_THREAD=8";; esac
      # shellcheck disable=SC2086
      line=$(env $env timeout -s KILL 60 build/gpu/laplace-new --backend gpu $opts $extra $P --check-every 1 --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$v,$name-shape,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-4.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-4.csv')):
    d[r['case']].append(r); loop[r['case']]=r['loop']
for c,rows in d.items():
    by=collections.defaultdict(list)
    for r in rows: by[r['variant']].append(float(r['us_per_iteration']))
    print(f"{c} ({loop[c]}): " + "  ".join(f"{v} {st.median(x):.2f} [{min(x):.2f}-{max(x):.2f}]" for v,x in by.items()))
PY
