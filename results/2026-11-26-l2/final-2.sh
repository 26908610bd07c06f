#!/usr/bin/env bash
# Final call 2 (one H100): HEAD 95f2cfb (laplace-head), 922875e (laplace-mid: mapped
# sums, 4 rows) and the rows kernel's block grown with the tile (laplace-new), us an
# iteration, the norm every iteration, medians of 3 interleaved rounds; 1024^2 on 2x1
# tiles of GPU 0 (batched, small blocks now); the bench sweep, the whole GPU suite and
# memcheck on 8836 mapped block sums, all on the new binary.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,n,precision,tiles,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 1024:float:2x1 2048:float:1x1 2896:float:1x1 4096:float:1x1 5792:float:1x1 8192:float:1x1 11585:float:1x1 16384:float:1x1 2048:double:1x1 4096:double:1x1 8192:double:1x1; do
    IFS=: read -r n prec tiles <<< "$spec"
    it=$((6000 * 2048 * 2048 / n / n)); [ $it -lt 200 ] && it=200
    dev=""; [ $tiles = 2x1 ] && dev="--devices 0,0"
    for bin in head mid new; do
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu --partition $tiles $dev --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$n,$prec,$tiles,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-final-2.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list)
for r in csv.DictReader(open(os.environ['OUT']+'/speed-final-2.csv')):
    d[(r['precision'],int(r['n']),r['tiles'],r['binary'])].append(float(r['us_per_iteration']))
for (p,n,t,b) in sorted(d):
    if b=='head':
        m={x: st.median(d[(p,n,t,x)]) for x in ('head','mid','new')}
        print(f"{p} {n}^2 {t}: head {m['head']:.2f} mid {m['mid']:.2f} new {m['new']:.2f} us/it (new/head {100*(m['new']/m['head']-1):+.1f}%, new/mid {100*(m['new']/m['mid']-1):+.1f}%)")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 build/gpu/laplace-new --bench > $OUT/bench-sweep-2.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep-2.txt
echo "== memcheck: 6000 x 3000 float, 8836 block sums into mapped host memory"
timeout 150 compute-sanitizer --tool memcheck --leak-check full build/gpu/laplace-new --backend gpu --nx 6000 --ny 3000 --precision float --top 1 --eps 3 --max-iter 100 -q 2>&1 | tail -3
echo "== GPU suite (new)"
GPU_SUITE_JOBS=4 timeout 330 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-2.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-2.log | tail -20
