#!/usr/bin/env bash
# loop_session.sh OUTDIR [PART...] - the measurements behind the batched loop of
# several GPUs (results/NOTES.md, "The batched loop"), on the GPUs of this machine.
# Every figure is the median of 3 timed runs after one warm-up, old loop (--loop
# host) and new loop (auto) in the same call; the compute time is the CSV's
# time_compute_s. Parts: course (the lecture's 512^2 to eps 1e-10), large (16384^2
# float, 1000 iterations, norm every iteration), default (make run's job).
# PAIR=0,0 puts the two tiles of the 2x1 and 1x2 layouts on one GPU (a machine
# with one GPU: the loop's own cost, without a second GPU's help).
set -u
LAPLACE=${LAPLACE:-./laplace}
PAIR=${PAIR:-0,1}
out=${1:?usage: loop_session.sh OUTDIR [course large default]}
shift
parts=${*:-course large default}
mkdir -p "$out"

# median_of LABEL ARGS...: one warm-up, 3 timed runs; prints LABEL, iterations,
# the median compute time and µs per iteration; appends a CSV row to $out/loop.csv.
median_of() {
    local label=$1; shift
    "$LAPLACE" --csv "$@" > /dev/null 2>&1
    local times=() iterations=0 row
    for _ in 1 2 3; do
        row=$("$LAPLACE" --csv "$@" 2> "$out/last.err" | tail -n 1) ||
            { echo "$label: failed: $(head -c 300 "$out/last.err")"; return; }
        iterations=$(echo "$row" | cut -d, -f8)
        times+=("$(echo "$row" | cut -d, -f12)")
    done
    local median
    median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 2p)
    awk -v l="$label" -v i="$iterations" -v m="$median" -v all="${times[*]}" 'BEGIN {
        printf "%-44s %9d it  %8.4f s  %7.2f us/it  (runs: %s)\n", l, i, m, 1e6 * m / i, all }'
    echo "\"$label\",$iterations,$median,${times[0]},${times[1]},${times[2]},\"$*\"" >> "$out/loop.csv"
}

[ -f "$out/loop.csv" ] ||
    echo "label,iterations,median_compute_s,run1_s,run2_s,run3_s,arguments" > "$out/loop.csv"
for part in $parts; do
    case $part in
    course)
        for reduce in host device; do
            median_of "course 1 GPU, reduce $reduce" config/course-512.ini --partition 1x1 --reduce $reduce
            median_of "course 2x1 ($PAIR) batched, reduce $reduce" config/course-512.ini --partition 2x1 --devices $PAIR --reduce $reduce
            median_of "course 1x2 ($PAIR) batched, reduce $reduce" config/course-512.ini --partition 1x2 --devices $PAIR --reduce $reduce
            median_of "course 2x1 ($PAIR) host loop, reduce $reduce" config/course-512.ini --partition 2x1 --devices $PAIR --reduce $reduce --loop host
        done
        ;;
    large)
        large="--nx 16384 --ny 16384 --precision float --eps 0 --max-iter 1000"
        median_of "16384^2 float 1 GPU" $large --partition 1x1
        median_of "16384^2 float 2x1 ($PAIR) auto" $large --partition 2x1 --devices $PAIR
        median_of "16384^2 float 2x1 ($PAIR) batched" $large --partition 2x1 --devices $PAIR --loop batched
        median_of "16384^2 float 1x2 ($PAIR) batched" $large --partition 1x2 --devices $PAIR --loop batched
        median_of "16384^2 float 2x1 ($PAIR) host loop" $large --partition 2x1 --devices $PAIR --loop host
        ;;
    default)
        "$LAPLACE" config/default.ini | tee "$out/make-run.txt"
        ;;
    esac
done
