#!/usr/bin/env bash
# gpu_sanitize.sh - the GPU code under compute-sanitizer (make test-gpu runs it
# after gpu_suite.sh): memcheck with its leak check, racecheck and synccheck, on
# 1 GPU, on 2 (or two tiles on one GPU) and on 4 (2x2), over every kernel variant
# and every loop (the loop on chip, in one cluster and spread over the multiprocessors,
# which lone plain-Jacobi tiles that fit take unless a kernel is named, and --loop chip;
# the lone GPU's graph batches (--reduce host and device), the
# batched loop of several GPUs, the host loop, peer reads and halo copies, SOR's
# general kernel); then faults injected under memcheck's leak check, which
# shows that every failure path frees all device memory (laplace resets its GPUs
# at exit, so anything left allocated is reported as a leak).
#
# A check passes when the tool reports 0 errors, the status is the expected one
# and the field still equals the serial reference. GPU_SANITIZE_JOBS=N runs N at
# once (default 4); GPU_SANITIZE_TOOLS picks the tools; GPU_SANITIZE_MATCH=REGEX runs
# only the checks whose arguments match (e.g. 'chip').
set -u
LAPLACE=${1:-./laplace}
OUT=${GPU_SANITIZE_OUT:-tests/out/sanitize}
JOBS=${GPU_SANITIZE_JOBS:-4}
MATCH=${GPU_SANITIZE_MATCH:-}
TOOLS=${GPU_SANITIZE_TOOLS:-memcheck racecheck synccheck}
SANITIZER=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
rm -rf "$OUT" && mkdir -p "$OUT/checks"

ngpu=$("$LAPLACE" --topology 2>/dev/null | sed -n 's/.*: \([0-9]*\) CUDA device.*/\1/p')
ngpu=${ngpu:-0}
[ "$ngpu" -gt 0 ] || { echo "gpu sanitize: FAILED: no GPU is visible"; exit 1; }
[ -x "$SANITIZER" ] || { echo "gpu sanitize: FAILED: no compute-sanitizer ($SANITIZER)"; exit 1; }
echo "gpu sanitize: $("$LAPLACE" --version); $("$SANITIZER" --version | tail -n 1)"

edges="--top 1 --left 0.3 --right -0.7 --bottom 2.5"
# The two tiles of the batched loop's checks: on two GPUs, or both on one.
pair=0,1
[ "$ngpu" -ge 2 ] || pair=0,0
seq=0

# sanitized TOOL WANT_STATUS LOG ARGS...: laplace under the tool; prints why not,
# or nothing when the tool found 0 errors and the status is WANT_STATUS.
sanitized() {
    local tool=$1 want=$2 log=$3; shift 3
    local leak=()
    [ "$tool" = memcheck ] && leak=(--leak-check full)
    "$SANITIZER" --tool "$tool" "${leak[@]}" --print-limit 20 "$LAPLACE" "$@" > "$log" 2>&1
    local status=$?
    [ "$status" -eq "$want" ] || { echo "status $status, want $want"; return; }
    # memcheck and synccheck end with "ERROR SUMMARY: 0 errors", racecheck with
    # "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
    grep -Eq "ERROR SUMMARY: 0 errors|SUMMARY: 0 hazards displayed \(0 errors, 0 warnings\)" "$log" ||
        echo "$(grep -m 1 'SUMMARY' "$log" || echo 'no summary')"
}

# The tuning knobs (LAPLACE_TUNE, support/tuning.h) set for a check, for its line.
knobs() {
    [ -z "${LAPLACE_TUNE:-}" ] || printf 'LAPLACE_TUNE=%s ' "$LAPLACE_TUNE"
}

# same_field TOOL GPUS "PROBLEM" GPU_ARGS...: a sanitized run equals the serial field.
same_field() {
    local tool=$1 gpus=$2 problem=$3; shift 3
    local run="$OUT/run-$seq" why
    # shellcheck disable=SC2086
    why=$(sanitized "$tool" 0 "$run.log" --backend gpu -q --output "$run.dat" $problem "$@")
    [ -z "$why" ] || { echo "FAILED  $tool $*: $why (see $run.log)"; return; }
    local name
    name=$(echo "$problem" | md5sum | cut -c 1-12)
    cmp -s "$run.dat" "$OUT/ref-$name.dat" || { echo "FAILED  $tool $*: field differs from serial"; return; }
    rm -f "$run.dat" "$run.log"
    echo "ok      $tool $(knobs)$* ($problem): 0 errors, field identical"
}

