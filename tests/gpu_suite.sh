#!/usr/bin/env bash
# gpu_suite.sh - the GPU test suite (make test-gpu). Needs only bash and the
# laplace binary, so it runs on a GPU machine with nothing installed.
#
# Every GPU run is compared with the serial reference on the same problem: the
# .dat field must be byte-identical (every value printed with round-trip
# digits) and the iteration count equal. Runs that need more GPUs than the
# machine has are reported as skipped. Fails when no GPU is present.
set -u
LAPLACE=${1:-./laplace}
OUT=${GPU_SUITE_OUT:-tests/out/gpu}
mkdir -p "$OUT"

# GPU_SUITE_LIST=1 runs nothing: it lists the checks a run would make ("would run"
# and the check's function and arguments, in order), as on a machine of
# GPU_SUITE_GPUS GPUs (default 8), also where there is no GPU; to plan a run's parts.
LIST=${GPU_SUITE_LIST:-}
if [ -n "$LIST" ]; then
    ngpu=${GPU_SUITE_GPUS:-8}
else
    ngpu=$("$LAPLACE" --topology 2>/dev/null | sed -n 's/.*: \([0-9]*\) CUDA device.*/\1/p')
    ngpu=${ngpu:-0}
    echo "gpu suite: $("$LAPLACE" --version)"
    "$LAPLACE" --topology || true
fi
if [ "$ngpu" -eq 0 ]; then
    echo "gpu suite: FAILED: no GPU is visible"
    exit 1
fi

# Each check prints one line, with its duration, into its own file under
# $OUT/checks, numbered in the order the checks were listed, and on stdout as it
# ends; with GPU_SUITE_JOBS=N (default 1) up to N run at once. The counts are read
# off those lines at the end. GPU_SUITE_MIN_GPUS=N leaves out the checks that need
# fewer than N GPUs (to test a machine's largest layouts alone);
# GPU_SUITE_RESUME=N does not run checks 1 to N again (they passed in a run that a
# time limit cut off). GPU_SUITE_MATCH=REGEX runs only the checks whose label
# matches (e.g. 'SIGINT|fault'). GPU_SUITE_PART=K/N runs part K of N: checks K, K + N,
# K + 2N, ... of those listed, so that N runs (each within a time limit) make the
# whole suite, whatever GPU_SUITE_JOBS.
JOBS=${GPU_SUITE_JOBS:-1}
MATCH=${GPU_SUITE_MATCH:-}
MIN_GPUS=${GPU_SUITE_MIN_GPUS:-1}
RESUME=${GPU_SUITE_RESUME:-0}
PART=${GPU_SUITE_PART:-1/1}
if ! [[ "$PART" =~ ^([0-9]+)/([0-9]+)$ ]] || [ "${BASH_REMATCH[2]}" -lt 1 ] ||
    [ "${BASH_REMATCH[1]}" -lt 1 ] || [ "${BASH_REMATCH[1]}" -gt "${BASH_REMATCH[2]}" ]; then
    echo "gpu suite: GPU_SUITE_PART=$PART: give K/N, 1 <= K <= N" >&2
    exit 2
fi
PART_K=${BASH_REMATCH[1]} PARTS=${BASH_REMATCH[2]}
rm -rf "$OUT/checks" && mkdir -p "$OUT/checks"
seq=0
ok()   { echo "ok      $*"; }
bad()  { echo "FAILED  $*"; }
skip() { echo "skipped $*"; }

# timed FUNCTION ARGS...: the check's line with its wall time appended.
timed() {
    local start=$EPOCHREALTIME
    echo "$("$@") [$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }')]"
}

# chosen N ARGS...: whether check number N, of function and arguments ARGS, runs
# (resumed past, in this part, matching).
chosen() {
    local n=$1; shift
    [ "$n" -gt "$RESUME" ] && [ $(((n - 1) % PARTS + 1)) -eq "$PART_K" ] &&
        [[ -z "$MATCH" || "$*" =~ $MATCH ]]
}

# check FUNCTION ARGS...: runs one check; $tag names its scratch files.
check() {
    seq=$((seq + 1)) tag=$seq
    local line="$OUT/checks/$(printf %05d "$seq")"
    chosen "$seq" "$@" || return 0
    if [ -n "$LIST" ]; then
        echo "would run $seq $*"
        return
    fi
    if [ "$JOBS" -le 1 ]; then
        timed "$@" | tee "$line"
        return
    fi
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    { timed "$@" > "$line"; cat "$line"; } &
}

# selected GPUS: whether checks needing GPUS GPUs run on this machine, this time.
selected() { [ "$1" -ge "$MIN_GPUS" ]; }

# Waits for the checks running in the background (before a sequential part).
settle() { wait; }

iterations_of() { tail -n 1 "$1" | cut -d, -f8; }

