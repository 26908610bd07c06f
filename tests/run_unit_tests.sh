#!/usr/bin/env bash
# run_unit_tests.sh BINARY [CRITERION OPTIONS...] - runs the unit tests (make test)
# and says which of them reported themselves skipped, which Criterion's summary
# leaves out unless verbose:
#
#   12 tests skipped (they need a GPU): gpu::one_gpu_float_equals_serial, ...
#   1 test skipped for another reason: validation::x (running as root, ...)
#   [====] Synthesis: Tested: ... (Criterion's summary, still the last line)
#
# The skipped tests are read from Criterion's TAP report (--tap=FILE): "# SKIP
# REASON" after each. Tests left out by --filter are reported there too, with
# Criterion's own reason "test was skipped", and are not counted. The exit status
# is the tests' own.
set -u
binary=$1
shift
tap=$(mktemp "${TMPDIR:-/tmp}/laplace-tap.XXXXXX")
summary=$(mktemp "${TMPDIR:-/tmp}/laplace-summary.XXXXXX")
trap 'rm -f "$tap" "$summary"' EXIT

# Criterion's output as it comes, but its summary line kept for the end.
"$binary" --tap="$tap" "$@" 2>&1 |
    awk -v keep="$summary" '/Synthesis:/ { print > keep; next } { print; fflush() }'
status=${PIPESTATUS[0]}

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
