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
