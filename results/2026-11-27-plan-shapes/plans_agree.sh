#!/usr/bin/env bash
# plans_agree.sh OLD NEW OUTDIR - the loop plan choosing each GPU tile's sweep shape and
# grid and, on chip, the halo depth and lag (NEW) against the kernels and device choosing
# them (OLD, 75548bc), on this machine's GPUs: every case run by both binaries with the
# same environment; their report's loop line, iterations, stop, exit status, stderr and
# stored field must be the same, and the new --dry-run's loop line must be what its run
# printed. One line a case, in order; status 1 if any differs. PAIR (default 0,1)
# places the tiles of two; MATCH=REGEX runs only the cases whose label matches; JOBS
# (default 8) cases run at once.
set -u
old=${1:?usage: plans_agree.sh OLD NEW OUTDIR}
new=${2:?usage: plans_agree.sh OLD NEW OUTDIR}
out=${3:?usage: plans_agree.sh OLD NEW OUTDIR}
pair=${PAIR:-0,1}
jobs=${JOBS:-8}
rm -rf "$out"
mkdir -p "$out"
cases=0

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

# compare LABEL DIR ENV ARGS...: both binaries' runs into DIR, the kept lines compared,
# the new dry run's loop line against the new run's; one line into DIR/line.
compare() {
    local label=$1 dir=$2 vars=$3; shift 3
    run "$old" "$dir/old" "$vars" "$@"
    run "$new" "$dir/new" "$vars" "$@"
    local ran planned d
    ran=$(sed -n 's/^  loop          //p' "$dir/new/report" |
        sed 's/, each sweep launched to overlap the kernel before it$//')
    planned=$(env $vars "$new" --backend gpu "$@" --dry-run 2>&1 | sed -n 's/^  loop          //p')
    d=$(diff "$dir/old/kept" "$dir/new/kept" | head -c 600)
    if [ -n "$d" ]; then
        printf '%-50s DIFFERS: %s\n' "$label" "$d"
    elif [ -n "$ran" ] && [ "$planned" != "$ran" ]; then
        printf '%-50s DRY RUN SAYS: %s; RAN: %s\n' "$label" "$planned" "$ran"
    else
        printf '%-50s same: %s | %s\n' "$label" "$(grep -m1 '^  iterations' "$dir/new/report" |
            sed 's/^  iterations *//; s/ (.*//')" "${ran:-$(grep -m1 . "$dir/new/err")}"
    fi > "$dir/line"
}

# case LABEL "ENV" ARGS...: compare, in the background, at most JOBS at once.
case_() {
    local label=$1
    cases=$((cases + 1))
    [[ -z "${MATCH:-}" || "$label" =~ $MATCH ]] || return 0
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    mkdir -p "$out/$cases"
    compare "$label" "$out/$cases" "${@:2}" &
}

q="--top 1 --left 0.3 --right -0.7 --bottom 2.5"
one="--partition 1x1"
# on chip and off, auto: the cluster's depth, the spread strips' depth and lag, the
# sweep's shape (its rows, columns, block and order) as the lattice grows
for p in float double; do
    for n in 16 64 128 192 200 256 300 384 512 600 768 1000 1024 1500 2047 2048 3000 4096; do
        case_ "auto $n^2 $p" "" --nx $n --ny $n --precision $p $q --eps 1e-5 --max-iter 4000 $one
    done
done
case_ "auto 8192^2 float" "" --nx 8192 --ny 8192 --precision float $q --eps 0 --max-iter 300 $one
case_ "auto 16384^2 float" "" --nx 16384 --ny 16384 --precision float $q --eps 0 --max-iter 100 $one
case_ "auto 16384^2 double" "" --nx 16384 --ny 16384 --precision double $q --eps 0 --max-iter 60 $one
case_ "odd 1031x997 double" "" --nx 1031 --ny 997 --precision double $q --eps 1e-5 --max-iter 4000 $one
case_ "tall 64x70000 float" "" --nx 64 --ny 70000 --precision float $q --eps 0 --max-iter 50 $one
case_ "--loop chip SOR 256^2" "" --nx 256 --ny 256 --method sor $q --eps 1e-6 --max-iter 3000 $one --loop chip
case_ "--loop chip 4096^2 (refused)" "" --nx 4096 --ny 4096 $q --eps 0 --max-iter 10 $one --loop chip
for k in global readonly shared rows general; do
    case_ "--kernel $k 1000^2" "" --nx 1000 --ny 1000 $q --eps 1e-5 --max-iter 2000 $one --kernel $k
