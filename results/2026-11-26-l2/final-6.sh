#!/usr/bin/env bash
# Final call 6 (one H100), the tree after the review's fixes (laplace-new): --reduce
# device keeps the fewer blocks of 32x8 at 64 bytes a thread; SOR's first phase keeps its
# block sums on the device (the second adds its own to them into mapped host memory);
# odd-width floats step down to 4 rows again. Against HEAD 95f2cfb (laplace-head),
# medians of 3 interleaved; compute-sanitizer on SOR's two phases; the whole GPU suite.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for c in "jacobi-2048|--nx 2048 --ny 2048|6000" \
           "jacobi-4096|--nx 4096 --ny 4096|1500" \
           "jacobi-16384|--nx 16384 --ny 16384|200" \
           "reduce-device-2048|--nx 2048 --ny 2048 --reduce device|6000" \
           "reduce-device-4096|--nx 4096 --ny 4096 --reduce device|1500" \
           "sor-1024|--nx 1024 --ny 1024 --method sor|8000" \
           "sor-1448|--nx 1448 --ny 1448 --method sor|4000" \
           "sor-4096|--nx 4096 --ny 4096 --method sor|500" \
           "sor-2048-2x1|--nx 2048 --ny 2048 --method sor --partition 2x1 --devices 0,0|2000" \
           "odd-701-2x1|--nx 701 --ny 701 --partition 2x1 --devices 0,0|20000"; do
    IFS='|' read -r name opts it <<< "$c"
    for bin in head new; do
      # shellcheck disable=SC2086
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu $opts --top 1 --left 0.3 --precision float --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-final-6.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-final-6.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    h=st.median(d[(c,'head')]); w=st.median(d[(c,'new')])
    print(f"{c} ({loop[c]}): head {h:.2f} new {w:.2f} us/it ({100*(w/h-1):+.1f}%)")
PY
for spec in "1500 1500" "1200 900 --partition 2x1 --devices 0,0" "1200 900 --partition 2x1 --devices 0,0 --loop host"; do
  for tool in "memcheck --leak-check full" racecheck; do
    echo "-- $tool: SOR $spec"
    # shellcheck disable=SC2086
    set -- $spec; n=$1; m=$2; shift 2
    # shellcheck disable=SC2086
    timeout 120 compute-sanitizer --tool $tool build/gpu/laplace-new --backend gpu --nx $n --ny $m "$@" --method sor --precision float --top 1 --eps 0 --max-iter 3 -q 2>&1 | tail -1
  done
done
GPU_SUITE_JOBS=4 timeout 330 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-6.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-6.log | tail -12
