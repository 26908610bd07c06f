#!/usr/bin/env bash
# reproduce.sh ab|verify: the device calls behind this folder, run from the repository
# root on a machine of 2 GPUs or more, with gpu-bin/laplace-prev (main before this
# change: batch b + 1 launched once batch b was waited for) and gpu-bin/laplace-new
# (batch b + 1 queued behind batch b before the host waits for b), both built on the
# CPU machine with `make`; CSVs and logs into $OUT.
#   ab      prev against new, float (and double 8192^2), the norm every iteration,
#           --eps 0, a fixed number of iterations: one GPU and 1x2 at 2048^2 ...
#           16384^2 (1x4 too where there are 4 GPUs), and single sweeps' batches
#           (LAPLACE_TUNE=pairs=0, 4096^2); a warm-up run a case, then REPS runs of
#           each in turn (ab.csv), and the medians (ab-medians.csv)
#   verify  the GPU suite's checks of batches (every layout, the stop inside a batch,
#           --max-iter, faults, Ctrl-C, the breakdown; 16 at a time, cut at
#           SUITE_LIMIT s), then compute-sanitizer's of batches
set -u
export NCCL_NVLS_ENABLE=0
out=${OUT:-/tmp}
reps=${REPS:-3}
row() { # NAME CASE REP ARGS...: one row of ab.csv
    local name=$1 case=$2 rep=$3; shift 3
    "gpu-bin/laplace-$name" --backend gpu --csv "$@" 2>/dev/null | tail -n 1 |
        awk -F, -v b="$name" -v c="$case" -v r="$rep" \
            '{ printf "%s,%s,%s,%s,%s,%s,%.3f,%s\n", b, c, r, $5, $8, $12, $12 / $8 * 1e6, $22 }'
}
case ${1:-} in
ab)
    csv="$out/ab.csv"
    echo "binary,case,rep,partition,iterations,compute_s,us_per_iteration,loop" > "$csv"
    gpus=$(nvidia-smi -L | wc -l)
    while read -r side iterations precision tune; do
        for layout in 1x1 1x2 1x4; do
            [ "${layout#1x}" -le "$gpus" ] || continue
            case="$precision-$side-$layout${tune:+-$tune}"
            args=(--nx "$side" --ny "$side" --precision "$precision" --eps 0 --max-iter "$iterations" --partition "$layout")
            LAPLACE_TUNE=$tune row new "$case" warm "${args[@]}" >> "$csv"
            for rep in $(seq "$reps"); do
                for b in prev new; do
                    LAPLACE_TUNE=$tune row "$b" "$case" "$rep" "${args[@]}" >> "$csv"
                done
            done
        done
    done <<'CASES'
2048 25000 float
4096 8000 float
8192 2500 float
16384 1000 float
8192 1500 double
4096 4000 float pairs=0
CASES
    medians="$out/ab-medians.csv"
    echo "binary,case,partition,median_us_per_iteration,runs,loop" > "$medians"
    grep -v -e ',warm,' -e '^binary' "$csv" | cut -d, -f1,2 | sort -u | while IFS=, read -r b c; do
        grep "^$b,$c,[0-9]" "$csv" | cut -d, -f4,7,8 | sort -t, -k2,2g |
            awk -F, -v k="$b,$c" '{ p[NR] = $1; u[NR] = $2; loop = $3 }
                END { m = int((NR + 1) / 2); printf "%s,%s,%s,%d,%s\n", k, p[m], u[m], NR, loop }'
    done >> "$medians"
    cat "$medians"
    ;;
verify)
    GPU_SUITE_JOBS=16 GPU_SUITE_MATCH=${SUITE_MATCH:-'batched-|stacked|pairs-|shapes-|sor-batched|sor-large|--loop batched|fault |SIGINT|breaks|course-512 |stored'} \
        timeout "${SUITE_LIMIT:-300}" bash tests/gpu_suite.sh gpu-bin/laplace-new > "$out/gpu-suite.log" 2>&1
    echo "suite: exit $?, $(grep -c '^ok' "$out/gpu-suite.log") ok, $(grep -c '^FAILED' "$out/gpu-suite.log") failed"
    GPU_SANITIZE_MATCH=${SANITIZE_MATCH:-'loop batched|pairs|--partition 2x1|--partition 1x2 --devices [0-9,]* --reduce'} \
        timeout "${SANITIZE_LIMIT:-120}" bash tests/gpu_sanitize.sh gpu-bin/laplace-new > "$out/gpu-sanitize.log" 2>&1
    echo "sanitizer: exit $?, $(tail -n 1 "$out/gpu-sanitize.log")"
    ;;
*)
    echo "usage: $0 ab|verify" >&2
    exit 2
    ;;
esac
