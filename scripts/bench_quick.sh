#!/usr/bin/env bash
# bench_quick.sh - a short look at the sweep's speed on the GPUs present: the
# kernel variants and precisions on one GPU at 16384^2, 1000 iterations with the
# norm every iteration, and the course problem in both reduce modes. CSV rows.
set -uo pipefail
LAPLACE=${LAPLACE:-./laplace}
big="--nx 16384 --ny 16384 --eps 0 --max-iter 1000 --check-every 1 --backend gpu"
run() { echo "# laplace $*"; "$LAPLACE" "$@" --csv | tail -n 1; }
for kernel in rows global readonly shared; do
    run $big --precision float --partition 1x1 --kernel "$kernel"
done
run $big --precision float --partition 1x1 --kernel rows
run $big --precision double --partition 1x1
run $big --precision double --partition 1x1
for layout in 1x2 2x2; do
    run $big --precision float --partition "$layout"
    run $big --precision float --partition "$layout" --reduce device
done
for reduce in host device; do
    for layout in 1x1 1x2 2x2; do
        run config/course-512.ini --backend gpu --partition "$layout" --reduce "$reduce"
    done
done
