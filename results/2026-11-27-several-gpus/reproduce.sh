#!/usr/bin/env bash
# reproduce.sh verify|crossover: the device calls behind this folder, run from the
# repository root on a machine of 4 GPUs (nvidia-h100-x4 or nvidia-h200-x4) with
# gpu-bin/laplace-old (main before this work, 3c7e024) and gpu-bin/laplace-new (the
# commit under test), both built on the CPU machine with `make`; logs into $OUT.
#   verify     the GPU suite's checks of batches, passes of two (one tile and tiles
#              stacked in rows, on 1, 2 and 4 GPUs), --reduce device and the course
#              problem; then the sanitizer's (memcheck, racecheck, synccheck) of every
#              several-tile layout
#   crossover  crossover.sh: one GPU against 2 and 4, old and new side by side
#   breakdown  a stacked iteration's cost beside one tile's passes alone (calls 6-10)
#   auto       --partition auto against one GPU on every lattice 16^2 ... 16384^2
#              (gpu-bin/laplace-new), then the bench's lattice sweep (calls 19-21)
# SUITE_MATCH, SANITIZE_MATCH, SUITE_LIMIT, SANITIZE_LIMIT, LAYOUTS, REPS, LATTICES (auto:
# '1024 2048 ...') and NO_BENCH=1 (auto without the bench's sweep) narrow a call
# (the values each call used are in README.md).
set -u
export NCCL_NVLS_ENABLE=0
here=results/2026-11-27-several-gpus
out=${OUT:-/tmp}
case ${1:-} in
verify)
    nvidia-smi topo -m > "$out/topology.txt" 2>&1
    GPU_SUITE_JOBS=16 GPU_SUITE_MATCH=${SUITE_MATCH:-'stacked|batched|pairs|reduce device|course-512'} \
        timeout "${SUITE_LIMIT:-330}" bash tests/gpu_suite.sh gpu-bin/laplace-new > "$out/gpu-suite.log" 2>&1
    echo "suite: exit $?, $(grep -c '^ok' "$out/gpu-suite.log") ok, $(grep -c '^FAILED' "$out/gpu-suite.log") failed"
    GPU_SANITIZE_JOBS=16 GPU_SANITIZE_MATCH=${SANITIZE_MATCH:-'1x2|1x4|2x1|2x2|reduce device'} \
        timeout "${SANITIZE_LIMIT:-200}" bash tests/gpu_sanitize.sh gpu-bin/laplace-new > "$out/gpu-sanitize.log" 2>&1
    echo "sanitizer: exit $?, $(grep -c '^ok' "$out/gpu-sanitize.log") ok, $(grep -c '^FAILED' "$out/gpu-sanitize.log") failed"
    grep -h '^FAILED' "$out/gpu-suite.log" "$out/gpu-sanitize.log" | head -20
    ;;
crossover)
    bash "$here/crossover.sh" gpu-bin/laplace-old gpu-bin/laplace-new "$out/crossover.csv" "${REPS:-3}"
    ;;
breakdown)
    # a stacked iteration against one tile's passes alone, the tiles on their own GPUs
    # and all on GPU 0 (gpu-bin/laplace-old; README's calls 6-10)
    echo "binary,lattice,layout,rep,iterations,compute_s,us_per_iteration,loop" > "$out/breakdown.csv"
    for spec in "1024 40000" "2048 12000" "4096 4000" "8192 1000" "16384 400"; do
        set -- $spec
        for c in "lone-auto --ny $1 --partition 1x1" "lone-batched --ny $1 --partition 1x1 --loop batched" \
            "half-rows --ny $(($1 / 2)) --partition 1x1 --loop batched" \
            "quarter-rows --ny $(($1 / 4)) --partition 1x1 --loop batched" \
            "1x2-gpus01 --ny $1 --partition 1x2 --devices 0,1" "1x2-gpu00 --ny $1 --partition 1x2 --devices 0,0" \
            "1x4-gpus0123 --ny $1 --partition 1x4 --devices 0,1,2,3" \
            "1x4-gpu0000 --ny $1 --partition 1x4 --devices 0,0,0,0" "1x4-host --ny $1 --partition 1x4 --loop host"; do
            for rep in warm 1 2 3; do
                # shellcheck disable=SC2086
                gpu-bin/laplace-old --backend gpu --precision float --eps 0 --max-iter "$2" --csv \
                    --nx "$1" ${c#* } 2>/dev/null | tail -n 1 |
                    awk -F, -v n="$1" -v c="${c%% *}" -v r="$rep" \
                        '{ printf "old,%s,%s,%s,%s,%s,%.3f,%s\n", n, c, r, $8, $12, $12 / $8 * 1e6, $22 }' >> "$out/breakdown.csv"
            done
        done
    done
    ;;
auto)
    # issue 42: auto never more than 5% slower than one GPU, 16^2 ... 16384^2; float,
    # --eps 0, about 0.3 s a run, --partition 1x1 and auto each a warm-up and 3 runs in
    # a row (call 19 interleaved them run by run: the GPUs that one GPU's runs left idle
    # then measured 10-30% slower in auto's; crossover.sh groups them so too)
    echo "binary,lattice,layout,rep,iterations,compute_s,us_per_iteration,loop,partition" > "$out/auto.csv"
    for spec in "16 200000" "32 200000" "64 200000" "128 200000" "256 200000" "512 100000" \
        "1024 50000" "2048 20000" "4096 6000" "8192 1500" "16384 1000"; do
        [[ " ${LATTICES:-${spec% *}} " == *" ${spec% *} "* ]] || continue
        set -- $spec
        for layout in 1x1 auto; do
            for rep in warm 1 2 3; do
                gpu-bin/laplace-new --backend gpu --precision float --eps 0 --max-iter "$2" \
                    --nx "$1" --ny "$1" --partition "$layout" --csv 2>/dev/null | tail -n 1 |
                    awk -F, -v n="$1" -v l="$layout" -v r="$rep" \
                        '{ printf "new,%s,%s,%s,%s,%s,%.3f,%s,%s\n", n, l, r, $8, $12, $12 / $8 * 1e6, $22, $5 }' >> "$out/auto.csv"
            done
        done
    done
    [ -n "${NO_BENCH:-}" ] && exit 0
    LAPLACE_BENCH_ONLY=sweep LAPLACE_BENCH_DIR="$out" gpu-bin/laplace-new --bench > "$out/bench-sweep.txt" 2>&1
    echo "bench: exit $?"
    ;;
*)
    echo "usage: $0 verify|crossover|breakdown|auto" >&2
    exit 2
    ;;
esac
