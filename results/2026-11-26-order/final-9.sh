#!/usr/bin/env bash
# Call 9 (one GPU). laplace-new = 65cf2e1 (only the rows kernel alternates its order of
# blocks), laplace-old = 9bc95e3 (the session's start). (1) Old against new, us an
# iteration, medians of 3 interleaved rounds, --eps 0, the norm every iteration.
# (2) The bench sweep of new. (3) Where the norm's 2 us at 2048^2 go, with two
# throwaway builds of new (not committed): laplace-probe (LAPLACE_PROBE_SUMS=1: the
# block sums into device memory, not mapped host memory) and laplace-nosq (square_of
# returns 0: no squares, conversions or double adds; the block sums still written);
# "none" is new with --check-every 1000 (no block sums at all). (4) ncu: the sweep
# kernel's duration at 2048^2, mapped against device sums.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
P="--top 1 --left 0.3 --eps 0"
{
echo "binary,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for c in "f1024|--nx 1024 --ny 1024 --precision float|30000" \
           "f2048|--nx 2048 --ny 2048 --precision float|20000" \
           "f2896|--nx 2896 --ny 2896 --precision float|6000" \
           "f4096|--nx 4096 --ny 4096 --precision float|3000" \
           "f5792|--nx 5792 --ny 5792 --precision float|1000" \
           "f8192|--nx 8192 --ny 8192 --precision float|400" \
           "f16384|--nx 16384 --ny 16384 --precision float|150" \
           "d2048|--nx 2048 --ny 2048 --precision double|6000" \
           "d4096|--nx 4096 --ny 4096 --precision double|1500" \
           "d8192|--nx 8192 --ny 8192 --precision double|300" \
           "f4096-2x1|--nx 4096 --ny 4096 --precision float --partition 2x1 --devices 0,0|1500" \
           "sor-f4096|--nx 4096 --ny 4096 --precision float --method sor|300"; do
    IFS='|' read -r name opts it <<< "$c"
    for bin in old new; do
      # shellcheck disable=SC2086
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu $opts $P --check-every 1 --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-9.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-9.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    o=st.median(d[(c,'old')]); n=st.median(d[(c,'new')])
    print(f"{c} ({loop[c]}): old {o:.2f} new {n:.2f} us/it ({100*(n/o-1):+.1f}%)  old {sorted(d[(c,'old')])} new {sorted(d[(c,'new')])}")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 build/gpu/laplace-new --bench > $OUT/bench-sweep-9.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep-9.txt
echo "== the norm's cost"
{
echo "variant,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3 4 5; do
  for c in "f2048|--nx 2048 --ny 2048 --precision float|30000" "f4096|--nx 4096 --ny 4096 --precision float|4000"; do
    IFS='|' read -r name opts it <<< "$c"
    for v in mapped device nosq none; do
      exe=build/gpu/laplace-new; env=""; ce=1
      case $v in device) exe=build/gpu/laplace-probe; env="LAPLACE_PROBE_SUMS=1";; nosq) exe=build/gpu/laplace-nosq;; none) ce=1000;; esac
      # shellcheck disable=SC2086
      line=$(env $env timeout -s KILL 60 $exe --backend gpu $opts $P --check-every $ce --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$v,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/norm-9.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/norm-9.csv')):
    d[r['case']].append(r); loop[r['case']]=r['loop']
for c,rows in d.items():
    by=collections.defaultdict(list)
    for r in rows: by[r['variant']].append(float(r['us_per_iteration']))
    print(f"{c} ({loop[c]}): " + "  ".join(f"{v} {st.median(x):.2f} [{min(x):.2f}-{max(x):.2f}]" for v,x in by.items()))
PY
echo "== ncu: sweep_rows durations at 2048^2 float, 300 sweeps after 100"
for v in mapped device nosq; do
  exe=build/gpu/laplace-new; env=""
  case $v in device) exe=build/gpu/laplace-probe; env="LAPLACE_PROBE_SUMS=1";; nosq) exe=build/gpu/laplace-nosq;; esac
  # shellcheck disable=SC2086
  env $env timeout 120 ncu --clock-control none --cache-control none -k regex:sweep_rows -s 100 -c 300 --csv --metrics gpu__time_duration.sum \
    $exe --backend gpu --nx 2048 --ny 2048 --precision float $P --check-every 1 --max-iter 500 -q > $OUT/ncu-$v-9.csv 2>/dev/null
  python3 - "$OUT/ncu-$v-9.csv" "$v" <<'PY'
import csv,sys,statistics as st
rows=[r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))]
v=[float(r['Metric Value'].replace(',','')) for r in rows if r.get('Metric Name')=='gpu__time_duration.sum']
print(f"{sys.argv[2]}: {len(v)} kernels, median {st.median(v)/1000:.2f} us, min {min(v)/1000:.2f}" if v else f"{sys.argv[2]}: no data")
PY
done
