#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-27-pace/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-27-pace/reproduce.sh             every step, in order
#   bash results/2026-11-27-pace/reproduce.sh STEP ...    some of them: run_1 run_3 run_4 run_5 run_6 run_7
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run-1.sh, as it was (its text unchanged) ----
run_1() {
#!/usr/bin/env bash
# First call of the tenth session: (1) pace_floor, the probe left by the ninth session;
# (2) the lag-2 spread checks 8d14a3d added, against serial, then under the three tools
# (the 40x12 spread lattice's checks, which hold the forced lag of 2); (3) alone, the
# three racecheck checks of the 101x67 plate that the ninth session's sanitizer run left
# unfinished. laplace-fin is 0a8dced's source (HEAD changes only the two test scripts).
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
timeout -s KILL 150 $B/pace_floor 2>&1 | tee $OUT/pace-floor-1.txt
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='spread-lag2' timeout -s KILL 120 bash tests/gpu_suite.sh $B/laplace-fin > $OUT/gpu-suite-lag2-1.log 2>&1
echo "suite rc $?"; tail -3 $OUT/gpu-suite-lag2-1.log
GPU_SANITIZE_OUT=$OUT/san GPU_SANITIZE_JOBS=8 GPU_SANITIZE_MATCH='--nx 40 --ny 12' timeout -s KILL 120 bash tests/gpu_sanitize.sh $B/laplace-fin > $OUT/gpu-sanitize-spread-1.log 2>&1
echo "sanitize rc $?"; tail -3 $OUT/gpu-sanitize-spread-1.log; rm -rf $OUT/san
start=$(date +%s)
GPU_SANITIZE_OUT=$OUT/san GPU_SANITIZE_JOBS=3 GPU_SANITIZE_TOOLS=racecheck GPU_SANITIZE_MATCH='--nx 101 --ny 67 .*--max-iter 1500 --partition 1x1( --monitor 50| --reduce device)?$' timeout -s KILL 330 bash tests/gpu_sanitize.sh $B/laplace-fin > $OUT/gpu-sanitize-plate-1.log 2>&1
echo "racecheck plate rc $? in $(( $(date +%s) - start )) s"; tail -5 $OUT/gpu-sanitize-plate-1.log; rm -rf $OUT/san
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
#!/usr/bin/env bash
# Third call (one GPU): laplace-cand, the committed candidate (the spread loop's columns
# in registers with their shape known when compiled, the deciding warp's loads sized
# for 160 blocks), against HEAD 8d14a3d's binary (laplace-fin); medians of 3
# interleaved rounds; then make test-gpu's suite on laplace-cand, 10 checks at a time.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "d384 double 384 30000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for v in fin cand; do echo "$round $1 $v $(us $B/laplace-$v $run)"; done
  done
  for v in fin cand; do echo "$round course $v $(course $B/laplace-$v)"; done
done > $OUT/times-3.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-3.txt | sort -s -k1,1 | tee $OUT/medians-3.txt
grep course $OUT/times-3.txt | awk '{print $3, $5, $6}' | sort | uniq -c
start=$(date +%s)
GPU_SUITE_JOBS=10 timeout -s KILL 470 bash tests/gpu_suite.sh $B/laplace-cand > $OUT/gpu-suite-3.log 2>&1
echo "suite rc $? in $(( $(date +%s) - start )) s"; grep -E "^FAILED" $OUT/gpu-suite-3.log | head; tail -1 $OUT/gpu-suite-3.log
}

