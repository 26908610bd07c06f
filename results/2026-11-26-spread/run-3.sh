#!/usr/bin/env bash
# Third call: values and sums travel as tagged 8-byte words (no flags, no fences).
# batched loop, field for field (md5) and iteration for iteration, then us an
# iteration of the old binary (auto), the new cluster way and the new spread way.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
run() { timeout -s KILL 20 "$@" 2>&1; }
md5() { md5sum < "$1" | cut -c1-12; }
edges="--top 1 --left 0.3 --right -0.2 --bottom 0.1"
echo "== same bits: old --loop batched vs new --loop chip, LAPLACE_CHIP_WAY=spread"
for prec in float double; do
  for spec in "3 3" "4 9" "33 7" "300 5" "5 300" "64 64" "130 257" "97 131 --check-every 7" "120 90 --eps 0 --max-iter 8191" "120 90 --eps 0 --max-iter 8193" "120 90 --eps 0 --max-iter 16385" "500 480" "1000 1000 --eps 1e-4" "1500 1400 --eps 1e-3"; do
    set -- $spec; nx=$1 ny=$2; shift 2
    p="--nx $nx --ny $ny --precision $prec $edges --eps 1e-6 --max-iter 20000 $*"
    run $B/laplace-old --backend gpu $p --loop batched --csv --output $OUT/a.bin > $OUT/a.csv
    LAPLACE_CHIP_WAY=spread run $B/laplace-new --backend gpu $p --loop chip --csv --output $OUT/b.bin > $OUT/b.csv; rc=$?
    ia=$(tail -1 $OUT/a.csv | cut -d, -f8); ib=$(tail -1 $OUT/b.csv | cut -d, -f8)
    same=DIFFER; [ "$(md5 $OUT/a.bin)" = "$(md5 $OUT/b.bin)" ] && [ "$ia" = "$ib" ] && same=same
    echo "$prec $nx x $ny $*: rc $rc iterations $ia / $ib $same loop $(tail -1 $OUT/b.csv | cut -d, -f22) $( [ $rc != 0 ] && tail -2 $OUT/b.csv)"
  done
done
echo "== course table, spread"
for n in 16 32 64 128 256 512; do
  LAPLACE_CHIP_WAY=spread run $B/laplace-new config/course-512.ini --nx $n --ny $n --backend gpu --loop chip --csv --output $OUT/c.dat > $OUT/c.csv
  echo "$n: iterations $(tail -1 $OUT/c.csv | cut -d, -f8) compute $(tail -1 $OUT/c.csv | cut -d, -f12) md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
done
echo "(stored serial 512: 423553 7b365cae394aa52809a7d138fc24438a)"
echo "== speed"
{
echo "binary,way,n,precision,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 128:float 256:float 512:float 1024:float 1536:float 128:double 512:double 1024:double; do
    n=${spec%%:*}; prec=${spec#*:}; it=100000; [ $n -ge 1024 ] && it=30000
    for way in old cluster spread; do
      bin=new; loop="--loop chip"; [ $way = old ] && bin=old && loop=""
      line=$(LAPLACE_CHIP_WAY=$way run $B/laplace-$bin $loop --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$way,$n,$prec,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list)
for r in csv.DictReader(open(os.environ['OUT']+'/speed.csv')):
    try: d[(r['n'],r['precision'],r['way'])].append(float(r['us_per_iteration']))
    except: pass
for k in sorted(d, key=lambda k:(k[1],int(k[0]),k[2])): print(k, 'median %.3f'%st.median(d[k]), d[k])
PY
echo "== blocks at 512^2 and 1024^2 float (spread)"
for n in 256 512 1024; do for blocks in 16 32 64 96 132; do
  line=$(LAPLACE_SPREAD_BLOCKS=$blocks LAPLACE_CHIP_WAY=spread run $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --eps 0 --max-iter 50000 --check-every 1 --csv | tail -1)
  echo "$n blocks $blocks: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us"
done; done
echo "== threads at 512^2 and 1024^2 float (spread)"
for n in 512 1024; do for th in 128 256 512 992; do
  line=$(LAPLACE_SPREAD_THREADS=$th LAPLACE_CHIP_WAY=spread run $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --eps 0 --max-iter 50000 --check-every 1 --csv | tail -1)
  echo "$n threads $th: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us"
done; done
echo "== course problem, new auto"
$B/laplace-new config/course-512.ini --backend gpu | grep -E "loop|iterations|compute|stopped"
rm -f $OUT/*.bin $OUT/c.dat