# faulted GPUS VALUE GPU_ARGS...: an injected fault under memcheck's leak check.
faulted() {
    local gpus=$1 value=$2; shift 2
    local run="$OUT/fault-$seq" why
    # shellcheck disable=SC2086
    why=$(LAPLACE_INJECT_FAULT=$value sanitized memcheck 1 "$run.log" --backend gpu -q \
          --nx 301 --ny 203 $edges --eps 0 --max-iter 2000 "$@")
    [ -z "$why" ] || { echo "FAILED  memcheck fault $value $*: $why (see $run.log)"; return; }
    grep -q "injected_fault" "$run.log" || { echo "FAILED  memcheck fault $value $*: no fault reported"; return; }
    rm -f "$run.log"
    echo "ok      memcheck --leak-check full, fault $value $(knobs)$*: status 1, 0 errors, no leak"
}

# run_check GPUS FUNCTION ARGS...: in the background, at most JOBS at once.
run_check() {
    local gpus=$1; shift
    [[ -z "$MATCH" || "$*" =~ $MATCH ]] || return 0
    seq=$((seq + 1))
    local line="$OUT/checks/$(printf %04d "$seq")"
    if [ "$gpus" -gt "$ngpu" ]; then echo "skipped $* (needs $gpus GPU)" | tee "$line"; return; fi
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    { "$@" > "$line"; cat "$line"; } &
}

reference() {
    local problem=$1 name
    name=$(echo "$problem" | md5sum | cut -c 1-12)
    # shellcheck disable=SC2086
    [ -f "$OUT/ref-$name.dat" ] || "$LAPLACE" --backend serial -q --output "$OUT/ref-$name.dat" $problem
}

plate="--nx 101 --ny 67 --precision double $edges --eps 0 --max-iter 1500"
plate_float="--nx 101 --ny 67 --precision float $edges --eps 0 --max-iter 1500"
# A lone tile's plate takes the loop on chip, whose every shared-memory access racecheck
# follows: 1500 iterations took over 330 s a check on an H100 (results/2026-11-27-pace,
# run-1), so racecheck takes those checks on 120 (the loop on chip's own checks below
# are shorter still).
plate_short="--nx 101 --ny 67 --precision double $edges --eps 0 --max-iter 120"
plate_short_float="--nx 101 --ny 67 --precision float $edges --eps 0 --max-iter 120"
large="--nx 2048 --ny 1031 --precision float $edges --eps 0 --max-iter 12"
sor="--nx 61 --ny 47 --precision double $edges --eps 0 --max-iter 300 --method sor --source x*y-1"
# The loop on chip keeps everything in shared memory, which racecheck follows access
# by access: short runs, each across the strips of 8 blocks (a cluster: chip_plain's
# 67 rows are fewer than the 128 from which auto takes the spread strips), in rounds
# of 8 (the default), of 3 (chip_odd: the last round is short) and meeting every
# iteration (LAPLACE_TUNE=chip_depth=0).
chip_plain="--nx 101 --ny 67 --precision float $edges --eps 0 --max-iter 24"
chip_odd="--nx 101 --ny 67 --precision double $edges --eps 0 --max-iter 23"
chip_rule="--nx 61 --ny 70 --precision double $edges --eps 0 --max-iter 12 --method sor --source x*y-1 --norm max"
# The spread strips (LAPLACE_TUNE=chip_way=spread): 6 blocks of 2 rows meeting through
# tagged words in global memory, each block's deciding warp beside its sweepers; in
# rounds of 2 with a lag of 3 (the default here) and 2 (where 3 does not fit; forced),
# and at depth 0 with a lag of 2 and 1; each thread's column in registers (the default
# at depth 2: strips of 2 and 3 rows, and of 4 on 3 blocks; spread_edge: one warp, the
# fixed east column in none of its threads) or the fields in shared memory
# (spread_columns=0), their columns walked 3 rows at a time (float strips of 2
# rows) and 4 (double), and each the other way (spread_unroll).
spread_plain="--nx 40 --ny 12 --precision float $edges --eps 0 --max-iter 24"
spread_double="--nx 37 --ny 13 --precision double $edges --eps 0 --max-iter 24"
spread_edge="--nx 34 --ny 14 --precision double $edges --eps 0 --max-iter 25"
# The spread strips over two GPUs (--loop chip on 1x2 tiles, one a GPU): 5 blocks of
# 2 rows on each, the bands' end blocks taking their halos from the other GPU's
# meeting and every block's sum going to both; each thread's column in registers (the
# default), the fields in shared memory, depth 0, double.
across_plain="--nx 40 --ny 20 --precision float $edges --eps 0 --max-iter 24"
across_double="--nx 37 --ny 21 --precision double $edges --eps 0 --max-iter 25"
# Two iterations a pass (kernels/laplace_pairs.cu; `large` takes them by default):
# forced on lattices of one and of a few strips, 41 and 30 iterations (a batch of 40
# or 28 queued directly, then one by one), both strip heights and prefetch depths.
pairs_plain="--nx 131 --ny 70 --precision float $edges --eps 0 --max-iter 41"
pairs_double="--nx 67 --ny 35 --precision double $edges --eps 0 --max-iter 30"
# ... and past two whole batches (each tile's recorded graphs, set 0 and 1, launched in
# turn), then the tail: the peer flags' own graphs under the tools
pairs_batches="--nx 131 --ny 70 --precision float $edges --eps 0 --max-iter 2100"
for p in "$plate" "$plate_float" "$plate_short" "$plate_short_float" "$large" "$sor" \
    "$chip_plain" "$chip_odd" "$chip_rule" "$spread_plain" "$spread_double" "$spread_edge" \
    "$across_plain" "$across_double" \
    "$pairs_plain" "$pairs_double" "$pairs_batches"; do
    reference "$p"
