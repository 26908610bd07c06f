#!/usr/bin/env bash
# Seventh call (one H100): colF = run-6's colB with the decision in one shared word
# (the stop and its iteration together: no fence, one atomic), thread 0 polling it
# every 32 ns, block 0's norm stored after telling; colF-fields the same binary with
# the fields in shared memory (LAPLACE_SPREAD_COLUMNS=0); against HEAD (laplace-new)
# and run-6's colC; medians of 3 interleaved rounds.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
for round in 1 2 3; do
  for case in "f384 float 384 30000" "f512 float 512 30000" "f768 float 768 30000" "f1024 float 1024 20000" "d512 double 512 30000" "d1024 double 1024 20000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for bin in new colC colF; do echo "$round $1 $bin $(us $B/laplace-$bin $run)"; done
    echo "$round $1 colF-fields $(LAPLACE_SPREAD_COLUMNS=0 us $B/laplace-colF $run)"
  done
  for bin in new colC colF; do echo "$round course $bin $(course $B/laplace-$bin)"; done
  echo "$round course colF-fields $(LAPLACE_SPREAD_COLUMNS=0 course $B/laplace-colF)"
done > $OUT/times-7.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-7.txt | sort -s -k1,1 | tee $OUT/medians-7.txt
grep course $OUT/times-7.txt | awk '{print $3, $5, $6}' | sort | uniq -c
