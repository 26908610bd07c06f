#!/usr/bin/env bash
# Should auto take the loop on chip for double too? The loop on chip (--loop chip)
# against the batches (--kernel rows, or general for SOR), double, 200000 iterations at
# --eps 0, the norm every iteration, 3 rounds: microseconds an iteration.
set -u
L=${1:-build/gpu/laplace-new}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "n,method,loop,round,iterations,compute_s,us_per_iteration,loop_ran"
for round in 1 2 3; do
  for spec in 128:jacobi 256:jacobi 384:jacobi 448:jacobi 256:sor; do
    n=${spec%%:*}; m=${spec#*:}
    batches="--kernel rows"; [ $m = sor ] && batches="--kernel general"
    for loop in chip batches; do
      how="--loop chip"; [ $loop = batches ] && how=$batches
      line=$($L --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision double --method $m $how --eps 0 --max-iter 200000 --check-every 1 --csv 2>/dev/null | tail -1)
      it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$n,$m,$loop,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
    done
  done
done
