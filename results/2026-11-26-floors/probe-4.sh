#!/usr/bin/env bash
# Fourth call: the sweeps of the loops on chip take a run of a column's sites from
# registers (sweep_run: every value loaded before the first update) instead of one
# site a trip through shared memory. laplace-new is HEAD (3e39ae2); laplace-run the
# change (spread 8 float / 4 double sites a run, cluster 4); laplace-run2 the cluster
# at 2. (1) course problem iterations and md5; (2) us an iteration, medians of 3
# interleaved rounds; (3) the GPU suite's checks of the loops on chip.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
for b in run run2; do
  timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
  echo "$b $(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
done
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 32 32" "float 64 64" "float 128 128" "float 256 256" "float 512 512" "float 1024 1024" "float 1448 1448" "double 128 128" "double 256 256" "double 512 512" "double 1024 1024" "double 1100 1000"; do
    set -- $case
    it=50000; [ $2 -ge 1024 ] && it=20000
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter $it"
    for b in new run run2; do echo "$round $1-$2x$3 $b $(us $B/laplace-$b $run)"; done
    [ $2 -le 256 ] && echo "$round $1-$2x$3 run-spread $(LAPLACE_CHIP_WAY=spread us $B/laplace-run $run --loop chip)"
    [ $2 -ge 256 ] && [ $2 -le 512 ] && echo "$round $1-$2x$3 run-cluster $(LAPLACE_CHIP_WAY=cluster us $B/laplace-run $run --loop chip)"
  done
  for b in new run; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round course $b $(tail -1 /tmp/t.csv | cut -d, -f12)"
  done
done > $OUT/times.txt
python3 - $OUT/times.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== GPU suite, loops on chip"
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='chip|spread|cluster|course' timeout -s KILL 300 bash tests/gpu_suite.sh $B/laplace-run > $OUT/gpu-suite-chip.log 2>&1
grep -E "^FAILED" $OUT/gpu-suite-chip.log | head; tail -3 $OUT/gpu-suite-chip.log
