#!/usr/bin/env bash
# Fifth call: where a spread iteration's time goes. PROBE (a throwaway build's knob,
# not in the code): 1 no wait for the neighbours' edge rows, 2 sweepers do not wait
# for the decision, 4 the deciding warp does not wait for the sums, 8 no interior
# sweep, 16 no edge-row sweep. us an iteration, 50000 iterations, eps 0.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 20 "$@" --eps 0 --max-iter 50000 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for n in 128 512 1024; do
  for data in "--top 1" "--top 1 --left 0.3"; do
    for probe in 0 1 2 4 6 7 24 30 31; do
      echo "$n [$data] probe $probe: $(PROBE=$probe LAPLACE_CHIP_WAY=spread us $B/laplace-probe --backend gpu --loop chip --nx $n --ny $n $data)"
    done
    echo "$n [$data] p544: $(LAPLACE_CHIP_WAY=spread us $B/laplace-p544 --backend gpu --loop chip --nx $n --ny $n $data)"
    echo "$n [$data] p544 probe 31: $(PROBE=31 LAPLACE_CHIP_WAY=spread us $B/laplace-p544 --backend gpu --loop chip --nx $n --ny $n $data)"
    echo "$n [$data] new: $(LAPLACE_CHIP_WAY=spread us $B/laplace-new --backend gpu --loop chip --nx $n --ny $n $data)"
    echo "$n [$data] cluster: $(LAPLACE_CHIP_WAY=cluster us $B/laplace-new --backend gpu --loop chip --nx $n --ny $n $data)"
  done
done
