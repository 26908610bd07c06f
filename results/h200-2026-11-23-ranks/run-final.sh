#!/usr/bin/env bash
# device call 5: the final main (98cbb3e): a subset of the GPU suite (built without
# MPI), then two ranks on GPU 0 (built with MPI) against serial.
set -u
cp build/gpu/laplace-new ./laplace
GPU_SUITE_MATCH='snapshots|poisson-regions|course-512|outputs|SIGINT|fault' timeout 170 bash tests/gpu_suite.sh ./laplace > $OUT/gpu-suite-subset.log 2>&1
tail -1 $OUT/gpu-suite-subset.log
. build/mpi-runtime/env.sh || exit 1
cp build/gpu/laplace-mpi ./laplace
M="timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2"
{ for extra in "" "--method sor" "--precision float"; do
    ./laplace config/poisson-sine.ini --backend serial --max-iter 4000 $extra -q --output $OUT/s.bin
    $M ./laplace config/poisson-sine.ini --backend gpu --partition 2x2 --ranks 1x2 --devices 0,0 --max-iter 4000 --monitor 500 --snapshot-every 2000 $extra --output $OUT/m.bin > $OUT/m.out 2> $OUT/m.err
    st=$?
    cmp -s $OUT/s.bin $OUT/m.bin && r=identical || r=DIFFERENT
    echo "poisson-sine $extra (2 ranks on GPU 0, monitor, snapshots): status $st, field $r $(head -c 200 $OUT/m.err)"
  done
  ./laplace --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --csv --output $OUT/a.bin | tail -1 | cut -d, -f5-14
  $M ./laplace --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --partition 2x1 --ranks 2x1 --devices 0 --csv --output $OUT/b.bin | tail -1 | cut -d, -f5-14
  cmp -s $OUT/a.bin $OUT/b.bin && echo "16384^2 float: 2 ranks = 1 GPU, bit for bit" || echo "16384^2 float: DIFFERENT"
} > $OUT/mpi-final.txt 2>&1
cat $OUT/mpi-final.txt
rm -f $OUT/*.bin $OUT/m-*.bin
