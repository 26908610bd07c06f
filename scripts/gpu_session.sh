#!/usr/bin/env bash
# gpu_session.sh - what the calls on a GPU machine run, with ./laplace built here
# and carried along. Logs and CSVs go to $OUT (the device tool's folder) or
# results/session/.
#   bash scripts/gpu_session.sh speed     the machine, --bench (every layout), make run
#   bash scripts/gpu_session.sh tests     make test-gpu (the course problem's times included);
#                                         GPU_SUITE_JOBS=N runs N checks at once
#   bash scripts/gpu_session.sh layouts   16384^2 float and double on every layout that
#                                         fits the GPUs (1x1 ... 8x1), each twice
#   bash scripts/gpu_session.sh largest   65536^2 float (2^32 sites) on 1 and 8 GPUs, then
#                                         20480^2 (the bench's largest square) on every
#                                         layout once
#   bash scripts/gpu_session.sh probe     where a multi-GPU iteration's time goes: each
#                                         layout's tile alone on one GPU, every layout,
#                                         and the norm every iteration or rarely
#   bash scripts/gpu_session.sh methods   the method examples of the README, and the
#                                         plain and general kernels' speed at 16384^2
set -uo pipefail
out=${OUT:-results/session}
mkdir -p "$out"

machine() {
    date -u
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv
    nvidia-smi topo -m
    ./laplace --version
    ./laplace --topology
}

case "${1:-speed}" in
speed)
    machine 2>&1 | tee "$out/machine.txt"
    LAPLACE_BENCH_DIR="$out" ./laplace --bench 2>&1 | tee "$out/bench.txt"
    ./laplace config/default.ini 2>&1 | tee "$out/make-run.txt"
    ;;
tests)
    if command -v make > /dev/null; then
        make --no-print-directory test-gpu 2>&1 | tee "$out/test-gpu.log"
    else
        bash tests/gpu_suite.sh ./laplace 2>&1 | tee "$out/test-gpu.log"
    fi
    ;;
layouts)
    machine > "$out/machine.txt" 2>&1
    scripts/bench_scaling.sh 16384 1000 float 2>&1 | tee "$out/scaling-16384-float.csv"
    scripts/bench_scaling.sh 16384 500 double 2>&1 | tee "$out/scaling-16384-double.csv"
    ;;
largest)
    {
        echo "command,$(./laplace --csv --backend serial --nx 3 --ny 3 --max-iter 1 | head -n 1)"
        for layout in 1x1 2x4; do
            cmd="--nx 65536 --ny 65536 --precision float --eps 0 --max-iter 100 --partition $layout"
            echo "\"laplace $cmd\",$(./laplace $cmd --csv | tail -n 1)"
        done
    } 2>&1 | tee "$out/largest-65536-float.csv"
    REPEATS=1 scripts/bench_scaling.sh 20480 500 float 2>&1 | tee "$out/scaling-20480-float.csv"
    REPEATS=1 scripts/bench_scaling.sh 20480 200 double 2>&1 | tee "$out/scaling-20480-double.csv"
    ;;
probe)
    machine > "$out/machine.txt" 2>&1
    run="--precision float --eps 0 --max-iter 1000 --csv"
    {
        echo "command,$(./laplace --csv --backend serial --nx 3 --ny 3 --max-iter 1 | head -n 1)"
        # one GPU: the whole lattice, then the tile (with its two edge rows or
        # columns) of 1x8, 2x4 and 8x1 alone; tiles this size run the host loop
        for lattice in "16384 16384" "16384 2050" "8194 4098" "2050 16384"; do
            set -- $lattice
            echo "\"1x1 $1x$2\",$(./laplace --nx "$1" --ny "$2" --partition 1x1 $run | tail -n 1)"
        done
        for layout in 2x4 1x8 4x2 8x1; do
            for extra in "" "--check-every 1000" "--reduce device" "--no-p2p"; do
                echo "\"$layout $extra\",$(./laplace --nx 16384 --ny 16384 --partition $layout $extra $run | tail -n 1)"
            done
        done
    } 2>&1 | tee "$out/probe-16384-float.csv"
    ;;
methods)
    machine > "$out/machine.txt" 2>&1
    scripts/method_examples.sh ./laplace 2>&1 | tee "$out/method-examples.txt"
    big="--nx 16384 --ny 16384 --precision float --eps 0 --max-iter 1000"
    {
        echo "# the same version timed twice; plain Jacobi (rows) then the general kernel"
        for again in 1 2; do
            for layout in 1x1 2x2; do
                ./laplace $big --partition "$layout" --csv | tail -n 1
                ./laplace $big --partition "$layout" --kernel general --csv | tail -n 1
                ./laplace $big --partition "$layout" --method sor --csv | tail -n 1
            done
        done
    } 2>&1 | tee "$out/kernels-16384-float.csv"
    ;;
esac
