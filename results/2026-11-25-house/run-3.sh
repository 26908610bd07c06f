#!/usr/bin/env bash
# device call 3 (issue 23): the rest of the course table on 2x1 tiles of GPU 0 (old
# against new), then the speed of old and new side by side (scripts/before_after.sh:
# the course problem and 16384^2 float 1000 iterations, 1 GPU and 2x1 tiles on GPU 0;
# one warm-up, medians of 3 taken in turn).
set -u
PRESETS="config/poisson-sine.ini" SIZES="64 128 256 512" timeout 200 scripts/identity.sh \
    build/gpu/laplace-old build/gpu/laplace-new /tmp/identity --partition 2x1 --devices 0,0 \
    > "$OUT/identity-2x1-course.txt" 2>&1
echo "rc=$?" >> "$OUT/identity-2x1-course.txt"
tail -2 "$OUT/identity-2x1-course.txt"
PAIR=0,0 timeout 300 scripts/before_after.sh build/gpu/laplace-old build/gpu/laplace-new "$OUT" > "$OUT/before-after.txt" 2>&1
echo "rc=$?" >> "$OUT/before-after.txt"
cat "$OUT/before-after.txt"
