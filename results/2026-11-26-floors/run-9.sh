#!/usr/bin/env bash
# Ninth call: the whole GPU suite on the tree with the cluster in rounds
# (laplace-rounds), and the course problem's iterations and field.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-rounds config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
echo "$(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
echo "== GPU suite"
GPU_SUITE_JOBS=6 timeout -s KILL 540 bash tests/gpu_suite.sh $B/laplace-rounds > $OUT/gpu-suite-9.log 2>&1
echo "suite rc $?"
grep -E "^FAILED" $OUT/gpu-suite-9.log | head -20; tail -1 $OUT/gpu-suite-9.log
