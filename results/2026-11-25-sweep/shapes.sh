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
