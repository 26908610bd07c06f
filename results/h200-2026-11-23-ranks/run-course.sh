#!/usr/bin/env bash
# device call 2: MPI ranks on GPUs, on a machine with one H200: two ranks sharing GPU 0
# (--devices 0 names each rank's GPU). Correctness against the serial reference and the
# single-process runs; times recorded but not an efficiency (one GPU shared).
set -u
. build/mpi-runtime/env.sh || exit 1
cp build/gpu/laplace-mpi ./laplace
M="mpirun --allow-run-as-root --oversubscribe -np 2"
./laplace --version
echo "== course 512^2 float, stored serial: $(tr '\n' ' ' < tests/data/course-512-float.serial)"
for layout in "--partition 2x1 --ranks 2x1 --devices 0" "--partition 1x2 --ranks 1x2 --devices 0" \
              "--partition 4x1 --ranks 2x1 --devices 0,0"; do
  s=$(date +%s%N)
  $M ./laplace config/course-512.ini --backend gpu $layout --csv --output $OUT/c.dat > $OUT/c.csv 2> $OUT/c.err
  echo "mpirun -np 2 $layout: status $? wall $(( ($(date +%s%N) - s) / 1000000 )) ms; $(tail -1 $OUT/c.csv | cut -d, -f5-14); md5 $(md5sum < $OUT/c.dat | cut -c1-32)"
  head -c 300 $OUT/c.err
done
echo "== presets (sources, regions, SOR): 2 ranks on GPU 0 against serial"
for p in poisson-sine obstacle heater; do
  for extra in "" "--method sor" "--precision float"; do
    ./laplace config/$p.ini --backend serial --max-iter 4000 $extra -q --output $OUT/s.bin
    $M ./laplace config/$p.ini --backend gpu --partition 2x2 --ranks 1x2 --devices 0,0 --max-iter 4000 $extra -q --output $OUT/m.bin 2> $OUT/m.err
    st=$?
    if cmp -s $OUT/s.bin $OUT/m.bin; then r=identical; else r=DIFFERENT; fi
    echo "$p $extra: status $st, field $r $(head -c 200 $OUT/m.err)"
  done
done
echo "== 16384^2 float, 1000 iterations, norm every iteration"
for run in "1:--partition 1x1" "1:--partition 2x1 --devices 0,0" "2:--partition 2x1 --ranks 2x1 --devices 0"; do
  np=${run%%:*}; args=${run#*:}
  for rep in 1 2 3; do
    if [ $np = 1 ]; then ./laplace --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --check-every 1 $args --csv --output $OUT/big.bin > $OUT/big.csv 2> $OUT/big.err
    else $M ./laplace --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --check-every 1 $args --csv --output $OUT/big.bin > $OUT/big.csv 2> $OUT/big.err; fi
    echo "np $np $args rep $rep: $(tail -1 $OUT/big.csv | cut -d, -f5-14) md5 $(md5sum < $OUT/big.bin | cut -c1-32) $(head -c 200 $OUT/big.err)"
  done
done
rm -f $OUT/*.bin $OUT/c.dat
