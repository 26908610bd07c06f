#!/usr/bin/env bash
# Thirteenth call, on the tree with rounds of 8 by default (laplace-final): (1) the
# course problem's iterations and field; (2) us an iteration, the session's start
# (laplace-new, 3e39ae2) against it, auto, medians of 3 interleaved rounds, and the
# course problem's seconds; (3) the GPU suite's checks of the loops on chip; (4)
# compute-sanitizer on the loops on chip; (5) the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-final config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
echo "$(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 32 32" "float 64 64" "float 128 128" "float 192 192" "float 256 256" "float 300 300" "double 64 64" "double 128 128" "double 256 256"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter 50000"
    for b in new final; do echo "$round $1-$2x$3 $b $(us $B/laplace-$b $run)"; done
  done
  for b in new final; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round course-s $b $(tail -1 /tmp/t.csv | cut -d, -f12)"
  done
done > $OUT/times-13.txt
python3 - $OUT/times-13.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:10s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== GPU suite, loops on chip"
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='chip|cluster|on chip|SIGINT|fault|course-[0-9]+ .*--partition 1x1 \(|course table' timeout -s KILL 200 bash tests/gpu_suite.sh $B/laplace-final > $OUT/gpu-suite-13.log 2>&1
grep -E "^FAILED" $OUT/gpu-suite-13.log | head; tail -1 $OUT/gpu-suite-13.log
echo "== compute-sanitizer on the loops on chip"
GPU_SANITIZE_JOBS=10 GPU_SANITIZE_MATCH='--loop chip|--max-iter 24|--max-iter 23|--ny 12|--ny 13' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-final > $OUT/gpu-sanitize-13.log 2>&1
echo "sanitize rc $?"; grep -E "FAIL|passed" $OUT/gpu-sanitize-13.log | tail -6
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 120 $B/laplace-final --bench > $OUT/bench-sweep-13.txt 2>&1
tail -12 $OUT/bench-sweep-13.txt
