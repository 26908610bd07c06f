#!/usr/bin/env bash
# before_after.sh OLD NEW OUTDIR - times two builds of laplace on the same runs in one
# call (a refactor that must not move speed): the course problem and 16384^2 float,
# 1000 iterations, on one GPU and on two tiles (PAIR, default 0,1; 0,0 puts both
# tiles on one GPU). Per run and binary: one warm-up, then 3 timed runs taken in
# turn (old, new, old, new, ...), the medians of the CSV's input, compute and output
# times. Writes OUTDIR/before-after.csv and prints a table.
set -u
old=${1:?usage: before_after.sh OLD NEW OUTDIR}
new=${2:?usage: before_after.sh OLD NEW OUTDIR}
out=${3:?usage: before_after.sh OLD NEW OUTDIR}
PAIR=${PAIR:-0,1}
mkdir -p "$out"
csv="$out/before-after.csv"
echo "label,binary,iterations,input_s,compute_s,output_s,compute_runs_s,arguments" > "$csv"

# one_row BINARY ARGS...: the CSV row of one run (the last line of --csv)
one_row() {
    local bin=$1; shift
    "$bin" --csv "$@" 2> "$out/last.err" | tail -n 1
}

median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

compare() {
    local label=$1; shift
    declare -A input compute output iterations
    for bin in old new; do
        one_row "${!bin}" "$@" > /dev/null || { echo "$label: $bin failed: $(head -c 300 "$out/last.err")"; return; }
    done
    for _ in 1 2 3; do
        for bin in old new; do
            local row
            row=$(one_row "${!bin}" "$@") || { echo "$label: $bin failed"; return; }
            iterations[$bin]=$(echo "$row" | cut -d, -f8)
            input[$bin]+="$(echo "$row" | cut -d, -f11) "
            compute[$bin]+="$(echo "$row" | cut -d, -f12) "
            output[$bin]+="$(echo "$row" | cut -d, -f13) "
        done
    done
    for bin in old new; do
        local i c o
        i=$(median ${input[$bin]}); c=$(median ${compute[$bin]}); o=$(median ${output[$bin]})
        printf '%-34s %-3s %9s it  input %8.4f s  compute %8.4f s  output %8.4f s  (%s)\n' \
            "$label" "$bin" "${iterations[$bin]}" "$i" "$c" "$o" "${compute[$bin]% }"
        echo "\"$label\",$bin,${iterations[$bin]},$i,$c,$o,\"${compute[$bin]% }\",\"$*\"" >> "$csv"
    done
}

large="--nx 16384 --ny 16384 --precision float --eps 0 --max-iter 1000"
compare "course 1 GPU" config/course-512.ini --partition 1x1
compare "course 2x1 ($PAIR)" config/course-512.ini --partition 2x1 --devices "$PAIR"
compare "16384^2 float 1 GPU" $large --partition 1x1
compare "16384^2 float 2x1 ($PAIR)" $large --partition 2x1 --devices "$PAIR"
