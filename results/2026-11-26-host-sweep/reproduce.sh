#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-26-host-sweep/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-26-host-sweep/reproduce.sh             every step, in order
#   bash results/2026-11-26-host-sweep/reproduce.sh STEP ...    some of them: run
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run.sh, as it was (its text unchanged) ----
run() {
#!/usr/bin/env bash
# run.sh OLD NEW - the host tiles' sweep before and after its two passes, on this
# machine: compute seconds of each case (laplace --csv, time_compute_s), five rounds
# with the two binaries interleaved, then the medians; then the bench's CPU row
# (LAPLACE_BENCH_ONLY=matrix: 4096^2 double on every core against the host copy
# bandwidth measured in the same run) of each binary.
set -u
old=$1 new=$2
problem="--backend cpu --top 1 --left 0.3 --eps 0"
cases=("float 1024 1000 1" "double 1024 1000 1" "float 4096 100 1" "double 4096 100 1"
       "float 4096 100 100" "double 4096 100 100" "float 256 20000 1" "double 256 20000 1")
compute_s() { "$@" --csv | tail -1 | cut -d, -f12; }
for round in 1 2 3 4 5; do
    for c in "${cases[@]}"; do
        set -- $c
        for which in old new; do
            binary=$old; [ "$which" = new ] && binary=$new
            # shellcheck disable=SC2086
            echo "$round $1 $2^2 $3it check$4 $which $(compute_s "$binary" $problem \
                --precision "$1" --nx "$2" --ny "$2" --max-iter "$3" --check-every "$4")"
        done
    done
done > times.txt
python3 - <<'PY'
import collections, statistics
t = collections.defaultdict(list)
for line in open("times.txt"):
    r, prec, lattice, iters, check, which, s = line.split()
    t[(prec, lattice, iters, check, which)].append(float(s))
print("precision lattice iterations norm      old_s   new_s   new/old  (compute s, medians of 5)")
for key in sorted({k[:4] for k in t}, key=lambda k: (k[1], k[0], k[3])):
    old, new = (statistics.median(t[key + (w,)]) for w in ("old", "new"))
    norm = "each" if key[3] == "check1" else "every 100"
    print(f"{key[0]:9} {key[1]:8} {key[2]:>10} {norm:9} {old:7.3f} {new:7.3f}   {new/old:.2f}")
PY
for which in old new; do
    binary=$old; [ "$which" = new ] && binary=$new
    mkdir -p "bench-$which"
    LAPLACE_BENCH_DIR="bench-$which" LAPLACE_BENCH_ONLY=matrix "$binary" --bench > "bench-$which.txt" 2>&1
    grep -E "host copy|^cpu " "bench-$which.txt" | sed "s/^/$which: /"
done
}

steps=(run)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
