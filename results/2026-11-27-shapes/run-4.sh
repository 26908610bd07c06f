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
