#!/usr/bin/env bash
# bench_quick.sh - a short look at the sweep's speed on the GPUs present: the
# kernel variants, block shapes and precisions at 16384^2 (1000 iterations, the
# norm every iteration), the multi-GPU layouts, and the course problem in both
# reduce modes. One CSV row per run, each after the command that made it.
set -uo pipefail
LAPLACE=${LAPLACE:-./laplace}
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
big="--nx 16384 --ny 16384 --eps 0 --max-iter 1000 --check-every 1 --backend gpu"
run() { echo "# laplace $*"; "$LAPLACE" "$@" --csv | tail -n 1; }
for kernel in rows global readonly shared; do
    run $big --precision float --partition 1x1 --kernel "$kernel"
done
for block in 32x8 64x4 128x2 256x1 32x16 64x8; do
    run $big --precision float --partition 1x1 --block "$block"
done
run $big --precision float --partition 1x1 --reduce device
run $big --precision double --partition 1x1
run $big --precision double --partition 1x1 --block 64x4
for layout in 1x2 2x2; do
    tiles=$(( ${layout%x*} * ${layout#*x} ))
    [ "$tiles" -le "$ngpu" ] || continue
    run $big --precision float --partition "$layout"
    run $big --precision float --partition "$layout" --reduce device
done
for reduce in host device; do
    for layout in 1x1 1x2 2x2; do
        tiles=$(( ${layout%x*} * ${layout#*x} ))
        [ "$tiles" -le "$ngpu" ] || continue
        run config/course-512.ini --backend gpu --partition "$layout" --reduce "$reduce"
    done
done
