#!/usr/bin/env bash
# device call (issue 24, item 2, a first step): the rows kernel's rows per thread now
# fill a third of the device instead of two waves (laplace_kernels_choose_shape).
# The GPU suite on it, then the lattice sweep again (against its floor), then old
# (3137453) against new on the course table 16^2 .. 1024^2 and the presets (the
# fields and iteration counts must not move).
set -u
cp build/gpu/laplace-new ./laplace
( time GPU_SUITE_JOBS=2 timeout 300 bash tests/gpu_suite.sh ./laplace ) > "$OUT/gpu-suite.log" 2>&1
echo "rc=$?" >> "$OUT/gpu-suite.log"
tail -3 "$OUT/gpu-suite.log"
LAPLACE_BENCH_ONLY=sweep LAPLACE_BENCH_DIR="$OUT" timeout 120 ./laplace --bench > "$OUT/bench-sweep.txt" 2>&1
echo "rc=$?" >> "$OUT/bench-sweep.txt"
sed -n '/^lattice /,/^one GPU/p' "$OUT/bench-sweep.txt"
PRESETS="config/course-512.ini config/default-gpu.ini config/heater.ini config/obstacle.ini config/poisson-sine.ini config/heat-transient.ini" \
    timeout 150 scripts/identity.sh build/gpu/laplace-old build/gpu/laplace-new /tmp/identity > "$OUT/identity-1gpu.txt" 2>&1
echo "rc=$?" >> "$OUT/identity-1gpu.txt"
tail -3 "$OUT/identity-1gpu.txt"
