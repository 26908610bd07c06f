#!/usr/bin/env bash
# loops_agree.sh OLD NEW OUTDIR - the loop plan against the choices it replaced, on this
# machine's GPUs: every case run by the old binary (the way to iterate chosen in nine
# places, the old LAPLACE_* knobs) and the new one (the loop plan, LAPLACE_TUNE); their
# report's loop line, iterations, stop, exit status, stderr and stored field must be the
# same, and the new --dry-run's loop line must be what its run printed. One line a case;
# status 1 if any differs. PAIR (default 0,1) places the 2x1 tiles; SKIP=N leaves out
# the first N cases (they ran in a call a time limit cut off); MATCH=REGEX runs only
# the cases whose label matches.
set -u
old=${1:?usage: loops_agree.sh OLD NEW OUTDIR}
new=${2:?usage: loops_agree.sh OLD NEW OUTDIR}
out=${3:?usage: loops_agree.sh OLD NEW OUTDIR}
pair=${PAIR:-0,1}
mkdir -p "$out"
cases=0 differ=0

# run BIN DIR ENV ARGS...: the run's kept lines and field into DIR.
run() {
    local bin=$1 dir=$2 vars=$3; shift 3
    rm -rf "$dir"; mkdir -p "$dir"
    env $vars "$bin" --backend gpu "$@" --output "$dir/f.dat" > "$dir/report" 2> "$dir/err"
    echo "status $?" > "$dir/kept"
    grep '^  loop \|^  iterations\|^  stopped' "$dir/report" >> "$dir/kept"
    sed 's/ ([0-9.]* s)//' "$dir/err" >> "$dir/kept"
    [ -f "$dir/f.dat" ] && md5sum < "$dir/f.dat" >> "$dir/kept"
}

# case LABEL "OLD_ENV" "NEW_ENV" ARGS...: both binaries, the kept lines compared; the
# new dry run's loop line against the new run's.
case_() {
    local label=$1 old_env=$2 new_env=$3; shift 3
    cases=$((cases + 1))
    [ "$cases" -gt "${SKIP:-0}" ] || return 0
    [[ -z "${MATCH:-}" || "$label" =~ $MATCH ]] || return 0
    run "$old" "$out/old" "$old_env" "$@"
    run "$new" "$out/new" "$new_env" "$@"
    local ran planned d
    ran=$(sed -n 's/^  loop          //p' "$out/new/report" |
        sed 's/, each sweep launched to overlap the kernel before it$//')
    planned=$(env $new_env "$new" --backend gpu "$@" --dry-run 2>&1 | sed -n 's/^  loop          //p')
    d=$(diff "$out/old/kept" "$out/new/kept" | head -c 600)
    if [ -n "$d" ]; then
        differ=$((differ + 1))
        printf '%-58s DIFFERS: %s\n' "$label" "$d"
    elif [ -n "$ran" ] && [ "$planned" != "$ran" ]; then
        differ=$((differ + 1))
        printf '%-58s DRY RUN SAYS: %s; RAN: %s\n' "$label" "$planned" "$ran"
    else
        printf '%-58s same: %s | %s\n' "$label" "$(grep -m1 '^  iterations' "$out/new/report" |
            sed 's/^  iterations *//; s/ (.*//')" "${ran:-$(grep -m1 . "$out/new/err")}"
    fi
}

q="--top 1 --left 0.3 --right -0.7 --bottom 2.5"
for p in float double; do
    for n in 16 64 128 200 256 300 512 600 1000 1024 1500 2048 3000 4096; do
        case_ "auto $n^2 $p" "" "" --nx $n --ny $n --precision $p $q --eps 1e-5 --max-iter 4000 --partition 1x1
    done
