#!/usr/bin/env bash
# device call 4: the edges' part of a sweep is no longer launched when its interior
# was not queued (a fault there); two ranks on GPU 0 against serial for every kernel
# in float, the fault on one rank, memcheck under two ranks.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
. build/mpi-runtime/env.sh || exit 1
N=$B/laplace-mpi-new
R="--allow-run-as-root --oversubscribe"
mp() { local np=$1; shift; timeout 120 mpirun $R -np $np "$@"; }
P="--top 1 --left 0.3 --right -0.7 --bottom 2.5 --nx 302 --ny 257 --max-iter 600 --eps 0 --precision float"
{
pass=0; fail=0
$N --backend serial $P -q --output $OUT/s.bin
for k in global readonly shared rows general; do
  for lay in "2:--partition 2x1 --ranks 2x1 --devices 0" "4:--partition 2x2 --ranks 2x2 --devices 0"; do
    rm -f $OUT/m.bin
    mp ${lay%%:*} $N --backend gpu $P --kernel $k ${lay#*:} -q --output $OUT/m.bin 2> $OUT/m.err
    st=$?
    if [ $st = 0 ] && cmp -s $OUT/s.bin $OUT/m.bin; then pass=$((pass+1)); echo "ok   $k ${lay#*:}"
    else fail=$((fail+1)); echo "FAIL $k ${lay#*:}: status $st $(head -c 300 $OUT/m.err)"; fi
  done
done
echo "ranks on GPU 0 against serial: $pass passed, $fail failed"
A="--backend gpu --nx 2048 --ny 2048 --top 1 --left 0.3 --eps 0 --max-iter 5000 --partition 2x1 --ranks 2x1 --devices 0"
for at in 300 1; do
  s=$(date +%s%N)
  timeout 60 mpirun $R -np 1 $N $A --output $OUT/f.bin : -np 1 env LAPLACE_INJECT_FAULT=0:$at $N $A --output $OUT/f.bin > $OUT/f.out 2> $OUT/f.err
  echo "fault on rank 1 at iteration $at: status $? after $(( ($(date +%s%N) - s) / 1000000 )) ms; output left: $(ls $OUT/f.bin* 2>/dev/null | wc -l) files; $(head -1 $OUT/f.err)"
done
LAPLACE_INJECT_FAULT=0:12 mp 2 compute-sanitizer --tool memcheck --leak-check full $N --backend gpu --nx 101 --ny 67 --top 1 --eps 0 --max-iter 24 --partition 2x2 --ranks 2x1 --devices 0,0 -q --output $OUT/z.bin > $OUT/san.txt 2>&1
echo "memcheck, fault at 12 on both ranks: status $? $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/san.txt) of 2 ranks with 0 errors"
mp 2 compute-sanitizer --tool memcheck --leak-check full $N --backend gpu --nx 101 --ny 67 --top 1 --eps 0 --max-iter 24 --partition 2x2 --ranks 2x1 --devices 0,0 -q --output $OUT/z.bin > $OUT/san.txt 2>&1
echo "memcheck: status $? $(grep -c 'ERROR SUMMARY: 0 errors' $OUT/san.txt) of 2 ranks with 0 errors"
} > $OUT/ranks-4.txt 2>&1
cat $OUT/ranks-4.txt
rm -f $OUT/*.bin
