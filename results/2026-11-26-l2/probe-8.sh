#!/usr/bin/env bash
# Probe 8 (one H100): what the review asked to measure, HEAD 95f2cfb (laplace-head)
# against the tree after the review's fixes (laplace-new), medians of 3 interleaved:
# --reduce device (its resident loop adds every block's sum in every block: more, smaller
# blocks mean more sums), SOR in the host loop (phase 1 adds its block sums onto phase
# 0's: now in mapped host memory at every size), odd-width tiles on 2x1 (4 rows again);
# then the suite's mapped-sums checks (2x1 now in the host loop).
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for c in "reduce-device-2048|--nx 2048 --ny 2048 --reduce device|6000" \
           "reduce-device-2896|--nx 2896 --ny 2896 --reduce device|3000" \
           "reduce-device-4096|--nx 4096 --ny 4096 --reduce device|1500" \
           "reduce-device-4096-32x8r8|--nx 4096 --ny 4096 --reduce device --block 32x8|1500" \
           "sor-1448|--nx 1448 --ny 1448 --method sor|4000" \
           "sor-4096|--nx 4096 --ny 4096 --method sor|500" \
           "sor-4096-device|--nx 4096 --ny 4096 --method sor --reduce device|500" \
           "odd-701-2x1|--nx 701 --ny 701 --partition 2x1 --devices 0,0|20000"; do
    IFS='|' read -r name opts it <<< "$c"
    for bin in head new; do
      env=(X=1); [[ $name == *32x8r8 ]] && env=(LAPLACE_ROWS_PER_THREAD=8)
      # shellcheck disable=SC2086
      line=$(env "${env[@]}" timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu $opts --top 1 --left 0.3 --precision float --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/review.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/review.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    h=st.median(d[(c,'head')]); w=st.median(d[(c,'new')])
    print(f"{c} ({loop[c]}): head {h:.2f} new {w:.2f} us/it ({100*(w/h-1):+.1f}%)")
PY
GPU_SUITE_JOBS=4 GPU_SUITE_MATCH='many-block-sums' timeout 120 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-sums-8.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-sums-8.log | tail -3
