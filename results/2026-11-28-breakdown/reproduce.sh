#!/usr/bin/env bash
# reproduce.sh measure|verify: the device calls behind this folder, run from the
# repository root on a machine of 2 GPUs or more with gpu-bin/laplace-new (the commit
# under test, built on the CPU machine with `make`); CSV and logs into $OUT.
#   measure  each lattice of crossover.sh's table at its iterations, on one GPU (1x1)
#            and two (1x2): 3 runs with LAPLACE_TUNE=breakdown=1 (CUDA events around
#            every pass of two in the batches' graphs) and 3 without, grouped by layout;
#            every report's breakdown lines into breakdown.txt, a row a run and tile
#            into breakdown.csv, the plain runs' us an iteration beside them
#   verify   the GPU suite's and the sanitizer's checks of the breakdown and of tiles
#            stacked in rows (16 at a time)
# LATTICES='1024 ...' and LAYOUTS='1x1 1x2' narrow measure.
set -u
export NCCL_NVLS_ENABLE=0
out=${OUT:-/tmp}
bin=gpu-bin/laplace-new
case ${1:-} in
measure)
    csv="$out/breakdown.csv"
    echo "lattice,layout,rep,events,iterations,us_per_iteration,tile,gpu,pass_us,between_us,rest_us" > "$csv"
    : > "$out/breakdown.txt"
    lattices=${LATTICES:-"1024 2048 4096 8192 16384"}
    for spec in "1024 60000" "2048 20000" "4096 6000" "8192 1500" "16384 1000"; do
        set -- $spec
        [[ " $lattices " == *" $1 "* ]] || continue
        for layout in ${LAYOUTS:-1x1 1x2}; do
            $bin --backend gpu --nx "$1" --ny "$1" --precision float --eps 0 \
                --max-iter "$2" --partition "$layout" > /dev/null 2>&1 # the warm-up
            rep=0
            for events in on off on off on off; do
                rep=$((rep + 1))
                tune=; [ "$events" = on ] && tune=breakdown=1
                report=$(LAPLACE_TUNE=$tune $bin --backend gpu --nx "$1" --ny "$1" --precision float \
                    --eps 0 --max-iter "$2" --partition "$layout" 2>&1)
                us=$(sed -n 's/^  time .*compute \([0-9.]*\) s.*/\1/p' <<< "$report" | awk -v n="$2" '{ printf "%.3f", $1 / n * 1e6 }')
                echo "== $1^2 $layout $events: $us us an iteration" >> "$out/breakdown.txt"
                grep '^  breakdown' <<< "$report" >> "$out/breakdown.txt"
                if [ "$events" = off ]; then
                    echo "$1,$layout,$rep,off,$2,$us,,,,," >> "$csv"
                    continue
                fi
                sed -n 's/^  breakdown     tile \([0-9]*\) on GPU \([0-9]*\): passes \([0-9.]*\) us an iteration, between them \([0-9.]*\), the rest \(-\{0,1\}[0-9.]*\) .*/\1,\2,\3,\4,\5/p' <<< "$report" |
                    while IFS= read -r row; do echo "$1,$layout,$rep,on,$2,$us,$row" >> "$csv"; done
            done
        done
    done
    # medians of each lattice, layout, events and tile
    awk -F, 'NR > 1 { k = $1 "," $2 "," $4 "," $7; print k "," $6 "," $9 "," $10 "," $11 }' "$csv" | sort -t, -k1,1n -k2,2 -k3,3 -k4,4 -k5,5g |
        awk -F, '{ k = $1 "," $2 "," $3 "," $4; n[k]++; v[k, n[k]] = $0; keys[k] = 1 }
            END { for (k in keys) { split(v[k, int((n[k] + 1) / 2)], f, ","); print k ": " f[5] " us an iteration (median run), passes " f[6] ", between " f[7] ", rest " f[8] } }' | sort -t, -k1,1n -k2,2 -k3,3 -k4,4
    ;;
verify)
    GPU_SUITE_JOBS=16 GPU_SUITE_MATCH=${SUITE_MATCH:-'breakdown|breaks|stacked'} timeout "${SUITE_LIMIT:-300}" \
        bash tests/gpu_suite.sh $bin > "$out/gpu-suite.log" 2>&1
    echo "suite: exit $?, $(tail -n 1 "$out/gpu-suite.log")"
    GPU_SANITIZE_MATCH=${SANITIZE_MATCH:-'ny 70 .*--partition 1x2'} timeout "${SANITIZE_LIMIT:-150}" \
        bash tests/gpu_sanitize.sh $bin > "$out/gpu-sanitize.log" 2>&1
    echo "sanitizer: exit $?, $(tail -n 1 "$out/gpu-sanitize.log")"
    ;;
*)
    echo "usage: $0 measure|verify" >&2
    exit 2
    ;;
esac
