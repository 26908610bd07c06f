#!/usr/bin/env bash
# reproduce.sh CALL - the GPU calls behind results/2026-11-27-loop-plan/README.md, on
# one H100 (nvidia-h100-x1). Binaries built on the CPU machine and carried in gpu-bin/:
#   gpu-bin/laplace-old  e6be97e (the way to iterate chosen in nine places)
#   gpu-bin/laplace-new  the loop plan (20f9363 for calls 1-4; fa4dc0e, one protocol of
#                        batches, for calls 5-7)
# Each call writes its logs into $OUT (the device tool's folder; any folder here).
set -u
R=results/2026-11-27-loop-plan
OUT=${OUT:-/tmp/loop-plan}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
cp gpu-bin/laplace-new laplace

# The lattice sweep of --bench, old, new, new, old.
bench_sweeps() {
    for v in old new new old; do
        mkdir -p "/tmp/b-$v"
        LAPLACE_BENCH_DIR=/tmp/b-$v LAPLACE_BENCH_ONLY=sweep timeout -s KILL 85 \
            "gpu-bin/laplace-$v" --bench >> "$OUT/bench-sweep-$v-$1.txt" 2>&1
    done
}

case ${1:?usage: reproduce.sh 1|2|3|4|5|6|7|8} in
1 | 5) # the GPU suite, 10 checks at a time
    nvidia-smi -L > "$OUT/machine.txt"
    GPU_SUITE_JOBS=10 timeout 560 bash tests/gpu_suite.sh ./laplace > "$OUT/gpu-suite-$1.log" 2>&1 ;;
2) # every loop's choice, old against new (cut off by its limit; call 3 goes on), and
   # identity.sh on one GPU
    PAIR=0,0 timeout 250 bash $R/loops_agree.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/la > "$OUT/loops-agree-2.log" 2>&1
    IGNORE='^  loop' timeout 320 bash scripts/identity.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/id1 --backend gpu --partition 1x1 > "$OUT/identity-1x1-2.log" 2>&1 ;;
3) # the rest of the loops, and identity.sh on 2x1 tiles of the GPU
    SKIP=30 PAIR=0,0 timeout 290 bash $R/loops_agree.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/la > "$OUT/loops-agree-3.log" 2>&1
    IGNORE='^  loop|^  time' PRESETS="config/course-512.ini config/heater.ini config/obstacle.ini config/poisson-sine.ini config/heat-transient.ini" \
        timeout 280 bash scripts/identity.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/id2 --backend gpu --partition 2x1 --devices 0,0 > "$OUT/identity-2x1-3.log" 2>&1 ;;
4) # compute-sanitizer (cut off by its limit; see README), the bench sweeps
    GPU_SANITIZE_JOBS=14 GPU_SANITIZE_OUT=/tmp/san timeout -s KILL 230 bash tests/gpu_sanitize.sh ./laplace > "$OUT/gpu-sanitize-4.log" 2>&1
    bench_sweeps 4 ;;
6) # the suite's mended checks, the loops that batches run, the bench sweeps, the
   # sanitizer on batches
    GPU_SUITE_MATCH='overflow|past a float' bash tests/gpu_suite.sh ./laplace > "$OUT/gpu-suite-6.log" 2>&1
    MATCH='auto (1500|2048|3000|4096|8192|16384)|kernel rows|block|SOR|source|weighted|--loop|check-every|2x1|1x2|pairs|spread_blocks|sweep_order' \
        PAIR=0,0 timeout 200 bash $R/loops_agree.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/la > "$OUT/loops-agree-6.log" 2>&1
    bench_sweeps 6
    GPU_SANITIZE_JOBS=14 GPU_SANITIZE_OUT=/tmp/san GPU_SANITIZE_MATCH='--loop batched|--kernel rows|--partition 1x1$|1x2 --devices 0,0 \[|--partition 2x1 --devices 0,0$' \
        timeout -s KILL 150 bash tests/gpu_sanitize.sh ./laplace > "$OUT/gpu-sanitize-6.log" 2>&1 ;;
7) # the loops call 6's limit cut off, and identity.sh on 2x1 tiles again
    MATCH='odd|kernel rows|block|reduce device 4096|SOR|source|weighted|--loop batched|check-every|2x1|1x2|pairs|spread_blocks|sweep_order' \
        PAIR=0,0 timeout 250 bash $R/loops_agree.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/la > "$OUT/loops-agree-7.log" 2>&1
    IGNORE='^  loop|^  time' PRESETS="config/course-512.ini config/heater.ini config/obstacle.ini config/poisson-sine.ini config/heat-transient.ini" \
        timeout 300 bash scripts/identity.sh gpu-bin/laplace-old gpu-bin/laplace-new /tmp/id2 --backend gpu --partition 2x1 --devices 0,0 > "$OUT/identity-2x1-7.log" 2>&1 ;;
8) # the resident loop against batches of single sweeps; the racechecks call 4 left unrun
    timeout 150 bash $R/resident.sh gpu-bin/laplace-new > "$OUT/resident-8.txt" 2>&1
    GPU_SANITIZE_TOOLS=racecheck GPU_SANITIZE_JOBS=6 GPU_SANITIZE_OUT=/tmp/san GPU_SANITIZE_MATCH='monitor 50|reduce device|--partition 1x1$' \
        timeout -s KILL 300 bash tests/gpu_sanitize.sh ./laplace > "$OUT/gpu-sanitize-8.log" 2>&1 ;;
esac
