#!/usr/bin/env bash
# Probe 2 (one H100): strips kept in global memory, their inside swept 8 rows at a
# time (all loads out first), against shared memory, the batches and HEAD 95f2cfb.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== bits: forced global against serial"
for spec in "1030 1020 double 2000" "2048 1900 float 1500" "301 517 float 3000" "500 37 double 9000"; do
  set -- $spec
  p="--nx $1 --ny $2 --precision $3 --top 1 --left 0.3 --right -0.2 --eps 0 --max-iter $4"
  $B/laplace-new --backend serial $p -q --output $OUT/s.bin >/dev/null 2>&1
  LAPLACE_CHIP_WAY=spread LAPLACE_SPREAD_IN=global $B/laplace-new --backend gpu --loop chip $p --output $OUT/g.bin > $OUT/g.txt 2>&1
  echo "$spec: status $? same=$(cmp -s $OUT/s.bin $OUT/g.bin && echo yes || echo NO)"
done
rm -f $OUT/*.bin
{
echo "binary,way,n,precision,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 512:float 1024:float 1536:float 2048:float 2896:float 4096:float 1024:double 1448:double 2048:double; do
    n=${spec%%:*}; prec=${spec#*:}; it=20000; [ $n -ge 2048 ] && it=6000; [ $n -ge 2896 ] && it=2000
    for way in head-auto batched shared global; do
      bin=new; env="X=1"; loop=""
      case $way in
        head-auto) bin=head ;;
        batched) loop="--loop batched" ;;
        shared) env="LAPLACE_SPREAD_IN=shared"; loop="--loop chip" ;;
        global) env="LAPLACE_SPREAD_IN=global"; loop="--loop chip" ;;
      esac
      line=$(env $env LAPLACE_CHIP_WAY=spread timeout -s KILL 30 $B/laplace-$bin $loop --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      [ -n "$i" ] && [ "$i" != 0 ] && echo "$bin,$way,$n,$prec,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list)
for r in csv.DictReader(open(os.environ['OUT']+'/speed.csv')):
    try: d[(r['precision'],int(r['n']),r['way'])].append(float(r['us_per_iteration']))
    except: pass
for k in sorted(d):
    if d[k]: print(*k, 'median %.3f' % st.median(d[k]), d[k])
PY
