#!/usr/bin/env bash
# Probe 7 (one H100), the tree of 3042d59 (laplace-new): single columns a thread
# (LAPLACE_COLUMNS_PER_THREAD=1) at 4, 8 or 16 rows against auto's pairs at 4 rows, in
# 32x4, 64x4 and 128x4 blocks, float 2048^2 to 8192^2, the norm every iteration, us an
# iteration, medians of 3 (columns.csv).
set -u
B=build/gpu/laplace-new
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "n,variant,runs,median_us" > $OUT/columns.csv
for n in 2048 2896 4096 8192; do
  it=$((3000 * 2048 * 2048 / n / n)); [ $it -lt 100 ] && it=100
  for v in auto c1r4b32x4 c1r8b32x4 c1r16b32x4 c1r4b64x4 c1r8b64x4 c1r16b64x4 c1r8b128x4 c2r4b64x4 c2r4b32x4; do
    env=(X=1); opt=()
    if [ $v != auto ]; then
      c=${v#c}; c=${c%%r*}; r=${v#*r}; r=${r%%b*}; b=${v#*b}
      env=(LAPLACE_COLUMNS_PER_THREAD=$c LAPLACE_ROWS_PER_THREAD=$r); opt=(--block $b)
    fi
    all=""
    for round in 1 2 3; do
      line=$(env "${env[@]}" timeout -s KILL 60 $B --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision float --eps 0 --max-iter $it --check-every 1 --csv "${opt[@]}" 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      all="$all $(python3 -c "print(f'{1e6*$t/$i:.3f}')")"
    done
    echo "$n,$v,$all,$(echo $all | tr ' ' '\n' | sort -n | sed -n 2p)" >> $OUT/columns.csv
  done
  grep "^$n," $OUT/columns.csv | sort -t, -k4 -n | head -4 | tr '\n' ' '; echo
done
