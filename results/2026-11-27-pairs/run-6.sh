#!/usr/bin/env bash
# Sixth call (one GPU): issue 24's table, old (laplace-final, HEAD f0416d2) and new
# (laplace-pairs, 73c22d8) side by side, medians of 3 interleaved rounds, float with
# the norm every iteration (--eps 0), and the course problem to eps 1e-10 (iterations
# and field md5); the bench sweep (the copy bandwidth of this machine, floors); and
# compute-sanitizer on a lone tile's batches of single sweeps (whose tail changed).
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f128 128 10000" "f256 256 10000" "f1024 1024 10000" "f2048 2048 5000" "f4096 4096 2000" "f16384 16384 200"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision float --nx $2 --ny $2 --max-iter $3"
    for v in final pairs; do echo "$round $1 $v $(us $B/laplace-$v $run)"; done
  done
  for v in final pairs; do echo "$round course $v $(course $B/laplace-$v)"; done
done > $OUT/times-6.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-6.txt | sort -s -k1,1 | tee $OUT/medians-6.txt
grep course $OUT/times-6.txt | awk '{print $3, $5, $6}' | sort | uniq -c
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 100 $B/laplace-pairs --bench > $OUT/bench-sweep-6.txt 2>&1
echo "bench rc $?"; grep -A10 "^lattice " $OUT/bench-sweep-6.txt | head -10
start=$(date +%s)
GPU_SANITIZE_JOBS=12 GPU_SANITIZE_OUT=$OUT/sanitize GPU_SANITIZE_MATCH='--loop batched' \
  timeout -s KILL 150 bash tests/gpu_sanitize.sh $B/laplace-pairs > $OUT/gpu-sanitize-6.log 2>&1
echo "sanitize rc $? in $(( $(date +%s) - start )) s"; grep -E "^FAILED" $OUT/gpu-sanitize-6.log | head; tail -1 $OUT/gpu-sanitize-6.log
rm -rf $OUT/sanitize
