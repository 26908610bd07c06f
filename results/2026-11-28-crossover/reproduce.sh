#!/usr/bin/env bash
# reproduce.sh crossover|auto|medians|verify|ceilings: the device calls behind this folder, run from
# the repository root on a machine of 4 GPUs with gpu-bin/laplace-base (main e6be97e,
# where issue 42's table was measured) and gpu-bin/laplace-new (the commit under test),
# both built on the CPU machine with `make`; CSVs and logs into $OUT.
#   crossover  one GPU against two and four, float (and double 16384^2), the norm every
#              iteration: the course problem to eps 1e-10, the lattices at --eps 0 for a
#              fixed number of iterations; base and new on 1x1, 1x2 and 1x4, new also
#              --partition auto and, up to 2048^2, --loop chip on 1x2 and 1x4 (or the
#              VARIANTS given); a warm-up run a lattice, then REPS runs of every variant
#              in turn (crossover.csv), and the medians (crossover-medians.csv).
#              CASES=REGEX keeps the cases whose name matches.
#   auto       --partition auto against one GPU from 16^2 to 16384^2 (auto.csv,
#              auto-medians.csv)
#   medians F  the medians of a call's CSV F, into F-medians.csv (F less .csv)
#   verify     the GPU suite's checks of the spread strips over GPUs 0,1 and 0,1,2,3
#              (16 at a time; SUITE_MATCH another set, as calls B and D did), then
#              compute-sanitizer's on them
#   ceilings   the bench's copy bandwidths (a device copy a GPU, peer copies from GPU
#              0; 16 MiB each in the bench's smoke test, LAPLACE_BENCH_QUICK=1)
set -u
export NCCL_NVLS_ENABLE=0
out=${OUT:-/tmp}
reps=${REPS:-3}
row() { # NAME VARIANT CASE REP ARGS...: one row of crossover.csv
    local name=$1 variant=$2 case=$3 rep=$4; shift 4
    "gpu-bin/laplace-$name" --backend gpu --csv "$@" 2>/dev/null | tail -n 1 |
        awk -F, -v b="$name" -v v="$variant" -v c="$case" -v r="$rep" \
            '{ printf "%s,%s,%s,%s,%s,%s,%s,%.3f,%s\n", b, v, c, r, $5, $8, $12, $12 / $8 * 1e6, $22 }'
}
# variant NAME:LAYOUT: the binary and the arguments of one variant (LAYOUT auto, a
# partition, PARTITION-chip for --loop chip, PARTITION-passes for --loop batched)
layout_args() {
    case $1 in
    auto) echo --partition auto ;;
    *-chip) echo --partition "${1%-chip}" --loop chip ;;
    *-passes) echo --partition "${1%-passes}" --loop batched ;;
    *) echo --partition "$1" ;;
    esac
}
# variants CSV CASE SIDE PROBLEM...: every variant of one case ($VARIANTS, NAME:LAYOUT
# words; the -chip ones up to 2048^2), REPS times in turn after a warm-up run
variants() {
    local csv=$1 case=$2 side=$3 rep v name layout; shift 3
    row new 1x1 "$case" warm "$@" --partition 1x1 >> "$csv"
    for rep in $(seq "$reps"); do
        for v in $VARIANTS; do
            name=${v%%:*} layout=${v#*:}
            [[ $layout == *-chip && $side -gt 2048 ]] && continue
            # shellcheck disable=SC2046
            row "$name" "$layout" "$case" "$rep" "$@" $(layout_args "$layout") >> "$csv"
        done
    done
}
# medians CSV OUT: the median of each binary, variant and case's runs
medians() {
    echo "binary,variant,case,partition,median_us_per_iteration,median_compute_s,runs,loop" > "$2"
    grep -v -e ',warm,' -e '^binary' "$1" | cut -d, -f1-3 | sort -u | while IFS=, read -r b v c; do
        grep "^$b,$v,$c,[0-9]" "$1" | cut -d, -f5,7,8,9 | sort -t, -k3,3g |
            awk -F, -v k="$b,$v,$c" '{ p[NR] = $1; s[NR] = $2; u[NR] = $3; loop = $4 }
                END { m = int((NR + 1) / 2); printf "%s,%s,%s,%s,%d,%s\n", k, p[m], u[m], s[m], NR, loop }'
    done >> "$2"
    cat "$2"
}
header="binary,variant,case,rep,partition,iterations,compute_s,us_per_iteration,loop"
case ${1:-} in
crossover)
    csv="$out/crossover.csv"
    VARIANTS=${VARIANTS:-"base:1x1 new:1x1 new:auto base:1x2 new:1x2 base:1x4 new:1x4 new:1x2-chip new:1x4-chip"}
    echo "$header" > "$csv"
    while read -r case side iterations precision; do
        [[ $case =~ ${CASES:-.} ]] || continue
        if [ "$case" = course ]; then
            variants "$csv" course 512 config/course-512.ini
        else
            variants "$csv" "$case" "$side" --nx "$side" --ny "$side" --precision "$precision" \
                --eps 0 --max-iter "$iterations"
        fi
    done <<'CASES'
