#!/usr/bin/env bash
# reproduce.sh CALL - the GPU calls behind results/2026-11-27-plan-shapes/README.md, from
# the repository root. Binaries built on the CPU machine (sm_90), carried in gpu-bin/:
#   gpu-bin/laplace-old  75548bc: the device chose the sweep's shape and grid at open,
#                        the kernels the depths and lag on chip
#   gpu-bin/laplace-new  the commit under test: the loop plan chooses them
# Call 1 on one H100 (nvidia-h100-x1), calls 2-4 on two (nvidia-h100-x2). Each call
# writes its logs into $OUT.
set -u
R=results/2026-11-27-plan-shapes
OUT=${OUT:-/tmp/plan-shapes}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
cp gpu-bin/laplace-new laplace

case ${1:?usage: reproduce.sh 1|2|3|4} in
1) # every choice that moved, old against new (one case at a time: its limit cut it
   # off); identity.sh on one GPU (cut off too)
    PAIR=0,0 JOBS=1 timeout 300 bash $R/plans_agree.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/pa > "$OUT/plans-agree-1.log" 2>&1
    IGNORE='^  time' timeout 260 bash scripts/identity.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/id1 --backend gpu --partition 1x1 > "$OUT/identity-1x1-1.log" 2>&1 ;;
2) # the GPU suite on two GPUs (checks of four reported skipped); every choice that
   # moved, old against new, tiles of two on both GPUs
    nvidia-smi topo -m > "$OUT/topology-2.txt" 2>&1
    GPU_SUITE_JOBS=16 timeout 420 bash tests/gpu_suite.sh ./laplace > "$OUT/gpu-suite-2.log" 2>&1
    echo "suite: exit $?" >> "$OUT/gpu-suite-2.log"
    PAIR=0,1 JOBS=8 timeout 130 bash $R/plans_agree.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/pa > "$OUT/plans-agree-2.log" 2>&1 ;;
3) # the suite's checks that call 2's limit left (tiles of two in batches, stacked
   # tiles' passes, the refusals); the sanitizer on the loops on chip, passes of two,
   # stacked tiles and the named kernels; the bench's lattice sweep on GPU 0, old and
   # new; identity.sh's course table on one GPU
    GPU_SUITE_JOBS=16 GPU_SUITE_MATCH='stacked|batched|1x2 --devices|history on chip|too large|larger than|not exist|needing|over 1024|plain kernel|omega 2|overflow|past a float' \
        timeout 150 bash tests/gpu_suite.sh ./laplace > "$OUT/gpu-suite-3.log" 2>&1
    echo "suite: exit $?" >> "$OUT/gpu-suite-3.log"
    GPU_SANITIZE_TOOLS="memcheck synccheck" GPU_SANITIZE_JOBS=16 GPU_SANITIZE_OUT=/tmp/san \
        GPU_SANITIZE_MATCH='--loop chip|max-iter (24|25|41|30|12) |1x2|--kernel' timeout -s KILL 90 bash tests/gpu_sanitize.sh ./laplace > "$OUT/gpu-sanitize-3.log" 2>&1
    for v in old new; do
        mkdir -p "/tmp/b-$v"
        CUDA_VISIBLE_DEVICES=0 LAPLACE_BENCH_DIR=/tmp/b-$v LAPLACE_BENCH_ONLY=sweep timeout -s KILL 45 \
            "gpu-bin/laplace-$v" --bench > "$OUT/bench-sweep-$v-3.txt" 2>&1
    done
    IGNORE='^  time' PRESETS=config/course-512.ini timeout 100 bash scripts/identity.sh \
        gpu-bin/laplace-old gpu-bin/laplace-new /tmp/id1 --backend gpu --partition 1x1 > "$OUT/identity-1x1-3.log" 2>&1 ;;
4) # identity.sh's course table against e6be97e (the reference; gpu-bin/laplace-e6)
   # on 2x1 tiles of both GPUs and on one GPU
    IGNORE='^  time' PRESETS=config/course-512.ini timeout 95 bash scripts/identity.sh \
        gpu-bin/laplace-e6 gpu-bin/laplace-new /tmp/id2 --backend gpu --partition 2x1 --devices 0,1 > "$OUT/identity-2x1-e6be97e.log" 2>&1
    IGNORE='^  time' PRESETS=config/course-512.ini timeout 60 bash scripts/identity.sh \
        gpu-bin/laplace-e6 gpu-bin/laplace-new /tmp/id1 --backend gpu --partition 1x1 > "$OUT/identity-1x1-e6be97e.log" 2>&1 ;;
esac
