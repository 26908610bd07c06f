#!/usr/bin/env bash
# Third call (one GPU): the warp-strip pass loading D rows ahead (LAPLACE_PAIRS_AHEAD)
# in strips of H rows (LAPLACE_PAIRS_ROWS), against HEAD f0416d2's binary
# (laplace-final): a few fields against it (forced small lattices, every D), then us an
# iteration, medians of 3 interleaved rounds, norm every iteration.
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
  if [ $ro -eq 0 ] && [ $rn -eq 0 ] && [ "$io" = "$in" ] && cmp -s /tmp/o.bin /tmp/n.bin; then
    pass=$((pass+1)); echo "ok     $name: $in iterations, field identical"
  else
    fail=$((fail+1)); echo "FAILED $name: rc $ro/$rn, iterations $io/$in $(head -c 300 /tmp/n.err)"
  fi
}
P="--top 1 --left 0.3 --max-iter 100000"
for d in 1 4 8; do for h in 16 32 64; do
  same f67x35-d$d-h$h "LAPLACE_PAIRS=1 LAPLACE_PAIRS_AHEAD=$d LAPLACE_PAIRS_ROWS=$h" $P --nx 67 --ny 35 --eps 1e-9 --loop batched
  same d130x66-d$d-h$h "LAPLACE_PAIRS=1 LAPLACE_PAIRS_AHEAD=$d LAPLACE_PAIRS_ROWS=$h" $P --nx 130 --ny 66 --eps 1e-12 --loop batched --precision double
done; done
same f2049x1537 "" --top 1 --left 0.3 --max-iter 3000 --nx 2049 --ny 1537 --eps 6e-2
same d3001x2111 "" --top 1 --left 0.3 --max-iter 3000 --nx 3001 --ny 2111 --eps 1e-1 --precision double
echo "part 1: $pass passed, $fail failed"
P="--top 1 --left 0.3"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f2048 float 2048 3000" "f4096 float 4096 1000" "d4096 double 4096 500" "f16384 float 16384 100"; do
    set -- $case
    run="--backend gpu $P --precision $2 --nx $3 --ny $3 --max-iter $4"
    echo "$round $1 final $(us $B/laplace-final $run)"
    for v in 1:32 4:16 4:32 4:64 8:16 8:32; do
      echo "$round $1 d${v%:*}h${v#*:} $(us env LAPLACE_PAIRS_AHEAD=${v%:*} LAPLACE_PAIRS_ROWS=${v#*:} $B/laplace-pairs $run)"
    done
  done
done > $OUT/times-3.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-3.txt | sort -s -k1,1 | tee $OUT/medians-3.txt
