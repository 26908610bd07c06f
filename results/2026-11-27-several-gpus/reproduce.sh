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
# SUITE_MATCH, SANITIZE_MATCH, SUITE_LIMIT, SANITIZE_LIMIT, LAYOUTS and REPS narrow a call
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
*)
    echo "usage: $0 verify|crossover" >&2
    exit 2
    ;;
esac
