#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-26-order/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-26-order/reproduce.sh             every step, in order
#   bash results/2026-11-26-order/reproduce.sh STEP ...    some of them: final_7 final_9 final_10 final_11 final_12 sanitize_13 suite_6 suite_8
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- final-7.sh, as it was (its text unchanged) ----
final_7() {
#!/usr/bin/env bash
# Call 7 (one GPU), laplace-new = the tree to be committed (every other sweep backwards
# where a tile's two fields exceed L2), laplace-old = HEAD 9bc95e3. (1) The suite's sweep
# order checks, the SOR one fixed (call 6 gave it Jacobi's serial reference); (2)
# racecheck and synccheck on the forced alternate order (call 6's sanitizer ran out of
# time after memcheck); (3) old against new, µs an iteration, medians of 3 interleaved
# rounds, --eps 0, the norm every iteration; (4) the bench sweep.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='order' GPU_SUITE_JOBS=4 timeout 120 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-order-7.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-order-7.log | tail -4
GPU_SANITIZE_TOOLS="racecheck synccheck" GPU_SANITIZE_MATCH='1031 .*--partition 1x1$|kernel shared|sor.*2x1|2x1 --devices 0,0 --loop host' \
  timeout 150 bash tests/gpu_sanitize.sh build/gpu/laplace-new > $OUT/gpu-sanitize-7.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|SWEEP_ORDER|gpu sanitize:" $OUT/gpu-sanitize-7.log | cut -c1-140
P="--top 1 --left 0.3 --eps 0 --check-every 1"
{
echo "binary,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for c in "f1024|--nx 1024 --ny 1024 --precision float|30000" \
           "f2048|--nx 2048 --ny 2048 --precision float|20000" \
           "f2896|--nx 2896 --ny 2896 --precision float|6000" \
           "f4096|--nx 4096 --ny 4096 --precision float|3000" \
           "f8192|--nx 8192 --ny 8192 --precision float|400" \
           "f16384|--nx 16384 --ny 16384 --precision float|150" \
           "d2048|--nx 2048 --ny 2048 --precision double|6000" \
           "d4096|--nx 4096 --ny 4096 --precision double|1500" \
           "f4096-2x1|--nx 4096 --ny 4096 --precision float --partition 2x1 --devices 0,0|1000" \
           "sor-f4096|--nx 4096 --ny 4096 --precision float --method sor|300"; do
    IFS='|' read -r name opts it <<< "$c"
    for bin in old new; do
      # shellcheck disable=SC2086
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu $opts $P --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-7.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-7.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    o=st.median(d[(c,'old')]); n=st.median(d[(c,'new')])
    print(f"{c} ({loop[c]}): old {o:.2f} new {n:.2f} us/it ({100*(n/o-1):+.1f}%)  old {sorted(d[(c,'old')])} new {sorted(d[(c,'new')])}")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 build/gpu/laplace-new --bench > $OUT/bench-sweep-7.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep-7.txt
}

# ---- final-9.sh, as it was (its text unchanged) ----
final_9() {
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
}

# ---- final-10.sh, as it was (its text unchanged) ----
final_10() {
#!/usr/bin/env bash
# Call 10 (one GPU). laplace-new = the tree to be committed: the rows kernel's sweeps
# alternate only where the two fields exceed L2 by at most 8 times (call 9 measured
# float 16384^2 2.3% and double 8192^2 1.6% slower alternating on its machine);
# laplace-old = 9bc95e3. (1) The suite's sweep-order, many-block-sums and wide-blocks
# checks. (2) Old against new, medians of 3 interleaved rounds. (3) The bench sweep.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='order|many-block-sums|wide-blocks' GPU_SUITE_JOBS=4 timeout 150 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-order-10.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-order-10.log | tail -3
P="--top 1 --left 0.3 --eps 0 --check-every 1"
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
    for bin in old new; do
      # shellcheck disable=SC2086
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu $opts $P --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-10.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-10.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    o=st.median(d[(c,'old')]); n=st.median(d[(c,'new')])
    print(f"{c} ({loop[c]}): old {o:.2f} new {n:.2f} us/it ({100*(n/o-1):+.1f}%)  old {sorted(d[(c,'old')])} new {sorted(d[(c,'new')])}")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 build/gpu/laplace-new --bench > $OUT/bench-sweep-10.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep-10.txt
}

# ---- final-11.sh, as it was (its text unchanged) ----
final_11() {
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
}

# ---- final-12.sh, as it was (its text unchanged) ----
final_12() {
#!/usr/bin/env bash
# Call 12 (one GPU), laplace-new = the tree to be committed: a backwards rows sweep
# reverses only its rows of blocks (y0 + step j: 5 PTX instructions more than
# 9bc95e3's kernel where call 11's x-and-y form had 8, spills equal), and the sweeps
# alternate wherever the two fields exceed L2 (call 11: with the spills gone,
# alternating is no slower at 16384^2 and faster at 8192^2). The whole GPU suite; old
# (9bc95e3) against new, medians of 3 interleaved rounds; the bench sweep.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=4 timeout 340 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-12.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-12.log | tail -4
P="--top 1 --left 0.3 --eps 0 --check-every 1"
{
echo "binary,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for c in "f2048|--nx 2048 --ny 2048 --precision float|20000" \
           "f4096|--nx 4096 --ny 4096 --precision float|3000" \
           "f8192|--nx 8192 --ny 8192 --precision float|400" \
           "f16384|--nx 16384 --ny 16384 --precision float|150" \
           "d2048|--nx 2048 --ny 2048 --precision double|6000"; do
    IFS='|' read -r name opts it <<< "$c"
    for bin in old new; do
      # shellcheck disable=SC2086
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu $opts $P --max-iter $it --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-12.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-12.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    o=st.median(d[(c,'old')]); n=st.median(d[(c,'new')])
    print(f"{c} ({loop[c]}): old {o:.2f} new {n:.2f} us/it ({100*(n/o-1):+.1f}%)  old {sorted(d[(c,'old')])} new {sorted(d[(c,'new')])}")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 150 build/gpu/laplace-new --bench > $OUT/bench-sweep-12.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep-12.txt
}

# ---- sanitize-13.sh, as it was (its text unchanged) ----
sanitize_13() {
#!/usr/bin/env bash
# Call 13 (one GPU): memcheck, racecheck and synccheck on the final tree (4d2b4ab:
# backwards rows sweeps reverse only their rows of blocks), the alternate order forced
# on lattices that fit in L2, and the same checks in the default order beside them.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_MATCH='block 16x4|1031 .*--partition 1x1$|1x2 --devices 0,0 --reduce device|2x1 --devices 0,0 --loop host' \
  timeout 200 bash tests/gpu_sanitize.sh build/gpu/laplace-new > $OUT/gpu-sanitize-13.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize-13.log | cut -c1-160
grep -c "^ok.*SWEEP_ORDER=alternate" $OUT/gpu-sanitize-13.log
}

# ---- suite-6.sh, as it was (its text unchanged) ----
suite_6() {
#!/usr/bin/env bash
# Call 6 (one GPU): the whole GPU suite and the whole sanitizer suite (memcheck with
# leak check, racecheck, synccheck) on laplace-new, the tree to be committed: every
# other sweep backwards where the two fields exceed L2, and its new checks (the order
# forced both ways, equal to serial and to each other). Also the first GPU run of
# 41085ee and 9bc95e3, which the previous session could not run.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=4 timeout 340 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-6.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-6.log | tail -12
grep -E "order|orders" $OUT/gpu-suite-6.log | head -30
timeout 230 bash tests/gpu_sanitize.sh build/gpu/laplace-new > $OUT/gpu-sanitize-6.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|SWEEP_ORDER|gpu sanitize:" $OUT/gpu-sanitize-6.log | tail -20
}

# ---- suite-8.sh, as it was (its text unchanged) ----
suite_8() {
#!/usr/bin/env bash
# Call 8 (one GPU), laplace-new = the tree to be committed: only the rows kernel
# alternates its order of blocks (the other kernels' code is HEAD's again, after call 7
# found SOR 2.6% slower in the binary that reversed every kernel). The whole GPU suite,
# then racecheck, synccheck and memcheck on the forced alternate order and beside it.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=4 timeout 360 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-8.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-8.log | tail -6
GPU_SANITIZE_MATCH='block 16x4|1031 .*--partition 1x1$|1x2 --devices 0,0 --reduce device|2x1 --devices 0,0 --loop host' \
  timeout 200 bash tests/gpu_sanitize.sh build/gpu/laplace-new > $OUT/gpu-sanitize-8.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize-8.log | cut -c1-160
grep -c "^ok.*SWEEP_ORDER" $OUT/gpu-sanitize-8.log
}

steps=(final_7 final_9 final_10 final_11 final_12 sanitize_13 suite_6 suite_8)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
