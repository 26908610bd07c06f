#!/usr/bin/env bash
# reproduce.sh setup|suite|sanitize: the device calls behind this folder, run from the
# repository root on a machine of 4 GPUs, with gpu-bin/laplace-main (main f86b1b4: the
# loop on chip allocating inside the loop's clock) and gpu-bin/laplace-new (339e837:
# chip_open before the clock), both built on the CPU machine with `make`; CSVs and logs
# into $OUT.
#   setup     main against new on 1 GPU, 1x2 and 1x4: the course problem to eps 1e-10 and
#             float 1024^2 (60000 iterations) and 2048^2 (25000) at --eps 0, the norm every
#             iteration; a warm-up run a case, then 3 runs of each in turn
#             (results/2026-11-28-crossover/reproduce.sh's crossover mode, whose CSV and
#             medians it writes: crossover.csv, crossover-medians.csv)
#   suite K/N the whole GPU suite on new, part K of N, 32 checks at once, cut at LIMIT s
#             (470 by default): gpu-suite-partK.log
#   sanitize  compute-sanitizer's checks of the spread strips over 2 and 4 GPUs on new
#             (memcheck, racecheck, synccheck), cut at 110 s: gpu-sanitize.log
set -u
export NCCL_NVLS_ENABLE=0
out=${OUT:-/tmp}
case ${1:-} in
setup)
    OUT=$out VARIANTS="main:1x1 new:1x1 main:1x2 new:1x2 main:1x4 new:1x4" \
        CASES='^(course|f1024|f2048)$' bash results/2026-11-28-crossover/reproduce.sh crossover
    ;;
suite)
    part=${2:-1/1}
    log="$out/gpu-suite-part${part%/*}.log"
    GPU_SUITE_JOBS=32 GPU_SUITE_PART=$part timeout "${LIMIT:-470}" \
        bash tests/gpu_suite.sh gpu-bin/laplace-new > "$log" 2>&1
    echo "suite part $part: exit $?, $(grep -c '^ok' "$log") ok, $(grep -c '^FAILED' "$log") failed, $(grep -c '^skip' "$log") skipped"
    ;;
sanitize)
    GPU_SANITIZE_MATCH='devices 0,1(,2,3)? --loop chip' timeout 110 \
        bash tests/gpu_sanitize.sh gpu-bin/laplace-new > "$out/gpu-sanitize.log" 2>&1
    echo "sanitizer: exit $?, $(tail -n 1 "$out/gpu-sanitize.log")"
    ;;
*)
    echo "usage: OUT=dir bash $0 setup|suite K/N|sanitize" >&2
    exit 2
    ;;
esac
