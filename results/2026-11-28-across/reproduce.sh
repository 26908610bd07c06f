#!/usr/bin/env bash
# reproduce.sh measure|ab|verify: the device calls behind this folder, run from the
# repository root on a machine of 2 GPUs or more, with gpu-bin/laplace-old (main
# ab8b548, before the spread strips over several GPUs) and gpu-bin/laplace-new (the
# commit under test), both built on the CPU machine with `make`; CSVs and logs into $OUT.
#   measure  one GPU (old and new binaries, auto) against two (new: 1x2 auto, which
#            takes passes of two, and 1x2 --loop chip, the spread strips over both
#            GPUs): the course problem to eps 1e-10, and float lattices 256^2 ...
#            2048^2 (double 512^2, 1024^2) at --eps 0 for a fixed number of iterations;
#            with CHIP80=1 the chip's also with 80 blocks a GPU
#            (LAPLACE_TUNE=spread_blocks=80; the first version's cap, 160 over both);
#            a warm-up, then REPS runs of every
#            variant in turn (measure.csv), and the medians (measure-medians.csv)
#   ab       two binaries side by side, gpu-bin/laplace-D (call D's) and
#            gpu-bin/laplace-try (the committed kernels), --loop chip on 1x2, and try
#            with 80 blocks a GPU: 3 runs each after a warm-up (ab.csv; call E)
#   verify   the GPU suite's checks of the spread strips over GPUs 0 and 1 (16 at a
#            time, cut at SUITE_LIMIT s), then compute-sanitizer's on them
set -u
export NCCL_NVLS_ENABLE=0
out=${OUT:-/tmp}
reps=${REPS:-3}
row() { # NAME CASE REP ARGS...: one row of measure.csv
    local name=$1 case=$2 rep=$3; shift 3
    "gpu-bin/laplace-$name" --backend gpu --csv "$@" 2>/dev/null | tail -n 1 |
        awk -F, -v b="$name" -v c="$case" -v r="$rep" \
            '{ printf "%s,%s,%s,%s,%s,%.3f,%s\n", b, c, r, $8, $12, $12 / $8 * 1e6, $22 }'
}
# variants CASE PROBLEM...: old and new on one GPU, new on 1x2 auto and 1x2 chip
variants() {
    local case=$1 rep; shift
    local one=(--partition 1x1) auto=(--partition 1x2 --devices 0,1)
    local chip=(--partition 1x2 --devices 0,1 --loop chip)
    row new "$case-1x2-chip" warm "$@" "${chip[@]}" --max-iter 2000 >> "$csv"
    for rep in $(seq "$reps"); do
        row old "$case-1x1" "$rep" "$@" "${one[@]}" >> "$csv"
        row new "$case-1x1" "$rep" "$@" "${one[@]}" >> "$csv"
        row new "$case-1x2-auto" "$rep" "$@" "${auto[@]}" >> "$csv"
        row new "$case-1x2-chip" "$rep" "$@" "${chip[@]}" >> "$csv"
        [ -z "${CHIP80:-}" ] ||
            LAPLACE_TUNE=spread_blocks=80 row new "$case-1x2-chip80" "$rep" "$@" "${chip[@]}" >> "$csv"
    done
}
case ${1:-} in
measure)
    csv="$out/measure.csv"
    echo "binary,case,rep,iterations,compute_s,us_per_iteration,loop" > "$csv"
    variants course config/course-512.ini
    for spec in "256 200000" "512 100000" "768 60000" "1024 40000" "1536 20000" \
                "2048 12000"; do
        set -- $spec
        variants "float-$1" --nx "$1" --ny "$1" --precision float --eps 0 --max-iter "$2"
    done
    for spec in "512 60000" "1024 20000"; do
        set -- $spec
        variants "double-$1" --nx "$1" --ny "$1" --precision double --eps 0 --max-iter "$2"
    done
    medians="$out/measure-medians.csv"
    echo "binary,case,median_us_per_iteration,median_compute_s,runs,loop" > "$medians"
    grep -v -e ',warm,' -e '^binary' "$csv" | cut -d, -f1,2 | sort -u | while IFS=, read -r b c; do
        grep "^$b,$c,[0-9]" "$csv" | cut -d, -f5,6,7 | sort -t, -k2,2g |
            awk -F, -v k="$b,$c" '{ s[NR] = $1; v[NR] = $2; loop = $3 }
                END { m = int((NR + 1) / 2); printf "%s,%s,%s,%d,%s\n", k, v[m], s[m], NR, loop }'
    done >> "$medians"
    cat "$medians"
    ;;
ab)
    csv="$out/ab.csv"
    echo "binary,case,rep,iterations,compute_s,us_per_iteration,loop" > "$csv"
    chip=(--partition 1x2 --devices 0,1 --loop chip)
    for spec in "course config/course-512.ini" \
                "f512 --nx 512 --ny 512 --eps 0 --max-iter 100000" \
                "f768 --nx 768 --ny 768 --eps 0 --max-iter 60000" \
                "f1024 --nx 1024 --ny 1024 --eps 0 --max-iter 40000" \
                "f1536 --nx 1536 --ny 1536 --eps 0 --max-iter 20000" \
                "d512 --nx 512 --ny 512 --precision double --eps 0 --max-iter 60000"; do
        set -- $spec
        case=$1
        shift
        row try "$case" warm "$@" "${chip[@]}" --max-iter 2000 >> "$csv"
        for rep in 1 2 3; do
            row D "$case" "$rep" "$@" "${chip[@]}" >> "$csv"
            row try "$case" "$rep" "$@" "${chip[@]}" >> "$csv"
            LAPLACE_TUNE=spread_blocks=80 row try "$case-80" "$rep" "$@" "${chip[@]}" >> "$csv"
        done
    done
    ;;
verify)
    GPU_SUITE_JOBS=16 GPU_SUITE_MATCH=${SUITE_MATCH:-'devices 0,1 --loop chip|two tiles of one GPU'} \
        timeout "${SUITE_LIMIT:-300}" bash tests/gpu_suite.sh gpu-bin/laplace-new \
        > "$out/gpu-suite.log" 2>&1
    echo "suite: exit $?, $(grep -c '^ok' "$out/gpu-suite.log") ok, $(grep -c '^FAILED' "$out/gpu-suite.log") failed"
    GPU_SANITIZE_MATCH=${SANITIZE_MATCH:-'devices 0,1 --loop chip'} timeout "${SANITIZE_LIMIT:-150}" \
        bash tests/gpu_sanitize.sh gpu-bin/laplace-new > "$out/gpu-sanitize.log" 2>&1
    echo "sanitizer: exit $?, $(tail -n 1 "$out/gpu-sanitize.log")"
    ;;
*)
    echo "usage: $0 measure|ab|verify" >&2
    exit 2
    ;;
esac
