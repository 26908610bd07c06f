#!/usr/bin/env bash
# clean_out.sh TAP OUT - after the unit tests (make test): removes from OUT
# (tests/out) everything the passing tests left there, keeps the outputs of the
# tests that failed and names each kept path, so that a passing run leaves nothing
# behind (a run writes about 2.4 GB there) and a failure can still be looked at.
#
# A test's outputs are OUT/<pid>-*; OUT/owners has a line "<pid> suite::name" for
# each test that wrote there (helpers.h, out_pid); TAP is Criterion's report, where
# a failed or crashed test is "not ok - suite::name ...". Exit status 0, or 1 when
# something could not be removed.
set -u
tap=$1
out=$2
[ -d "$out" ] || exit 0

# The pids of the failed tests, with their names.
declare -A failed_pid
failures=0
failed=$(sed -n 's/^not ok - \([^ ]*\).*$/\1/p' "$tap")
if [ -n "$failed" ] && [ -f "$out/owners" ]; then
    while read -r pid name; do
        grep -qxF -- "$name" <<< "$failed" && failed_pid[$pid]=$name &&
            failures=$((failures + 1))
    done < "$out/owners"
fi

mb() { du -sm "$@" 2> /dev/null | awk '{ s += $1 } END { print s + 0 }'; }
before=$(mb "$out")
status=0
for entry in "$out"/* "$out"/.[!.]*; do
    [ -e "$entry" ] || continue
    base=${entry##*/}
    pid=${base%%-*}
    if [ -n "${failed_pid[$pid]:-}" ]; then
        echo "make test: kept $entry ($(mb "$entry") MB; ${failed_pid[$pid]} failed)"
    elif [ "$base" = owners ] && [ "$failures" -gt 0 ]; then
        continue
    else
        rm -rf -- "$entry" || status=1
    fi
done
echo "make test: removed $((before - $(mb "$out"))) MB the passing tests left in $out"
exit "$status"
