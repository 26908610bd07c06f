#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-27-regs/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-27-regs/reproduce.sh             every step, in order
#   bash results/2026-11-27-regs/reproduce.sh STEP ...    some of them: run_1 run_2 run_3 run_4 run_6 run_7 run_8 run_9 run_10 run_11 run_12 run_13 run_14 run_15 run_16
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run-1.sh, as it was (its text unchanged) ----
run_1() {
#!/bin/bash
# First call of the ninth session (one H100): the sweep probe at the course problem's
# shape, then compute-sanitizer on the loop-on-chip checks with the spread loop's lag 3.
set -u
out=${OUT:-.}
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout -s KILL 120 build/gpu/sweep_floor 2>&1 | tee "$out/sweep-floor-1.txt"
LAPLACE_SPREAD_LAG=3 GPU_SANITIZE_MATCH='chip' GPU_SANITIZE_JOBS=12 \
    timeout -s KILL 300 bash tests/gpu_sanitize.sh build/gpu/laplace-new \
    > "$out/gpu-sanitize-lag3.log" 2>&1
echo "sanitize rc $?"
tail -5 "$out/gpu-sanitize-lag3.log"
}

# ---- run-2.sh, as it was (its text unchanged) ----
run_2() {
#!/usr/bin/env bash
# Second call (one H100): (1) decider_floor: the probe's mechanism with the deciding warp
# removed or sleeping between polls, to find why the registers sweep (halo, 1.49 us) is
# so much faster inside the mechanism than the shared one (shared-halo, 2.32 us) when
# alone they are even (0.69 / 0.64); (2) the program with its deciding warp sleeping
# 64 ns between polls (laplace-back) against HEAD (laplace-new), medians of 3.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
timeout -s KILL 150 $B/decider_floor 2>&1 | tee $OUT/decider-floor-1.txt
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "f1024 float 1024 20000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in new back; do echo "$round $1 $bin $(us $B/laplace-$bin $run)"; done
  done
  for bin in new back; do echo "$round course $bin $(course $B/laplace-$bin)"; done
done > $OUT/times-2.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-2.txt | sort -s -k1,1 | tee $OUT/medians-2.txt
grep course $OUT/times-2.txt | awk '{print $3, $5, $6}' | sort | uniq -c
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
#!/usr/bin/env bash
# Third call (one H100): the deciding warp takes the sums of a round's 2 iterations in
# one trip and interleaves their totals (laplace-grp) against HEAD (laplace-new), and
# laplace-grp with a lag of 3; medians of 3 interleaved rounds. Then the GPU suite's
# loop-on-chip, spread and course checks, and compute-sanitizer's loop-on-chip checks,
# on laplace-grp.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "f1024 float 1024 20000" "d512 double 512 30000" "d1024 double 1024 20000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 new $(us $B/laplace-new $run)"
    echo "$round $1 grp $(us $B/laplace-grp $run)"
    echo "$round $1 grp-lag3 $(LAPLACE_SPREAD_LAG=3 us $B/laplace-grp $run)"
  done
  echo "$round course new $(course $B/laplace-new)"
  echo "$round course grp $(course $B/laplace-grp)"
  echo "$round course grp-lag3 $(LAPLACE_SPREAD_LAG=3 course $B/laplace-grp)"
done > $OUT/times-3.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-3.txt | sort -s -k1,1 | tee $OUT/medians-3.txt
grep course $OUT/times-3.txt | awk '{print $3, $5, $6}' | sort | uniq -c
GPU_SUITE_MATCH='chip|spread|course-512' GPU_SUITE_JOBS=8 timeout -s KILL 230 bash tests/gpu_suite.sh $B/laplace-grp > $OUT/gpu-suite-1.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-1.log | head; tail -1 $OUT/gpu-suite-1.log
GPU_SANITIZE_MATCH='chip' GPU_SANITIZE_JOBS=12 timeout -s KILL 100 bash tests/gpu_sanitize.sh $B/laplace-grp > $OUT/gpu-sanitize-1.log 2>&1
echo "sanitize rc $?"; grep -v "^ok" $OUT/gpu-sanitize-1.log | tail -5
}

