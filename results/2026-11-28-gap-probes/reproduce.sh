#!/usr/bin/env bash
# reproduce.sh rows-a|rows|flags|knobs: the device calls behind this folder, run from
# the repository root on a machine of 4 GPUs, with gpu-bin/laplace-new (main 339e837)
# and gpu-bin/laplace-hH for H = 8, 10, 12, 14: new with the passes' strip rows
# (kernels/laplace_pairs.cu's PAIR_STRIP_ROWS, 16) set to H in a copy of the tree
# outside the repository, each built with `make`; CSVs into $OUT. Float, the norm every
# iteration, --eps 0, a warm-up run a case, then 3 runs of each variant in turn.
#   rows-a  call A: strip rows 16, 8 and 12 on 1 GPU, 1x2 and 1x4 at 2048^2 (25000
#           iterations), 4096^2 (8000), 8192^2 (2500) (the crossover mode of
#           results/2026-11-28-crossover/reproduce.sh: crossover.csv and its medians)
#   rows    call R: strip rows 8 .. 16 on lone lattices and stacked tiles of twelve
#           shapes, about 0.2 s of compute a run (rows.csv, rows-medians.csv)
#   flags   call A: the stacked passes meeting through peer flags (LAPLACE_TUNE=
#           pass_meeting=flags) on 1x2 and 1x4 at 4096^2 and 8192^2 (crossover mode)
#   knobs   call S1: the spread strips over 2 and 4 GPUs at 2048^2 at other halo
#           depths and lags (LAPLACE_TUNE spread_depth, spread_lag; knobs.csv)
set -u
export NCCL_NVLS_ENABLE=0
out=${OUT:-/tmp}
x=results/2026-11-28-crossover/reproduce.sh
bin() { [ "$1" = 16 ] && echo gpu-bin/laplace-new || echo "gpu-bin/laplace-h$1"; }
# one CSV row: LABEL CASE REP BINARY ARGS... (a LABEL holding commas is kept whole)
row() {
    local label=$1 case=$2 rep=$3 binary=$4; shift 4
    "$binary" --backend gpu --csv "$@" 2> /dev/null | tail -n 1 |
        awk -F, -v l="$label" -v c="$case" -v r="$rep" \
            '{ if (index(l, ",")) l = "\"" l "\""
               printf "%s,%s,%s,%s,%s,%s,%.3f,%s\n", l, c, r, $5, $8, $12, $12 / $8 * 1e6, $22 }'
}
case ${1:-} in
rows-a)
    OUT=$out VARIANTS="new:1x1 h8:1x1 h12:1x1 new:1x2 h8:1x2 h12:1x2 new:1x4 h8:1x4 h12:1x4" \
        CASES='^f(2048|4096|8192)$' bash $x crossover
    ;;
rows)
    csv=$out/rows.csv
    echo "h,case,rep,partition,iterations,compute_s,us_per_iteration,loop" > "$csv"
    while read -r nx ny layout; do
        tiles=${layout#1x}
        it=$((130000000000 * tiles / (nx * ny)))
        [ $it -gt 30000 ] && it=30000
        it=$((it / 4 * 4))
        loop=()
        [ "$tiles" -gt 1 ] && loop=(--loop batched)
        args=(--nx "$nx" --ny "$ny" --eps 0 --max-iter "$it" --partition "$layout" "${loop[@]}")
        "$(bin 16)" --backend gpu "${args[@]}" > /dev/null 2>&1
        for rep in 1 2 3; do
            for h in 8 10 12 14 16; do
                row "$h" "${nx}x${ny}-$layout" "$rep" "$(bin $h)" "${args[@]}" >> "$csv"
            done
        done
    done <<'CASES'
4096 1024 1x1
4096 2048 1x1
8192 2048 1x1
2048 2048 1x1
6000 1500 1x1
3000 3000 1x1
4096 4096 1x4
6000 6000 1x4
3000 3000 1x4
8192 8192 1x4
4096 4096 1x2
3000 3000 1x2
CASES
    ;;
flags)
    LAPLACE_TUNE=pass_meeting=flags OUT=$out VARIANTS="new:1x2 new:1x4 h8:1x4" \
        CASES='^f(4096|8192)$' bash $x crossover
    ;;
knobs)
    csv=$out/knobs.csv
    echo "tune,case,rep,partition,iterations,compute_s,us_per_iteration,loop" > "$csv"
    for layout in 1x4 1x2; do
        args=(--nx 2048 --ny 2048 --eps 0 --max-iter 25000 --partition "$layout")
        gpu-bin/laplace-new --backend gpu "${args[@]}" > /dev/null 2>&1
        for rep in 1 2 3; do
            for tune in "" spread_depth=2,spread_lag=2 spread_depth=3,spread_lag=2 \
                spread_depth=4,spread_lag=2 spread_depth=3,spread_lag=3 spread_depth=1,spread_lag=2; do
                LAPLACE_TUNE=$tune row "${tune:-auto}" "f2048-$layout" "$rep" gpu-bin/laplace-new "${args[@]}" >> "$csv"
            done
        done
    done
    ;;
*)
    echo "usage: OUT=dir bash $0 rows-a|rows|flags|knobs" >&2
    exit 2
    ;;
esac
