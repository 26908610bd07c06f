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