done

for tool in $TOOLS; do
    lone=$plate lone_float=$plate_float several=$plate several_float=$plate_float
    [ "$tool" = racecheck ] && lone=$plate_short lone_float=$plate_short_float
    # racecheck loses track of the kernels of batch graphs relaunched over two real GPUs
    # ("Internal Sanitizer Error: Detected a failure to track a kernel launch ... 1
    # hazard"), with 3c7e024's binary as with later ones, on 1500 iterations; the short
    # plate still runs a batch graph and its tail (results/2026-11-27-several-gpus)
    [ "$tool" = racecheck ] && several=$plate_short several_float=$plate_short_float
    run_check 1 same_field "$tool" 1 "$lone" --partition 1x1
    run_check 1 same_field "$tool" 1 "$lone_float" --partition 1x1 --reduce device
    run_check 1 same_field "$tool" 1 "$lone" --partition 1x1 --monitor 50
    run_check 1 same_field "$tool" 1 "$chip_plain" --partition 1x1
    LAPLACE_TUNE=chip_depth=3 run_check 1 same_field "$tool" 1 "$chip_odd" --partition 1x1
    LAPLACE_TUNE=chip_depth=0 run_check 1 same_field "$tool" 1 "$chip_plain" --partition 1x1 --loop chip
    run_check 1 same_field "$tool" 1 "$chip_rule" --partition 1x1 --loop chip
    LAPLACE_TUNE=chip_way=spread run_check 1 same_field "$tool" 1 "$spread_plain" --partition 1x1 --loop chip
    LAPLACE_TUNE=chip_way=spread run_check 1 same_field "$tool" 1 "$spread_double" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_lag=2,chip_way=spread run_check 1 same_field "$tool" 1 "$spread_plain" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_columns=0,spread_lag=2,chip_way=spread run_check 1 same_field "$tool" 1 "$spread_double" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_depth=0,chip_way=spread run_check 1 same_field "$tool" 1 "$spread_plain" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_depth=0,spread_lag=1,chip_way=spread run_check 1 same_field "$tool" 1 "$spread_double" --partition 1x1 --loop chip
    LAPLACE_TUNE=chip_way=spread run_check 1 same_field "$tool" 1 "$spread_edge" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_blocks=3,chip_way=spread run_check 1 same_field "$tool" 1 "$spread_plain" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_columns=0,chip_way=spread run_check 1 same_field "$tool" 1 "$spread_plain" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_columns=0,spread_unroll=4,chip_way=spread run_check 1 same_field "$tool" 1 "$spread_plain" --partition 1x1 --loop chip
    LAPLACE_TUNE=spread_columns=0,spread_unroll=3,chip_way=spread run_check 1 same_field "$tool" 1 "$spread_double" --partition 1x1 --loop chip
    run_check 2 same_field "$tool" 2 "$across_plain" --partition 1x2 --devices 0,1 --loop chip
    run_check 2 same_field "$tool" 2 "$across_double" --partition 1x2 --devices 0,1 --loop chip
    LAPLACE_TUNE=spread_columns=0 run_check 2 same_field "$tool" 2 "$across_plain" --partition 1x2 --devices 0,1 --loop chip
    LAPLACE_TUNE=spread_depth=0 run_check 2 same_field "$tool" 2 "$across_double" --partition 1x2 --devices 0,1 --loop chip
    run_check 4 same_field "$tool" 4 "$across_plain" --partition 1x4 --devices 0,1,2,3 --loop chip
    run_check 4 same_field "$tool" 4 "$across_double" --partition 1x4 --devices 0,1,2,3 --loop chip
    run_check 1 same_field "$tool" 1 "$plate" --partition 1x1 --loop batched
    run_check 1 same_field "$tool" 1 "$plate_float" --partition 1x1 --kernel rows
    run_check 1 same_field "$tool" 1 "$plate_float" --partition 1x1 --kernel rows --reduce device
    for kernel in global readonly shared; do
        run_check 1 same_field "$tool" 1 "$plate" --partition 1x1 --kernel "$kernel"
        run_check 4 same_field "$tool" 4 "$several" --partition 2x2 --kernel "$kernel" --block 8x4
    done
    run_check 1 same_field "$tool" 1 "$large" --partition 1x1
    LAPLACE_TUNE=pairs=1 run_check 1 same_field "$tool" 1 "$pairs_plain" --partition 1x1 --loop batched
    LAPLACE_TUNE=pairs=1 run_check 1 same_field "$tool" 1 "$pairs_double" --partition 1x1 --loop batched
    # every other rows sweep in reverse order (forced: these lattices fit in L2)
    LAPLACE_TUNE=pairs=0,sweep_order=alternate run_check 1 same_field "$tool" 1 "$large" --partition 1x1
    LAPLACE_TUNE=sweep_order=alternate run_check 1 same_field "$tool" 1 "$plate_float" --partition 1x1 --kernel rows --block 16x4
    LAPLACE_TUNE=sweep_order=alternate run_check 1 same_field "$tool" 1 "$several_float" --partition 1x2 --devices "$pair" --reduce device --loop batched
    LAPLACE_TUNE=sweep_order=alternate run_check 1 same_field "$tool" 1 "$plate" --partition 2x1 --devices "$pair" --loop host
    run_check 1 same_field "$tool" 1 "$sor" --partition 1x1
    run_check 1 same_field "$tool" 1 "$several" --partition 2x1 --devices "$pair"
    run_check 1 same_field "$tool" 1 "$several_float" --partition 1x2 --devices "$pair" --reduce device --loop batched
    run_check 1 same_field "$tool" 1 "$sor" --partition 2x1 --devices "$pair"
    run_check 1 same_field "$tool" 1 "$large" --partition 1x2 --devices "$pair"
    run_check 1 same_field "$tool" 1 "$plate" --partition 2x1 --devices "$pair" --loop host
    # passes of two on tiles stacked in rows: graphs of batches, a tail, replays
    run_check 1 same_field "$tool" 1 "$several_float" --partition 1x2 --devices "$pair" --loop batched
    run_check 1 same_field "$tool" 1 "$pairs_plain" --partition 1x2 --devices "$pair" --loop batched
    run_check 4 same_field "$tool" 4 "$pairs_double" --partition 1x4
    # with the breakdown's event nodes around every pass (LAPLACE_TUNE=breakdown=1);
    # not racecheck: in a batch graph of 1024 iterations over two GPUs it "failed to
    # track a kernel launch" (an internal sanitizer error, with or without the nodes:
    # results/2026-11-28-breakdown)
    [ "$tool" = racecheck ] ||
        LAPLACE_TUNE=breakdown=1 run_check 1 same_field "$tool" 1 "$pairs_batches" --partition 1x2 --devices "$pair" --loop batched
    # the same passes meeting through peer flags (LAPLACE_TUNE: the plan takes the graph;
    # flags need a GPU a tile: on 1x4 the middle tiles meet both neighbours)
    LAPLACE_TUNE=pass_meeting=flags run_check 2 same_field "$tool" 2 "$pairs_plain" --partition 1x2 --devices 0,1 --loop batched
    LAPLACE_TUNE=pass_meeting=flags run_check 2 same_field "$tool" 2 "$pairs_batches" --partition 1x2 --devices 0,1 --loop batched
    LAPLACE_TUNE=pass_meeting=flags run_check 4 same_field "$tool" 4 "$pairs_double" --partition 1x4
    LAPLACE_TUNE=pass_meeting=flags run_check 4 same_field "$tool" 4 "$pairs_batches" --partition 1x4
    run_check 4 same_field "$tool" 4 "$several" --partition 2x2
    run_check 4 same_field "$tool" 4 "$several_float" --partition 2x2 --no-p2p
    run_check 4 same_field "$tool" 4 "$several" --partition 2x2 --reduce device
    run_check 4 same_field "$tool" 4 "$large" --partition 2x2
    run_check 4 same_field "$tool" 4 "$sor" --partition 2x2
