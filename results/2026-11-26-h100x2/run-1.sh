#!/usr/bin/env bash
# First call (nvidia-h100-x2): the whole GPU suite on HEAD 8616399 (laplace-new), on two
# H100s: the one-GPU checks of the commits not yet run on a GPU (99eab3b, 1bb5314,
# 40656a7, 00b5e46, ea29f56) and every check that needs two GPUs (peer access between
# two cards, the batched loop of several tiles on two GPUs, faults and signals there).
set -u
nvidia-smi --query-gpu=index,name,clocks.max.sm,pci.bus_id --format=csv,noheader
nvidia-smi topo -m 2>&1 | head -6
start=$EPOCHREALTIME
GPU_SUITE_JOBS=12 timeout -s KILL 555 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-1.log 2>&1
echo "suite rc $? after $(awk -v a=$start -v b=$EPOCHREALTIME 'BEGIN{printf "%.0f", b-a}') s"
grep -E "^FAILED" $OUT/gpu-suite-1.log | head -30; tail -1 $OUT/gpu-suite-1.log
ls tests/out/gpu/checks | tail -1
