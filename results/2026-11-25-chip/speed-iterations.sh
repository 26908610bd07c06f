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
