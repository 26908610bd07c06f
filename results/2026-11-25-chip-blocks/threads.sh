#!/usr/bin/env bash
# The loop on chip: blocks of the cluster (LAPLACE_CHIP_BLOCKS) against threads a block
# (LAPLACE_CHIP_THREADS), float and double, the norm every iteration, 100000 iterations
# at --eps 0, 3 rounds; microseconds an iteration. Each warp sends its sum to every
# block, so fewer warps and fewer blocks send fewer remote stores.
set -u
L=${1:-build/gpu/laplace-new}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "n,precision,blocks,threads,check_every,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for n in 128 256 512; do
    for prec in float double; do
      [ $prec = double ] && [ $n = 512 ] && continue
      for b in 4 8 16; do
        [ $n -gt 128 ] && [ $b != 16 ] && continue
        for th in 128 256 512 1024; do
          export LAPLACE_CHIP_BLOCKS=$b LAPLACE_CHIP_THREADS=$th
          line=$($L --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --loop chip --eps 0 --max-iter 100000 --check-every 1 --csv 2>/dev/null | tail -1)
          it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
          echo "$n,$prec,$b,$th,1,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
        done
      done
    done
  done
done
unset LAPLACE_CHIP_BLOCKS LAPLACE_CHIP_THREADS
for th in 128 256 1024; do
  LAPLACE_CHIP_THREADS=$th $L --backend gpu --nx 128 --ny 128 --top 1 --left 0.3 --precision float --loop chip --eps 0 --max-iter 1000 --output /tmp/f.bin > /dev/null 2>&1
  echo "# 128 float threads $th md5 $(md5sum < /tmp/f.bin | cut -c1-12)"
done
