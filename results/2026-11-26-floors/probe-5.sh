#!/usr/bin/env bash
# Fifth call: the cluster in rounds (chip_rounds: halos of 2 rows, the cluster meets
# once in 2 iterations, plain Jacobi; warp 0 decides, F = 3 fields). laplace-new is
# HEAD; laplace-rounds the change
# (LAPLACE_CHIP_DEPTH=0: the loop as before). (1) us an iteration, medians of 3
# interleaved rounds; (2) the GPU suite's checks of the loops on chip.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 32 32" "float 64 64" "float 128 128" "float 200 200" "float 256 256" "double 64 64" "double 128 128" "double 256 256"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter 50000"
    echo "$round $1-$2x$3 head $(us $B/laplace-new $run)"
    echo "$round $1-$2x$3 rounds $(us $B/laplace-rounds $run)"
    echo "$round $1-$2x$3 depth0 $(LAPLACE_CHIP_DEPTH=0 us $B/laplace-rounds $run)"
    [ $2 -ge 128 ] && echo "$round $1-$2x$3 rounds-cluster $(LAPLACE_CHIP_WAY=cluster us $B/laplace-rounds $run --loop chip)"
    [ $2 -ge 128 ] && echo "$round $1-$2x$3 rounds-cluster16 $(LAPLACE_CHIP_BLOCKS=16 LAPLACE_CHIP_WAY=cluster us $B/laplace-rounds $run --loop chip)"
  done
done > $OUT/times.txt
python3 - $OUT/times.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:16s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== GPU suite, loops on chip"
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='chip|cluster|course table' timeout -s KILL 300 bash tests/gpu_suite.sh $B/laplace-rounds > $OUT/gpu-suite-chip.log 2>&1
grep -E "^FAILED" $OUT/gpu-suite-chip.log | head; tail -1 $OUT/gpu-suite-chip.log