# reference NAME PROBLEM_ARGS...: the serial field and CSV, computed once (in the
# foreground, so that checks running at once never compute the same one). They take
# their names only once the serial run has finished: a run stopped by a signal (a
# suite cut by `timeout` writes the field of the iteration it reached) leaves none
# for a later suite over the same $OUT to take for the reference.
reference() {
    local name=$1; shift
    [ -f "$OUT/$name.serial.dat" ] && [ -f "$OUT/$name.serial.csv" ] && return 0
    local args=() part="$OUT/$name.serial-part"
    while [ $# -gt 0 ]; do # --kernel names a GPU kernel: the serial backend refuses it
        if [ "$1" = --kernel ]; then shift 2; else args+=("$1"); shift; fi
    done
    if ! "$LAPLACE" --backend serial --csv --output "$part.dat" "${args[@]}" > "$part.csv"; then
        rm -f "$part.dat" "$part.csv"
        return 1
    fi
    mv "$part.csv" "$OUT/$name.serial.csv" && mv "$part.dat" "$OUT/$name.serial.dat"
}

# gated GPUS LABEL FUNCTION ARGS...: the check FUNCTION LABEL ARGS... when it is
# selected, reported skipped when this machine has fewer than GPUS GPUs.
gated() {
    local gpus=$1 label=$2 function=$3; shift 3
    selected "$gpus" || return 0
    if [ "$gpus" -gt "$ngpu" ]; then check skip "$label"; return; fi
    check "$function" "$label" "$@"
}

# same_as_serial NAME GPUS "PROBLEM_ARGS" GPU_ARGS...: a GPU run equals the reference.
same_as_serial() {
    local name=$1 gpus=$2 problem=$3; shift 3
    local label="$name $* (needs $gpus GPU)"
    selected "$gpus" || return 0
    if [ "$gpus" -gt "$ngpu" ]; then check skip "$label"; return; fi
    if [ -z "$LIST" ] && chosen $((seq + 1)) gpu_equals_serial "$name" "$label" "$problem" "$@"; then
        # shellcheck disable=SC2086
        reference "$name" $problem || { check bad "$label: serial reference failed"; return; }
    fi
    check gpu_equals_serial "$name" "$label" "$problem" "$@"
}

gpu_equals_serial() {
    local name=$1 label=$2 problem=$3; shift 3
    local run="$OUT/run-$tag"
    # shellcheck disable=SC2086
    "$LAPLACE" --backend gpu --csv --output "$run.dat" $problem "$@" > "$run.csv" 2> "$run.err"
    local status=$?
    if [ "$status" -ne 0 ]; then bad "$label: exit status $status ($(head -c 300 "$run.err"))"; return; fi
    local want got
    want=$(iterations_of "$OUT/$name.serial.csv"); got=$(iterations_of "$run.csv")
    if [ "$want" != "$got" ]; then bad "$label: $got iterations, serial $want"; return; fi
    if ! cmp -s "$run.dat" "$OUT/$name.serial.dat"; then bad "$label: field differs from serial"; return; fi
    rm -f "$run.dat" "$run.csv" "$run.err"
    ok "$label: $got iterations, field identical"
}

# same_as_stored GPUS GPU_ARGS...: the lecture's problem equals the stored serial
# reference (tests/data/course-512-float.serial): iteration count and field md5.
# Each runs alone: the GPUs time-slice between processes, and the course problem's
# batches each wait for the host, so beside other checks it crawls (on two H100s five
# of its runs at once took 156 s each, one alone 2.5 s: results/2026-11-26-h100x2).
same_as_stored() {
    local gpus=$1; shift
    settle
    gated "$gpus" "course-512 $* (needs $gpus GPU)" course_equals_stored "$@"
    settle
}

course_equals_stored() {
    local label=$1; shift
    local run="$OUT/course-$tag" stored=tests/data/course-512-float.serial
    "$LAPLACE" config/course-512.ini --backend gpu --csv --output "$run.dat" "$@" \
        > "$run.csv" 2> "$run.err"
    local status=$?
    if [ "$status" -ne 0 ]; then bad "$label: exit status $status ($(head -c 300 "$run.err"))"; return; fi
    local want_it want_md5 got_it got_md5 seconds
    want_it=$(sed -n 's/^iterations //p' "$stored"); want_md5=$(sed -n 's/^md5 //p' "$stored")
    got_it=$(iterations_of "$run.csv"); got_md5=$(md5sum "$run.dat" | cut -d' ' -f1)
    seconds=$(tail -n 1 "$run.csv" | cut -d, -f12)
    if [ "$want_it" != "$got_it" ]; then bad "$label: $got_it iterations, serial $want_it"; return; fi
    if [ "$want_md5" != "$got_md5" ]; then bad "$label: field differs from serial"; return; fi
    ok "$label: $got_it iterations, field identical, compute $seconds s"
}

# refused STATUS LABEL ARGS...: laplace exits with STATUS and one line on stderr.
refused() { check refused_check "$@"; }

refused_check() {
    local want=$1 label=$2; shift 2
    local err="$OUT/refused-$tag.err"
    "$LAPLACE" "$@" > /dev/null 2> "$err"
    local status=$? lines
    lines=$(wc -l < "$err")
    if [ "$status" -eq "$want" ] && [ "$lines" -eq 1 ]; then
        ok "$label: status $status, '$(cat "$err")'"
    else
        bad "$label: status $status (want $want), $lines stderr lines"
    fi
}

edges="--top 1 --left 0.3 --right -0.7 --bottom 2.5"
for precision in float double; do
    for lattice in "37 23" "101 67"; do
        set -- $lattice
        problem="--nx $1 --ny $2 --precision $precision $edges --eps 1e-6 --max-iter 20000"
        name="plate-$1x$2-$precision"
        same_as_serial "$name" 1 "$problem" --partition 1x1
        same_as_serial "$name" 2 "$problem" --partition 2x1
        same_as_serial "$name" 2 "$problem" --partition 1x2
        same_as_serial "$name" 3 "$problem" --partition 3x1
        same_as_serial "$name" 4 "$problem" --partition 2x2
        same_as_serial "$name" 4 "$problem" --partition 4x1
        same_as_serial "$name" 4 "$problem" --partition 1x4
        for layout in 4x2 2x4 8x1 1x8; do
            same_as_serial "$name" 8 "$problem" --partition "$layout"
        done
        same_as_serial "$name" 8 "$problem" --partition 2x4 --no-p2p
        same_as_serial "$name" 8 "$problem" --partition 4x2 --reduce device
        same_as_serial "$name" 8 "$problem" --partition 2x4 --devices 7,6,5,4,3,2,1,0
        same_as_serial "$name" 2 "$problem" --partition 2x1 --no-p2p
        same_as_serial "$name" 4 "$problem" --partition 2x2 --no-p2p
        same_as_serial "$name" 1 "$problem" --partition 1x1 --block 4x4
        same_as_serial "$name" 4 "$problem" --partition 2x2 --block 3x5
        same_as_serial "$name-check7" 4 "$problem --check-every 7" --partition 2x2 --block 32x32
        same_as_serial "$name" 4 "$problem" --partition 2x2 --devices 3,2,1,0
        for kernel in global readonly shared rows; do
            same_as_serial "$name" 1 "$problem" --partition 1x1 --kernel "$kernel"
            same_as_serial "$name" 4 "$problem" --partition 2x2 --kernel "$kernel" --block 8x4
        done
        same_as_serial "$name" 1 "$problem" --partition 1x1 --reduce device
        same_as_serial "$name" 4 "$problem" --partition 2x2 --reduce device --block 16x2
        same_as_serial "$name" 2 "$problem" --partition 1x2 --reduce device --no-p2p
    done
done

# Lattices large enough for every launch shape of the rows kernel (1, 4, 8 rows
# per thread, one or two columns): a fixed number of iterations, all layouts.
for precision in float double; do
    for lattice in "2048 2048" "1030 4100" "4096 1537"; do
        set -- $lattice
        problem="--nx $1 --ny $2 --precision $precision $edges --eps 0 --max-iter 40"
        name="shapes-$1x$2-$precision"
        same_as_serial "$name" 1 "$problem" --partition 1x1
        same_as_serial "$name" 1 "$problem" --partition 1x1 --reduce device
        same_as_serial "$name" 1 "$problem" --partition 1x1 --monitor 10
        same_as_serial "$name" 4 "$problem" --partition 2x2
        same_as_serial "$name" 2 "$problem" --partition 1x2 --reduce device
        same_as_serial "$name" 8 "$problem" --partition 2x4
        same_as_serial "$name" 8 "$problem" --partition 8x1
        same_as_serial "$name" 8 "$problem" --partition 1x8 --reduce device
    done
done

# Beyond the plain plate (update_rule.h): the general kernel with SOR's two
# phases, sources, fixed regions crossing tile borders, dx != dy, weighted
# Jacobi, the max and residual norms, and formulas on the edges. Regions come
# from an INI file, since their values hold spaces.
regions="$OUT/regions.ini"
cat > "$regions" <<'INI'
[region slab]
shape = rect
x0 = 0.45
y0 = 0.1
x1 = 1.2
y1 = 0.35
value = -1
[region body]
shape = disc
cx = 1.0
cy = 0.6
r = 0.22
value = 2
INI
for precision in float double; do
    base="--nx 61 --ny 47 --precision $precision $edges --eps 1e-6 --max-iter 20000"
    for variant in "sor:--method sor" \
                   "poisson-regions:$regions --lx 2 --ly 1 --method sor --source x*y-1" \
                   "weighted-residual:--method weighted --omega 0.7 --norm residual" \
                   "max-norm:--norm max --source 3" \
                   "formulas:--left sin(pi*y) --top x^2 --method sor --omega 1.7" \
                   "general-plain:--kernel general"; do
        name="${variant%%:*}-$precision" problem="$base ${variant#*:}"
        same_as_serial "$name" 1 "$problem" --partition 1x1
        same_as_serial "$name" 1 "$problem" --partition 1x1 --monitor 50
        same_as_serial "$name" 2 "$problem" --partition 2x1
        same_as_serial "$name" 2 "$problem" --partition 1x2
        same_as_serial "$name" 3 "$problem" --partition 3x1
        same_as_serial "$name" 4 "$problem" --partition 2x2
        same_as_serial "$name" 4 "$problem" --partition 1x4 --block 8x4
        same_as_serial "$name" 4 "$problem" --partition 2x2 --no-p2p
        same_as_serial "$name" 8 "$problem" --partition 4x2
        same_as_serial "$name" 8 "$problem" --partition 1x8 --block 8x4
        same_as_serial "$name" 1 "$problem" --partition 1x1 --reduce device
        same_as_serial "$name" 4 "$problem" --partition 2x2 --reduce device
        [ "$name" = "general-plain-$precision" ] ||
            same_as_serial "$name" 1 "$problem" --partition 1x1 --loop chip
    done
done
# SOR on 256^2 (the issue's case) and the general kernel on a large lattice.
problem="--nx 256 --ny 256 --method sor --eps 1e-6"
for layout in 1x1 2x1 2x2 4x1 2x4 8x1; do
    n=$(( ${layout%x*} * ${layout#*x} ))
    same_as_serial sor-256 "$n" "$problem" --partition "$layout"
done
for precision in float double; do
    problem="--nx 2050 --ny 1537 --precision $precision $edges --method sor --source 1 --eps 0 --max-iter 30"
    same_as_serial "sor-large-$precision" 1 "$problem" --partition 1x1
    same_as_serial "sor-large-$precision" 4 "$problem" --partition 2x2
    same_as_serial "sor-large-$precision" 8 "$problem" --partition 4x2
done

# same_snapshots NAME GPUS "ARGS" GPU_ARGS...: heat steps with snapshots write the
# same files as the serial run.
same_snapshots() {
    local name=$1 gpus=$2 problem=$3; shift 3
    local label="snapshots $name $* (needs $gpus GPU)"
    selected "$gpus" || return 0
    if [ "$gpus" -gt "$ngpu" ]; then check skip "$label"; return; fi
    settle
    check snapshots_equal "$name" "$label" "$problem" "$@"
    settle
}

snapshots_equal() {
    local name=$1 label=$2 problem=$3; shift 3
    rm -f "$OUT/$name"-*.dat "$OUT/$name-gpu"-*.dat
    # shellcheck disable=SC2086
    "$LAPLACE" --backend serial -q --output "$OUT/$name.dat" $problem ||
        { bad "$label: serial run failed"; return; }
    # shellcheck disable=SC2086
    "$LAPLACE" --backend gpu -q --output "$OUT/$name-gpu.dat" $problem "$@" 2> "$OUT/run.err"
    local status=$?
    [ "$status" -eq 0 ] || { bad "$label: exit status $status ($(head -c 300 "$OUT/run.err"))"; return; }
    local count=0 f
    for f in "$OUT/$name"-0*.dat; do
        cmp -s "$f" "${f/$name-/$name-gpu-}" ||
            { bad "$label: $(basename "$f") differs"; return; }
        count=$((count + 1))
    done
    [ "$count" -gt 0 ] || { bad "$label: no snapshot written"; return; }
    ok "$label: $count snapshots identical"
}
heat="--nx 90 --ny 70 $edges --method weighted --omega 0.9 --steps 60 --snapshot-every 20"
same_snapshots heat 1 "$heat" --partition 1x1
same_snapshots heat 4 "$heat" --partition 2x2
same_snapshots heat 8 "$heat" --partition 2x4

# The lecture's problem: 512 x 512, top 1, float, eps 1e-10.
same_as_stored 1 --partition 1x1
same_as_stored 2 --partition 2x1
same_as_stored 2 --partition 1x2
same_as_stored 4 --partition 2x2
for layout in 2x4 4x2 8x1 1x8; do
    same_as_stored 8 --partition "$layout"
done
same_as_stored 1 --partition 1x1 --reduce device
same_as_stored 2 --partition 1x2 --reduce device
same_as_stored 1 --partition 1x1 --kernel global

# The course's table: the lecture's problem on N x N (eps 1e-10, float) stops at
# the iterations the lecture prints, on one tile (on chip up to 512^2; the rows
# kernel's batches; the host loop) and on 2x1 and 3x2 tiles of one GPU in both
# loops, each field equal to serial's (to the stored reference at 512^2; at 1024^2,
# where serial takes hours, to the one tile's). Up to 256^2 by default; with
# GPU_SUITE_COURSE_MAX=1024 the whole table (about 6 minutes more on one H100: the
# host loop takes 1.4 million host round trips at 1024^2).
course_iterations() {
    case $1 in 16) echo 676 ;; 32) echo 2606 ;; 64) echo 9745 ;; 128) echo 35073 ;;
               256) echo 124611 ;; 512) echo 423553 ;; 1024) echo 1399571 ;; esac
}
course_layouts=("--partition 1x1" "--partition 1x1 --kernel rows" "--partition 1x1 --loop host"
                "--partition 2x1 --devices 0,0 --loop batched" "--partition 2x1 --devices 0,0 --loop host"
                "--partition 3x2 --devices 0,0,0,0,0,0 --loop batched"
                "--partition 3x2 --devices 0,0,0,0,0,0 --loop host")
