#!/usr/bin/env bash
# The loop on chip with 1, 2, 4, 8 and 16 blocks in its cluster (LAPLACE_CHIP_BLOCKS;
# "auto" = the plan's own choice), float, the norm every iteration and every 1000th,
# 100000 iterations at --eps 0, 3 rounds: microseconds an iteration from the compute
# time. Then the fields of every cluster size against each other (md5, 1000 iterations).
set -u
L=${1:-build/gpu/laplace-new}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "n,precision,blocks,check_every,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for n in 128 256 384 512; do
    for prec in float double; do
      [ $prec = double ] && [ $n -gt 384 ] && continue
      for b in auto 1 2 4 8 16; do
        for c in 1 1000; do
          if [ $b = auto ]; then unset LAPLACE_CHIP_BLOCKS; else export LAPLACE_CHIP_BLOCKS=$b; fi
          line=$($L --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --loop chip --eps 0 --max-iter 100000 --check-every $c --csv 2>/dev/null | tail -1)
          it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
          echo "$n,$prec,$b,$c,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
        done
      done
    done
  done
done
unset LAPLACE_CHIP_BLOCKS
for n in 128 512; do
  for b in auto 1 2 4 8 16; do
    if [ $b = auto ]; then unset LAPLACE_CHIP_BLOCKS; else export LAPLACE_CHIP_BLOCKS=$b; fi
    $L --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision float --loop chip --eps 0 --max-iter 1000 --output /tmp/f.bin > /tmp/r.txt 2>&1
    echo "# $n blocks $b: $(grep -o 'loop .*' /tmp/r.txt | head -1 | cut -c1-90) md5 $(md5sum < /tmp/f.bin | cut -c1-12)"
  done
done