# ---- run-4.sh, as it was (its text unchanged) ----
run_4() {
#!/usr/bin/env bash
# Fourth call (one GPU, the machine of run-3): make test-gpu's compute-sanitizer checks
# on laplace-cand (racecheck's lone-tile plates now 120 iterations), then the bench
# sweep (the ceilings and the lattice sweep on one GPU) with its plot data.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
start=$(date +%s)
GPU_SANITIZE_JOBS=12 timeout -s KILL 360 bash tests/gpu_sanitize.sh build/gpu/laplace-cand > $OUT/gpu-sanitize-4.log 2>&1
echo "sanitize rc $? in $(( $(date +%s) - start )) s"; grep -v "^ok" $OUT/gpu-sanitize-4.log | grep -v "^skipped" | tail -5
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 build/gpu/laplace-cand --bench > $OUT/bench-sweep-4.txt 2>&1
echo "bench rc $?"; tail -14 $OUT/bench-sweep-4.txt
}

# ---- run-5.sh, as it was (its text unchanged) ----
run_5() {
#!/usr/bin/env bash
# Fifth call (one GPU): the course table's 1024^2 on laplace-cand, whose one tile runs
# the spread loop with the fields in shared memory (1024 columns: too wide for a thread
# a column) and the new deciding warp: the one tile's field, then the host loop on one
# tile and 2x1 and 3x2 tiles in both loops against it, 1399571 iterations each.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_MATCH='course 1024' GPU_SUITE_COURSE_MAX=1024 GPU_SUITE_JOBS=1 timeout -s KILL 300 \
    bash tests/gpu_suite.sh build/gpu/laplace-cand > $OUT/gpu-suite-course1024-5.log 2>&1
echo "suite rc $?"; grep -E "^FAILED|^ok" $OUT/gpu-suite-course1024-5.log; tail -1 $OUT/gpu-suite-course1024-5.log
}

# ---- run-6.sh, as it was (its text unchanged) ----
run_6() {
#!/usr/bin/env bash
# Sixth call (one GPU): the bench sweep three more times on laplace-cand (3282436's
# code), each measuring its own copy bandwidth: how far 2048^2 and 4096^2, the two
# lattices nearest their targets, move from run to run.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for n in 1 2 3; do
  mkdir -p $OUT/sweep-$n
  LAPLACE_BENCH_DIR=$OUT/sweep-$n LAPLACE_BENCH_ONLY=sweep timeout -s KILL 80 build/gpu/laplace-cand --bench > $OUT/bench-sweep-6-$n.txt 2>&1
  echo "sweep $n rc $?: $(grep -o 'copy  *[0-9.]* GB/s' $OUT/bench-sweep-6-$n.txt | head -1)"
  grep -E "^(2048|4096)\^2" $OUT/bench-sweep-6-$n.txt
done
}

# ---- run-7.sh, as it was (its text unchanged) ----
run_7() {
#!/usr/bin/env bash
# Seventh call (one GPU): laplace-final, where both spread sweeps take their rows from
# one inner_rows (a refactor: the same rows, so the same bits), against laplace-cand:
# the course problem 3 rounds each; the suite's spread checks and the course problem on
# one tile against the stored serial reference; the spread lattices under memcheck,
# racecheck and synccheck.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do for v in cand final; do echo "$round course $v $(course $B/laplace-$v)"; done; done > $OUT/times-7.txt
cat $OUT/times-7.txt
GPU_SUITE_JOBS=10 GPU_SUITE_MATCH='spread|course-512 --partition 1x1 \(needs' timeout -s KILL 150 bash tests/gpu_suite.sh $B/laplace-final > $OUT/gpu-suite-spread-7.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-spread-7.log | head; tail -1 $OUT/gpu-suite-spread-7.log
GPU_SANITIZE_OUT=$OUT/san GPU_SANITIZE_JOBS=12 GPU_SANITIZE_MATCH='--nx (40 --ny 12|37 --ny 13|34 --ny 14) ' timeout -s KILL 100 bash tests/gpu_sanitize.sh $B/laplace-final > $OUT/gpu-sanitize-spread-7.log 2>&1
echo "sanitize rc $?"; grep -v "^ok" $OUT/gpu-sanitize-spread-7.log | tail -3; rm -rf $OUT/san
}

steps=(run_1 run_3 run_4 run_5 run_6 run_7)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
