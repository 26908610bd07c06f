#!/usr/bin/env bash
# resident.sh BIN - does the resident loop of --reduce device (one kernel a launch that
# adds the block sums and stops by itself) win anywhere? A lone tile, float, the norm
# every iteration, eps 0: us an iteration (compute time / iterations, the median of 3
# after a warm-up) of --reduce device --kernel rows (the resident loop; auto would go on
# chip where the lattice fits), --reduce host with the same
# rows kernel (batches of single sweeps) and --reduce host on auto (what a run gets).
set -u
bin=${1:?usage: resident.sh BIN}
us() {
    local t=()
    "$bin" --backend gpu --csv "$@" > /dev/null 2>&1
    for _ in 1 2 3; do
        t+=("$("$bin" --backend gpu --csv "$@" 2>/dev/null | tail -n 1 | awk -F, '{printf "%.3f", 1e6 * $12 / $8}')")
    done
    printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}
echo "lattice iterations resident(--reduce device --kernel rows) singles(--reduce host --kernel rows) auto(--reduce host)"
for spec in "256 20000" "512 20000" "1024 10000" "2048 5000" "4096 2000"; do
    set -- $spec
    run="--partition 1x1 --precision float --nx $1 --ny $1 --top 1 --left 0.3 --eps 0 --max-iter $2"
    echo "$1^2 $2 $(us $run --reduce device --kernel rows) $(us $run --reduce host --kernel rows) $(us $run --reduce host)"
done
