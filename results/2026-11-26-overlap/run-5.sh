#!/usr/bin/env bash
# Fifth call: (1) racecheck on the host loop's sweeps (--monitor 50), which run-4's
# time limit cut; (2) us an iteration, HEAD (laplace-head), the overlapping sweeps
# (laplace-overlap) and the same binary with LAPLACE_OVERLAP=0, every sweep kernel,
# medians of 3 interleaved rounds; (3) the bench sweep on laplace-overlap.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_TOOLS=racecheck GPU_SANITIZE_MATCH='--monitor 50' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-overlap > $OUT/gpu-sanitize-5.log 2>&1
echo "sanitize rc $?"; tail -2 $OUT/gpu-sanitize-5.log
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "rows-2048 --nx 2048 --ny 2048 --max-iter 8000" "rows-2896 --nx 2896 --ny 2896 --max-iter 4000" "rows-4096 --nx 4096 --ny 4096 --max-iter 2000" "rows-d2048 --nx 2048 --ny 2048 --precision double --max-iter 4000" "global-2048 --nx 2048 --ny 2048 --kernel global --max-iter 4000" "readonly-2048 --nx 2048 --ny 2048 --kernel readonly --max-iter 4000" "shared-2048 --nx 2048 --ny 2048 --kernel shared --max-iter 4000" "sor-2048 --nx 2048 --ny 2048 --method sor --max-iter 3000" "sor-512 --nx 512 --ny 512 --method sor --max-iter 10000" "tiles2x1-2048 --nx 2048 --ny 2048 --devices 0,0 --partition 2x1 --max-iter 4000"; do
    set -- $case; name=$1; shift
    run="--backend gpu --top 1 --left 0.3 $*"
    for b in head overlap; do echo "$round $name $b $(us $B/laplace-$b $run)"; done
    echo "$round $name overlap-off $(LAPLACE_OVERLAP=0 us $B/laplace-overlap $run)"
  done
done > $OUT/times-5.txt
python3 - $OUT/times-5.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:14s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-overlap --bench > $OUT/bench-sweep-5.txt 2>&1
tail -14 $OUT/bench-sweep-5.txt