course_count_check() {
    local label=$1 n=$2 got
    got=$(iterations_of "$OUT/course-$n.serial.csv")
    [ "$got" = "$(course_iterations "$n")" ] || { bad "$label: serial stops at $got"; return; }
    ok "$label: $got iterations"
}
# course_big_check LABEL N LAYOUT...: N^2 equals the table and the one tile's field.
course_big_check() {
    local label=$1 n=$2 run="$OUT/course-big-$tag"; shift 2
    # shellcheck disable=SC2068
    "$LAPLACE" config/course-512.ini --nx "$n" --ny "$n" --max-iter 2000000 --backend gpu --csv \
        --output "$run.dat" $@ > "$run.csv" 2> "$run.err" || { bad "$label: exit status $? ($(head -c 300 "$run.err"))"; return; }
    local got
    got=$(iterations_of "$run.csv")
    [ "$got" = "$(course_iterations "$n")" ] || { bad "$label: $got iterations"; return; }
    cmp -s "$run.dat" "$OUT/course-$n.one.dat" || { bad "$label: field differs from one tile's"; return; }
    rm -f "$run".*
    ok "$label: $got iterations, field equal to one tile's"
}
COURSE_MAX=${GPU_SUITE_COURSE_MAX:-256}
for n in 16 32 64 128 256; do
    [ "$n" -le "$COURSE_MAX" ] || continue
    for layout in "${course_layouts[@]}"; do
        # shellcheck disable=SC2086
        same_as_serial "course-$n" 1 "config/course-512.ini --nx $n --ny $n" $layout
    done
    gated 1 "course table $n^2 (needs 1 GPU)" course_count_check "$n"
done
if [ "$COURSE_MAX" -ge 512 ]; then
    for layout in "${course_layouts[@]:1}"; do
        # shellcheck disable=SC2086
        same_as_stored 1 $layout
    done
fi
if [ "$COURSE_MAX" -ge 1024 ] && [ -z "$LIST" ] && selected 1 && [[ -z "$MATCH" || "course 1024" =~ $MATCH ]]; then
    settle
    "$LAPLACE" config/course-512.ini --nx 1024 --ny 1024 --max-iter 2000000 --backend gpu -q \
        --partition 1x1 --output "$OUT/course-1024.one.dat"
    for layout in "${course_layouts[@]:2}"; do
        gated 1 "course 1024^2 $layout (needs 1 GPU)" course_big_check 1024 "$layout"
    done
fi

# The batched loop of two tiles (one graph of both tiles' sweeps a batch, the host
# meeting them once a batch) against the host loop (--loop host): both equal
# serial on both layouts, with the stop inside a batch (a replay), at --max-iter,
# every 7th iteration, with the sums added on the device and with a monitor. On
# two GPUs (--devices 0,1), and on one GPU holding both tiles (--devices 0,0),
# which runs the same graph, events and replay on a machine with one GPU.
batched_checks() {
    local gpus=$1 devices=$2 precision problem name layout
    for precision in float double; do
        problem="--nx 301 --ny 203 --precision $precision $edges --eps 1e-5 --max-iter 30000"
        name="batched-$precision"
        for layout in 2x1 1x2; do
            same_as_serial "$name" "$gpus" "$problem" --partition "$layout" --devices "$devices" --loop batched
            same_as_serial "$name" "$gpus" "$problem" --partition "$layout" --devices "$devices" --loop host
            same_as_serial "$name" "$gpus" "$problem" --partition "$layout" --devices "$devices" --reduce device --loop batched
            same_as_serial "$name" "$gpus" "$problem" --partition "$layout" --devices "$devices" --monitor 100
        done
        same_as_serial "$name-check7" "$gpus" "$problem --check-every 7" --partition 2x1 --devices "$devices"
        same_as_serial "$name-max" "$gpus" "${problem/--eps 1e-5/--eps 0} --max-iter 1001" --partition 1x2 --devices "$devices"
    done
    problem="--nx 61 --ny 47 $edges --method sor --source x*y-1 --eps 1e-6 --max-iter 20000"
    same_as_serial sor-batched "$gpus" "$problem" --partition 2x1 --devices "$devices"
    same_as_serial sor-batched "$gpus" "$problem" --partition 1x2 --devices "$devices" --reduce device
    problem="--nx 2050 --ny 1537 --precision float $edges --method sor --source 1 --eps 0 --max-iter 30"
    same_as_serial sor-large-float "$gpus" "$problem" --partition 2x1 --devices "$devices"
    same_as_stored "$gpus" --partition 2x1 --devices "$devices"
    same_as_stored "$gpus" --partition 1x2 --devices "$devices"
    same_as_stored "$gpus" --partition 2x1 --devices "$devices" --loop host
    same_as_stored "$gpus" --partition 2x1 --devices "$devices" --reduce device
    loop_named "$gpus" "batched on the GPUs, [0-9]* iterations a batch" --partition 2x1 --devices "$devices"
    loop_named "$gpus" "batched on the GPUs, [0-9]* iterations a batch" --partition 1x2 --devices "$devices" --reduce device --loop batched
    loop_named "$gpus" "the host at every iteration" --partition 2x1 --devices "$devices" --loop host
    loop_named "$gpus" "the host at every iteration" --partition 2x1 --devices "$devices" --no-p2p
    interrupted "$gpus" 1 --partition 2x1 --devices "$devices"
    interrupted "$gpus" 1 --partition 1x2 --devices "$devices" --reduce device
    interrupted "$gpus" 2 --partition 2x1 --devices "$devices"
    fault "$gpus" "${devices#*,}:0" --partition 2x1 --devices "$devices"
    fault "$gpus" "${devices#*,}:1500" --partition 2x1 --devices "$devices"
    fault "$gpus" "${devices%,*}:1" --partition 1x2 --devices "$devices" --reduce device
    fault "$gpus" "${devices%,*}:2999" --partition 2x1 --devices "$devices" --loop host
    fault "$gpus" "${devices#*,}:2000" --partition 2x1 --devices "$devices" --no-p2p
}

