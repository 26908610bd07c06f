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
