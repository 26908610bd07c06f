#!/usr/bin/env bash
# device call 1 (main at 0738ba7): the GPU suite and the chip sanitizer subset on the
# code no GPU has run yet, then two ranks on GPU 0 (correctness, 16384^2 float speed)
# and the floor of two processes sharing the GPU (share_probe.cu).
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
GPU_SUITE_JOBS=3 timeout 300 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite.log 2>&1
echo "suite status $?: $(tail -1 $OUT/gpu-suite.log)"
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:' timeout 120 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize.log 2>&1
echo "sanitize status $?: $(tail -1 $OUT/gpu-sanitize.log)"
. build/mpi-runtime/env.sh || exit 1
L=$B/laplace-mpi
M="timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2"
{
for extra in "" "--method sor" "--precision float"; do
  $L config/poisson-sine.ini --backend serial --max-iter 4000 $extra -q --output $OUT/s.bin
  $M $L config/poisson-sine.ini --backend gpu --partition 2x2 --ranks 1x2 --devices 0,0 --max-iter 4000 --snapshot-every 2000 $extra -q --output $OUT/m.bin 2> $OUT/m.err
  st=$?; cmp -s $OUT/s.bin $OUT/m.bin && r=identical || r=DIFFERENT
  echo "poisson-sine $extra, 2 ranks on GPU 0 (2x2 tiles, 1x2 ranks): status $st, field $r $(head -c 200 $OUT/m.err)"
done
echo "== 16384^2 float, 1000 iterations, norm every iteration (times: compute s)"
for rep in 1 2 3; do
  $L --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --check-every 1 --csv --output $OUT/a.bin > $OUT/a.csv
  echo "1 process: $(tail -1 $OUT/a.csv | cut -d, -f5-14)"
  for lay in 2x1 1x2; do
    $M $L --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --check-every 1 --partition $lay --ranks $lay --devices 0 --csv --output $OUT/b.bin > $OUT/b.csv 2> $OUT/b.err
    cmp -s $OUT/a.bin $OUT/b.bin && r=identical || r=DIFFERENT
    echo "2 ranks $lay: $(tail -1 $OUT/b.csv | cut -d, -f5-14) field $r $(head -c 200 $OUT/b.err)"
  done
done
$M $L --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --check-every 1 --partition 1x2 --ranks 1x2 --devices 0 --output $OUT/b.bin 2>&1 | grep -i 'exchange\|compute\|ranks' | head -5
echo "== the floor of sharing: share_probe VALUES ITERATIONS [SYNCS]"
P=$B/share_probe
for rep in 1 2 3; do
  $P 268435456 1000
  $P 134217728 1000 & $P 134217728 1000; wait
  $P 0 20000
  $P 0 20000 & $P 0 20000; wait
  $P 0 20000 4 & $P 0 20000 4; wait
done
} > $OUT/ranks.txt 2>&1
cat $OUT/ranks.txt
rm -f $OUT/*.bin