# ---- run-4.sh, as it was (its text unchanged) ----
run_4() {
#!/usr/bin/env bash
# Fourth call (one H100): block 0's deciding warp adds the sums and publishes the total,
# every other block's takes it (laplace-tot), against HEAD (laplace-new), and
# laplace-tot with a lag of 3; medians of 3 interleaved rounds. Then the GPU suite's
# loop-on-chip, spread and course checks, and compute-sanitizer's loop-on-chip checks,
# on laplace-tot.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "f1024 float 1024 20000" "d512 double 512 30000" "d1024 double 1024 20000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 new $(us $B/laplace-new $run)"
    echo "$round $1 tot $(us $B/laplace-tot $run)"
    echo "$round $1 tot-lag3 $(LAPLACE_SPREAD_LAG=3 us $B/laplace-tot $run)"
  done
  echo "$round course new $(course $B/laplace-new)"
  echo "$round course tot $(course $B/laplace-tot)"
  echo "$round course tot-lag3 $(LAPLACE_SPREAD_LAG=3 course $B/laplace-tot)"
done > $OUT/times-4.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-4.txt | sort -s -k1,1 | tee $OUT/medians-4.txt
grep course $OUT/times-4.txt | awk '{print $3, $5, $6}' | sort | uniq -c
faster=$(awk '$1 == "course" && $2 == "new" {n = $3} $1 == "course" && $2 == "tot" {t = $3} END {print (t < 0.95 * n) ? 1 : 0}' $OUT/medians-4.txt)
[ "$faster" = 1 ] || { echo "not faster on the course problem: no suite run"; exit 0; }
GPU_SUITE_MATCH='chip|spread|course-512' GPU_SUITE_JOBS=8 timeout -s KILL 300 bash tests/gpu_suite.sh $B/laplace-tot > $OUT/gpu-suite-2.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-2.log | head; tail -1 $OUT/gpu-suite-2.log
GPU_SANITIZE_MATCH='chip' GPU_SANITIZE_JOBS=12 timeout -s KILL 100 bash tests/gpu_sanitize.sh $B/laplace-tot > $OUT/gpu-sanitize-2.log 2>&1
echo "sanitize rc $?"; grep -v "^ok" $OUT/gpu-sanitize-2.log | tail -5
}

# ---- run-6.sh, as it was (its text unchanged) ----
run_6() {
#!/usr/bin/env bash
# Sixth call (one H100): the columns in registers, three changes on top of run-5's
# laplace-col: colB (the ring's copy counted, not k % F; the rows outside a step's
# range not shuffled), colC (colB, thread 0 sleeping 32 ns between polls for the
# decision), colD (colB, thread 0 taking its halos before it waits); against HEAD
# (laplace-new); medians of 3 interleaved rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in new col colB colC colD; do echo "$round $1 $bin $(us $B/laplace-$bin $run)"; done
  done
  for bin in new col colB colC colD; do echo "$round course $bin $(course $B/laplace-$bin)"; done
done > $OUT/times-6.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-6.txt | sort -s -k1,1 | tee $OUT/medians-6.txt
grep course $OUT/times-6.txt | awk '{print $3, $5, $6}' | sort | uniq -c
}

# ---- run-7.sh, as it was (its text unchanged) ----
run_7() {
#!/usr/bin/env bash
# Seventh call (one H100): colF = run-6's colB with the decision in one shared word
# (the stop and its iteration together: no fence, one atomic), thread 0 polling it
# every 32 ns, block 0's norm stored after telling; colF-fields the same binary with
# the fields in shared memory (LAPLACE_SPREAD_COLUMNS=0); against HEAD (laplace-new)
# and run-6's colC; medians of 3 interleaved rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "f1024 float 1024 20000" "d512 double 512 30000" "d1024 double 1024 20000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in new colC colF; do echo "$round $1 $bin $(us $B/laplace-$bin $run)"; done
    echo "$round $1 colF-fields $(LAPLACE_SPREAD_COLUMNS=0 us $B/laplace-colF $run)"
  done
  for bin in new colC colF; do echo "$round course $bin $(course $B/laplace-$bin)"; done
  echo "$round course colF-fields $(LAPLACE_SPREAD_COLUMNS=0 course $B/laplace-colF)"
done > $OUT/times-7.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-7.txt | sort -s -k1,1 | tee $OUT/medians-7.txt
grep course $OUT/times-7.txt | awk '{print $3, $5, $6}' | sort | uniq -c
}

