#!/usr/bin/env bash
# The final call on main f826b79 (build/gpu/laplace-new, without MPI) against the
# session's start 863ea7b (laplace-old), one H100: us an iteration old against new
# (the norm every iteration, medians of 3, the same call), the cluster against the
# spread strips where both fit, the course problem three times each, the course's
# 1024^2 on 1x1 (spread) against 2x1 and 3x2 tiles batched, the bench's lattice sweep,
# then the sanitizers on the loops on chip and the batches.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,way,n,precision,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 128:float 256:float 320:float 384:float 448:float 512:float 768:float 1024:float 1280:float 1536:float 128:double 256:double 384:double 512:double 768:double 1024:double; do
    n=${spec%%:*}; prec=${spec#*:}; it=100000; [ $n -ge 768 ] && it=30000
    for way in old auto cluster spread; do
      bin=new; env="LAPLACE_CHIP_WAY=$way"; loop="--loop chip"
      [ $way = old ] && bin=old && env="X=1" && loop=""
      [ $way = auto ] && env="X=1" && loop=""
      if [ $way = cluster ] || [ $way = spread ]; then case $n in 320|384|448) ;; *) continue ;; esac; fi
      line=$(env $env timeout -s KILL 30 $B/laplace-$bin $loop --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
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
    try: d[(r['precision'],int(r['n']),r['way'])].append(float(r['us_per_iteration']))
    except: pass
for k in sorted(d): print(*k, 'median %.3f' % st.median(d[k]), d[k])
PY
echo "== course problem (config/course-512.ini, auto); stored serial: 423553 iterations, md5 7b365cae394aa52809a7d138fc24438a"
for round in 1 2 3; do
  for bin in old new; do
    $B/laplace-$bin config/course-512.ini --backend gpu --csv --output $OUT/c.dat > $OUT/c.csv 2>/dev/null
    echo "$bin round $round: iterations $(tail -1 $OUT/c.csv | cut -d, -f8) compute $(tail -1 $OUT/c.csv | cut -d, -f12) s loop $(tail -1 $OUT/c.csv | cut -d, -f22) md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
  done
done
rm -f $OUT/c.dat
echo "== course 1024^2: 1x1 (auto: spread) against 2x1 and 3x2 tiles batched"
$B/laplace-new config/course-512.ini --nx 1024 --ny 1024 --max-iter 2000000 --backend gpu --partition 1x1 --csv | tail -1 | cut -d, -f8,12,22
GPU_SUITE_OUT=/tmp/suite-1024 GPU_SUITE_COURSE_MAX=1024 GPU_SUITE_JOBS=2 \
  GPU_SUITE_MATCH='course 1024($|\^2 --partition [23]x[12] --devices [0,]* --loop batched)' \
  timeout 120 bash tests/gpu_suite.sh $B/laplace-new 2>&1 | grep -v "^skipped" > $OUT/gpu-suite-course-1024.log
cat $OUT/gpu-suite-course-1024.log
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 $B/laplace-new --bench > $OUT/bench-sweep.txt 2>&1; echo "bench status $?"
tail -14 $OUT/bench-sweep.txt
echo "== sanitizers"
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:|loop batched' timeout 200 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize.log
