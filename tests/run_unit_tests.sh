#!/usr/bin/env bash
# run_unit_tests.sh BINARY [--clean-out=DIR] [CRITERION OPTIONS...] - runs the unit tests (make test)
# and says which of them reported themselves skipped, which Criterion's summary
# leaves out unless verbose:
#
#   12 tests skipped (they need a GPU): gpu::one_gpu_float_equals_serial, ...
#   1 test skipped for another reason: validation::x (running as root, ...)
#   [====] Synthesis: Tested: ... (Criterion's summary, still the last line)
#
# Meanwhile a line every 30 s says it is still running. With --clean-out=DIR,
# clean_out.sh then removes what the passing tests left in DIR and names what it kept.
#
# The skipped tests are read from Criterion's TAP report (--tap=FILE): "# SKIP
# REASON" after each. Tests left out by --filter are reported there too, with
# Criterion's own reason "test was skipped", and are not counted. The exit status
# is the tests' own.
set -u
binary=$1
shift
clean_out="" # --clean-out=DIR (make test's, first after BINARY): see below
if [[ ${1:-} == --clean-out=* ]]; then
    clean_out=${1#--clean-out=}
    shift
fi
# A line every 30 s, so that a run of minutes is not silent (Criterion prints only
# failures until its summary). Started before the EXIT trap is set: a subshell killed
# while it starts may still run the trap it was forked with, which removed the files
# below under a test whose binary exited at once (trust_cli::skip_report_keeps_the_
# tests_exit_status, under SANITIZE=1 on a busy machine).
(
    start=$SECONDS
    while sleep 30 > /dev/null 2>&1; do
        echo "make test: still running, $((SECONDS - start)) s so far" \
            "($(du -sm tests/out 2> /dev/null | cut -f1) MB in tests/out)"
    done
) &
ticker=$!
tap=$(mktemp "${TMPDIR:-/tmp}/laplace-tap.XXXXXX")
summary=$(mktemp "${TMPDIR:-/tmp}/laplace-summary.XXXXXX")
trap 'kill "$ticker" 2> /dev/null; rm -f "$tap" "$summary"' EXIT

# Criterion's output as it comes, but its summary line kept for the end.
"$binary" --tap="$tap" "$@" 2>&1 |
    awk -v keep="$summary" '/Synthesis:/ { print > keep; next } { print; fflush() }'
status=${PIPESTATUS[0]}
kill "$ticker" 2> /dev/null

# With --clean-out=DIR (make test: tests/out), what the passing tests left there
# goes and a failed test's outputs stay. Only the outermost run is given it: the
# runs some tests make of this script leave the folder the others write in alone.
if [ -n "$clean_out" ]; then
    bash "$(dirname "$0")/clean_out.sh" "$tap" "$clean_out" || status=1
fi

# "ok - suite::name  # SKIP reason" -> the name and the reason, one per line.
skips=$(sed -n 's/^ok - \([^ ]*\) *# SKIP \(.*\)$/\1\t\2/p' "$tap" |
    grep -v $'\ttest was skipped$' | sort)
gpu=$(printf '%s\n' "$skips" | grep -E $'\tneeds [0-9]+ GPU' | cut -f1)
other=$(printf '%s\n' "$skips" | grep -v -E $'\tneeds [0-9]+ GPU' | grep . |
    sed 's/\t\(.*\)/ (\1)/')

# "N test(s) skipped WHY: a, b, c" (nothing after the colon when N is 0).
say() {
    local why=$1 list=$2 count
    count=$(printf '%s' "$list" | grep -c .)
    printf '%d test%s skipped %s' "$count" "$([ "$count" = 1 ] || echo s)" "$why"
    [ "$count" -gt 0 ] &&
        printf ': %s' "$(printf '%s\n' "$list" | awk 'NR > 1 { printf ", " } { printf "%s", $0 }')"
    printf '\n'
}
say "(they need a GPU)" "$gpu"
[ -n "$other" ] && say "for another reason" "$other"
cat "$summary"
exit "$status"
