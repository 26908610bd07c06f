#!/usr/bin/env bash
# Final call 1 (one H100): HEAD 95f2cfb (laplace-head) against the change (laplace-new:
# block sums always into mapped host memory, the rows kernel at 4 rows a thread below 32
# waves), us an iteration, the norm every iteration, medians of 3 interleaved rounds;
# then the bench's lattice sweep and the whole GPU suite on the new binary.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,n,precision,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 2048:float 2896:float 4096:float 5792:float 8192:float 16384:float 4096:double 8192:double; do
    n=${spec%%:*}; prec=${spec#*:}; it=$((6000 * 2048 * 2048 / n / n)); [ $it -lt 200 ] && it=200
    for bin in head new; do
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$n,$prec,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-final.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list)
for r in csv.DictReader(open(os.environ['OUT']+'/speed-final.csv')):
    d[(r['precision'],int(r['n']),r['binary'])].append(float(r['us_per_iteration']))
for (p,n,b) in sorted(d):
    if b=='head':
        h=st.median(d[(p,n,'head')]); w=st.median(d[(p,n,'new')])
        print(f"{p} {n}^2: head {h:.2f} new {w:.2f} us/it ({100*(w/h-1):+.1f}%)  runs head {d[(p,n,'head')]} new {d[(p,n,'new')]}")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 build/gpu/laplace-new --bench > $OUT/bench-sweep.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep.txt
echo "== GPU suite (new)"
GPU_SUITE_JOBS=4 timeout 400 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite.log | tail -20
grep -E "many-block" $OUT/gpu-suite.log
