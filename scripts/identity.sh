#!/usr/bin/env bash
# identity.sh OLD NEW OUTDIR [ARGS...] - shows that two builds of laplace behave
# byte for byte alike (a refactor's proof): every preset of config/ and the course
# table (16^2 .. 1024^2) run by both binaries with ARGS added (e.g. --backend cpu
# --max-iter 2000 on a machine without a GPU), then compared: the report without its
# time, throughput and speed-up lines, the CSV row without its times, rates and
# measured speed-up and efficiency, the history without its elapsed column, every
# output file (.dat .bin .npy .vti .pvti and its pieces, .png) and the exit status; and
# --help, --print-config and --dry-run whole. PRESETS (default config/*.ini) and SIZES
# (default 16 32 64 128 256 512 1024) narrow it; IGNORE=REGEX leaves the lines it
# matches out of the whole outputs compared (a change named on purpose, e.g.
# IGNORE='^  loop' for the dry run's loop plan lines). Prints one line a case, "same"
# or what differs, and a total; status 1 if any differ.
set -u
old=${1:?usage: identity.sh OLD NEW OUTDIR [ARGS...]}
new=${2:?usage: identity.sh OLD NEW OUTDIR [ARGS...]}
out=${3:?usage: identity.sh OLD NEW OUTDIR [ARGS...]}
shift 3
extra=("$@")
mkdir -p "$out"
cases=0
differ=0

# run_one BIN DIR ARGS...: the run's report, CSV row, history and files in DIR.
run_one() {
    local bin=$1 dir=$2; shift 2
    rm -rf "$dir"; mkdir -p "$dir"
    "$bin" "$@" "${extra[@]}" --output "$dir/f.dat" --output "$dir/f.npy" \
        --output "$dir/f.vti" --output "$dir/f.pvti" --output "$dir/f.png" \
        --history "$dir/history.csv" > "$dir/report" 2> "$dir/stderr"
    echo "status $?" >> "$dir/report"
    grep -v '^  time \|^  throughput \|speed-up' "$dir/report" > "$dir/report.kept"
    "$bin" "$@" "${extra[@]}" --csv 2>/dev/null | tail -n 1 | cut -d, -f1-10,18-26 > "$dir/csv.kept"
    [ -f "$dir/history.csv" ] && cut -d, -f1,2 "$dir/history.csv" > "$dir/history.kept"
    rm -f "$dir/report" "$dir/history.csv"
}

# same LABEL ARGS...: both binaries on ARGS, every kept file compared.
same() {
    local label=$1; shift
    cases=$((cases + 1))
    run_one "$old" "$out/old" "$@"
    run_one "$new" "$out/new" "$@"
    local d
    d=$(diff -r "$out/old" "$out/new" 2>&1 | head -c 400)
    if [ -z "$d" ]; then
        printf '%-44s same (%s)\n' "$label" "$(cut -d, -f8 "$out/new/csv.kept") iterations"
    else
        differ=$((differ + 1))
        printf '%-44s DIFFERS: %s\n' "$label" "$d"
    fi
}

# whole LABEL ARGS...: the whole standard output and status of one command.
whole() {
    local label=$1; shift
    cases=$((cases + 1))
    local a b
    a=$( (exec -a laplace "$old" "$@") 2>&1; echo "status $?")
    b=$( (exec -a laplace "$new" "$@") 2>&1; echo "status $?")
    if [ -n "${IGNORE:-}" ]; then
        a=$(grep -v -E -- "$IGNORE" <<< "$a")
        b=$(grep -v -E -- "$IGNORE" <<< "$b")
    fi
    if [ "$a" = "$b" ]; then
        printf '%-44s same\n' "$label"
    else
        differ=$((differ + 1))
        printf '%-44s DIFFERS\n' "$label"
        diff <(echo "$a") <(echo "$b") | head -n 10
    fi
}

whole "--help" --help
for ini in ${PRESETS:-config/*.ini}; do
    whole "$ini --print-config" "$ini" --print-config
    whole "$ini --dry-run" "$ini" --dry-run "${extra[@]}"
    same "$ini" "$ini"
done
for n in ${SIZES:-16 32 64 128 256 512 1024}; do
    same "course ${n}^2" config/course-512.ini --nx "$n" --ny "$n"
done
echo "identity: $cases cases, $differ differ ($old against $new)"
[ "$differ" -eq 0 ]
