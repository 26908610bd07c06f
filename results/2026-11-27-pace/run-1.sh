#!/usr/bin/env bash
# First call of the tenth session: (1) pace_floor, the probe left by the ninth session;
# (2) the lag-2 spread checks 8d14a3d added, against serial, then under the three tools
# (the 40x12 spread lattice's checks, which hold the forced lag of 2); (3) alone, the
# three racecheck checks of the 101x67 plate that the ninth session's sanitizer run left
# unfinished. laplace-fin is 0a8dced's source (HEAD changes only the two test scripts).
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
timeout -s KILL 150 $B/pace_floor 2>&1 | tee $OUT/pace-floor-1.txt
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='spread-lag2' timeout -s KILL 120 bash tests/gpu_suite.sh $B/laplace-fin > $OUT/gpu-suite-lag2-1.log 2>&1
echo "suite rc $?"; tail -3 $OUT/gpu-suite-lag2-1.log
GPU_SANITIZE_OUT=$OUT/san GPU_SANITIZE_JOBS=8 GPU_SANITIZE_MATCH='--nx 40 --ny 12' timeout -s KILL 120 bash tests/gpu_sanitize.sh $B/laplace-fin > $OUT/gpu-sanitize-spread-1.log 2>&1
echo "sanitize rc $?"; tail -3 $OUT/gpu-sanitize-spread-1.log; rm -rf $OUT/san
start=$(date +%s)
GPU_SANITIZE_OUT=$OUT/san GPU_SANITIZE_JOBS=3 GPU_SANITIZE_TOOLS=racecheck GPU_SANITIZE_MATCH='--nx 101 --ny 67 .*--max-iter 1500 --partition 1x1( --monitor 50| --reduce device)?$' timeout -s KILL 330 bash tests/gpu_sanitize.sh $B/laplace-fin > $OUT/gpu-sanitize-plate-1.log 2>&1
echo "racecheck plate rc $? in $(( $(date +%s) - start )) s"; tail -5 $OUT/gpu-sanitize-plate-1.log; rm -rf $OUT/san
