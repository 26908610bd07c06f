#!/usr/bin/env bash
# run.sh BUILD TARGET SECONDS TIMEOUT - fuzzes with BUILD/fuzz_TARGET for SECONDS.
#
# 1. Fuzzing, on a fresh copy of the seeds (BUILD/corpus/TARGET) with the
#    target's dictionary; leak detection off, as libmatheval leaks on every
#    formula it cannot parse and checking each such input costs 100x the speed.
# 2. Leaks: every input of the final corpus (each distinct path found) run once
#    more with LeakSanitizer on, full stacks, and lsan.supp (libmatheval's parser).
# Findings (crash-*, leak-*, timeout-*) go to BUILD/crash/TARGET/, the logs to
# BUILD/fuzz_TARGET.log and .leaks.log. Prints seconds, executions, coverage and
# corpus size, and on a finding the file that reproduces it; exits 1 then.
set -uo pipefail
build=$(realpath "$1") target=$2 seconds=$3 timeout=$4
here=$(realpath "$(dirname "$0")")
bin=$build/fuzz_$target corpus=$build/corpus/$target crashes=$build/crash/$target
log=$build/fuzz_$target.log
export LSAN_OPTIONS=suppressions=$here/lsan.supp

rm -rf "$corpus" "$crashes"
mkdir -p "$corpus" "$crashes"
cp "$here/corpus/$target"/* "$corpus"/
echo "fuzz_$target: ${seconds} s from $(ls "$corpus" | wc -l) seeds (log: $log)"
ASAN_OPTIONS=detect_leaks=0 "$bin" -max_total_time="$seconds" -timeout="$timeout" \
    -dict="$here/$target.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
    "$corpus" >"$log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
    find "$corpus" -type f -print0 |
        ASAN_OPTIONS=fast_unwind_on_malloc=0 xargs -0 "$bin" -timeout="$timeout" \
            -artifact_prefix="$crashes/" >"$build/fuzz_$target.leaks.log" 2>&1
    rc=$?
    log=$build/fuzz_$target.leaks.log
fi

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz_$target.log")
last=$(grep -aE '^#[0-9]+' "$build/fuzz_$target.log" | tail -n 1)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
echo "fuzz_$target: ${runs:-?} executions in $seconds s, cov ${cov:-?}, ft ${ft:-?}," \
    "corpus $(ls "$corpus" | wc -l) files"
if [ $rc -ne 0 ]; then
    grep -aE 'ERROR|runtime error|invariant broken|SUMMARY' "$log" | head -n 5
    for f in "$crashes"/*; do
        [ -e "$f" ] && echo "fuzz_$target: FINDING, reproduce with: $bin $f"
    done
    echo "fuzz_$target: failed (status $rc), see $log"
    exit 1
fi
echo "fuzz_$target: no finding (leak check of the corpus clean)"
