#!/usr/bin/env bash
# First call: (1) the floors of the mechanisms (floors.cu, built on the CPU machine);
# (2) where the spread loop's warps wait, by instruction: ncu's source counters
# (warp-state samples) on a build of HEAD with -lineinfo, float 512^2 (the course
# lattice) and the cluster at 128^2; eps 0, the norm every iteration.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
timeout -s KILL 120 $B/floors 2>&1 | tee $OUT/floors.txt
run() { echo "== $*"; }
for n in 512 128; do
  kernel=$([ $n = 512 ] && echo spread_loop || echo chip_loop)
  timeout -s KILL 240 ncu --clock-control none -k regex:$kernel --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section LaunchStats --section Occupancy \
    -o $OUT/prof$n -f $B/laplace-li --backend gpu --precision float --nx $n --ny $n --top 1 --left 0.3 \
    --eps 0 --check-every 1 --max-iter 20000 --loop chip > $OUT/ncu$n.txt 2>&1
  echo "ncu $n rc $?"; tail -3 $OUT/ncu$n.txt
  timeout -s KILL 60 ncu -i $OUT/prof$n.ncu-rep --page details > $OUT/details$n.txt 2>&1
  timeout -s KILL 60 ncu -i $OUT/prof$n.ncu-rep --page source --csv --print-source sass > $OUT/sass$n.csv 2>&1
  echo "sass $n rc $? lines $(wc -l < $OUT/sass$n.csv)"
  timeout -s KILL 60 ncu -i $OUT/prof$n.ncu-rep --page source --csv --print-source cuda > $OUT/cuda$n.csv 2>&1
  echo "cuda $n rc $? lines $(wc -l < $OUT/cuda$n.csv)"
done
grep -E "Warp Cycles|Stall|Issued|Eligible" $OUT/details512.txt | head -30
