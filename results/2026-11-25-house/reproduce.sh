#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-25-house/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-25-house/reproduce.sh             every step, in order
#   bash results/2026-11-25-house/reproduce.sh STEP ...    some of them: run_1 run_2 run_3 run_4
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run-1.sh, as it was (its text unchanged) ----
run_1() {
#!/usr/bin/env bash
# device call 1 (issue 23, the layout by concern): the GPU suite on the new main, and
# old (3137453, before the restructuring) against new on every preset and the course
# table 16^2 .. 1024^2, one GPU. Both binaries built here without MPI (build/gpu/).
set -u
cp build/gpu/laplace-new ./laplace
{ date -u; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; ./laplace --version; } > "$OUT/machine.txt" 2>&1
( time GPU_SUITE_JOBS=2 timeout 330 bash tests/gpu_suite.sh ./laplace ) > "$OUT/gpu-suite.log" 2>&1
echo "rc=$?" >> "$OUT/gpu-suite.log"
tail -3 "$OUT/gpu-suite.log"
timeout 240 scripts/identity.sh build/gpu/laplace-old build/gpu/laplace-new /tmp/identity > "$OUT/identity-1gpu.txt" 2>&1
echo "rc=$?" >> "$OUT/identity-1gpu.txt"
tail -3 "$OUT/identity-1gpu.txt"
}

# ---- run-2.sh, as it was (its text unchanged) ----
run_2() {
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
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
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
}

# ---- run-4.sh, as it was (its text unchanged) ----
run_4() {
#!/usr/bin/env bash
# device call 4 (issue 23): 16384^2 float, 1000 iterations, 1 GPU: old and new taken in
# turn 7 times each, every run's input, compute and output times (call 3's medians had
# new's output 0.18 s slower: noise or not).
set -u
args="--nx 16384 --ny 16384 --precision float --eps 0 --max-iter 1000 --partition 1x1 --csv"
for bin in old new; do build/gpu/laplace-$bin $args > /dev/null; done
for i in 1 2 3 4 5 6 7; do
    for bin in old new; do
        echo "$bin $(build/gpu/laplace-$bin $args | tail -n 1 | cut -d, -f11-13)"
    done
done | tee "$OUT/output-time-16384.txt"
}

steps=(run_1 run_2 run_3 run_4)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