done
case_ "auto 8192^2 float" "" "" --nx 8192 --ny 8192 --precision float $q --eps 0 --max-iter 300 --partition 1x1
case_ "auto 16384^2 float" "" "" --nx 16384 --ny 16384 --precision float $q --eps 0 --max-iter 100 --partition 1x1
case_ "auto 16384^2 double" "" "" --nx 16384 --ny 16384 --precision double $q --eps 0 --max-iter 60 --partition 1x1
case_ "odd 1031x997 double" "" "" --nx 1031 --ny 997 --precision double $q --eps 1e-5 --max-iter 4000 --partition 1x1
case_ "--loop chip SOR 256^2" "" "" --nx 256 --ny 256 --method sor $q --eps 1e-6 --max-iter 3000 --partition 1x1 --loop chip
case_ "--loop chip 4096^2 (refused)" "" "" --nx 4096 --ny 4096 $q --eps 0 --max-iter 10 --partition 1x1 --loop chip
case_ "--kernel rows 1024^2" "" "" --nx 1024 --ny 1024 --precision float $q --eps 1e-5 --max-iter 3000 --partition 1x1 --kernel rows
case_ "--kernel rows 2048^2" "" "" --nx 2048 --ny 2048 --precision float $q --eps 1e-5 --max-iter 3000 --partition 1x1 --kernel rows
case_ "--block 32x8 512^2" "" "" --nx 512 --ny 512 $q --eps 1e-6 --max-iter 3000 --partition 1x1 --block 32x8
case_ "--reduce device 1024^2" "" "" --nx 1024 --ny 1024 --precision float $q --eps 1e-5 --max-iter 3000 --partition 1x1 --reduce device
case_ "--reduce device 4096^2" "" "" --nx 4096 --ny 4096 --precision float $q --eps 0 --max-iter 300 --partition 1x1 --reduce device
case_ "--reduce device --kernel general 1024^2" "" "" --nx 1024 --ny 1024 $q --eps 0 --max-iter 300 --partition 1x1 --reduce device --kernel general
case_ "SOR 512^2" "" "" --nx 512 --ny 512 --method sor $q --eps 1e-8 --max-iter 3000 --partition 1x1
case_ "SOR 2048^2" "" "" --nx 2048 --ny 2048 --method sor $q --eps 0 --max-iter 300 --partition 1x1
case_ "weighted 1024^2" "" "" --nx 1024 --ny 1024 --method weighted --omega 0.8 $q --eps 1e-5 --max-iter 3000 --partition 1x1
case_ "source 512^2" "" "" --nx 512 --ny 512 --source 'x*y' $q --eps 1e-6 --max-iter 3000 --partition 1x1
case_ "--loop batched 2048^2" "" "" --nx 2048 --ny 2048 --precision float $q --eps 1e-5 --max-iter 3000 --partition 1x1 --loop batched
case_ "--loop batched SOR 512^2" "" "" --nx 512 --ny 512 --method sor $q --eps 1e-8 --max-iter 3000 --partition 1x1 --loop batched
case_ "--loop host 512^2" "" "" --nx 512 --ny 512 $q --eps 1e-6 --max-iter 3000 --partition 1x1 --loop host
case_ "--monitor 512^2" "" "" --nx 512 --ny 512 $q --eps 1e-6 --max-iter 3000 --partition 1x1 --monitor 1000
case_ "--history on chip 512^2" "" "" --nx 512 --ny 512 $q --eps 1e-6 --max-iter 3000 --partition 1x1 --history "$out/h.csv"
case_ "--history --reduce device 1024^2" "" "" --nx 1024 --ny 1024 $q --eps 1e-6 --max-iter 3000 --partition 1x1 --history "$out/h.csv" --reduce device
case_ "--check-every 7 4096^2" "" "" --nx 4096 --ny 4096 --precision float $q --eps 1e-4 --max-iter 3000 --partition 1x1 --check-every 7
for n in 256 1024 2048 4096 8192; do
    case_ "2x1 $n^2 float ($pair)" "" "" --nx $n --ny $n --precision float $q --eps 1e-5 --max-iter 2000 --partition 2x1 --devices "$pair"