done
run_check 1 faulted 1 0:0 --partition 1x1
run_check 1 faulted 1 0:800 --partition 1x1
run_check 1 faulted 1 0:800 --partition 1x1 --reduce device
run_check 1 faulted 1 0:800 --partition 1x1 --kernel rows
run_check 1 faulted 1 0:800 --partition 1x1 --loop chip
LAPLACE_TUNE=chip_way=spread run_check 1 faulted 1 0:0 --partition 1x1 --loop chip
LAPLACE_TUNE=chip_way=spread run_check 1 faulted 1 0:800 --partition 1x1 --loop chip
LAPLACE_TUNE=spread_columns=0,chip_way=spread run_check 1 faulted 1 0:800 --partition 1x1 --loop chip
run_check 2 faulted 2 1:800 --partition 1x2 --devices 0,1 --loop chip
run_check 2 faulted 2 0:0 --partition 1x2 --devices 0,1 --loop chip
LAPLACE_TUNE=chip_depth=0,chip_way=cluster run_check 1 faulted 1 0:800 --partition 1x1 --loop chip # 203 rows: in rounds, else spread
run_check 1 faulted 1 0:800 --partition 1x1 --loop batched
LAPLACE_TUNE=pairs=1 run_check 1 faulted 1 0:0 --partition 1x1 --loop batched
LAPLACE_TUNE=pairs=1 run_check 1 faulted 1 0:800 --partition 1x1 --loop batched
run_check 1 faulted 1 "${pair#*,}:800" --partition 1x2 --devices "$pair" --loop batched
LAPLACE_TUNE=pass_meeting=flags run_check 2 faulted 2 1:800 --partition 1x2 --devices 0,1 --loop batched
LAPLACE_TUNE=pass_meeting=flags run_check 4 faulted 4 1:800 --partition 1x4
run_check 1 faulted 1 "${pair#*,}:0" --partition 2x1 --devices "$pair"
run_check 1 faulted 1 "${pair#*,}:800" --partition 2x1 --devices "$pair"
run_check 1 faulted 1 0:30 --partition 1x2 --devices "$pair" --reduce device --loop batched
run_check 4 faulted 4 1:0 --partition 2x2
run_check 4 faulted 4 2:800 --partition 2x2
run_check 4 faulted 4 3:20 --partition 2x2 --no-p2p
wait

count() { cat "$OUT"/checks/* | grep -c "^$1"; }
passed=$(count ok) failed=$(count FAILED) skipped=$(count skipped)
echo "gpu sanitize: $passed passed, $failed failed, $skipped skipped ($ngpu GPUs, tools: $TOOLS)"
[ "$failed" -eq 0 ]
