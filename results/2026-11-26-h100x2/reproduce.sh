#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-26-h100x2/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-26-h100x2/reproduce.sh             every step, in order
#   bash results/2026-11-26-h100x2/reproduce.sh STEP ...    some of them: run_1 run_2
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run-1.sh, as it was (its text unchanged) ----
run_1() {
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
}

# ---- run-2.sh, as it was (its text unchanged) ----
run_2() {
#!/usr/bin/env bash
# Second x2 call: (1) the course problem alone on two GPUs, each loop, against one GPU
# and two tiles of one GPU (run-1's suite ran 12 checks at once, and its 2-GPU course
# checks took 158 s of compute: contention or a fault of the two-GPU path?); (2) the
# checks run-1's time limit cut off (the course problem's 2-GPU checks) and the check
# mended since (--loop chip too large, --partition 1x1).
set -u
B=build/gpu/laplace-new
t() { timeout -s KILL 90 $B config/course-512.ini --backend gpu "$@" > /tmp/report 2>&1; echo "rc $? $(grep -E '^  (iterations|time|loop) ' /tmp/report | sed -E 's/ +/ /g; s/\(norm[^)]*\)//; s/input [0-9.]* s, //; s/, output.*//' | tr '\n' ' ')"; }
for round in 1 2 3; do
  for args in "--partition 1x1" "--partition 2x1 --devices 0,1" "--partition 1x2 --devices 0,1" "--partition 2x1 --devices 0,1 --loop host" "--partition 2x1 --devices 0,1 --no-p2p" "--partition 2x1 --devices 0,0"; do
    echo "$round [$args] $(t $args --max-iter 30000)"
  done
done
echo "whole: $(t --partition 2x1 --devices 0,1)"
GPU_SUITE_MATCH='course-512.*0,1|course-512 --partition 2x1 --devices 0,0 --loop host|too large for the chip' GPU_SUITE_JOBS=6 timeout -s KILL 300 bash tests/gpu_suite.sh $B > $OUT/gpu-suite-2.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-2.log; tail -1 $OUT/gpu-suite-2.log
}

steps=(run_1 run_2)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