done
case_ "1x2 2048^2 double ($pair)" "" "" --nx 2048 --ny 2048 --precision double $q --eps 1e-5 --max-iter 2000 --partition 1x2 --devices "$pair"
case_ "2x1 --loop batched 8192^2 ($pair)" "" "" --nx 8192 --ny 8192 --precision float $q --eps 0 --max-iter 300 --partition 2x1 --devices "$pair" --loop batched
case_ "2x1 --loop host 1024^2 ($pair)" "" "" --nx 1024 --ny 1024 $q --eps 1e-6 --max-iter 2000 --partition 2x1 --devices "$pair" --loop host
case_ "2x1 --reduce device 1024^2 ($pair)" "" "" --nx 1024 --ny 1024 $q --eps 1e-6 --max-iter 2000 --partition 2x1 --devices "$pair" --reduce device
case_ "2x1 --no-p2p 1024^2 ($pair)" "" "" --nx 1024 --ny 1024 $q --eps 1e-6 --max-iter 2000 --partition 2x1 --devices "$pair" --no-p2p
case_ "2x1 SOR 1024^2 ($pair)" "" "" --nx 1024 --ny 1024 --method sor $q --eps 1e-8 --max-iter 2000 --partition 2x1 --devices "$pair"
case_ "chip_way=spread 128^2" "LAPLACE_CHIP_WAY=spread" "LAPLACE_TUNE=chip_way=spread" --nx 128 --ny 128 $q --eps 1e-6 --max-iter 3000 --partition 1x1
case_ "chip_way=cluster --loop chip 512^2 (refused)" "LAPLACE_CHIP_WAY=cluster" "LAPLACE_TUNE=chip_way=cluster" --nx 512 --ny 512 --precision float $q --eps 1e-6 --max-iter 3000 --partition 1x1 --loop chip
case_ "chip_way=cluster 300^2" "LAPLACE_CHIP_WAY=cluster" "LAPLACE_TUNE=chip_way=cluster" --nx 300 --ny 300 --precision float $q --eps 1e-6 --max-iter 3000 --partition 1x1
case_ "chip_depth=0 128^2" "LAPLACE_CHIP_DEPTH=0" "LAPLACE_TUNE=chip_depth=0" --nx 128 --ny 128 $q --eps 1e-6 --max-iter 3000 --partition 1x1
case_ "chip_depth=3 cluster 200^2" "LAPLACE_CHIP_DEPTH=3 LAPLACE_CHIP_WAY=cluster" "LAPLACE_TUNE=chip_depth=3,chip_way=cluster" --nx 200 --ny 200 $q --eps 1e-6 --max-iter 3000 --partition 1x1 --loop chip
case_ "spread_depth=0 lag=1 512^2" "LAPLACE_SPREAD_DEPTH=0 LAPLACE_SPREAD_LAG=1" "LAPLACE_TUNE=spread_depth=0,spread_lag=1" --nx 512 --ny 512 $q --eps 1e-6 --max-iter 3000 --partition 1x1
case_ "spread_depth=4 512^2 float" "LAPLACE_SPREAD_DEPTH=4" "LAPLACE_TUNE=spread_depth=4" --nx 512 --ny 512 --precision float $q --eps 1e-6 --max-iter 3000 --partition 1x1
case_ "spread_columns=0 unroll=4 384^2" "LAPLACE_SPREAD_COLUMNS=0 LAPLACE_SPREAD_UNROLL=4" "LAPLACE_TUNE=spread_columns=0,spread_unroll=4" --nx 384 --ny 384 --precision float $q --eps 1e-6 --max-iter 3000 --partition 1x1
case_ "spread_blocks=3 300^2" "LAPLACE_SPREAD_BLOCKS=3 LAPLACE_CHIP_WAY=spread" "LAPLACE_TUNE=spread_blocks=3,chip_way=spread" --nx 300 --ny 300 $q --eps 1e-6 --max-iter 3000 --partition 1x1
case_ "pairs=0 4096^2" "LAPLACE_PAIRS=0" "LAPLACE_TUNE=pairs=0" --nx 4096 --ny 4096 --precision float $q --eps 1e-4 --max-iter 3000 --partition 1x1
case_ "pairs=1 --loop batched 512^2" "LAPLACE_PAIRS=1" "LAPLACE_TUNE=pairs=1" --nx 512 --ny 512 $q --eps 1e-6 --max-iter 3000 --partition 1x1 --loop batched
case_ "sweep_order=forward pairs=0 4096^2" "LAPLACE_SWEEP_ORDER=forward LAPLACE_PAIRS=0" "LAPLACE_TUNE=sweep_order=forward,pairs=0" --nx 4096 --ny 4096 --precision float $q --eps 0 --max-iter 200 --partition 1x1
case_ "sweep_order=alternate 1000^2 2x1 ($pair)" "LAPLACE_SWEEP_ORDER=alternate" "LAPLACE_TUNE=sweep_order=alternate" --nx 1000 --ny 1000 $q --eps 1e-4 --max-iter 500 --partition 2x1 --devices "$pair"
echo "loops agree: $cases cases, $differ differ ($old against $new)"
[ "$differ" -eq 0 ]
