#!/usr/bin/env bash
# method_examples.sh - the README's worked examples of each method: the presets
# solved on 1 GPU and on 4 GPUs (2x2), one CSV row each, then a table of
# iterations and compute times. Usage: scripts/method_examples.sh [./laplace]
set -euo pipefail
LAPLACE=${1:-./laplace}
printf '%-48s %-9s %-9s %10s %10s\n' example backend partition iterations compute_s
run() {
    local label=$1; shift
    local row
    row=$("$LAPLACE" "$@" --csv | tail -n 1)
    IFS=, read -r backend _ _ _ partition _ _ iterations _ _ _ compute _ <<< "$row"
    printf '%-48s %-9s %-9s %10s %10s\n' "$label" "$backend" "$partition" "$iterations" "$compute"
}
for layout in 1x1 2x2; do
    run "heater.ini, jacobi" config/heater.ini --method jacobi --partition "$layout"
    run "heater.ini, weighted omega 0.8" config/heater.ini --method weighted --omega 0.8 --partition "$layout"
    run "heater.ini, sor omega auto" config/heater.ini --partition "$layout"
    run "obstacle.ini (sor, dx != dy)" config/obstacle.ini --partition "$layout"
    run "poisson-sine.ini (sor, residual norm)" config/poisson-sine.ini --partition "$layout"
    run "heat-transient.ini (4000 steps)" config/heat-transient.ini --partition "$layout" \
        --output "${TMPDIR:-/tmp}/heat-transient.dat"
done
