#!/usr/bin/env bash
# Probe 6 (one H100), the tree of 922875e (laplace-new): the rows kernel's block shapes
# and rows a thread over the lattices that run the host loop, float and double, the
# norm every iteration, us an iteration, medians of 3 (shapes.csv).
set -u
B=build/gpu/laplace-new
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "precision,n,block,rows,runs,median_us" > $OUT/shapes.csv
for spec in 2048:float 2896:float 4096:float 5792:float 8192:float 11585:float 16384:float 2048:double 4096:double 8192:double 11585:double; do
  n=${spec%%:*}; prec=${spec#*:}; it=$((3000 * 2048 * 2048 / n / n)); [ $it -lt 100 ] && it=100
  [ $prec = double ] && it=$((it / 2 > 100 ? it / 2 : 100))
  for b in 32x4 32x8 64x4 64x8 128x2 128x4 256x2; do
    for rows in 4 8; do
      all=""
      for r in 1 2 3; do
        line=$(LAPLACE_ROWS_PER_THREAD=$rows timeout -s KILL 60 $B --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --block $b --csv 2>/dev/null | tail -1)
        i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
        all="$all $(python3 -c "print(f'{1e6*$t/$i:.3f}')")"
      done
      echo "$prec,$n,$b,$rows,$all,$(echo $all | tr ' ' '\n' | sort -n | sed -n 2p)" >> $OUT/shapes.csv
    done
  done
  python3 - "$prec" "$n" <<'PY'
import csv,os,sys
rows=[r for r in csv.DictReader(open(os.environ['OUT']+'/shapes.csv')) if r['precision']==sys.argv[1] and r['n']==sys.argv[2]]
rows.sort(key=lambda r: float(r['median_us']))
print(sys.argv[1], sys.argv[2], ' | '.join(f"{r['block']} r{r['rows']} {float(r['median_us']):.2f}" for r in rows[:6]), '... 32x8 r4/r8:', ' '.join(r['median_us'] for r in rows if r['block']=='32x8'))
PY
done
