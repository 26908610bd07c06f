#!/usr/bin/env bash
# Third call: the halos' edge columns loaded into every field (probe-2's failures:
# fields other than a round's first read stale edge columns), depth 2 by default, a
# lag of 1 where two lags do not fit. (1) course problem, (2) the suite's on-chip
# checks at the default plan and at depths 1, 3, 4 and lag 1, (3) us an iteration.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
for d in 0 1 3 4; do
  LAPLACE_SPREAD_DEPTH=$d timeout -s KILL 20 $B/laplace-new config/course-512.ini --backend gpu --csv --output /tmp/c$d.dat > /tmp/c$d.csv 2>&1
  echo "depth $d: $(tail -1 /tmp/c$d.csv | cut -d, -f8,12) $(md5sum < /tmp/c$d.dat | cut -c1-32)"
done
LAPLACE_SPREAD_LAG=1 timeout -s KILL 20 $B/laplace-new config/course-512.ini --backend gpu --csv --output /tmp/cl.dat > /tmp/cl.csv 2>&1
echo "lag 1: $(tail -1 /tmp/cl.csv | cut -d, -f8,12) $(md5sum < /tmp/cl.dat | cut -c1-32)"
echo "== suite subsets"
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='spread|chip' timeout -s KILL 150 bash tests/gpu_suite.sh $B/laplace-new > $OUT/suite-3.log 2>&1
grep -E "FAILED|passed" $OUT/suite-3.log | tail -8
for knob in LAPLACE_SPREAD_DEPTH=1 LAPLACE_SPREAD_DEPTH=3 LAPLACE_SPREAD_DEPTH=4 LAPLACE_SPREAD_LAG=1; do
  env $knob GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='chip-spread|spread-large' timeout -s KILL 60 bash tests/gpu_suite.sh $B/laplace-new > $OUT/suite-3-$knob.log 2>&1
  echo "$knob: $(grep -E "FAILED|passed" $OUT/suite-3-$knob.log | tail -4)"
done
echo "== us an iteration (eps 0, the norm every iteration)"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 64 64" "float 128 128" "float 192 192" "float 256 256" "float 512 512" "float 1024 1024" "double 512 512" "double 1024 1024" "float 1448 1448" "float 1700 1700" "double 1100 1000"; do
    set -- $case
    it=50000; [ $2 -ge 1024 ] && it=20000
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter $it"
    echo "$round $case old-auto $(us $B/laplace-old $run)"
    echo "$round $case new-auto $(us $B/laplace-new $run)"
    [ $2 -le 512 ] && echo "$round $case old-cluster $(LAPLACE_CHIP_WAY=cluster us $B/laplace-old $run --loop chip)"
    [ $2 -ge 512 ] && echo "$round $case old-spread $(LAPLACE_CHIP_WAY=spread us $B/laplace-old $run --loop chip)"
    echo "$round $case new-spread $(LAPLACE_CHIP_WAY=spread us $B/laplace-new $run --loop chip)"
    [ $2 -ge 1024 ] && echo "$round $case batched $(us $B/laplace-new $run --loop batched)"
  done
  for blocks in 16 32 64; do for d in 1 2 4; do
    echo "$round float 128 blocks $blocks depth $d $(LAPLACE_SPREAD_BLOCKS=$blocks LAPLACE_SPREAD_DEPTH=$d LAPLACE_CHIP_WAY=spread us $B/laplace-new --backend gpu --precision float --nx 128 --ny 128 --top 1 --left 0.3 --max-iter 50000 --loop chip)"
  done; done
  echo "$round float 512 lag 1 $(LAPLACE_SPREAD_LAG=1 LAPLACE_CHIP_WAY=spread us $B/laplace-new --backend gpu --precision float --nx 512 --ny 512 --top 1 --left 0.3 --max-iter 50000 --loop chip)"
done
echo "== course problem seconds, old and new (auto)"
for round in 1 2 3; do
  for b in old new; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round $b $(tail -1 /tmp/t.csv | cut -d, -f8,12)"
  done
done
