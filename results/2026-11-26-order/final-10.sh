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
