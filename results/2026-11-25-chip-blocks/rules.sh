#!/usr/bin/env bash
# The loop on chip against the batches for rules other than plain Jacobi (the general
# kernel): SOR, a source (poisson-sine), relaxation (--omega 0.9), float and double,
# 100000 iterations at --eps 0, the norm every iteration, 3 rounds.
set -u
L=${1:-build/gpu/laplace-new}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "n,precision,rule,loop,round,iterations,compute_s,us_per_iteration,loop_ran"
for round in 1 2 3; do
  for spec in "128:sor:--method sor" "256:sor:--method sor" "256:source:config/poisson-sine.ini --method jacobi" "256:omega:--omega 0.9" "512:sor:--method sor"; do
    n=${spec%%:*}; rest=${spec#*:}; rule=${rest%%:*}; args=${rest#*:}
    for prec in float double; do
      [ $prec = double ] && [ $n = 512 ] && continue
      for loop in chip batches; do
        how="--loop chip"; [ $loop = batches ] && how="--kernel general"
        line=$($L $args --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec $how --eps 0 --max-iter 100000 --check-every 1 --csv 2>/dev/null | tail -1)
        it=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
        echo "$n,$prec,$rule,$loop,$round,$it,$t,$(python3 -c "print(f'{1e6*$t/$it:.3f}')" 2>/dev/null),$(echo "$line" | cut -d, -f22)"
      done
    done
  done
done
