#!/usr/bin/env bash
# Fifth call: the stop looked for at a round's start again (probe-4 looked before a
# round's last barrier: slower), at depth 0 before its one barrier; the plans tried:
# depth 2, depth 0, depth 0 with a lag of 1. (1) course problem at every depth, (2) the suite's on-chip checks at every
# depth and lag, (3) us an iteration, old against new, and the blocks of small lattices.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
for knob in LAPLACE_SPREAD_DEPTH= LAPLACE_SPREAD_DEPTH=0 LAPLACE_SPREAD_DEPTH=1 LAPLACE_SPREAD_LAG=1; do
  env $knob timeout -s KILL 20 $B/laplace-new config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1
  echo "$knob: $(tail -1 /tmp/c.csv | cut -d, -f8,12) $(md5sum < /tmp/c.dat | cut -c1-32)"
done
echo "== suite subsets"
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='spread|chip' timeout -s KILL 150 bash tests/gpu_suite.sh $B/laplace-new > $OUT/suite-5.log 2>&1
grep -E "FAILED|passed" $OUT/suite-5.log | tail -8
for knob in DEPTH=0 DEPTH=1 DEPTH=4 LAG=1; do
  env LAPLACE_SPREAD_$knob GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='chip-spread|spread-large' timeout -s KILL 60 bash tests/gpu_suite.sh $B/laplace-new > $OUT/suite-5-$(echo $knob | tr = -).log 2>&1
  echo "$knob: $(grep -E "FAILED|passed" $OUT/suite-5-$(echo $knob | tr = -).log | tail -4)"
done
echo "== us an iteration (eps 0, the norm every iteration)"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 32 32" "float 64 64" "float 128 128" "float 256 256" "float 512 512" "float 1024 1024" "double 512 512" "double 1024 1024" "float 1448 1448" "float 1700 1700" "double 1100 1000"; do
    set -- $case
    it=50000; [ $2 -ge 1024 ] && it=20000
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter $it"
    echo "$round $case old-auto $(us $B/laplace-old $run)"
    echo "$round $case new-auto $(us $B/laplace-new $run)"
    [ $2 -le 256 ] && echo "$round $case new-cluster $(LAPLACE_CHIP_WAY=cluster us $B/laplace-new $run --loop chip)"
    [ $2 -ge 512 ] && echo "$round $case old-spread $(LAPLACE_CHIP_WAY=spread us $B/laplace-old $run --loop chip)"
    echo "$round $case new-spread $(LAPLACE_CHIP_WAY=spread us $B/laplace-new $run --loop chip)"
  done
  for n in 64 128 192 256 384 512; do
    for rows in 2 3 4 6 8; do
      blocks=$((n / rows)); [ $blocks -gt 132 ] && continue
      echo "$round float $n rows $rows $(LAPLACE_SPREAD_BLOCKS=$blocks LAPLACE_CHIP_WAY=spread us $B/laplace-new --backend gpu --precision float --nx $n --ny $n --top 1 --left 0.3 --max-iter 50000 --loop chip)"
    done
  done
  for knob in "DEPTH=0 LAPLACE_SPREAD_LAG=1" "DEPTH=1 LAPLACE_SPREAD_LAG=1"; do
    echo "$round float 1700 $knob $(env LAPLACE_SPREAD_$knob LAPLACE_CHIP_WAY=spread us $B/laplace-new --backend gpu --precision float --nx 1700 --ny 1700 --top 1 --left 0.3 --max-iter 20000 --loop chip)"
  done
  for d in 0 1 2 3; do
    echo "$round float 1024 depth $d $(LAPLACE_SPREAD_DEPTH=$d LAPLACE_CHIP_WAY=spread us $B/laplace-new --backend gpu --precision float --nx 1024 --ny 1024 --top 1 --left 0.3 --max-iter 20000 --loop chip)"
  done
done
echo "== course problem seconds, old and new (auto)"
for round in 1 2 3; do
  for b in old new; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round $b $(tail -1 /tmp/t.csv | cut -d, -f8,12)"
  done
done
