#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-27-shapes/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-27-shapes/reproduce.sh             every step, in order
#   bash results/2026-11-27-shapes/reproduce.sh STEP ...    some of them: medians run_1 run_2 run_3 run_4
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- medians.py, as it was (its text unchanged) ----
medians() {
    python3 - "$@" <<'PYTHON'
"""Medians of a times-N.txt file of this folder: lines `round case binary us`."""
import collections
import statistics
import sys

values = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, case, what, v = line.split()[:4]
    try:
        values[(case, what)].append(float(v))
    except ValueError:
        print("bad", line.strip())
for (case, what), vs in values.items():
    print(f"{case:14s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PYTHON
}

# ---- run-1.sh, as it was (its text unchanged) ----
run_1() {
#!/usr/bin/env bash
# First call (one H100): two cheap knobs, each a throwaway build of HEAD (ec048f8) with one
# line changed, timed against HEAD (laplace-new) in interleaved rounds, medians of 3:
#  unroll2/unroll4: `#pragma unroll N` on walk_column's loop (the loops on chip: the
#    cluster and the spread strips walk their columns with it), 128^2 to 1024^2;
#  lb512/lb1024: the rows kernel's __launch_bounds__(1024, 2) (32 registers, float 4x2
#    spills 12 bytes) as (512, 3) (40/38 registers, no spill) or (1024, 1) (54/43), 2048^2 up.
# Same bits: the course problem's md5 for every binary; a 2048^2 field's md5 for each.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f128 --precision float --nx 128 --ny 128 --max-iter 40000" "f256 --precision float --nx 256 --ny 256 --max-iter 40000" "f512 --precision float --nx 512 --ny 512 --max-iter 40000" "d512 --precision double --nx 512 --ny 512 --max-iter 30000" "f1024 --precision float --nx 1024 --ny 1024 --max-iter 20000"; do
    set -- $case; name=$1; shift
    for b in new unroll2 unroll4; do echo "$round $name $b $(us $B/laplace-$b --backend gpu --top 1 --left 0.3 $*)"; done
  done
  for case in "f2048 --precision float --nx 2048 --ny 2048 --max-iter 8000" "f2896 --precision float --nx 2896 --ny 2896 --max-iter 4000" "f4096 --precision float --nx 4096 --ny 4096 --max-iter 2000" "f8192 --precision float --nx 8192 --ny 8192 --max-iter 400" "f16384 --precision float --nx 16384 --ny 16384 --max-iter 100" "d2048 --precision double --nx 2048 --ny 2048 --max-iter 4000" "d4096 --precision double --nx 4096 --ny 4096 --max-iter 1000"; do
    set -- $case; name=$1; shift
    for b in new lb512 lb1024; do echo "$round $name $b $(us $B/laplace-$b --backend gpu --top 1 --left 0.3 $*)"; done
  done
  for b in new unroll2 unroll4; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv --output /tmp/c-$b.dat > /tmp/c.csv 2>&1
    echo "$round course $b $(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c-$b.dat | cut -c1-32)"
  done
done > $OUT/times-1.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-1.txt | tee $OUT/medians-1.txt
grep course $OUT/times-1.txt
for b in new lb512 lb1024; do timeout -s KILL 20 $B/laplace-$b --backend gpu --precision float --nx 2048 --ny 2048 --top 1 --left 0.3 --max-iter 3001 --output /tmp/f-$b.dat --csv | tail -1 | cut -d, -f8,9 | tr '\n' ' '; md5sum < /tmp/f-$b.dat; done
}

# ---- run-2.sh, as it was (its text unchanged) ----
run_2() {
#!/usr/bin/env bash
# Second call (one H100): how many rows the spread loop's threads walk at a time
# (walk_column's unrolling), now a plan choice: laplace-unr with LAPLACE_SPREAD_UNROLL
# 2, 3, 4 (the default, as HEAD) and 6, against HEAD (laplace-new), over the lattices the
# spread loop runs, medians of 3 interleaved rounds; the course problem's time, count and
# md5 for each.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f288 float 288 30000" "f384 float 384 30000" "f512 float 512 30000" "f640 float 640 30000" "f768 float 768 30000" "f1024 float 1024 20000" "f1448 float 1448 20000" "d384 double 384 30000" "d512 double 512 30000" "d768 double 768 30000" "d1024 double 1024 20000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 new $(us $B/laplace-new $run)"
    for u in 2 3 4 6; do echo "$round $1 u$u $(LAPLACE_SPREAD_UNROLL=$u us $B/laplace-unr $run)"; done
  done
  for u in 2 3 4 6; do
    LAPLACE_SPREAD_UNROLL=$u timeout -s KILL 20 $B/laplace-unr config/course-512.ini --backend gpu --csv --output /tmp/c-$u.dat > /tmp/c.csv 2>&1
    echo "$round course u$u $(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c-$u.dat | cut -c1-32)"
  done
done > $OUT/times-2.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-2.txt | sort -s -k1,1 | tee $OUT/medians-2.txt
grep course $OUT/times-2.txt | awk '{print $3, $5, $6}' | sort | uniq -c
timeout -s KILL 20 $B/laplace-unr config/course-512.ini --backend gpu | grep -E "^  loop"
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
#!/usr/bin/env bash
# Third call (one H100), the tree with the spread loop's unroll as a plan choice
# (laplace-fin: 3 rows at a time in float strips of up to 4 rows, else 4): (1)
# compute-sanitizer's memcheck, racecheck and synccheck on every loop on chip check;
# (2) HEAD (laplace-new) against it, medians of 3 interleaved rounds; (3) the course
# problem on it with other depths, unrolls and blocks; (4) the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=12 GPU_SANITIZE_MATCH='chip' timeout -s KILL 240 bash tests/gpu_sanitize.sh $B/laplace-fin > $OUT/gpu-sanitize-3.log 2>&1
echo "sanitize rc $?"; grep -E "^FAILED" $OUT/gpu-sanitize-3.log | head; tail -1 $OUT/gpu-sanitize-3.log
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f128 float 128 40000" "f288 float 288 30000" "f384 float 384 30000" "f512 float 512 30000" "f640 float 640 30000" "f1024 float 1024 20000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for b in new fin; do echo "$round $1 $b $(us $B/laplace-$b $run)"; done
  done
  for b in new fin; do echo "$round course $b $(course $B/laplace-$b)"; done
  for d in 3 4; do for u in 3 4; do echo "$round course d${d}u$u $(LAPLACE_SPREAD_DEPTH=$d LAPLACE_SPREAD_UNROLL=$u course $B/laplace-fin)"; done; done
  for blocks in 128 104; do echo "$round course b$blocks $(LAPLACE_SPREAD_BLOCKS=$blocks course $B/laplace-fin)"; done
done > $OUT/times-3.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-3.txt | sort -s -k1,1 | tee $OUT/medians-3.txt
grep course $OUT/times-3.txt | awk '{print $3, $5, $6}' | sort | uniq -c
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-fin --bench > $OUT/bench-sweep-3.txt 2>&1
tail -14 $OUT/bench-sweep-3.txt
}

# ---- run-4.sh, as it was (its text unchanged) ----
run_4() {
#!/usr/bin/env bash
# Fourth call (one H100): a longer lag for the spread loop's decision (the fields,
# depth + lag, are what the sweepers may run ahead of the deciding warps; HEAD's plan
# takes a lag of 2). laplace-lag is the committed tree with LAPLACE_SPREAD_LAG allowed
# up to 4; (1) lags 2, 3, 4, medians of 3 interleaved rounds; (2) the GPU suite's
# loop-on-chip and course checks with the course problem's fastest lag forced on every
# spread plan.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "f1024 float 1024 20000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for lag in 2 3 4; do echo "$round $1 lag$lag $(LAPLACE_SPREAD_LAG=$lag us $B/laplace-lag $run)"; done
  done
  for lag in 2 3 4; do echo "$round course lag$lag $(LAPLACE_SPREAD_LAG=$lag course $B/laplace-lag)"; done
done > $OUT/times-4.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-4.txt | sort -s -k1,1 | tee $OUT/medians-4.txt
grep course $OUT/times-4.txt | awk '{print $3, $5, $6}' | sort | uniq -c
best=$(grep "^course" $OUT/medians-4.txt | sort -k3,3n | head -1 | awk '{print $2}'); best=${best#lag}
echo "fastest lag on the course problem: $best"
LAPLACE_SPREAD_LAG=$best GPU_SUITE_MATCH='chip|spread|course-512' GPU_SUITE_JOBS=8 timeout -s KILL 220 bash tests/gpu_suite.sh $B/laplace-lag > $OUT/gpu-suite-5.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-5.log | head; tail -1 $OUT/gpu-suite-5.log
LAPLACE_SPREAD_LAG=$best timeout -s KILL 20 $B/laplace-lag config/course-512.ini --backend gpu | grep -E "^  loop"
}

steps=(medians run_1 run_2 run_3 run_4)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
