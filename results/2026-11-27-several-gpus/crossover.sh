#!/usr/bin/env bash
# crossover.sh OLD NEW OUT.csv [REPS]: one GPU against 2 and 4 on every lattice of the
# table, the binaries OLD and NEW side by side in one call (interleaved, so that both
# see the same machine), float, the norm every iteration, --eps 0, a fixed number of
# iterations (about 0.3-1 s a run). Each row: binary, lattice, layout, repetition,
# iterations, compute seconds, us an iteration, the loop the report named. Layouts:
# 1x1 (auto's loop for one GPU), 1x2 and 2x1, 1x4 and 2x2 where the machine has the GPUs
# (LAYOUTS='1x1 1x2 ...', LATTICES='8192 16384': those only).
set -u
old=$1 new=$2 out=$3 reps=${4:-3}
gpus=$("$new" --topology 2>/dev/null | sed -n 's/.*: \([0-9]*\) CUDA device.*/\1/p')
layouts=${LAYOUTS:-1x1}
[ -n "${LAYOUTS:-}" ] || [ "${gpus:-0}" -lt 2 ] || layouts="$layouts 1x2 2x1"
[ -n "${LAYOUTS:-}" ] || [ "${gpus:-0}" -lt 4 ] || layouts="$layouts 1x4 2x2"
echo "binary,lattice,layout,rep,iterations,compute_s,us_per_iteration,loop" > "$out"
run() { # BINARY-NAME BINARY SIDE ITERATIONS LAYOUT REP
    local row
    row=$("$2" --backend gpu --nx "$3" --ny "$3" --precision float --eps 0 \
        --max-iter "$4" --partition "$5" --csv 2>/dev/null | tail -n 1)
    awk -F, -v b="$1" -v n="$3" -v l="$5" -v r="$6" -v it="$4" \
        '{ printf "%s,%s,%s,%s,%s,%s,%.3f,%s\n", b, n, l, r, $8, $12, $12 / $8 * 1e6, $22 }' \
        <<< "$row" >> "$out"
}
lattices=${LATTICES:-"1024 2048 4096 8192 16384"}
for lattice in "1024 60000" "2048 20000" "4096 6000" "8192 1500" "16384 1000"; do
    [[ " $lattices " == *" ${lattice% *} "* ]] || continue
    set -- $lattice
    for layout in $layouts; do
        run new "$new" "$1" 200 "$layout" warm # warm-up, kept apart
        for rep in $(seq "$reps"); do
            run old "$old" "$1" "$2" "$layout" "$rep"
            run new "$new" "$1" "$2" "$layout" "$rep"
        done
    done
done
# the median of each binary, lattice and layout (sort: the machines' awk has no asort)
medians="${out%.csv}-medians.csv"
echo "binary,lattice,layout,median_us_per_iteration,runs,loop" > "$medians"
grep -v -e ',warm,' -e '^binary' "$out" | cut -d, -f1-3 | sort -u | while IFS=, read -r b n l; do
    grep "^$b,$n,$l,[0-9]" "$out" | cut -d, -f7,8 | sort -t, -k1,1g |
        awk -F, -v k="$b,$n,$l" '{ v[NR] = $1; loop = $2 } END { printf "%s,%s,%d,%s\n", k, v[int((NR + 1) / 2)], NR, loop }'
done | sort -t, -k2,2n -k3,3 -k1,1 >> "$medians"
cat "$medians"