# ---- run-8.sh, as it was (its text unchanged) ----
run_8() {
#!/usr/bin/env bash
# Eighth call (one H100), a timing experiment only: colH is colF whose deciding warp
# takes no stop decision but the last iteration's (no norm, no stop_state_step; its
# fields are not checked): does the deciding warp's own work set the loop's pace?
# With the columns in registers (colF, colH) and the fields (-fields); medians of 3.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in colF colH; do
      echo "$round $1 $bin $(us $B/laplace-$bin $run)"
      echo "$round $1 $bin-fields $(LAPLACE_SPREAD_COLUMNS=0 us $B/laplace-$bin $run)"
    done
  done
done > $OUT/times-8.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-8.txt | sort -s -k1,1 | tee $OUT/medians-8.txt
}

# ---- run-9.sh, as it was (its text unchanged) ----
run_9() {
#!/usr/bin/env bash
# Ninth call (one H100): the deciding warp loads the sums of k + 1 while it decides k
# (laplace-pf; the columns-in-registers work of run-5..8 set aside), and pf with thread
# 0 sleeping 32 ns between polls for the decision (laplace-pfs); each also with a lag
# of 3; against HEAD (laplace-new) at lags 2 and 3; medians of 3 interleaved rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "f1024 float 1024 20000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in new pf pfs; do
      echo "$round $1 $bin $(us $B/laplace-$bin $run)"
      echo "$round $1 $bin-lag3 $(LAPLACE_SPREAD_LAG=3 us $B/laplace-$bin $run)"
    done
  done
  for bin in new pf pfs; do
    echo "$round course $bin $(course $B/laplace-$bin)"
    echo "$round course $bin-lag3 $(LAPLACE_SPREAD_LAG=3 course $B/laplace-$bin)"
  done
done > $OUT/times-9.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-9.txt | sort -s -k1,1 | tee $OUT/medians-9.txt
grep course $OUT/times-9.txt | awk '{print $3, $5, $6}' | sort | uniq -c
}

# ---- run-10.sh, as it was (its text unchanged) ----
run_10() {
#!/usr/bin/env bash
# Tenth call (one H100): stop_rule_wants_norm tells check_every 1 first, so that the
# deciding warps skip two 64-bit remainders an iteration (laplace-wm), against HEAD
# (laplace-new); each also with the spread loop's lag of 3; medians of 3 interleaved
# rounds; the cluster's 128^2 and 256^2 too.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f128 float 128 100000" "f256 float 256 50000" "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "f1024 float 1024 20000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in new wm; do
      echo "$round $1 $bin $(us $B/laplace-$bin $run)"
      echo "$round $1 $bin-lag3 $(LAPLACE_SPREAD_LAG=3 us $B/laplace-$bin $run)"
    done
  done
  for bin in new wm; do
    echo "$round course $bin $(course $B/laplace-$bin)"
    echo "$round course $bin-lag3 $(LAPLACE_SPREAD_LAG=3 course $B/laplace-$bin)"
  done
done > $OUT/times-10.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-10.txt | sort -s -k1,1 | tee $OUT/medians-10.txt
grep course $OUT/times-10.txt | awk '{print $3, $5, $6}' | sort | uniq -c
}

# ---- run-11.sh, as it was (its text unchanged) ----
run_11() {
#!/usr/bin/env bash
# Eleventh call (one H100): make test-gpu's suite on the committed change (laplace-fin:
# stop_rule_wants_norm tells check_every 1 first; the spread loop tries a lag of 3 at
# depth 2 first), 8 checks at a time.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=8 timeout -s KILL 570 bash tests/gpu_suite.sh build/gpu/laplace-fin > $OUT/gpu-suite-11.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-11.log | head; tail -1 $OUT/gpu-suite-11.log
}

# ---- run-12.sh, as it was (its text unchanged) ----
run_12() {
#!/usr/bin/env bash
# Twelfth call (one H100): make test-gpu's compute-sanitizer checks on laplace-fin, then
# the bench sweep (the ceilings and the lattice sweep on one GPU) with its plot data.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=12 timeout -s KILL 400 bash tests/gpu_sanitize.sh build/gpu/laplace-fin > $OUT/gpu-sanitize-12.log 2>&1
echo "sanitize rc $?"; grep -v "^ok" $OUT/gpu-sanitize-12.log | tail -5
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 build/gpu/laplace-fin --bench > $OUT/bench-sweep-12.txt 2>&1
echo "bench rc $?"; tail -14 $OUT/bench-sweep-12.txt
}

