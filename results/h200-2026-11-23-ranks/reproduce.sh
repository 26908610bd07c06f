#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/h200-2026-11-23-ranks/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/h200-2026-11-23-ranks/reproduce.sh             every step, in order
#   bash results/h200-2026-11-23-ranks/reproduce.sh STEP ...    some of them: run_course run_final run_suite run
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run-course.sh, as it was (its text unchanged) ----
run_course() {
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
}

# ---- run-final.sh, as it was (its text unchanged) ----
run_final() {
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
}

# ---- run-suite.sh, as it was (its text unchanged) ----
run_suite() {
#!/usr/bin/env bash
# device call 4: after the solver.c split (the batched loop moved to solver_batches.c):
# the GPU suite (no sanitizer), on main built without MPI.
set -u
cp build/gpu/laplace-new ./laplace
./laplace --version
( time bash tests/gpu_suite.sh ./laplace ) > $OUT/gpu-suite.log 2>&1
echo rc=$? >> $OUT/gpu-suite.log
tail -4 $OUT/gpu-suite.log; grep -c "^ok" $OUT/gpu-suite.log; grep "^FAILED" $OUT/gpu-suite.log | head
}

# ---- run.sh, as it was (its text unchanged) ----
run() {
#!/usr/bin/env bash
# device call 2: MPI ranks on GPUs, on a machine with one H200: two ranks sharing GPU 0
# (--devices 0 names each rank's GPU). Correctness against the serial reference and the
# single-process runs; times recorded but not an efficiency (one GPU shared).
set -u
. build/mpi-runtime/env.sh || exit 1
cp build/gpu/laplace-mpi ./laplace
M="mpirun --allow-run-as-root --oversubscribe -np 2"
./laplace --version
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
  for rep in 1; do
    if [ $np = 1 ]; then ./laplace --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --check-every 1 $args --csv --output $OUT/big.bin > $OUT/big.csv 2> $OUT/big.err
    else $M ./laplace --backend gpu --nx 16384 --ny 16384 --precision float --steps 1000 --check-every 1 $args --csv --output $OUT/big.bin > $OUT/big.csv 2> $OUT/big.err; fi
    echo "np $np $args rep $rep: $(tail -1 $OUT/big.csv | cut -d, -f5-14) md5 $(md5sum < $OUT/big.bin | cut -c1-32) $(head -c 200 $OUT/big.err)"
  done
done
rm -f $OUT/*.bin $OUT/c.dat
}

steps=(run_course run_final run_suite run)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