# Passes of two iterations on tiles stacked in rows as wide as the lattice (1xN, each
# pass reading its neighbours' two nearest rows in place; kernels/laplace_pairs.cu):
# equal to serial with the stop inside a batch (replayed), at --max-iter (a shorter
# batch, then the host loop), every 7th iteration, in double, tiles of uneven height
# and of 2 rows, the course problem; the report names the loop; Ctrl-C and a fault on
# one GPU stop them all. DEVICES lists the GPU of each tile. The passes meet through
# the graph; with LAPLACE_TUNE=pass_meeting=flags through peer flags where every tile
# has a GPU of its own (on 1x4 over 0,1,2,3 the middle tiles meet both neighbours),
# else through the graph still (a GPU's two tiles would wait for each other): checked
# too (equal to serial, its loop line, a fault: the failing GPU launches nothing, and
# with flags the others wait until it stops them).
stacked_pairs_checks() {
    local gpus=$1 devices=$2 n problem precision flags_line='$'
    n=$(( $(tr -cd , <<< "$devices" | wc -c) + 1 ))
    [ "$(tr , '\n' <<< "$devices" | sort -u | wc -l)" -ne "$n" ] ||
        flags_line=', the GPUs meeting through peer flags$'
    problem="--nx 2049 --ny 1537 --precision float $edges --eps 0.2 --max-iter 3000"
    LAPLACE_TUNE=pass_meeting=flags same_as_serial "stacked-flags-$n" "$gpus" "$problem" --partition "1x$n" --devices "$devices" --loop batched
    LAPLACE_TUNE=pass_meeting=flags loop_named "$gpus" "batched on the GPUs, [0-9]* iterations a batch, two iterations a pass through memory$flags_line" --partition "1x$n" --devices "$devices" --loop batched
    LAPLACE_TUNE=pass_meeting=flags fault "$gpus" "${devices##*,}:1500" --partition "1x$n" --devices "$devices" --loop batched
    for precision in float double; do
        problem="--nx 2049 --ny 1537 --precision $precision $edges --eps 0.2 --max-iter 3000"
        same_as_serial "stacked-$precision" "$gpus" "$problem" --partition "1x$n" --devices "$devices" --loop batched
    done
    problem="--nx 1030 --ny 999 --precision float $edges --eps 0.5 --max-iter 3000 --check-every 7"
    same_as_serial stacked-every7 "$gpus" "$problem" --partition "1x$n" --devices "$devices" --loop batched
    problem="--nx 2048 --ny 2048 --precision float $edges --eps 0 --max-iter 1003"
    same_as_serial stacked-max1003 "$gpus" "$problem" --partition "1x$n" --devices "$devices" --loop batched
    problem="--nx 301 --ny $((2 * n + 1)) --precision float $edges --eps 1e-6 --max-iter 5000"
    LAPLACE_TUNE=pairs=1 same_as_serial "stacked-low-$n" "$gpus" "$problem" --partition "1x$n" --devices "$devices" --loop batched
    same_as_stored "$gpus" --partition "1x$n" --devices "$devices" --loop batched
    problem="--nx 2049 --ny 1537 --precision float $edges --eps 0.2 --max-iter 3000"
    LAPLACE_TUNE=breakdown=1 same_as_serial "stacked-breakdown-$n" "$gpus" "$problem" --partition "1x$n" --devices "$devices" --loop batched
    broken_down "$gpus" "$n" --nx 2048 --ny 2048 --partition "1x$n" --devices "$devices" --loop batched
    LAPLACE_TUNE=pass_meeting=flags broken_down "$gpus" "$([ "$flags_line" = '$' ] && echo "$n" || echo 0)" --nx 2048 --ny 2048 --partition "1x$n" --devices "$devices" --loop batched
    loop_named "$gpus" "batched on the GPUs, [0-9]* iterations a batch, two iterations a pass through memory\$" --partition "1x$n" --devices "$devices" --loop batched
    LAPLACE_TUNE=pairs=0 loop_named "$gpus" "batched on the GPUs, [0-9]* iterations a batch\$" --partition "1x$n" --devices "$devices" --loop batched
    interrupted "$gpus" 1 --partition "1x$n" --devices "$devices" --loop batched
    fault "$gpus" "${devices##*,}:1500" --partition "1x$n" --devices "$devices" --loop batched
}

# The spread strips over several GPUs (--loop chip on tiles stacked in rows, one a
# GPU: kernels/laplace_spread.cu, each GPU a band of strips meeting its neighbours'
# through peer memory): the course's table up to 256^2 and the stored 512^2, float and
# double with uneven tiles, the stop inside a lap and at --max-iter, every 7th
# iteration, each way and depth the strips have (the columns in registers, the fields
# in shared memory with halos and at depth 0), all equal to serial; the report names
# the loop; Ctrl-C and a fault on one GPU stop them all; two tiles on one GPU refused
# (below: their launches could not both be resident). DEVICES lists a GPU for each
# tile.
across_checks() {
    local gpus=$1 devices=$2 n side problem precision chip="--loop chip"
    n=$(( $(tr -cd , <<< "$devices" | wc -c) + 1 ))
    for side in 16 32 64 128 256; do
        same_as_serial "course-$side" "$gpus" "config/course-512.ini --nx $side --ny $side" --partition "1x$n" --devices "$devices" $chip
    done
    same_as_stored "$gpus" --partition "1x$n" --devices "$devices" $chip
    for precision in float double; do
        problem="--nx 301 --ny 203 --precision $precision $edges --eps 1e-5 --max-iter 30000"
        same_as_serial "across-$precision" "$gpus" "$problem" --partition "1x$n" --devices "$devices" $chip
        LAPLACE_TUNE=spread_columns=0 same_as_serial "across-$precision" "$gpus" "$problem" --partition "1x$n" --devices "$devices" $chip
        LAPLACE_TUNE=spread_depth=0 same_as_serial "across-$precision" "$gpus" "$problem" --partition "1x$n" --devices "$devices" $chip
        LAPLACE_TUNE=spread_depth=0,spread_lag=1 same_as_serial "across-$precision" "$gpus" "$problem" --partition "1x$n" --devices "$devices" $chip
    done
    problem="--nx 1030 --ny 999 --precision float $edges --eps 0.5 --max-iter 30000 --check-every 7"
    same_as_serial across-every7 "$gpus" "$problem" --partition "1x$n" --devices "$devices" $chip
    problem="--nx 1024 --ny 1024 --precision float $edges --eps 0 --max-iter 9001"
    same_as_serial across-max9001 "$gpus" "$problem" --partition "1x$n" --devices "$devices" $chip
    loop_named "$gpus" "on chip: the lattice in the shared memory of [0-9]* blocks over $n GPUs" --partition "1x$n" --devices "$devices" $chip
    [ "$n" -gt 4 ] || loop_named "$gpus" "on chip: the lattice in the shared memory of [0-9]* blocks over $n GPUs" --partition "1x$n" --devices "$devices"
    INTERRUPT_SIDE=1024 interrupted "$gpus" 1 --partition "1x$n" --devices "$devices" $chip
    INTERRUPT_SIDE=1024 interrupted "$gpus" 2 --partition "1x$n" --devices "$devices" $chip
    fault "$gpus" "${devices##*,}:1500" --partition "1x$n" --devices "$devices" $chip
    fault "$gpus" "${devices%%,*}:1" --partition "1x$n" --devices "$devices" $chip
}

# broken_down GPUS TILES GPU_ARGS...: breakdown=1 added to LAPLACE_TUNE (CUDA events
# around each pass of two in the batches' graphs) gives one report line for each of
# TILES tiles, its passes taking time and none between them negative (their sum against
# the run's time is not checked: the suite's checks share the GPUs); TILES 0: the line
# that says none was measured.
broken_down() {
    local gpus=$1 tiles=$2; shift 2
    gated "$gpus" "the report breaks an iteration down for $tiles tiles $* (needs $gpus GPU)" breakdown_check "$tiles" "$@"
}

breakdown_check() {
    local label=$1 tiles=$2 out="$OUT/breakdown-$tag.out" lines; shift 2
    # shellcheck disable=SC2086
    LAPLACE_TUNE=${LAPLACE_TUNE:+$LAPLACE_TUNE,}breakdown=1 "$LAPLACE" --backend gpu --precision float $edges --eps 0 \
        --max-iter 4000 "$@" > "$out" 2>&1 ||
        { bad "$label: exit status $? ($(head -c 300 "$out"))"; return; }
    if [ "$tiles" -eq 0 ]; then
        grep -q '^  breakdown     none measured: ' "$out" || { bad "$label: $(grep breakdown "$out")"; return; }
        ok "$label"; return
    fi
    lines=$(sed -n 's/^  breakdown     tile [0-9]* on GPU [0-9]*: passes \([0-9.]*\) us an iteration, between them \([0-9.]*\), the rest \(-\{0,1\}[0-9.]*\) (of \([0-9.]*\); CUDA events in [0-9]* of 4000 iterations)$/\1 \2 \3 \4/p' "$out" |
        awk '$1 > 0 && $2 >= 0 && $4 > 0' | wc -l)
    [ "$lines" -eq "$tiles" ] || { bad "$label: $lines of $tiles lines right: $(grep breakdown "$out")"; return; }
    ok "$label: $(grep -m 1 '^  breakdown' "$out" | sed 's/^  breakdown *//')"
}

# auto_named GPUS TEXT ARGS...: with --partition auto (the default) the dry run's and
# the report's partition lines say "auto: TEXT..." (plan/gpu_layout.c: how many of this
# machine's GPUs the lattice takes, how they lie, and why).
auto_named() {
    local gpus=$1 want=$2; shift 2
    gated "$gpus" "partition auto says '$want' $* (needs $gpus GPU)" auto_check "$want" "$@"
}

