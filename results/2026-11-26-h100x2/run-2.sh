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
