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