done
case_ "--kernel rows 2048^2" "" --nx 2048 --ny 2048 --precision float $q --eps 1e-5 --max-iter 3000 $one --kernel rows
case_ "--block 32x8 512^2" "" --nx 512 --ny 512 $q --eps 1e-6 --max-iter 3000 $one --block 32x8
case_ "--block 3x5 --kernel rows 301^2" "" --nx 301 --ny 301 $q --eps 1e-6 --max-iter 2000 $one --block 3x5 --kernel rows
case_ "--block 1024x1 --kernel global 64x70000" "" --nx 64 --ny 70000 $q --eps 0 --max-iter 5 $one --block 1024x1 --kernel global
case_ "--reduce device 1024^2" "" --nx 1024 --ny 1024 --precision float $q --eps 1e-5 --max-iter 3000 $one --reduce device
case_ "--reduce device 4096^2" "" --nx 4096 --ny 4096 --precision float $q --eps 0 --max-iter 300 $one --reduce device
case_ "SOR 512^2" "" --nx 512 --ny 512 --method sor $q --eps 1e-8 --max-iter 3000 $one
case_ "SOR 2048^2" "" --nx 2048 --ny 2048 --method sor $q --eps 0 --max-iter 300 $one
case_ "weighted 1024^2" "" --nx 1024 --ny 1024 --method weighted --omega 0.8 $q --eps 1e-5 --max-iter 3000 $one
case_ "source 512^2" "" --nx 512 --ny 512 --source 'x*y' $q --eps 1e-6 --max-iter 3000 $one
case_ "--loop batched SOR 512^2" "" --nx 512 --ny 512 --method sor $q --eps 1e-8 --max-iter 3000 $one --loop batched
case_ "--loop host 512^2" "" --nx 512 --ny 512 $q --eps 1e-6 --max-iter 3000 $one --loop host
case_ "--history on chip 512^2" "" --nx 512 --ny 512 $q --eps 1e-6 --max-iter 3000 $one --history "$out/h.csv"
case_ "--check-every 7 4096^2" "" --nx 4096 --ny 4096 --precision float $q --eps 1e-4 --max-iter 3000 $one --check-every 7
# the knobs of the choices that moved into the plan
case_ "chip_way=spread 128^2" "LAPLACE_TUNE=chip_way=spread" --nx 128 --ny 128 $q --eps 1e-6 --max-iter 3000 $one
case_ "chip_way=cluster --loop chip 512^2 (refused)" "LAPLACE_TUNE=chip_way=cluster" --nx 512 --ny 512 --precision float $q --eps 1e-6 --max-iter 3000 $one --loop chip
case_ "chip_way=cluster 300^2" "LAPLACE_TUNE=chip_way=cluster" --nx 300 --ny 300 --precision float $q --eps 1e-6 --max-iter 3000 $one
for d in 0 1 2 3 5 8; do
    case_ "chip_depth=$d cluster 200^2" "LAPLACE_TUNE=chip_depth=$d,chip_way=cluster" --nx 200 --ny 200 $q --eps 1e-6 --max-iter 3000 $one --loop chip
done
for d in 0 1 2 3 4; do
    for lag in 1 3 4; do
        case_ "spread_depth=$d lag=$lag 384^2" "LAPLACE_TUNE=chip_way=spread,spread_depth=$d,spread_lag=$lag" --nx 384 --ny 384 $q --eps 1e-6 --max-iter 3000 $one
    done
done
case_ "spread_lag=1 1024^2 double" "LAPLACE_TUNE=spread_lag=1" --nx 1024 --ny 1024 --precision double $q --eps 1e-6 --max-iter 3000 $one
case_ "spread_columns=0 unroll=4 384^2" "LAPLACE_TUNE=spread_columns=0,spread_unroll=4" --nx 384 --ny 384 --precision float $q --eps 1e-6 --max-iter 3000 $one
case_ "spread_blocks=3 300^2" "LAPLACE_TUNE=spread_blocks=3,chip_way=spread" --nx 300 --ny 300 $q --eps 1e-6 --max-iter 3000 $one
case_ "pairs=0 4096^2" "LAPLACE_TUNE=pairs=0" --nx 4096 --ny 4096 --precision float $q --eps 1e-4 --max-iter 3000 $one
case_ "sweep_order=forward pairs=0 4096^2" "LAPLACE_TUNE=sweep_order=forward,pairs=0" --nx 4096 --ny 4096 --precision float $q --eps 0 --max-iter 200 $one
# several tiles: every tile's shape and grid from the plan
for n in 256 1024 4096; do
    case_ "2x1 $n^2 float ($pair)" "" --nx $n --ny $n --precision float $q --eps 1e-5 --max-iter 2000 --partition 2x1 --devices "$pair"
    case_ "1x2 $n^2 double ($pair)" "" --nx $n --ny $n --precision double $q --eps 1e-5 --max-iter 2000 --partition 1x2 --devices "$pair"
done
case_ "2x2 1001^2 ($pair,$pair)" "" --nx 1001 --ny 1001 $q --eps 1e-5 --max-iter 2000 --partition 2x2 --devices "$pair,$pair"
case_ "2x1 --reduce device 1024^2 ($pair)" "" --nx 1024 --ny 1024 $q --eps 1e-6 --max-iter 2000 --partition 2x1 --devices "$pair" --reduce device
case_ "2x1 --no-p2p 1024^2 ($pair)" "" --nx 1024 --ny 1024 $q --eps 1e-6 --max-iter 2000 --partition 2x1 --devices "$pair" --no-p2p
case_ "2x1 SOR 1024^2 ($pair)" "" --nx 1024 --ny 1024 --method sor $q --eps 1e-8 --max-iter 2000 --partition 2x1 --devices "$pair"
case_ "sweep_order=alternate 1000^2 2x1 ($pair)" "LAPLACE_TUNE=sweep_order=alternate" --nx 1000 --ny 1000 $q --eps 1e-4 --max-iter 500 --partition 2x1 --devices "$pair"
wait
ran=0 differ=0
for n in $(seq 1 "$cases"); do
    [ -f "$out/$n/line" ] || continue
    ran=$((ran + 1))
    cat "$out/$n/line"
    grep -q ' DIFFERS: \| DRY RUN SAYS: ' "$out/$n/line" && differ=$((differ + 1))
done
echo "plans agree: $ran cases run, $differ differ ($old against $new)"
[ "$differ" -eq 0 ]