auto_check() {
    local label=$1 want=$2 out="$OUT/auto-$tag.out" line; shift 2
    for run in --dry-run "--eps 0 --max-iter 20"; do
        # shellcheck disable=SC2086
        "$LAPLACE" --backend gpu $edges "$@" $run > "$out" 2>&1 ||
            { bad "$label $run: exit status $? ($(head -c 300 "$out"))"; return; }
        line=$(grep '^  partition ' "$out")
        [[ "$line" =~ ^"  partition"\ +"auto: $want" ]] || { bad "$label $run: '$line'"; return; }
    done
    ok "$label"
}

# The GPUs --partition auto takes on this machine (plan/gpu_layout.c's tables): on
# H200s (and GPUs not measured), square lattices, one below 1024^2 sites, every one
# from 1024^2 on 2 to 4 GPUs (the strips on chip over them; on more, two up to 2048
# rows and every one above), stacked in rows; on H100s, whose table was
# measured before the strips, one below 2048^2 sites, two up to 4096^2, then every one;
# with passes only (--loop batched) one at 1024^2; with single sweeps (SOR) several
# from 8192^2 only; and the runs of auto layouts equal the serial reference.
auto_layout_checks() {
    local all="$ngpu of $ngpu GPUs" h100=0
    if [ "$ngpu" -eq 1 ]; then
        auto_named 1 "the one GPU" --nx 4096 --ny 4096
        return
    fi
    # the table laplace itself reads for these GPUs (its dry run names where it was measured)
    "$LAPLACE" --backend gpu --nx 4096 --ny 4096 --dry-run 2> /dev/null |
        grep -q '^  partition .*measured on [0-9]* H100s' && h100=1
    auto_named 2 "1 of $ngpu GPUs:" --nx 1000 --ny 1000
    if [ "$h100" -eq 1 ]; then
        auto_named 2 "1 of $ngpu GPUs:" --nx 1024 --ny 1024
        auto_named 2 "2 of $ngpu GPUs, stacked in rows" --nx 3000 --ny 3000
    else
        if [ "$ngpu" -le 4 ]; then
            auto_named 2 "$all, stacked in rows" --nx 1024 --ny 1024
        else
            auto_named 2 "2 of $ngpu GPUs, stacked in rows" --nx 1024 --ny 1024
        fi
        auto_named 2 "1 of $ngpu GPUs:" --nx 1024 --ny 1024 --loop batched
        auto_named 2 "$all, stacked in rows" --nx 3000 --ny 3000
    fi
    auto_named 2 "$all, stacked in rows" --nx 4096 --ny 4096
    auto_named 2 "1 of $ngpu GPUs: with single sweeps" --nx 4096 --ny 4096 --method sor
    same_as_serial partition-auto-1024 2 "--nx 1024 --ny 1024 --precision float $edges --eps 0 --max-iter 3001"
    same_as_serial partition-auto-2048 2 "--nx 2048 --ny 2048 --precision float $edges --eps 0 --max-iter 601"
    same_as_serial partition-auto-3000 2 "--nx 3000 --ny 3000 --precision float $edges --eps 0 --max-iter 301"
}

# loop_named GPUS TEXT GPU_ARGS...: the report's loop line says TEXT.
loop_named() {
    local gpus=$1 want=$2; shift 2
    gated "$gpus" "the report names the loop '$want' $* (needs $gpus GPU)" loop_check "$want" "$@"
}

# The loop is chosen before it runs, so 3000 iterations show its line: to eps 1e-4 the
# host loop of 2x1 tiles took 39 s, and SOR in float, whose norm stays near 2.4e-4
# (rounding over-relaxed), ran to the default --max-iter (90 s on an H100).
loop_check() {
    local label=$1 want=$2 out="$OUT/loop-$tag.out"; shift 2
    # shellcheck disable=SC2086
    "$LAPLACE" --backend gpu --nx 300 --ny 300 $edges --eps 1e-4 --max-iter 3000 "$@" > "$out" 2>&1 ||
        { bad "$label: exit status $? ($(head -c 300 "$out"))"; return; }
    grep -q "^  loop  *$want" "$out" || { bad "$label: $(grep '^  loop' "$out")"; return; }
    ok "$label"
}

# same_outputs GPUS LAYOUT: every output format written on the GPUs equals, byte
# for byte, the serial run's (.bin .vti .png .dat; their contents are checked
# against the field by make test), and the .pvti with its one piece per tile
# equals the host tiles' of the same layout.
same_outputs() {
    gated "$1" "outputs .bin .vti .pvti .png .dat on $2 (needs $1 GPU)" outputs_equal "$2"
}

outputs_equal() {
    local label=$1 layout=$2 dir="$OUT/outputs-$tag" problem ext
    problem="--nx 203 --ny 157 --precision float $edges --eps 1e-5"
    rm -rf "$dir" && mkdir -p "$dir/serial" "$dir/cpu" "$dir/gpu"
    # shellcheck disable=SC2086
    "$LAPLACE" --backend serial -q $problem $(for ext in bin vti png dat; do
        echo "--output $dir/serial/f.$ext"; done) || { bad "$label: serial run failed"; return; }
    # shellcheck disable=SC2086
    "$LAPLACE" --backend cpu -q $problem --partition "$layout" --output "$dir/cpu/f.pvti" ||
        { bad "$label: host tiles failed"; return; }
    # shellcheck disable=SC2086
    "$LAPLACE" --backend gpu -q $problem --partition "$layout" \
        $(for ext in bin vti png dat pvti; do echo "--output $dir/gpu/f.$ext"; done) \
        2> "$dir/err" || { bad "$label: exit status $? ($(head -c 300 "$dir/err"))"; return; }
    for ext in bin vti png dat; do
        cmp -s "$dir/serial/f.$ext" "$dir/gpu/f.$ext" || { bad "$label: .$ext differs from serial"; return; }
    done
    local pieces
    pieces=$(ls "$dir/gpu" | grep -c '^f_[0-9]*\.vti$')
    [ "$pieces" -eq "$(( ${layout%x*} * ${layout#*x} ))" ] || { bad "$label: $pieces pieces"; return; }
    for f in "$dir"/cpu/f.pvti "$dir"/cpu/f_*.vti; do
        cmp -s "$f" "$dir/gpu/$(basename "$f")" || { bad "$label: $(basename "$f") differs from the host tiles'"; return; }
    done
    ls "$dir"/gpu/*.tmp* > /dev/null 2>&1 && { bad "$label: a temporary file was left"; return; }
    rm -rf "$dir"
    ok "$label: 4 formats identical to serial, $pieces pieces identical to the host tiles'"
}

# interrupted GPUS SIGNALS LAYOUT...: SIGINT once (or twice) after the run started,
# on a 2048^2 lattice (INTERRUPT_SIDE=N: N^2).
# Once: status 130, the report and the .vti say "interrupted at iteration k", and
# the .bin holds the field of a run stopped at k. Twice: status 130, no temporary
# file, and the .bin absent or whole.
interrupted() {
    local gpus=$1 signals=$2; shift 2
    gated "$gpus" "SIGINT x$signals on ${INTERRUPT_SIDE:-2048}^2 $* (needs $gpus GPU)" interrupt_check "$signals" "$@"
}

interrupt_check() {
    local label=$1 signals=$2; shift 2
    local side=${INTERRUPT_SIDE:-2048}
    local run="$OUT/int-$tag" problem="--nx $side --ny $side $edges --eps 0 --max-iter 100000000"
    rm -f "$run".*
    # shellcheck disable=SC2086
    "$LAPLACE" --backend gpu $problem "$@" --output "$run.bin" --output "$run.vti" \
        > "$run.out" 2> "$run.err" &
    local pid=$! status
    sleep "${GPU_SUITE_SIGNAL_AFTER:-8}"
    kill -INT "$pid"
    [ "$signals" -eq 2 ] && { sleep 0.05; kill -INT "$pid"; }
    wait "$pid"; status=$?
    [ "$status" -eq 130 ] || { bad "$label: status $status, want 130 ($(head -c 300 "$run.err"))"; return; }
    ls "$run".*.tmp* > /dev/null 2>&1 && { bad "$label: a temporary file was left"; return; }
    if [ "$signals" -eq 2 ]; then
        local size=0; [ -f "$run.bin" ] && size=$(stat -c %s "$run.bin")
        [ "$size" -eq 0 ] || [ "$size" -eq $((48 + side * side * 8)) ] || { bad "$label: a half .bin ($size bytes)"; return; }
        ok "$label: status 130, no temporary file, .bin $size bytes"; return
    fi
    local k
    k=$(sed -n 's/.*interrupted at iteration \([0-9]*\).*/\1/p' "$run.out" | head -n 1)
    [ -n "$k" ] || { bad "$label: the report does not say 'interrupted at iteration k'"; return; }
    grep -q "interrupted at iteration $k" "$run.vti" || { bad "$label: the .vti does not say it"; return; }
    # shellcheck disable=SC2086
    "$LAPLACE" --backend gpu $problem "$@" --max-iter "$k" -q --output "$run-k.bin" ||
        { bad "$label: the run to $k failed"; return; }
    cmp -s <(tail -c +49 "$run.bin") <(tail -c +49 "$run-k.bin") || { bad "$label: field differs from a run stopped at $k"; return; }
    rm -f "$run".* "$run-k.bin"
    ok "$label: status 130 at iteration $k, field equal to a run stopped there"
}