# ---- run-13.sh, as it was (its text unchanged) ----
run_13() {
#!/usr/bin/env bash
# Thirteenth call (one H100): on laplace-fin, the course table 16^2 ... 1024^2 on one
# tile and on 2x1 and 3x2 tiles of one GPU in both loops (GPU_SUITE_COURSE_MAX=1024,
# last run on 2026-11-25); beside it, the racecheck checks that run-12's time limit cut
# off (the plate on one tile: plain, --monitor 50, --reduce device).
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='course' GPU_SUITE_COURSE_MAX=1024 GPU_SUITE_JOBS=6 timeout -s KILL 560 \
    bash tests/gpu_suite.sh build/gpu/laplace-fin > $OUT/gpu-suite-course-13.log 2>&1 &
suite=$!
GPU_SANITIZE_OUT=tests/out/sanitize-13 GPU_SANITIZE_TOOLS=racecheck \
    GPU_SANITIZE_MATCH='racecheck 1 --nx 101 --ny 67 .*--max-iter 1500 --partition 1x1( --monitor 50| --reduce device)?$' \
    timeout -s KILL 560 bash tests/gpu_sanitize.sh build/gpu/laplace-fin > $OUT/gpu-sanitize-13.log 2>&1
echo "sanitize rc $?"; cat $OUT/gpu-sanitize-13.log | tail -5
wait $suite; echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-course-13.log | head; grep -c "^ok" $OUT/gpu-suite-course-13.log; tail -1 $OUT/gpu-suite-course-13.log
}

# ---- run-14.sh, as it was (its text unchanged) ----
run_14() {
#!/usr/bin/env bash
# Fourteenth call (one H100): on laplace-fin, only the course table's 1024^2 (one tile,
# then the host loop on one tile and 2x1 and 3x2 tiles of one GPU in both loops, each
# field equal to the one tile's), alone on the GPU.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='course 1024' GPU_SUITE_COURSE_MAX=1024 GPU_SUITE_JOBS=1 timeout -s KILL 500 \
    bash tests/gpu_suite.sh build/gpu/laplace-fin > $OUT/gpu-suite-course1024-14.log 2>&1
echo "suite rc $?"; grep -E "^FAILED|^ok" $OUT/gpu-suite-course1024-14.log; tail -1 $OUT/gpu-suite-course1024-14.log
}

# ---- run-15.sh, as it was (its text unchanged) ----
run_15() {
#!/usr/bin/env bash
# Fifteenth call (one H100): on laplace-fin, the course table's 512^2 on every layout
# of one GPU (GPU_SUITE_COURSE_MAX=512: one tile, the rows kernel, the host loop, 2x1
# and 3x2 tiles in both loops), each against the stored md5, one at a time.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='course-512' GPU_SUITE_COURSE_MAX=512 GPU_SUITE_JOBS=1 timeout -s KILL 400 \
    bash tests/gpu_suite.sh build/gpu/laplace-fin > $OUT/gpu-suite-course512-15.log 2>&1
echo "suite rc $?"; grep -E "^FAILED|^ok" $OUT/gpu-suite-course512-15.log | cut -c1-150; tail -1 $OUT/gpu-suite-course512-15.log
}

# ---- run-16.sh, as it was (its text unchanged) ----
run_16() {
#!/usr/bin/env bash
# Sixteenth call (one H100), a timing experiment only: laplace-tf is laplace-fin (0a8dced)
# whose deciding warp tells its sweepers "decided, no stop unless at max_iter" before it
# computes the norm and the stop decision (right only for --eps 0 runs): does the stop
# decision's work in the deciding lane delay the sweepers? Medians of 3.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in fin tf; do echo "$round $1 $bin $(us $B/laplace-$bin $run)"; done
  done
done > $OUT/times-16.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-16.txt | sort -s -k1,1 | tee $OUT/medians-16.txt
}

steps=(run_1 run_2 run_3 run_4 run_6 run_7 run_8 run_9 run_10 run_11 run_12 run_13 run_14 run_15 run_16)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
