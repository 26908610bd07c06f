#!/usr/bin/env bash
# reproduce.sh startcost|crossover|verify: the device calls behind this folder, run from
# the repository root on a machine of 2 GPUs or more, with gpu-bin/laplace-old (main
# 3b7d8f0, the batches' set-up inside the compute clock) and gpu-bin/laplace-new (the
# commit under test), both built on the CPU machine with `make`; CSVs and logs into $OUT.
#   startcost  each binary's runs of one lattice at two lengths, 1x1 and 1x2, 3 runs
#              each after a warm-up, grouped by binary and layout: the input and compute
#              times (startcost.csv), and the time a run pays beside its iterations,
#              fitted from the two lengths (compute = fixed + iterations x per-iteration)
#   crossover  ../2026-11-27-several-gpus/crossover.sh on 1x1 and 1x2, old against new
#   verify     the GPU suite (16 at a time, cut at SUITE_LIMIT s), then the sanitizer's
#              checks of 1x2 tiles
# BINARIES='old new' names the binaries of startcost (gpu-bin/laplace-NAME).
set -u
export NCCL_NVLS_ENABLE=0
out=${OUT:-/tmp}
one() { # NAME LATTICE ITERATIONS LAYOUT REP: a row of startcost.csv
    "gpu-bin/laplace-$1" --backend gpu --nx "$2" --ny "$2" --precision float --eps 0 \
        --max-iter "$3" --partition "$4" --csv 2>/dev/null | tail -n 1 |
        awk -F, -v b="$1" -v n="$2" -v l="$4" -v r="$5" \
            '{ printf "%s,%s,%s,%s,%s,%s,%s,%.3f,%s\n", b, n, l, r, $8, $11, $12, $12 / $8 * 1e6, $22 }'
}
case ${1:-} in
startcost)
    csv="$out/startcost.csv"
    echo "binary,lattice,layout,rep,iterations,input_s,compute_s,us_per_iteration,loop" > "$csv"
    for spec in "4096 1500 6000" "8192 500 2500" "16384 200 1000"; do
        set -- $spec
        for layout in 1x1 1x2; do
            for name in ${BINARIES:-old new}; do
                one "$name" "$1" "$2" "$layout" warm >> "$csv"
                for rep in 1 2 3; do
                    one "$name" "$1" "$2" "$layout" "$rep" >> "$csv"
                    one "$name" "$1" "$3" "$layout" "$rep" >> "$csv"
                done
            done
        done
    done
    # per binary, lattice and layout: the medians at both lengths and the fixed part
    grep -v ',warm,' "$csv" | awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $5 "," $8 }' |
        sort -t, -k1,1 -k2,2n -k3,3 -k4,4n -k5,5g |
        awk -F, '{ k = $1 "," $2 "," $3 "," $4; v[k, ++n[k]] = $5; keys[k] = 1 }
            END { for (k in keys) print k "," v[k, int((n[k] + 1) / 2)] }' |
        sort -t, -k1,1 -k2,2n -k3,3 -k4,4n |
        awk -F, '{ k = $1 "," $2 "," $3 }
            k == last { fixed = ($5 - us) / (1 / $4 - 1 / it) / 1000
                        printf "%s: %d it %.3f us, %d it %.3f us an iteration: %.2f ms a run beside the iterations\n", k, it, us, $4, $5, fixed }
            { last = k; it = $4; us = $5 }'
    ;;
crossover)
    LAYOUTS='1x1 1x2' bash results/2026-11-27-several-gpus/crossover.sh \
        gpu-bin/laplace-old gpu-bin/laplace-new "$out/crossover.csv" "${REPS:-3}"
    ;;
verify)
    GPU_SUITE_JOBS=16 GPU_SUITE_MATCH=${SUITE_MATCH:-} timeout "${SUITE_LIMIT:-400}" \
        bash tests/gpu_suite.sh gpu-bin/laplace-new > "$out/gpu-suite.log" 2>&1
    echo "suite: exit $?, $(grep -c '^ok' "$out/gpu-suite.log") ok, $(grep -c '^FAILED' "$out/gpu-suite.log") failed"
    GPU_SANITIZE_MATCH=${SANITIZE_MATCH:-1x2} timeout "${SANITIZE_LIMIT:-150}" \
        bash tests/gpu_sanitize.sh gpu-bin/laplace-new > "$out/gpu-sanitize.log" 2>&1
    echo "sanitizer: exit $?, $(tail -n 1 "$out/gpu-sanitize.log")"
    ;;
*)
    echo "usage: $0 startcost|crossover|verify" >&2
    exit 2
    ;;
esac
