#!/usr/bin/env bash
# bench_scaling.sh - the multi-GPU scaling table: one lattice, a fixed number of
# iterations with the norm every iteration, on every partition that fits the
# GPUs present; each run twice, to show the spread. Prints CSV rows (with the
# command line) and then a table with speed-up and efficiency against 1x1.
# REPEATS=1 runs each layout once (for lattices whose set-up takes long).
#   scripts/bench_scaling.sh [N] [ITERATIONS] [PRECISION] > table.csv
set -euo pipefail
LAPLACE=${LAPLACE:-./laplace}
n=${1:-16384} iterations=${2:-1000} precision=${3:-float}
ngpu=$("$LAPLACE" --topology | sed -n 's/.*: \([0-9]*\) CUDA device.*/\1/p')
rows=$(mktemp)
echo "command,$("$LAPLACE" --csv --backend serial --nx 3 --ny 3 --max-iter 1 | head -n 1)"
for layout in 1x1 1x2 2x1 2x2 1x4 4x1 1x8 2x4 4x2 8x1; do
    tiles=$(( ${layout%x*} * ${layout#*x} ))
    [ "$tiles" -le "$ngpu" ] || continue
    for repeat in $(seq "${REPEATS:-2}"); do
        cmd="laplace --backend gpu --nx $n --ny $n --precision $precision --eps 0 --max-iter $iterations --check-every 1 --partition $layout"
        row=$("$LAPLACE" ${cmd#laplace } --csv | tail -n 1)
        echo "\"$cmd\",$row" | tee -a "$rows"
    done
done
echo
awk -F, -v n="$n" -v it="$iterations" -v repeats="${REPEATS:-2}" '
    { split($6, p, "x"); tiles = p[1] * p[2]; t = $13 + 0
      if (!(($6) in best) || t < best[$6]) best[$6] = t; seen[$6] = tiles; order[++k] = $6 }
    END {
        t1 = best["1x1"]
        printf "%dx%d, %d iterations, norm every iteration (best of %d runs):\n", n, n, it, repeats
        printf "%-9s %5s %10s %9s %11s\n", "partition", "GPUs", "compute_s", "speed-up", "efficiency"
        for (i = 1; i <= k; i++) { l = order[i]; if (done[l]++) continue
            printf "%-9s %5d %10.3f %9.2f %10.0f%%\n", l, seen[l], best[l], t1 / best[l], 100 * t1 / (seen[l] * best[l]) }
    }' "$rows"
rm -f "$rows"