course 512 0 float
f1024 1024 60000 float
f2048 2048 25000 float
f4096 4096 8000 float
f8192 8192 2500 float
f16384 16384 1000 float
d16384 16384 1000 double
f256 256 150000 float
f512 512 150000 float
f768 768 80000 float
f1536 1536 30000 float
CASES
    medians "$csv" "$out/crossover-medians.csv"
    ;;
auto)
    # --partition auto against one GPU (the new binary), float, from 16^2 to 16384^2:
    # about 3e10 / sites iterations (300 .. 200000)
    csv="$out/auto.csv"
    VARIANTS="new:1x1 new:auto"
    echo "$header" > "$csv"
    for side in ${SIDES:-16 48 100 200 300 400 512 600 800 1000 1024 1300 1536 1800 2048 2500 3000 4096 6000 8192 12000 16384}; do
        iterations=$(( 30000000000 / (side * side) ))
        [ "$iterations" -lt 300 ] && iterations=300
        [ "$iterations" -gt 200000 ] && iterations=200000
        variants "$csv" "f$side" "$side" --nx "$side" --ny "$side" --precision float --eps 0 \
            --max-iter "$iterations"
    done
    medians "$csv" "$out/auto-medians.csv"
    ;;
medians)
    medians "$2" "${2%.csv}-medians.csv" > /dev/null
    ;;
verify)
    GPU_SUITE_JOBS=16 GPU_SUITE_MATCH=${SUITE_MATCH:-'devices 0,1(,2,3)? --loop chip'} \
        timeout "${SUITE_LIMIT:-300}" bash tests/gpu_suite.sh gpu-bin/laplace-new \
        > "$out/gpu-suite.log" 2>&1
    echo "suite: exit $?, $(grep -c '^ok' "$out/gpu-suite.log") ok, $(grep -c '^FAILED' "$out/gpu-suite.log") failed"
    GPU_SANITIZE_MATCH=${SANITIZE_MATCH:-'devices 0,1(,2,3)? --loop chip'} timeout "${SANITIZE_LIMIT:-150}" \
        bash tests/gpu_sanitize.sh gpu-bin/laplace-new > "$out/gpu-sanitize.log" 2>&1
    echo "sanitizer: exit $?, $(tail -n 1 "$out/gpu-sanitize.log")"
    ;;
ceilings)
    LAPLACE_BENCH_QUICK=1 LAPLACE_BENCH_DIR="$out" timeout "${CEILINGS_LIMIT:-120}" \
        gpu-bin/laplace-new --bench > "$out/ceilings.txt" 2>&1
    echo "ceilings: exit $?"
    grep -i -e 'copy' -e 'peer' "$out/ceilings.txt" | head -n 12
    ;;
*)
    echo "usage: $0 crossover|auto|medians|verify|ceilings" >&2
    exit 2
    ;;
esac
