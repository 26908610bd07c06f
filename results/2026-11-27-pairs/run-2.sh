#!/usr/bin/env bash
# Second call (one GPU): laplace-pairs with the warp-strip pass (no shared memory)
# against HEAD f0416d2's binary (laplace-final); run-1.sh's checks, its strips of 16
# and 64 rows forced on some, and the timings of strips of 16, 32 and 64 rows. Part 1:
# the same iteration count and the same .bin field on lattices where pairs run by
# default (stops inside batches, max_iter tails, odd sizes, double, --check-every) and,
# forced with LAPLACE_PAIRS=1 --loop batched, on small ones. Part 2: us an iteration,
# medians of 3 interleaved rounds, norm every iteration.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
pass=0; fail=0
same() { # NAME ENV ARGS...: old and new give the same iterations and field
  local name=$1 envs=$2; shift 2
  timeout -s KILL 30 $B/laplace-final --backend gpu --csv --output /tmp/o.bin "$@" > /tmp/o.csv 2> /tmp/o.err
  local ro=$?
  timeout -s KILL 30 env $envs $B/laplace-pairs --backend gpu --csv --output /tmp/n.bin "$@" > /tmp/n.csv 2> /tmp/n.err
  local rn=$?
  local io=$(tail -1 /tmp/o.csv | cut -d, -f8) in=$(tail -1 /tmp/n.csv | cut -d, -f8)
  local lo=$(tail -1 /tmp/o.csv | cut -d, -f22) ln=$(tail -1 /tmp/n.csv | cut -d, -f22)
  if [ $ro -eq 0 ] && [ $rn -eq 0 ] && [ "$io" = "$in" ] && cmp -s /tmp/o.bin /tmp/n.bin; then
    pass=$((pass+1)); echo "ok     $name: $in iterations, field identical (loops $lo -> $ln)"
  else
    fail=$((fail+1)); echo "FAILED $name: rc $ro/$rn, iterations $io/$in, loops $lo/$ln $(head -c 300 /tmp/n.err)"
  fi
}
P="--top 1 --left 0.3"
P="$P --max-iter 3000"
same f2048-eps6e-2 "" $P --nx 2048 --ny 2048 --eps 6e-2
same f2048-eps4.6e-2 "" $P --nx 2048 --ny 2048 --eps 4.6e-2
same f2048-max1003 "" $P --nx 2048 --ny 2048 --eps 0 --max-iter 1003
same f2048-every7 "" $P --nx 2048 --ny 2048 --eps 5e-2 --check-every 7
same d2048-eps5.5e-2 "" $P --nx 2048 --ny 2048 --eps 5.5e-2 --precision double
same f2049x1537 "" $P --nx 2049 --ny 1537 --eps 6e-2
same d3001x2111 "" $P --nx 3001 --ny 2111 --eps 1e-1 --precision double
same f4096-max517 "" $P --nx 4096 --ny 4096 --eps 0 --max-iter 517
P="--top 1 --left 0.3 --max-iter 100000"
same f67x35-forced "LAPLACE_PAIRS=1" $P --nx 67 --ny 35 --eps 1e-9 --loop batched
same d130x66-forced "LAPLACE_PAIRS=1" $P --nx 130 --ny 66 --eps 1e-12 --loop batched --precision double
same f3x3-forced "LAPLACE_PAIRS=1" $P --nx 3 --ny 3 --eps 1e-9 --loop batched
same f5x300-forced "LAPLACE_PAIRS=1" $P --nx 5 --ny 300 --eps 1e-7 --loop batched
same f300x5-forced "LAPLACE_PAIRS=1" $P --nx 300 --ny 5 --eps 1e-7 --loop batched
same f67x35-rows16 "LAPLACE_PAIRS=1 LAPLACE_PAIRS_ROWS=16" $P --nx 67 --ny 35 --eps 1e-9 --loop batched
same d130x66-rows64 "LAPLACE_PAIRS=1 LAPLACE_PAIRS_ROWS=64" $P --nx 130 --ny 66 --eps 1e-12 --loop batched --precision double
same f1001x999-rows16 "LAPLACE_PAIRS=1 LAPLACE_PAIRS_ROWS=16" $P --nx 1001 --ny 999 --eps 1e-3 --loop batched
same f2048-rows64 "LAPLACE_PAIRS_ROWS=64" $P --nx 2048 --ny 2048 --eps 6e-2 --max-iter 3000
same f2048-off "LAPLACE_PAIRS=0" $P --nx 2048 --ny 2048 --eps 6e-2
echo "part 1: $pass passed, $fail failed"
timeout -s KILL 30 $B/laplace-pairs --backend gpu $P --nx 2048 --ny 2048 --eps 6e-2 | grep -E "loop|iterations"
P="--top 1 --left 0.3"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f2048 float 2048 3000" "f4096 float 4096 1000" "d4096 double 4096 500" "f8192 float 8192 300" "f16384 float 16384 100"; do
    set -- $case
    run="--backend gpu $P --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 final $(us $B/laplace-final $run)"
    for h in 16 32 64; do echo "$round $1 pairs$h $(us env LAPLACE_PAIRS_ROWS=$h $B/laplace-pairs $run)"; done
  done
done > $OUT/times-2.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-2.txt | sort -s -k1,1 | tee $OUT/medians-2.txt
