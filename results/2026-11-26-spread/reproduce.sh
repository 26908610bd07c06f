#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-26-spread/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-26-spread/reproduce.sh             every step, in order
#   bash results/2026-11-26-spread/reproduce.sh STEP ...    some of them: final recheck_2 recheck run_2 run_3 run_4 run_6 run_7
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- final.sh, as it was (its text unchanged) ----
final() {
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
}

# ---- recheck-2.sh, as it was (its text unchanged) ----
recheck_2() {
#!/usr/bin/env bash
# The stop read by thread 0 alone (atomics), handed to the block through the barrier.
# loads and stores, which racecheck takes for plain accesses): the words now go
# through atomic operations by lane 0 of each warp. The sanitizers on the spread loop
# and the chip subset, the bits of the spread loop, and its speed, on main + this change.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:|loop batched' timeout 240 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize.log
GPU_SUITE_JOBS=4 GPU_SUITE_MATCH='spread|one a multiprocessor|900' timeout 240 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite-spread.log 2>&1
echo "suite status $?"; grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-spread.log
for round in 1 2 3; do
  for n in 512 1024; do
    line=$(timeout 30 $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision float --eps 0 --max-iter 100000 --check-every 1 --csv | tail -1)
    echo "round $round $n^2 float: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us an iteration, loop $(echo $line | cut -d, -f22)"
  done
  $B/laplace-new config/course-512.ini --backend gpu --csv --output $OUT/c.dat > $OUT/c.csv 2>/dev/null
  echo "course round $round: iterations $(tail -1 $OUT/c.csv | cut -d, -f8) compute $(tail -1 $OUT/c.csv | cut -d, -f12) s md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
done
rm -f $OUT/c.dat
}

# ---- recheck.sh, as it was (its text unchanged) ----
recheck() {
#!/usr/bin/env bash
# After racecheck's hazards on the decision words (block-scope acquire/release
# loads and stores, which racecheck takes for plain accesses): the words now go
# through atomic operations by lane 0 of each warp. The sanitizers on the spread loop
# and the chip subset, the bits of the spread loop, and its speed, on main + this change.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:|loop batched' timeout 240 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize.log 2>&1; echo "sanitize status $?"
grep -E "^FAILED|gpu sanitize:" $OUT/gpu-sanitize.log
GPU_SUITE_JOBS=4 GPU_SUITE_MATCH='spread|one a multiprocessor|900|course' timeout 240 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite-spread.log 2>&1
echo "suite status $?"; grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-spread.log
for round in 1 2 3; do
  for n in 512 1024; do
    line=$(timeout 30 $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision float --eps 0 --max-iter 100000 --check-every 1 --csv | tail -1)
    echo "round $round $n^2 float: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us an iteration, loop $(echo $line | cut -d, -f22)"
  done
  $B/laplace-new config/course-512.ini --backend gpu --csv --output $OUT/c.dat > $OUT/c.csv 2>/dev/null
  echo "course round $round: iterations $(tail -1 $OUT/c.csv | cut -d, -f8) compute $(tail -1 $OUT/c.csv | cut -d, -f12) s md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
done
rm -f $OUT/c.dat
}

# ---- run-2.sh, as it was (its text unchanged) ----
run_2() {
#!/usr/bin/env bash
# Second call: the spread loop with a deciding warp in every block and three fields a strip.
# batched loop, field for field (md5) and iteration for iteration, then us an
# iteration of the old binary (auto), the new cluster way and the new spread way.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
run() { timeout 60 "$@" 2>&1; }
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
  for spec in 128:float 256:float 384:float 512:float 768:float 1024:float 1536:float 128:double 256:double 512:double 1024:double; do
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
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
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
}

# ---- run-4.sh, as it was (its text unchanged) ----
run_4() {
#!/usr/bin/env bash
# Fourth call: every block stops at the same iteration; the deciding warp and the edge rows load their tagged words at once.
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
}

# ---- run-6.sh, as it was (its text unchanged) ----
run_6() {
#!/usr/bin/env bash
# Sixth call: columns walked with registers, int indexing, warp sums added by a warp, 512 sweepers a block.
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
for n in 512 1024; do for blocks in 32 66 132; do
  line=$(LAPLACE_SPREAD_BLOCKS=$blocks LAPLACE_CHIP_WAY=spread run $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --precision float --eps 0 --max-iter 50000 --check-every 1 --csv | tail -1)
  echo "$n blocks $blocks: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us"
done; done
echo "== threads at 512^2 and 1024^2 float (spread)"
for n in 512 1024; do for th in 128 256 512; do
  line=$(LAPLACE_SPREAD_THREADS=$th LAPLACE_CHIP_WAY=spread run $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --precision float --eps 0 --max-iter 50000 --check-every 1 --csv | tail -1)
  echo "$n threads $th: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us"
done; done
echo "== course problem, new auto"
$B/laplace-new config/course-512.ini --backend gpu | grep -E "loop|iterations|compute|stopped"
rm -f $OUT/*.bin $OUT/c.dat
}

# ---- run-7.sh, as it was (its text unchanged) ----
run_7() {
#!/usr/bin/env bash
# Seventh call: edge rows first, one barrier an iteration.
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
for n in 512 1024; do for blocks in 32 66 132; do
  line=$(LAPLACE_SPREAD_BLOCKS=$blocks LAPLACE_CHIP_WAY=spread run $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --precision float --eps 0 --max-iter 50000 --check-every 1 --csv | tail -1)
  echo "$n blocks $blocks: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us"
done; done
echo "== threads at 512^2 and 1024^2 float (spread)"
for n in 512 1024; do for th in 128 256 512; do
  line=$(LAPLACE_SPREAD_THREADS=$th LAPLACE_CHIP_WAY=spread run $B/laplace-new --backend gpu --nx $n --ny $n --top 1 --precision float --eps 0 --max-iter 50000 --check-every 1 --csv | tail -1)
  echo "$n threads $th: $(python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')") us"
done; done
echo "== course problem, new auto"
$B/laplace-new config/course-512.ini --backend gpu | grep -E "loop|iterations|compute|stopped"
rm -f $OUT/*.bin $OUT/c.dat
}

steps=(final recheck_2 recheck run_2 run_3 run_4 run_6 run_7)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
