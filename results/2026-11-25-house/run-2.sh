#!/usr/bin/env bash
# device call 2 (issue 23): the GPU code under compute-sanitizer (memcheck, racecheck,
# synccheck) on the new main, then old (3137453) against new on 2x1 tiles of GPU 0
# (--devices 0,0: the batched loop) and with --loop host, presets and the course table
# up to 512^2 (heat-plate and 1024^2 run 10^6 iterations: left to the one-GPU call).
set -u
cp build/gpu/laplace-new ./laplace
( time timeout 330 bash tests/gpu_sanitize.sh ./laplace ) > "$OUT/gpu-sanitize.log" 2>&1
echo "rc=$?" >> "$OUT/gpu-sanitize.log"
tail -4 "$OUT/gpu-sanitize.log"
presets="config/course-512.ini config/default-gpu.ini config/default.ini config/heater.ini config/heat-transient.ini config/obstacle.ini config/poisson-sine.ini"
PRESETS="$presets" SIZES="16 32 64 128 256 512" timeout 150 scripts/identity.sh \
    build/gpu/laplace-old build/gpu/laplace-new /tmp/identity --partition 2x1 --devices 0,0 \
    > "$OUT/identity-2x1-batched.txt" 2>&1
echo "rc=$?" >> "$OUT/identity-2x1-batched.txt"
tail -2 "$OUT/identity-2x1-batched.txt"
PRESETS="config/heater.ini config/obstacle.ini config/poisson-sine.ini" SIZES="16 64 256" timeout 90 scripts/identity.sh \
    build/gpu/laplace-old build/gpu/laplace-new /tmp/identity --partition 2x1 --devices 0,0 --loop host \
    > "$OUT/identity-2x1-host.txt" 2>&1
echo "rc=$?" >> "$OUT/identity-2x1-host.txt"
tail -2 "$OUT/identity-2x1-host.txt"
