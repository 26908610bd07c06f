#!/usr/bin/env bash
# run_job.sh - the job of `make run`, by the GPUs this machine shows: none, the host
# tiles against one host tile (config/default.ini); one, the GPU against the host
# tiles on every core (config/default-one-gpu.ini); several, every GPU against one
# (config/default-gpu.ini). Says which comparison it makes, then runs it.
#   scripts/run_job.sh [--print] [LAPLACE]   (--print: say it, run nothing)
# LAPLACE_RUN_GPUS=N stands for the GPUs found (the tests' way to try each case).
set -euo pipefail
print_only=0
[ "${1:-}" = --print ] && { print_only=1; shift; }
LAPLACE=${1:-./laplace}
gpus=${LAPLACE_RUN_GPUS:-$("$LAPLACE" --topology 2>/dev/null |
    sed -n 's/.*: \([0-9]*\) CUDA device.*/\1/p')}
gpus=${gpus:-0}
if [ "$gpus" -eq 0 ]; then
    job=config/default.ini
    what="no GPU visible: the host tiles on every core against one host tile"
elif [ "$gpus" -eq 1 ]; then
    job=config/default-one-gpu.ini
    what="1 GPU: the GPU against the host tiles on every core (--compare-cpu)"
else
    job=config/default-gpu.ini
    what="$gpus GPUs: every GPU against one (--compare)"
fi
echo "make run: $what"
echo "$LAPLACE $job"
[ "$print_only" -eq 1 ] || exec "$LAPLACE" "$job"
