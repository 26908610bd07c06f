#!/usr/bin/env bash
# gpu_session.sh - what the calls on a GPU machine run, with ./laplace built here
# and carried along. Logs and CSVs go to $OUT (the device tool's folder) or
# results/session/.
#   bash scripts/gpu_session.sh speed     the machine, --bench, the scaling table, make run
#   bash scripts/gpu_session.sh tests     make test-gpu (the course problem's times included)
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
    scripts/bench_scaling.sh 16384 1000 float 2>&1 | tee "$out/scaling-16384-float.csv"
    ./laplace config/default.ini 2>&1 | tee "$out/make-run.txt"
    ;;
tests)
    if command -v make > /dev/null; then
        make --no-print-directory test-gpu 2>&1 | tee "$out/test-gpu.log"
    else
        bash tests/gpu_suite.sh ./laplace 2>&1 | tee "$out/test-gpu.log"
    fi
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
