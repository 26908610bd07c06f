#!/usr/bin/env bash
# First call (one H100): two cheap knobs, each a throwaway build of HEAD (ec048f8) with one
# line changed, timed against HEAD (laplace-new) in interleaved rounds, medians of 3:
#  unroll2/unroll4: `#pragma unroll N` on walk_column's loop (the loops on chip: the
#    cluster and the spread strips walk their columns with it), 128^2 to 1024^2;
#  lb512/lb1024: the rows kernel's __launch_bounds__(1024, 2) (32 registers, float 4x2
#    spills 12 bytes) as (512, 3) (40/38 registers, no spill) or (1024, 1) (54/43), 2048^2 up.
# Same bits: the course problem's md5 for every binary; a 2048^2 field's md5 for each.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f128 --precision float --nx 128 --ny 128 --max-iter 40000" "f256 --precision float --nx 256 --ny 256 --max-iter 40000" "f512 --precision float --nx 512 --ny 512 --max-iter 40000" "d512 --precision double --nx 512 --ny 512 --max-iter 30000" "f1024 --precision float --nx 1024 --ny 1024 --max-iter 20000"; do
    set -- $case; name=$1; shift
    for b in new unroll2 unroll4; do echo "$round $name $b $(us $B/laplace-$b --backend gpu --top 1 --left 0.3 $*)"; done
  done
  for case in "f2048 --precision float --nx 2048 --ny 2048 --max-iter 8000" "f2896 --precision float --nx 2896 --ny 2896 --max-iter 4000" "f4096 --precision float --nx 4096 --ny 4096 --max-iter 2000" "f8192 --precision float --nx 8192 --ny 8192 --max-iter 400" "f16384 --precision float --nx 16384 --ny 16384 --max-iter 100" "d2048 --precision double --nx 2048 --ny 2048 --max-iter 4000" "d4096 --precision double --nx 4096 --ny 4096 --max-iter 1000"; do
    set -- $case; name=$1; shift
    for b in new lb512 lb1024; do echo "$round $name $b $(us $B/laplace-$b --backend gpu --top 1 --left 0.3 $*)"; done
  done
  for b in new unroll2 unroll4; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv --output /tmp/c-$b.dat > /tmp/c.csv 2>&1
    echo "$round course $b $(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c-$b.dat | cut -c1-32)"
  done
done > $OUT/times-1.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-1.txt | tee $OUT/medians-1.txt
grep course $OUT/times-1.txt
for b in new lb512 lb1024; do timeout -s KILL 20 $B/laplace-$b --backend gpu --precision float --nx 2048 --ny 2048 --top 1 --left 0.3 --max-iter 3001 --output /tmp/f-$b.dat --csv | tail -1 | cut -d, -f8,9 | tr '\n' ' '; md5sum < /tmp/f-$b.dat; done
