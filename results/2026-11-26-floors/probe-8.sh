#!/usr/bin/env bash
# Eighth call: the cluster's rounds with the field and sum slots counted, not taken
# modulo (probe-7's runtime depth cost 0.3 us at 128^2), at most 512 sweepers (no
# spill), strips of at least 8 rows; depths 2-4 (LAPLACE_CHIP_DEPTH; 4 by default),
# against HEAD and the spread strips; us an iteration, eps 0, the norm every
# iteration, medians of 3 interleaved rounds. Then the course table and the GPU
# suite's checks of the loops on chip.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 32 32" "float 64 64" "float 128 128" "float 192 192" "float 256 256" "double 64 64" "double 128 128" "double 256 256"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter 50000"
    echo "$round $1-$2x$3 head $(us $B/laplace-new $run)"
    for d in 2 3 4; do
      echo "$round $1-$2x$3 d$d $(LAPLACE_CHIP_DEPTH=$d LAPLACE_CHIP_WAY=cluster us $B/laplace-rounds $run --loop chip)"
    done
    [ $2 = 64 ] && echo "$round $1-$2x$3 d4-b4 $(LAPLACE_CHIP_BLOCKS=4 LAPLACE_CHIP_WAY=cluster us $B/laplace-rounds $run --loop chip)"
    [ $2 -ge 128 ] && echo "$round $1-$2x$3 spread $(LAPLACE_CHIP_WAY=spread us $B/laplace-rounds $run --loop chip)"
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
    print(f"{n:18s} {what:10s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== GPU suite, loops on chip"
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='chip|cluster|on chip|SIGINT|fault|course-[0-9]+ .*--partition 1x1 \(|course table' timeout -s KILL 300 bash tests/gpu_suite.sh $B/laplace-rounds > $OUT/gpu-suite-chip.log 2>&1
grep -E "^FAILED" $OUT/gpu-suite-chip.log | head; tail -1 $OUT/gpu-suite-chip.log
