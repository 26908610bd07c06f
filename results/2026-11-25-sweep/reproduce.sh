#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-25-sweep/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-25-sweep/reproduce.sh             every step, in order
#   bash results/2026-11-25-sweep/reproduce.sh STEP ...    some of them: loops run_2 run_3 run shapes
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- loops.sh, as it was (its text unchanged) ----
loops() {
#!/usr/bin/env bash
# device call (issue 24, item 3: which loop auto should take on one GPU): 128^2 ..
# 16384^2 float, Jacobi, the norm every iteration, --eps 0, after the shape change;
# --loop auto (a lone GPU: the resident batched loop) against --loop host, median of 3
# after a warm-up, us per iteration; then the same with --check-every 10.
set -u
bin=build/gpu/laplace-new
out=$OUT/loops.csv
echo "n,check_every,loop,iterations,us_per_iter_runs,median_us" > "$out"
for ce in 1 10; do
for n in 128 256 512 1024 2048 4096 8192 16384; do
    it=$(( n <= 1024 ? 20000 : (n == 2048 ? 5000 : (n == 4096 ? 2000 : (n == 8192 ? 500 : 200))) ))
    for loop in auto host; do
        a="--nx $n --ny $n --precision float --eps 0 --max-iter $it --check-every $ce --loop $loop --csv"
        $bin $a > /dev/null 2>&1
        us=()
        for r in 1 2 3; do
            t=$($bin $a 2>/dev/null | tail -n 1 | cut -d, -f12)
            us+=("$(echo "$t $it" | awk '{printf "%.3f", 1e6*$1/$2}')")
        done
        med=$(printf '%s\n' "${us[@]}" | sort -g | sed -n 2p)
        echo "$n,$ce,$loop,$it,${us[*]},$med" | tee -a "$out"
    done
done
done
}

# ---- run-2.sh, as it was (its text unchanged) ----
run_2() {
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
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
#!/usr/bin/env bash
# device call (issue 24, item 3, a first step): a lone GPU tile whose batch would hold
# fewer than 256 iterations runs the host loop (device_cuda_alone.c). The GPU suite on
# it, then loops.sh's measurement again (auto against host), and the sweep.
set -u
cp build/gpu/laplace-new ./laplace
( time GPU_SUITE_JOBS=2 timeout 300 bash tests/gpu_suite.sh ./laplace ) > "$OUT/gpu-suite.log" 2>&1
echo "rc=$?" >> "$OUT/gpu-suite.log"
tail -2 "$OUT/gpu-suite.log"
timeout 120 bash results/2026-11-25-sweep/loops.sh > /dev/null 2>&1
grep ",1," "$OUT/loops.csv"
LAPLACE_BENCH_ONLY=sweep LAPLACE_BENCH_DIR="$OUT" timeout 100 ./laplace --bench > "$OUT/bench-sweep.txt" 2>&1
echo "rc=$?" >> "$OUT/bench-sweep.txt"
sed -n '/^lattice /,/^one GPU/p' "$OUT/bench-sweep.txt"
}

# ---- run.sh, as it was (its text unchanged) ----
run() {
#!/usr/bin/env bash
# device call (issue 24, item 5): the lattice sweep on a one-GPU machine, the GPU
# against its floor: LAPLACE_BENCH_ONLY=sweep ./laplace --bench (the ceilings first,
# then 128^2 .. 16384^2 float, 5 timed runs after 1 warm-up each). The CSV lands in
# $OUT; its plot is drawn on the CPU machine (make plots CSV=...).
set -u
cp build/gpu/laplace-new ./laplace
./laplace --version
LAPLACE_BENCH_ONLY=sweep LAPLACE_BENCH_DIR="$OUT" timeout 400 ./laplace --bench 2>&1 | tee "$OUT/bench-sweep.txt"
echo "rc=${PIPESTATUS[0]}" | tee -a "$OUT/bench-sweep.txt"
}

# ---- shapes.sh, as it was (its text unchanged) ----
shapes() {
#!/usr/bin/env bash
# device call (issue 24, items 2 and 3: what a launch shape and a kernel do on one GPU):
# 512^2 .. 4096^2 float, Jacobi, the norm every iteration, --eps 0, the lone GPU's
# loop; each kernel (auto = rows with the chosen rows per thread) and the rows kernel
# forced to 1, 4, 8 and 16 rows per thread (LAPLACE_ROWS_PER_THREAD), and the host
# loop (--loop host); us per iteration = compute time / iterations, median of 3 after
# a warm-up.
set -u
bin=build/gpu/laplace-new
out=$OUT/shapes.csv
echo "n,variant,iterations,us_per_iter_runs,median_us" > "$out"
run() { # n label env-or-empty args...
    local n=$1 label=$2 envs=$3; shift 3
    local it=$(( n <= 1024 ? 20000 : (n == 2048 ? 5000 : 2000) ))
    local a="--nx $n --ny $n --precision float --eps 0 --max-iter $it --csv $*"
    env $envs $bin $a > /dev/null 2>&1
    local us=()
    for r in 1 2 3; do
        t=$(env $envs $bin $a 2>/dev/null | tail -n 1 | cut -d, -f12)
        us+=("$(echo "$t $it" | awk '{printf "%.3f", 1e6*$1/$2}')")
    done
    med=$(printf '%s\n' "${us[@]}" | sort -g | sed -n 2p)
    echo "$n,$label,$it,${us[*]},$med" | tee -a "$out"
}
for n in 512 1024 2048 4096; do
    run $n auto ""
    for r in 1 4 8 16; do run $n "rows r=$r" "LAPLACE_ROWS_PER_THREAD=$r" --kernel rows; done
    for k in global readonly shared; do run $n "$k" "" --kernel $k; done
    run $n "auto, host loop" "" --loop host
done
}

steps=(loops run_2 run_3 run shapes)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
