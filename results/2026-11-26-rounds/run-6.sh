#!/usr/bin/env bash
# Sixth call: the tree as it will be committed (depth 0 compiled apart; the cluster up
# to 16 rows). (1) course problem, (2) us an iteration, old (8124d8a) against new, auto,
# medians of 3 interleaved rounds, (3) compute-sanitizer on the loops on chip, (4) the
# bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-new config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
grep -E "loop|iterations" /tmp/c.txt | head -4; md5sum < /tmp/c.dat
echo "== us an iteration (eps 0, the norm every iteration)"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 32 32" "float 64 64" "float 128 128" "float 256 256" "float 512 512" "float 1024 1024" "float 1448 1448" "float 1600 1500" "float 1800 1790" "double 32 32" "double 64 64" "double 128 128" "double 256 256" "double 512 512" "double 1024 1024" "double 1100 1000" "double 1300 1290"; do
    set -- $case
    it=50000; [ $2 -ge 1024 ] && it=20000
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter $it"
    echo "$round $case old $(us $B/laplace-old $run)"
    echo "$round $case new $(us $B/laplace-new $run)"
    [ $2 -le 256 ] && echo "$round $case new-cluster $(LAPLACE_CHIP_WAY=cluster us $B/laplace-new $run --loop chip)"
    [ $2 -le 256 ] && echo "$round $case new-spread $(LAPLACE_CHIP_WAY=spread us $B/laplace-new $run --loop chip)"
    [ $2 -ge 1448 ] && echo "$round $case batched $(us $B/laplace-new $run --loop batched)"
  done
done
echo "== course problem seconds, old and new (auto)"
for round in 1 2 3; do
  for b in old new; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round $b $(tail -1 /tmp/t.csv | cut -d, -f8,12)"
  done
done
echo "== compute-sanitizer on the loops on chip"
GPU_SANITIZE_JOBS=8 GPU_SANITIZE_MATCH='--loop chip|--ny 67|--ny 12|--ny 13' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize-6.log 2>&1
grep -E "FAIL|passed" $OUT/gpu-sanitize-6.log | tail -6
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-new --bench > $OUT/bench-sweep-6.txt 2>&1
tail -14 $OUT/bench-sweep-6.txt
