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
