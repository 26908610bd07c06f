#!/usr/bin/env bash
# Final call 3 (one H100): the committed tree (laplace-new: tiles too small for 4 rows
# a thread keep 32x8 blocks) against HEAD 95f2cfb (laplace-head) on tiles of GPU 0
# (batched and host loop), medians of 3 interleaved rounds; the bench sweep and the
# whole GPU suite on the new binary.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,n,precision,tiles,loop_asked,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 1024:float:1x1:batched 1024:float:2x1:auto 2048:float:2x1:auto 2048:float:2x2:auto 1024:double:2x1:auto 2048:float:1x1:auto 4096:float:1x1:auto 16384:float:1x1:auto; do
    IFS=: read -r n prec tiles loop <<< "$spec"
    it=$((6000 * 2048 * 2048 / n / n)); [ $it -lt 200 ] && it=200
    dev=""; [ $tiles = 2x1 ] && dev="--devices 0,0"; [ $tiles = 2x2 ] && dev="--devices 0,0,0,0"
    for bin in head new; do
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu --partition $tiles $dev --loop $loop --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$n,$prec,$tiles,$loop,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-final-3.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loops={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-final-3.csv')):
    k=(r['precision'],int(r['n']),r['tiles'],r['loop_asked']); d[k+(r['binary'],)].append(float(r['us_per_iteration'])); loops[k]=r['loop']
for k in sorted(loops):
    h=st.median(d[k+('head',)]); w=st.median(d[k+('new',)])
    print(f"{k[0]} {k[1]}^2 {k[2]} --loop {k[3]} ({loops[k]}): head {h:.2f} new {w:.2f} us/it ({100*(w/h-1):+.1f}%)")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 build/gpu/laplace-new --bench > $OUT/bench-sweep-3.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep-3.txt
echo "== GPU suite (new)"
GPU_SUITE_JOBS=4 timeout 360 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-3.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-3.log | tail -20