# fault GPUS VALUE GPU_ARGS...: LAPLACE_INJECT_FAULT=VALUE (fault.h) on 1030 x 999
# (FAULT_NX, FAULT_NY: another lattice) stops every
# GPU's thread: status 1 within the time limit (no thread left at a barrier),
# one line naming the failed device and the injected call.
fault() {
    local gpus=$1 value=$2; shift 2
    gated "$gpus" "fault $value on ${FAULT_NX:-1030}x${FAULT_NY:-999} $* (needs $gpus GPU)" fault_check "$value" "$@"
}

fault_check() {
    local label=$1 value=$2; shift 2
    local err="$OUT/fault-$tag.err" status
    # shellcheck disable=SC2086
    LAPLACE_INJECT_FAULT=$value timeout 120 "$LAPLACE" --backend gpu --nx "${FAULT_NX:-1030}" --ny "${FAULT_NY:-999}" \
        $edges --eps 0 --max-iter 3000 "$@" > /dev/null 2> "$err"
    status=$?
    [ "$status" -eq 1 ] || { bad "$label: status $status, want 1 ($(head -c 300 "$err"))"; return; }
    [ "$(wc -l < "$err")" -eq 1 ] && grep -q "device ${value%%:*} failed: .*injected_fault" "$err" ||
        { bad "$label: stderr does not name device ${value%%:*} and the call: $(head -c 300 "$err")"; return; }
    ok "$label: status 1, '$(cut -c 1-150 "$err")'"
}

same_outputs 1 1x1
same_outputs 2 2x1
same_outputs 4 2x2
same_outputs 8 2x4
interrupted 1 1 --partition 1x1
interrupted 1 1 --partition 1x1 --reduce device
interrupted 4 1 --partition 2x2
interrupted 8 1 --partition 4x2
interrupted 4 2 --partition 2x2
fault 1 0:0 --partition 1x1
fault 1 0:1500 --partition 1x1
fault 1 0:1500 --partition 1x1 --reduce device
fault 1 0:77 --partition 1x1 --monitor 10
fault 4 2:0 --partition 2x2
fault 4 2:1000 --partition 2x2
fault 4 3:1 --partition 2x2 --no-p2p
fault 8 5:700 --partition 2x4

# The loop on chip: a lone tile whose fields fit in the GPU's shared memory, in one
# thread-block cluster (kernels/laplace_chip.cu) or, by plain Jacobi, in strips over
# every multiprocessor (kernels/laplace_spread.cu; LAPLACE_TUNE chip_way=cluster or spread
# takes that way). auto takes it for plain Jacobi in both precisions (where it was
# measured faster), the cluster up to 128 rows (256 where it meets in rounds), the
# spread strips above; --loop chip for every rule; the report names it, and the rows
# kernel's loop still runs when asked for, as the batches do for the other rules.
# Strips of one to sixteen blocks of a cluster and of two rows and more spread, thin
# and odd lattices, both precisions, every rule, the norm every 7th iteration, stops
# inside and across its laps of 8192 iterations, equal to serial; the cluster at every
# plan plain Jacobi may take (rounds of 8 by default, fewer where 8 do not fit,
# and meeting every iteration: chip_depth) and the spread strips likewise
# (rounds of 2 by default, with a lag of 3 where it fits and 2 where not, forced here;
# rounds of 4, and depth 0 with a lag of 2 or 1: spread_depth, spread_lag; each
# thread's column in registers in rounds of 2 on strips of at most 4 rows and at most
# 514 columns, the fields in shared memory elsewhere and where spread_columns=0
# asks, their columns walked 3 or 4 rows at a time: spread_unroll).
loop_named 1 "on chip: .* one cluster of [0-9]* blocks, 8192 iterations a lap, the blocks meeting once in 8 iterations" --partition 1x1 --precision float --nx 128 --ny 128
loop_named 1 "on chip: .* one cluster of [0-9]* blocks, 8192 iterations a lap" --partition 1x1 --precision double --nx 128 --ny 128
loop_named 1 "on chip: .* one cluster of 16 blocks, 8192 iterations a lap\$" --partition 1x1 --loop chip --nx 256 --ny 256 --method sor
loop_named 1 "on chip: .* one cluster of 16 blocks, 8192 iterations a lap" --partition 1x1 --precision float --nx 256 --ny 256
loop_named 1 "on chip: .* one cluster of 16 blocks, 8192 iterations a lap, the blocks meeting once in 2 iterations" --partition 1x1 --precision double --nx 256 --ny 256
spread_line="on chip: the lattice in the shared memory of [0-9]* blocks, one a multiprocessor, meeting through L2, 8192 iterations a lap"
loop_named 1 "$spread_line, the blocks meeting once in 2 iterations, each thread's column in registers\$" --partition 1x1 --precision float
LAPLACE_TUNE=spread_columns=0 loop_named 1 "$spread_line, the blocks meeting once in 2 iterations\$" --partition 1x1 --precision float
loop_named 1 "$spread_line, the blocks meeting once in 2 iterations\$" --partition 1x1 --precision float --nx 515 --ny 515
loop_named 1 "$spread_line" --partition 1x1 --precision double --nx 300 --ny 300
loop_named 1 "$spread_line" --partition 1x1 --precision float --nx 1000 --ny 1000
loop_named 1 "$spread_line" --partition 1x1 --precision double --nx 600 --ny 700
loop_named 1 "batched on the GPUs" --partition 1x1 --precision float --method sor
loop_named 1 "batched on the GPUs" --partition 1x1 --precision double --source 1
loop_named 1 "batched on the GPUs" --partition 1x1 --precision float --kernel rows
loop_named 1 "batched on the GPUs" --partition 1x1 --precision float --block 32x8
loop_named 1 "batched on the GPUs" --partition 1x1 --precision float --loop batched
# A lone tile's sweeps are launched to overlap the kernel before them (programmatic
# dependent launch, devices/cuda_tile.c) in the host loop and in the batches, and the
# report says so (with --reduce device too); tiles with neighbours launch plainly,
# and the report says nothing of it.
overlapped=", each sweep launched to overlap the kernel before it"
loop_named 1 "the host at every iteration$overlapped\$" --partition 1x1 --loop host
loop_named 1 "batched on the GPUs, [0-9]* iterations a batch$overlapped\$" --partition 1x1 --loop batched
loop_named 1 "the host at every iteration\$" --partition 2x1 --devices 0,0 --loop host
loop_named 1 "batched on the GPUs, [0-9]* iterations a batch$overlapped\$" --partition 1x1 --loop batched --reduce device
for way in cluster spread; do
    for precision in float double; do
        for lattice in "3 3" "4 9" "33 7" "300 5" "5 300" "64 64" "130 257"; do
            [ "$way$lattice" = "spread3 3" ] && continue # no two strips of two rows
            set -- $lattice
            problem="--nx $1 --ny $2 --precision $precision $edges --eps 1e-6 --max-iter 20000"
            LAPLACE_TUNE=chip_way=$way same_as_serial "chip-$way-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop chip
        done
        problem="--nx 97 --ny 131 --precision $precision $edges --eps 1e-6 --max-iter 20000"
        LAPLACE_TUNE=chip_way=$way same_as_serial "chip-$way-check7-$precision" 1 "$problem --check-every 7" --partition 1x1 --loop chip
        for last in 8191 8192 8193 16385; do
            problem="--nx 120 --ny 90 --precision $precision $edges --eps 0 --max-iter $last"
            LAPLACE_TUNE=chip_way=$way same_as_serial "chip-$way-max$last-$precision" 1 "$problem" --partition 1x1 --loop chip
        done
    done
done
for precision in float double; do
    for lattice in "3 3" "4 9" "33 7" "300 5" "64 64" "130 257"; do
        set -- $lattice
        problem="--nx $1 --ny $2 --precision $precision $edges --eps 1e-6 --max-iter 20000"
        for depth in 0 2 3; do
            LAPLACE_TUNE=chip_depth=$depth,chip_way=cluster same_as_serial "chip-depth$depth-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop chip
        done
    done
    problem="--nx 120 --ny 90 --precision $precision $edges --eps 0 --max-iter 8193"
    for depth in 0 3; do
        LAPLACE_TUNE=chip_depth=$depth,chip_way=cluster same_as_serial "chip-depth$depth-max8193-$precision" 1 "$problem" --partition 1x1 --loop chip
    done
