#!/usr/bin/env bash
# Probe 5 (one H100), the tree of 922875e (laplace-new): the sweep kernel's duration in
# the steady loop (ncu without emptying the caches) against the iteration's time, the
# norm every iteration against none, and the rows kernel's block shapes.
set -u
B=build/gpu/laplace-new
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
run() { # n iterations [options]: us an iteration, median of 3
  local n=$1 it=$2; shift 2
  local all=""
  for r in 1 2 3; do
    line=$(timeout -s KILL 60 $B --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision float --eps 0 --max-iter $it --check-every 1 --csv "$@" 2>/dev/null | tail -1)
    i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
    all="$all $(python3 -c "print(f'{1e6*$t/$i:.3f}')")"
  done
  echo "$n $* :$all median $(echo $all | tr ' ' '\n' | sort -n | sed -n 2p)"
}
echo "== ncu, caches kept"
for n in 2048 4096 8192 16384; do
  echo "-- $n"
  timeout 120 ncu --clock-control none --cache-control none -k regex:sweep_rows --launch-skip 20 --launch-count 3 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,launch__waves_per_multiprocessor,sm__warps_active.avg.pct_of_peak_sustained_active \
    $B --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision float --eps 0 --max-iter 40 --check-every 1 -q 2>&1 | grep -E "sweep_rows|duration|dram|waves|warps_active|rror" | head -18
done
echo "== the norm every iteration against none"
for n in 2048 4096 16384; do
  it=$((6000 * 2048 * 2048 / n / n)); [ $it -lt 200 ] && it=200
  run $n $it
  run $n $it --check-every 1000000
done
echo "== block shapes of the rows kernel"
for n in 2048 4096 16384; do
  it=$((6000 * 2048 * 2048 / n / n)); [ $it -lt 200 ] && it=200
  for b in 32x8 32x4 32x16 64x4 64x8 128x2 128x4; do run $n $it --block $b; done
done
