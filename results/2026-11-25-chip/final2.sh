#!/bin/bash
# after the warp sums: the chip's checks of the GPU suite, its sanitizer checks, old against new
N=build/gpu/laplace-new; O=build/gpu/laplace-old
nvidia-smi --query-gpu=name --format=csv,noheader
GPU_SUITE_JOBS=3 GPU_SUITE_MATCH='chip|course|1x1' GPU_SUITE_OUT=/tmp/gs3 timeout 300 bash tests/gpu_suite.sh $N > $OUT/gpu_suite-chip.log 2>&1
echo "suite rc $?"; tail -1 $OUT/gpu_suite-chip.log; grep FAILED $OUT/gpu_suite-chip.log | head
GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:' GPU_SANITIZE_OUT=/tmp/san3 timeout 150 bash tests/gpu_sanitize.sh $N > $OUT/gpu_sanitize-chip.log 2>&1
echo "sanitize rc $?"; tail -1 $OUT/gpu_sanitize-chip.log
echo "binary,lattice,iterations,compute_s,us_per_iteration,loop" > $OUT/speed.csv
for n in 128 256 512; do for r in 1 2 3; do for b in $O $N; do
   $b config/course-512.ini --nx $n --ny $n --eps 0 --max-iter 20000 --backend gpu --csv | tail -1 | awk -F, -v b=$(basename $b) -v n=$n '{printf "%s,%d,%s,%s,%.3f,%s\n", b, n, $8, $12, $12/$8*1e6, $22}' >> $OUT/speed.csv
done; done; done
echo "binary,iterations,compute_s,loop" > $OUT/course.csv
for r in 1 2 3; do for b in $O $N; do $b config/course-512.ini --backend gpu --csv | tail -1 | awk -F, -v b=$(basename $b) '{print b","$8","$12","$22}' >> $OUT/course.csv; done; done
cat $OUT/speed.csv $OUT/course.csv