done
for precision in float double; do
    for lattice in "4 9" "33 7" "300 5" "64 64" "130 257"; do
        set -- $lattice
        problem="--nx $1 --ny $2 --precision $precision $edges --eps 1e-6 --max-iter 20000"
        LAPLACE_TUNE=spread_depth=4,chip_way=spread same_as_serial "spread-depth4-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop chip
        LAPLACE_TUNE=spread_depth=0,chip_way=spread same_as_serial "spread-depth0-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop chip
        LAPLACE_TUNE=spread_depth=0,spread_lag=1,chip_way=spread same_as_serial "spread-lag1-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop chip
        LAPLACE_TUNE=spread_columns=0,chip_way=spread same_as_serial "spread-fields-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop chip
        LAPLACE_TUNE=spread_columns=0,spread_lag=2,chip_way=spread same_as_serial "spread-fields-lag2-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop chip
        unroll=3 # the rows a thread walks at a time that the plan does not take here
        [ "$precision" = float ] && unroll=4
        LAPLACE_TUNE=spread_columns=0,spread_unroll=$unroll,chip_way=spread same_as_serial "spread-unroll$unroll-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop chip
    done
    # The columns in registers at their edges: a warp's interior exactly (the fixed
    # east column in no thread: 34, 66, 514 wide), the widest (514) and one wider (515,
    # the fields), strips of up to 4 rows (528 high on 132 multiprocessors) and of 5
    # (529: the fields), a lag of 2 (forced; the plan where a lag of 3 does not fit),
    # and depth 1 (strips of 2 rows, halos of 1: the fields, as at depths 3 and 4).
    for lattice in "34 70" "66 131" "514 300" "515 300" "200 528" "200 529"; do
        set -- $lattice
        problem="--nx $1 --ny $2 --precision $precision $edges --eps 1e-5 --max-iter 20000"
        LAPLACE_TUNE=chip_way=spread same_as_serial "spread-columns-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop chip
    done
    problem="--nx 66 --ny 64 --precision $precision $edges --eps 1e-6 --max-iter 20000"
    LAPLACE_TUNE=spread_lag=2,chip_way=spread same_as_serial "spread-columns-lag2-$precision" 1 "$problem" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_depth=1,chip_way=spread same_as_serial "spread-depth1-$precision" 1 "$problem" --partition 1x1 --loop chip
    problem="--nx 120 --ny 90 --precision $precision $edges --eps 0 --max-iter 8193"
    LAPLACE_TUNE=spread_depth=4,chip_way=spread same_as_serial "spread-depth4-max8193-$precision" 1 "$problem" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_depth=0,spread_lag=1,chip_way=spread same_as_serial "spread-lag1-max8193-$precision" 1 "$problem" --partition 1x1 --loop chip
done
for precision in float double; do
    chip_large="500 480" # near the most one cluster holds: 2 x 30 rows x 500 floats a block
    [ "$precision" = double ] && chip_large="440 420"
    set -- $chip_large
    problem="--nx $1 --ny $2 --precision $precision $edges --eps 1e-4 --max-iter 4000"
    LAPLACE_TUNE=chip_way=cluster same_as_serial "chip-large-$precision" 1 "$problem" --partition 1x1 --loop chip
    same_as_serial "chip-large-$precision" 1 "$problem" --partition 1x1 --kernel rows --reduce device
    # near the most the spread strips hold on a 132-multiprocessor GPU at depth 0 with
    # a lag of 2 (3 x 12 rows x 1600 floats, 3 x 8 rows x 1100 doubles a block) and of 1
    # (2 x 14 rows x 1800 floats, 2 x 10 rows x 1300 doubles)
    spread_large="1600 1500 1800 1790"
    [ "$precision" = double ] && spread_large="1100 1000 1300 1290"
    set -- $spread_large
    for lattice in "$1 $2" "$3 $4"; do
        set -- $lattice
        problem="--nx $1 --ny $2 --precision $precision $edges --eps 1e-3 --max-iter 3000"
        same_as_serial "spread-large-$1-$precision" 1 "$problem" --partition 1x1
        same_as_serial "spread-large-$1-$precision" 1 "$problem" --partition 1x1 --kernel rows
    done
done

# --reduce host: every sweep writes its block sums straight into mapped host memory,
# however many blocks it has: 6000 x 3000 sweeps in 47 x 188 blocks (more than the 8192
# whose sums were mapped before; the rest were copied after each sweep), in the host
# loop (on 2x1 tiles asked for: they would run in batches); it stops by eps at serial's
# iteration (40), both precisions.
for precision in float double; do
    problem="--nx 6000 --ny 3000 --precision $precision $edges --eps 3 --max-iter 100"
    LAPLACE_TUNE=pairs=0 same_as_serial "many-block-sums-$precision" 1 "$problem" --partition 1x1
    same_as_serial "many-block-sums-$precision" 1 "$problem" --partition 2x1 --devices 0,0 --loop host
    same_as_serial "pairs-many-blocks-$precision" 1 "$problem" --partition 1x1
done

# Two iterations a pass (kernels/laplace_pairs.cu): a lone tile's batches, by default
# where single sweeps' batches would not pay, anywhere with LAPLACE_TUNE=pairs=1 --loop
# batched. Stops inside a batch (replayed from the checkpoint its first pass wrote),
# --max-iter tails (a shorter batch, then one by one), --check-every, odd sizes,
# lattices narrower and lower than one strip;
# each equal to serial.
problem="--nx 2049 --ny 1537 --precision float $edges --eps 0.2 --max-iter 3000"
same_as_serial pairs-2049x1537-float 1 "$problem" --partition 1x1
same_as_serial pairs-2049x1537-every7 1 "$problem --check-every 7" --partition 1x1
problem="--nx 1600 --ny 1500 --precision double $edges --eps 0.3 --max-iter 3000"
same_as_serial pairs-1600x1500-double 1 "$problem" --partition 1x1
problem="--nx 2048 --ny 2048 --precision float $edges --eps 0 --max-iter 1003"
same_as_serial pairs-2048-max1003 1 "$problem" --partition 1x1
LAPLACE_TUNE=breakdown=1 same_as_serial pairs-2049x1537-breakdown 1 "--nx 2049 --ny 1537 --precision float $edges --eps 0.2 --max-iter 3000" --partition 1x1
broken_down 1 1 --nx 2048 --ny 2048 --partition 1x1
broken_down 1 0 --nx 256 --ny 256 --partition 1x1
for precision in float double; do
    for lattice in "3 3" "5 300" "300 5" "67 35" "130 66" "481 479" "962 17"; do
        set -- $lattice
        problem="--nx $1 --ny $2 --precision $precision $edges --eps 1e-6 --max-iter 20000"
        LAPLACE_TUNE=pairs=1 same_as_serial "pairs-$1x$2-$precision" 1 "$problem" --partition 1x1 --loop batched
    done
    problem="--nx 130 --ny 66 --precision $precision $edges --eps 1e-6 --max-iter 20000"
done
pairs_line="batched on the GPUs, [0-9]* iterations a batch, two iterations a pass through memory"
loop_named 1 "$pairs_line" --partition 1x1 --nx 2048 --ny 2048
loop_named 1 "$pairs_line" --partition 1x1 --nx 1600 --ny 1500 --precision double
LAPLACE_TUNE=pairs=1 loop_named 1 "$pairs_line" --partition 1x1 --loop batched
LAPLACE_TUNE=pairs=0 loop_named 1 "the host at every iteration" --partition 1x1 --nx 2048 --ny 2048
loop_named 1 "the host at every iteration" --partition 1x1 --nx 2048 --ny 2048 --kernel rows
LAPLACE_TUNE=pairs=1 loop_named 1 "batched on the GPUs, [0-9]* iterations a batch\(, each sweep launched to overlap the kernel before it\)*\$" --partition 1x1 --loop batched --method sor

# The rows kernel's widest block (128x4, a tile over 256 MiB a field): float pairs at
# 4 rows and single floats (odd width) at 8, 12 iterations, the field equal to serial's.
for lattice in "8200 8200" "8201 8195"; do
    set -- $lattice
    problem="--nx $1 --ny $2 --precision float $edges --eps 0 --max-iter 12"
    LAPLACE_TUNE=pairs=0 same_as_serial "wide-blocks-$1x$2" 1 "$problem" --partition 1x1
done

