#!/usr/bin/env bash
# Ninth call: (1) the course table's 1024^2 in the rounds (1399571 iterations) and the
# field equal to the rows kernel's batches; (2) where a round's time goes: a throwaway
# build of 2e18c78 with a PROBE knob (not committed): 1 no halo wait (fields wrong),
# 2 no wait for the decision, 4 warp 0 adds no block total, 8 the deciding warps do not
# wait for the sums; us an iteration, eps 0, the norm every iteration.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for way in "" "--kernel rows"; do
  timeout -s KILL 90 $B/laplace-new config/course-512.ini --nx 1024 --ny 1024 --max-iter 2000000 --backend gpu --partition 1x1 $way --output /tmp/c1024.dat > /tmp/c1024.txt 2>&1
  echo "course 1024 [$way]: $(grep -E '^  (loop|iterations) ' /tmp/c1024.txt | tr -s ' ' | tr '\n' ' ') md5 $(md5sum < /tmp/c1024.dat | cut -c1-32)"
done
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for n in 256 512 1024; do
    for probe in 0 1 2 4 8 3 15; do
      echo "$round float $n probe $probe $(PROBE=$probe LAPLACE_CHIP_WAY=spread us $B/laplace-probe --backend gpu --precision float --nx $n --ny $n --top 1 --left 0.3 --max-iter 50000 --loop chip)"
    done
    echo "$round float $n new $(us $B/laplace-new --backend gpu --precision float --nx $n --ny $n --top 1 --left 0.3 --max-iter 50000)"
  done
done
