#!/usr/bin/env bash
# First call (second try, run 2; the first hung: stopped_by waited for a decision
# past a stop that fell between two rounds' checks): the spread loop in rounds (halos `depth` rows deep, the blocks meeting
# through L2 once a round). Old = 8124d8a, new = this tree. (1) the suite's on-chip
# checks, (2) the course problem at every depth against the stored serial reference,
# (3) us an iteration, old against new at every depth, 3 interleaved rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
for d in 0 1 2 3 4; do
  LAPLACE_SPREAD_DEPTH=$d timeout -s KILL 20 $B/laplace-new config/course-512.ini --backend gpu --csv --output /tmp/c$d.dat > /tmp/c$d.csv 2>&1
  echo "depth $d: $(tail -1 /tmp/c$d.csv | cut -d, -f8,12) $(md5sum < /tmp/c$d.dat | cut -c1-32)"
done
timeout -s KILL 20 $B/laplace-old config/course-512.ini --backend gpu --csv --output /tmp/cold.dat > /tmp/cold.csv 2>&1
echo "old: $(tail -1 /tmp/cold.csv | cut -d, -f8,12) $(md5sum < /tmp/cold.dat | cut -c1-32)"
echo "== suite subset"
GPU_SUITE_JOBS=6 GPU_SUITE_MATCH='spread|chip' timeout -s KILL 200 bash tests/gpu_suite.sh $B/laplace-new > $OUT/suite-2.log 2>&1
grep -E "FAILED|passed" $OUT/suite-2.log | tail -15
echo "== us an iteration (50000 iterations, eps 0, the norm every iteration)"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --max-iter 50000 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 128" "float 256" "float 512" "float 1024" "double 512" "double 1024"; do
    set -- $case
    run="--backend gpu --loop chip --precision $1 --nx $2 --ny $2 --top 1 --left 0.3"
    echo "$round $case old-spread $(LAPLACE_CHIP_WAY=spread us $B/laplace-old $run)"
    [ $2 -le 256 ] && echo "$round $case old-cluster $(LAPLACE_CHIP_WAY=cluster us $B/laplace-old $run)"
    for d in 1 2 3 4; do
      echo "$round $case new-d$d $(LAPLACE_SPREAD_DEPTH=$d LAPLACE_CHIP_WAY=spread us $B/laplace-new $run)"
    done
  done
done
echo "== course problem seconds, old and new (auto)"
for round in 1 2 3; do
  for b in old new; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round $b $(tail -1 /tmp/t.csv | cut -d, -f8,12)"
  done
done
