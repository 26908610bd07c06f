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