# Every other sweep of the rows kernel runs its rows of blocks in reverse order where a
# tile's two fields exceed L2 (laplace_kernels.cu, sweeps_alternate); LAPLACE_TUNE sweep_order
# forces either order. Which block runs which place changes nothing: the field equals
# serial's whichever order, in the host loop and in batches, one tile and 2x1 tiles,
# the sums added on the host or the device, and the two orders give the same final
# norm to the last digit printed and the same field.
# orders_agree LABEL "PROBLEM_ARGS" GPU_ARGS...: both orders, the same result.
orders_agree() {
    local label=$1 problem=$2 run="$OUT/orders-$tag" order; shift 2
    for order in alternate forward; do
        # shellcheck disable=SC2086
        LAPLACE_TUNE=sweep_order=$order "$LAPLACE" --backend gpu --csv --output "$run.$order.dat" \
            $problem "$@" > "$run.$order.csv" 2> "$run.err" ||
            { bad "$label: $order: exit status $? ($(head -c 300 "$run.err"))"; return; }
    done
    local a f
    a=$(tail -n 1 "$run.alternate.csv" | cut -d, -f8,10); f=$(tail -n 1 "$run.forward.csv" | cut -d, -f8,10)
    [ "$a" = "$f" ] || { bad "$label: iterations,norm $a alternate, $f forward"; return; }
    cmp -s "$run.alternate.dat" "$run.forward.dat" || { bad "$label: fields differ"; return; }
    rm -f "$run".*
    ok "$label: iterations,norm $a both ways, fields identical"
}

for spec in "2900 2900 float jacobi --partition 1x1" "2901 2897 float jacobi --partition 1x1" \
            "2900 2900 double jacobi --partition 2x1 --devices 0,0" \
            "1000 800 float jacobi --partition 1x1 --loop batched" \
            "1000 800 float jacobi --partition 2x1 --devices 0,0" \
            "1000 800 float jacobi --partition 2x1 --devices 0,0 --reduce device"; do
    set -- $spec; nx=$1; ny=$2; precision=$3; method=$4; shift 4
    problem="--nx $nx --ny $ny --precision $precision --method $method $edges --eps 1e-3 --max-iter 60"
    for order in alternate forward; do
        LAPLACE_TUNE=sweep_order=$order same_as_serial "order-$order-$nx-$ny-$precision-$method" 1 "$problem" "$@"
    done
    gated 1 "sweep orders agree $nx x $ny $precision $method $* (needs 1 GPU)" orders_agree "$problem" "$@"
done

# history_equals_serial: with --history, the loop on chip records a norm at every
# iteration the serial run does (the norms themselves are added in another order).
history_check() {
    local label=$1 run="$OUT/history-$tag" problem="--nx 90 --ny 70 $edges --eps 1e-5 --check-every 3"
    # shellcheck disable=SC2086
    "$LAPLACE" --backend serial -q $problem --history "$run.serial.csv" || { bad "$label: serial failed"; return; }
    # shellcheck disable=SC2086
    "$LAPLACE" --backend gpu --partition 1x1 --loop chip $problem --history "$run.gpu.csv" > "$run.out" 2>&1 ||
        { bad "$label: exit status $? ($(head -c 300 "$run.out"))"; return; }
    grep -q "^  loop  *on chip" "$run.out" || { bad "$label: did not run on chip: $(grep '^  loop' "$run.out")"; return; }
    cmp -s <(cut -d, -f1 "$run.serial.csv") <(cut -d, -f1 "$run.gpu.csv") ||
        { bad "$label: iterations differ from serial's history"; return; }
    ok "$label: $(($(wc -l < "$run.gpu.csv") - 1)) norms at serial's iterations"
}
gated 1 "history on chip (needs 1 GPU)" history_check
LAPLACE_TUNE=chip_way=spread gated 1 "history on chip, spread (needs 1 GPU)" history_check
INTERRUPT_SIDE=250 interrupted 1 1 --partition 1x1 --loop chip
INTERRUPT_SIDE=250 interrupted 1 2 --partition 1x1 --loop chip
INTERRUPT_SIDE=900 interrupted 1 1 --partition 1x1 --loop chip
INTERRUPT_SIDE=900 interrupted 1 2 --partition 1x1 --loop chip
INTERRUPT_SIDE=16 interrupted 1 1 --partition 1x1 --loop chip # in one cluster, in rounds
LAPLACE_TUNE=chip_depth=0 INTERRUPT_SIDE=20 interrupted 1 1 --partition 1x1 --loop chip # every iteration
FAULT_NX=250 FAULT_NY=250 fault 1 0:0 --partition 1x1 --loop chip
FAULT_NX=250 FAULT_NY=250 fault 1 0:2000 --partition 1x1 --loop chip
FAULT_NX=900 FAULT_NY=700 fault 1 0:0 --partition 1x1 --loop chip
FAULT_NX=900 FAULT_NY=700 fault 1 0:2000 --partition 1x1 --loop chip
FAULT_NX=16 FAULT_NY=16 fault 1 0:2000 --partition 1x1 --loop chip # in one cluster, in rounds
LAPLACE_TUNE=chip_depth=0 FAULT_NX=20 FAULT_NY=20 fault 1 0:2000 --partition 1x1 --loop chip # every iteration
FAULT_NX=2049 FAULT_NY=1537 fault 1 0:0 --partition 1x1     # two iterations a pass
FAULT_NX=2049 FAULT_NY=1537 fault 1 0:700 --partition 1x1   # in its second batch
FAULT_NX=2049 FAULT_NY=1537 fault 1 0:2999 --partition 1x1  # one by one, at the end
# --partition 1x1: on a machine of several GPUs auto would cut the lattice into tiles,
# which --loop chip refuses as a usage error (status 2) before looking at its size.
refused 1 "--loop chip on a lattice too large for the chip" --backend gpu --loop chip --partition 1x1 --nx 2000 --ny 2000 --max-iter 10
refused 1 "--loop chip on two tiles of one GPU" --backend gpu --loop chip --partition 1x2 --devices 0,0 --nx 300 --ny 300 --max-iter 10

batched_checks 2 0,1
batched_checks 1 0,0
stacked_pairs_checks 2 0,1
across_checks 2 0,1
across_checks 4 0,1,2,3
stacked_pairs_checks 1 0,0
stacked_pairs_checks 4 0,1,2,3
stacked_pairs_checks 2 0,1,0
auto_layout_checks

# Beyond 2^32 sites (64-bit indexing everywhere): 65536 x 65540 float on 2x2
# GPUs equals 1 GPU and the host tiles (--compare --compare-cpu), 20 iterations.
beyond_2_32() {
    local label="65536x65540 float (4.3e9 sites) on 2x2, 1 GPU and the host tiles (needs 4 GPU)"
    selected 4 || return 0
    if [ 4 -gt "$ngpu" ]; then check skip "$label"; return; fi
    settle
    check beyond_check "$label"
    settle
}

beyond_check() {
    local label=$1 out="$OUT/beyond-$tag.out" same
    # shellcheck disable=SC2086
    "$LAPLACE" --backend gpu --partition 2x2 --nx 65536 --ny 65540 --precision float $edges \
        --eps 0 --max-iter 20 --compare --compare-cpu > "$out" 2>&1 ||
        { bad "$label: exit status $? ($(tail -c 300 "$out"))"; return; }
    same=$(grep -c "largest field difference 0$" "$out")
    [ "$same" -eq 2 ] || { bad "$label: fields differ: $(grep 'difference' "$out")"; return; }
    ok "$label: the three fields identical"
}
beyond_2_32

refused 1 "lattice larger than a GPU's memory" --backend gpu --partition 1x1 --nx 200000 --ny 200000 --precision float
refused 2 "device that does not exist" --backend gpu --devices "$ngpu" --nx 64 --ny 64
refused 2 "partition needing $((ngpu + 1)) GPUs" --backend gpu --partition "$((ngpu + 1))x1" --nx 64 --ny 64
refused 2 "block over 1024 threads" --backend gpu --block 64x32 --nx 64 --ny 64
refused 2 "plain kernel with SOR" --backend gpu --kernel rows --method sor --nx 64 --ny 64
refused 2 "SOR with omega 2" --backend gpu --method sor --omega 2 --nx 64 --ny 64
refused 1 "float overflow diverges" --backend gpu --partition 1x1 --precision float --nx 16 --ny 16 --lx 1e18 --ly 1e18 --source 1e4
refused 2 "edges past a float sum refused" --backend gpu --partition 1x1 --precision float --nx 16 --ny 16 --top 1e38 --bottom 1e38 --left 1e38 --right 1e38

settle
if [ -n "$LIST" ]; then
    echo "gpu suite: $seq checks listed ($ngpu GPUs), part $PART_K of $PARTS"
    exit 0
fi
if [ "$JOBS" -gt 1 ]; then
    echo "gpu suite: the checks ran $JOBS at a time; in the order they were listed:"
    cat "$OUT"/checks/*
fi
count() { cat "$OUT"/checks/* | grep -c "^$1" ; }
passed=$(count ok) failed=$(count FAILED) skipped=$(count skipped)
only=""
[ "$MIN_GPUS" -gt 1 ] && only=", only the checks needing at least $MIN_GPUS GPUs and the refusals"
[ "$RESUME" -gt 0 ] && only="$only, resumed after check $RESUME"
[ -n "$MATCH" ] && only="$only, only the checks matching '$MATCH'"
[ "$PARTS" -gt 1 ] && only="$only, part $PART_K of $PARTS"
echo "gpu suite: $passed passed, $failed failed, $skipped skipped ($ngpu GPUs, $JOBS at a time$only)"
[ "$failed" -eq 0 ]
