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
