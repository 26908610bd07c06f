#!/usr/bin/env bash
# Second call (one GPU): the spread loop with each thread's column in registers, its
# shape known when compiled (laplace-shp: rounds of 2 on strips of 2, 3 or 4 rows), the
# same with the shape at run time (laplace-col: columns.patch rebased on HEAD), and
# laplace-shp160 (shp with the deciding warp's loads sized for 160 blocks, not 256:
# no register spills), against HEAD (laplace-fin) and HEAD's fields with 160 blocks
# (shp160 with LAPLACE_SPREAD_COLUMNS=0); medians of 3 interleaved rounds. Then the
# suite's spread checks on shp160 against serial.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
course() { timeout -s KILL 20 "$@" config/course-512.ini --backend gpu --csv --output /tmp/c.dat > /tmp/c.csv 2>&1; echo "$(tail -1 /tmp/c.csv | cut -d, -f12) $(tail -1 /tmp/c.csv | cut -d, -f8) $(md5sum < /tmp/c.dat | cut -c1-32)"; }
pick() { case $1 in fld160) LAPLACE_SPREAD_COLUMNS=0 "${@:2}" ;; *) "${@:2}" ;; esac; }
bin_of() { case $1 in fld160) echo $B/laplace-shp160 ;; *) echo $B/laplace-$1 ;; esac; }
for round in 1 2 3; do
  for case in "f256 float 256 50000" "f384 float 384 30000" "f512 float 512 30000" "d512 double 512 30000"; do
    set -- $case
    run="--backend gpu --top 1 --left 0.3 --precision $2 --nx $3 --ny $3 --max-iter $4"
    for v in fin fld160 col shp shp160; do echo "$round $1 $v $(pick $v us $(bin_of $v) $run)"; done
  done
  for v in fin fld160 col shp shp160; do echo "$round course $v $(pick $v course $(bin_of $v))"; done
done > $OUT/times-2.txt
python3 results/2026-11-27-shapes/medians.py $OUT/times-2.txt | sort -s -k1,1 | tee $OUT/medians-2.txt
grep course $OUT/times-2.txt | awk '{print $3, $5, $6}' | sort | uniq -c
$B/laplace-shp160 config/course-512.ini --backend gpu 2>&1 | grep -i "on chip" | head -2
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='spread' timeout -s KILL 200 bash tests/gpu_suite.sh $B/laplace-shp160 > $OUT/gpu-suite-spread-2.log 2>&1
echo "suite rc $?"; grep -v "^ok" $OUT/gpu-suite-spread-2.log | tail -8
