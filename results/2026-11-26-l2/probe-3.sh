#!/usr/bin/env bash
# Probe 3 (one H100): where the batches' time goes at 1024^2 to 8192^2 float (HEAD
# 95f2cfb, build/gpu/laplace-head): the sweep kernel's own duration and bytes under ncu
# against the iteration's time, the norm every iteration against none, and the rows
# kernel's rows a thread.
set -u
B=build/gpu/laplace-head
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
run() { # n precision iterations check-every [env...]: us an iteration, median of 3
  local n=$1 prec=$2 it=$3 every=$4; shift 4
  local all=""
  for r in 1 2 3; do
    line=$(env "$@" X=1 timeout -s KILL 60 $B --backend gpu --loop batched --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every $every --csv 2>/dev/null | tail -1)
    i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
    all="$all $(python3 -c "print(f'{1e6*$t/$i:.3f}')")"
  done
  echo "$n $prec every=$every $* :$all median $(echo $all | tr ' ' '\n' | sort -n | sed -n 2p)"
}
echo "== us an iteration, the batches"
for n in 1024 2048 4096 8192; do
  it=$((20000 * 1024 * 1024 / n / n)); [ $it -lt 300 ] && it=300
  run $n float $it 1
  run $n float $it 1000000
  for rows in 4 8 16; do run $n float $it 1 LAPLACE_ROWS_PER_THREAD=$rows; done
done
echo "== ncu: the sweep kernel inside the batches"
for n in 1024 2048 4096 8192; do
  for every in 1 1000000; do
    echo "-- $n float, check every $every"
    timeout 120 $NCU --clock-control none --graph-profiling node -k regex:sweep_rows --launch-skip 30 --launch-count 3 \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
      $B --backend gpu --loop batched --nx $n --ny $n --top 1 --left 0.3 --precision float --eps 0 --max-iter 60 --check-every $every -q 2>&1 | grep -E "sweep_rows|duration|bytes|throughput|warps_active|ERR|rror" | head -24
  done
done
