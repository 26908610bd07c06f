#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-25-chip/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-25-chip/reproduce.sh             every step, in order
#   bash results/2026-11-25-chip/reproduce.sh STEP ...    some of them: chipcheck final2 limit speed_iterations steady
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- chipcheck.sh, as it was (its text unchanged) ----
chipcheck() {
#!/bin/bash
N=build/gpu/laplace-new
nvidia-smi --query-gpu=name --format=csv,noheader
GPU_SUITE_JOBS=3 GPU_SUITE_MATCH='chip' GPU_SUITE_OUT=/tmp/gs4 timeout 240 bash tests/gpu_suite.sh $N > $OUT/gpu_suite-chip.log 2>&1
echo "suite rc $?"; tail -1 $OUT/gpu_suite-chip.log; grep FAILED $OUT/gpu_suite-chip.log | head
GPU_SANITIZE_MATCH='max-iter 24|max-iter 12 |faulted 1 0:' GPU_SANITIZE_OUT=/tmp/san4 timeout 150 bash tests/gpu_sanitize.sh $N > $OUT/gpu_sanitize-chip.log 2>&1
echo "sanitize rc $?"; tail -1 $OUT/gpu_sanitize-chip.log; grep FAILED $OUT/gpu_sanitize-chip.log | head
}

# ---- final2.sh, as it was (its text unchanged) ----
final2() {
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
}

# ---- limit.sh, as it was (its text unchanged) ----
limit() {
#!/bin/bash
# the loop on chip against the rows kernel's batches near the chip's size limit
N=build/gpu/laplace-new
nvidia-smi --query-gpu=name --format=csv,noheader
echo "precision,lattice,kernel,iterations,compute_s,us_per_iteration,loop" > $OUT/limit.csv
for pn in "float 512" "float 576" "float 640" "float 672" "double 256" "double 384" "double 448" "double 480"; do
 set -- $pn
 for r in 1 2 3; do
  for k in auto rows; do
   $N config/course-512.ini --precision $1 --nx $2 --ny $2 --eps 0 --max-iter 10000 --backend gpu --kernel $k --csv | tail -1 | awk -F, -v p=$1 -v n=$2 -v k=$k '{printf "%s,%d,%s,%s,%s,%.3f,%s\n", p, n, k, $8, $12, $12/$8*1e6, $22}' >> $OUT/limit.csv
  done
 done
done
cat $OUT/limit.csv
}

# ---- speed-iterations.sh, as it was (its text unchanged) ----
speed_iterations() {
#!/bin/bash
N=build/gpu/laplace-new; O=build/gpu/laplace-push
nvidia-smi --query-gpu=name --format=csv,noheader
for n in 128 256 512; do
 for b in $O $N; do
  for r in 1 2 3; do
   $b config/course-512.ini --nx $n --ny $n --eps 0 --max-iter 20000 --backend gpu --csv | tail -1 | awk -F, -v b=$b -v n=$n '{printf "%s %d it %s = %.3f us/it loop %s\n", b, n, $8, $12/$8*1e6, $22}'
  done
 done
done
$N --backend serial --csv config/course-512.ini --nx 128 --ny 128 --output /tmp/s.dat > /tmp/s.csv
$N --backend gpu --csv config/course-512.ini --nx 128 --ny 128 --output /tmp/g.dat > /tmp/g.csv
cmp /tmp/s.dat /tmp/g.dat && echo 128 same $(tail -1 /tmp/g.csv | cut -d, -f8)
for b in $O $N; do $b config/course-512.ini --backend gpu --csv | tail -1 | cut -d, -f8,12,22; done
for n in 128 512; do for ce in 1000; do
$N config/course-512.ini --nx $n --ny $n --eps 0 --max-iter 20000 --check-every $ce --backend gpu --csv | tail -1 | awk -F, -v n=$n -v ce=$ce '{printf "new %d check-every %d = %.3f us/it loop %s\n", n, ce, $12/$8*1e6, $22}'
done; done
for it in 1 2 3 8191 8192 8193 10001; do
$N --backend serial --csv config/course-512.ini --nx 100 --ny 77 --eps 0 --max-iter $it --output /tmp/s.dat > /tmp/s.csv
$N --backend gpu --csv config/course-512.ini --nx 100 --ny 77 --eps 0 --max-iter $it --output /tmp/g.dat > /tmp/g.csv
cmp -s /tmp/s.dat /tmp/g.dat && echo "max-iter $it same $(tail -1 /tmp/g.csv | cut -d, -f8,22)" || echo "max-iter $it DIFF"
done
}

# ---- steady.sh, as it was (its text unchanged) ----
steady() {
#!/bin/bash
# steady state: 200000 iterations (the batches' start-up of about 10 ms is then 5% or less)
N=build/gpu/laplace-new
nvidia-smi --query-gpu=name --format=csv,noheader
echo "precision,lattice,kernel,iterations,compute_s,us_per_iteration,loop" > $OUT/steady.csv
for pn in "float 128" "float 256" "float 384" "float 512" "float 640" "double 256" "double 384" "double 480"; do
 set -- $pn
 for r in 1 2 3; do for k in auto rows; do
   $N config/course-512.ini --precision $1 --nx $2 --ny $2 --eps 0 --max-iter 200000 --backend gpu --kernel $k --csv | tail -1 | awk -F, -v p=$1 -v n=$2 -v k=$k '{printf "%s,%d,%s,%s,%s,%.3f,%s\n", p, n, k, $8, $12, $12/$8*1e6, $22}' >> $OUT/steady.csv
 done; done
done
cat $OUT/steady.csv
}

steps=(chipcheck final2 limit speed_iterations steady)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
