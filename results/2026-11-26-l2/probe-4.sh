#!/usr/bin/env bash
# Probe 4 (one H100): the host loop and the batches at 2048^2 to 16384^2 float, auto
# (HEAD 95f2cfb, laplace-head) against block sums always written into mapped host
# memory (laplace-mapped: HEAD's MAPPED_SUMS_MAX 8192 blocks lifted), the rows kernel's
# rows a thread 4 against auto, and --reduce device. The norm every iteration.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
run() { # binary n precision iterations [env...] -- [options]: us an iteration, median of 3
  local bin=$1 n=$2 prec=$3 it=$4; shift 4
  local envs=() opts=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
  [ $# -gt 0 ] && shift && opts=("$@")
  local all=""
  for r in 1 2 3; do
    line=$(env "${envs[@]}" X=1 timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv "${opts[@]}" 2>/dev/null | tail -1)
    i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12); loop=$(echo "$line" | cut -d, -f22)
    all="$all $(python3 -c "print(f'{1e6*$t/$i:.3f}')")"
  done
  echo "$bin $n $prec ${envs[*]} ${opts[*]} ($loop):$all median $(echo $all | tr ' ' '\n' | sort -n | sed -n 2p)"
}
for n in 2048 2896 4096 5792 8192 16384; do
  it=$((6000 * 2048 * 2048 / n / n)); [ $it -lt 200 ] && it=200
  for bin in head mapped; do
    run $bin $n float $it
    run $bin $n float $it LAPLACE_ROWS_PER_THREAD=4
  done
  run head $n float $it -- --reduce device
  run head $n float $it -- --loop host
done
for n in 4096 8192; do
  it=$((6000 * 2048 * 2048 / n / n))
  for bin in head mapped; do run $bin $n double $it; run $bin $n double $it LAPLACE_ROWS_PER_THREAD=4; done
done
