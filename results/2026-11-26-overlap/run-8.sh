#!/usr/bin/env bash
# Eighth call, the final tree (laplace-overlap: a lone tile's sweeps overlap in the
# host loop too, which auto takes for it from 2048^2: run-7 found no gain, its binary
# overlapping only in run_alone's batches; no trigger): (1)
# compute-sanitizer on the lone tile's sweeps of every kernel (batched,
# the rows kernel, global/readonly/shared, SOR's two phases, the large rows lattice in
# both orders) and their faults; (2) us an iteration, HEAD (laplace-head) against it and
# against it with LAPLACE_OVERLAP=0, medians of 3 interleaved rounds; (3) the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=12 GPU_SANITIZE_MATCH='--method sor.*--partition 1x1$|--max-iter 12 --partition 1x1|--loop batched|--partition 1x1 --kernel (rows|global|readonly|shared)$|--kernel rows --block 16x4' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-overlap > $OUT/gpu-sanitize-8.log 2>&1
echo "sanitize rc $?"; grep -E "^FAILED" $OUT/gpu-sanitize-8.log | head; tail -1 $OUT/gpu-sanitize-8.log
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f2048 --precision float --nx 2048 --ny 2048 --max-iter 8000" "f2896 --precision float --nx 2896 --ny 2896 --max-iter 4000" "f4096 --precision float --nx 4096 --ny 4096 --max-iter 2000" "f8192 --precision float --nx 8192 --ny 8192 --max-iter 400" "d2048 --precision double --nx 2048 --ny 2048 --max-iter 4000" "global-d2048 --precision double --nx 2048 --ny 2048 --kernel global --max-iter 3000" "sor-f2048 --precision float --nx 2048 --ny 2048 --method sor --max-iter 3000" "tiles-f2048 --precision float --nx 2048 --ny 2048 --devices 0,0 --partition 2x1 --max-iter 4000"; do
    set -- $case; name=$1; shift
    run="--backend gpu --top 1 --left 0.3 $*"
    for b in head overlap; do echo "$round $name $b $(us $B/laplace-$b $run)"; done
    echo "$round $name overlap-off $(LAPLACE_OVERLAP=0 us $B/laplace-overlap $run)"
  done
done > $OUT/times-8.txt
python3 - $OUT/times-8.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:14s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-overlap config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
echo "$(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-overlap --bench > $OUT/bench-sweep-8.txt 2>&1
tail -14 $OUT/bench-sweep-8.txt
