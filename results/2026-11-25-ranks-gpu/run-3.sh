#!/usr/bin/env bash
# device call 3: the binaries rebuilt after the Makefile fix (kernels/*.o now rebuilt
# when laplace_kernels.h changes; call 2's one-process binary had a stale loop on chip).
# The GPU suite and the chip sanitizer subset again; a fault injected on one of two
# ranks sharing GPU 0; a few two-rank checks against serial with the rebuilt binary.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
GPU_SUITE_JOBS=3 timeout 300 bash tests/gpu_suite.sh $B/laplace-new > $OUT/gpu-suite-3.log 2>&1
echo "suite status $?: $(tail -1 $OUT/gpu-suite-3.log)"
GPU_SANITIZE_JOBS=4 GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:' timeout 150 \
  bash tests/gpu_sanitize.sh $B/laplace-new > $OUT/gpu-sanitize-3.log 2>&1
echo "sanitize status $?: $(tail -1 $OUT/gpu-sanitize-3.log)"
. build/mpi-runtime/env.sh || exit 1
N=$B/laplace-mpi-new
R="--allow-run-as-root --oversubscribe"
A="--backend gpu --nx 2048 --ny 2048 --top 1 --left 0.3 --eps 0 --max-iter 5000 --partition 2x1 --ranks 2x1 --devices 0"
{
echo "== a fault injected on rank 1 at iteration 300 (LAPLACE_INJECT_FAULT=0:300 on that rank only)"
s=$(date +%s%N)
timeout 60 mpirun $R -np 1 $N $A --output $OUT/f.bin : -np 1 env LAPLACE_INJECT_FAULT=0:300 $N $A --output $OUT/f.bin > $OUT/f.out 2> $OUT/f.err
echo "status $? after $(( ($(date +%s%N) - s) / 1000000 )) ms; output left: $(ls $OUT/f.bin* 2>/dev/null | wc -l) files"
head -c 600 $OUT/f.err; echo
echo "== two ranks against serial with the rebuilt binary"
for extra in "--method sor" "--precision float" "--precision float --kernel shared"; do
  $N config/poisson-sine.ini --backend serial --max-iter 3000 $extra -q --output $OUT/s.bin
  timeout 120 mpirun $R -np 2 $N config/poisson-sine.ini --backend gpu --partition 2x2 --ranks 2x1 --devices 0,0 --max-iter 3000 --snapshot-every 1000 $extra -q --output $OUT/m.bin 2> $OUT/m.err
  st=$?; cmp -s $OUT/s.bin $OUT/m.bin && r=identical || r=DIFFERENT
  echo "poisson-sine $extra, 2x2 tiles on 2x1 ranks: status $st, field $r $(head -c 200 $OUT/m.err)"
done
} > $OUT/ranks-3.txt 2>&1
cat $OUT/ranks-3.txt
rm -f $OUT/*.bin
