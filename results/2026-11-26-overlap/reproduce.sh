#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-26-overlap/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-26-overlap/reproduce.sh             every step, in order
#   bash results/2026-11-26-overlap/reproduce.sh STEP ...    some of them: medians run_3 run_4 run_5 run_7 run_8 run_9
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- medians.py, as it was (its text unchanged) ----
medians() {
    python3 - "$@" <<'PYTHON'
"""Medians of a times-N.txt file of this folder: lines `round case binary us`."""
import collections
import statistics
import sys

values = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, case, what, v = line.split()[:4]
    try:
        values[(case, what)].append(float(v))
    except ValueError:
        print("bad", line.strip())
for (case, what), vs in values.items():
    print(f"{case:14s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PYTHON
}

# ---- run-3.sh, as it was (its text unchanged) ----
run_3() {
#!/usr/bin/env bash
# Third call: the whole GPU suite on the tree whose sweeps overlap (laplace-overlap).
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=6 timeout -s KILL 540 bash tests/gpu_suite.sh build/gpu/laplace-overlap > $OUT/gpu-suite-3.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-3.log | head -20; tail -1 $OUT/gpu-suite-3.log
}

# ---- run-4.sh, as it was (its text unchanged) ----
run_4() {
#!/usr/bin/env bash
# Fourth call: compute-sanitizer (memcheck with its leak check, racecheck, synccheck)
# on every check of tests/gpu_sanitize.sh, the tree whose sweeps overlap.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=12 timeout -s KILL 560 bash tests/gpu_sanitize.sh build/gpu/laplace-overlap > $OUT/gpu-sanitize-4.log 2>&1
echo "sanitize rc $?"; grep -E "^FAILED" $OUT/gpu-sanitize-4.log | head -20; grep -c "^ok" $OUT/gpu-sanitize-4.log; tail -1 $OUT/gpu-sanitize-4.log
}

# ---- run-5.sh, as it was (its text unchanged) ----
run_5() {
#!/usr/bin/env bash
# Fifth call: (1) racecheck on the host loop's sweeps (--monitor 50), which run-4's
# time limit cut; (2) us an iteration, HEAD (laplace-head), the overlapping sweeps
# (laplace-overlap) and the same binary with LAPLACE_OVERLAP=0, every sweep kernel,
# medians of 3 interleaved rounds; (3) the bench sweep on laplace-overlap.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_TOOLS=racecheck GPU_SANITIZE_MATCH='--monitor 50' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-overlap > $OUT/gpu-sanitize-5.log 2>&1
echo "sanitize rc $?"; tail -2 $OUT/gpu-sanitize-5.log
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "rows-2048 --nx 2048 --ny 2048 --max-iter 8000" "rows-2896 --nx 2896 --ny 2896 --max-iter 4000" "rows-4096 --nx 4096 --ny 4096 --max-iter 2000" "rows-d2048 --nx 2048 --ny 2048 --precision double --max-iter 4000" "global-2048 --nx 2048 --ny 2048 --kernel global --max-iter 4000" "readonly-2048 --nx 2048 --ny 2048 --kernel readonly --max-iter 4000" "shared-2048 --nx 2048 --ny 2048 --kernel shared --max-iter 4000" "sor-2048 --nx 2048 --ny 2048 --method sor --max-iter 3000" "sor-512 --nx 512 --ny 512 --method sor --max-iter 10000" "tiles2x1-2048 --nx 2048 --ny 2048 --devices 0,0 --partition 2x1 --max-iter 4000"; do
    set -- $case; name=$1; shift
    run="--backend gpu --top 1 --left 0.3 $*"
    for b in head overlap; do echo "$round $name $b $(us $B/laplace-$b $run)"; done
    echo "$round $name overlap-off $(LAPLACE_OVERLAP=0 us $B/laplace-overlap $run)"
  done
done > $OUT/times-5.txt
python3 - $OUT/times-5.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:14s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-overlap --bench > $OUT/bench-sweep-5.txt 2>&1
tail -14 $OUT/bench-sweep-5.txt
}

# ---- run-7.sh, as it was (its text unchanged) ----
run_7() {
#!/usr/bin/env bash
# Seventh call, the final tree (laplace-overlap: a lone tile's sweeps overlap, no
# trigger): (1) compute-sanitizer on the lone tile's sweeps of every kernel (batched,
# the rows kernel, global/readonly/shared, SOR's two phases, the large rows lattice in
# both orders) and their faults; (2) us an iteration, HEAD (laplace-head) against it and
# against it with LAPLACE_OVERLAP=0, medians of 3 interleaved rounds; (3) the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=12 GPU_SANITIZE_MATCH='--method sor.*--partition 1x1$|--max-iter 12 --partition 1x1|--loop batched|--partition 1x1 --kernel (rows|global|readonly|shared)$|--kernel rows --block 16x4' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-overlap > $OUT/gpu-sanitize-7.log 2>&1
echo "sanitize rc $?"; grep -E "^FAILED" $OUT/gpu-sanitize-7.log | head; tail -1 $OUT/gpu-sanitize-7.log
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f2048 --precision float --nx 2048 --ny 2048 --max-iter 8000" "f2896 --precision float --nx 2896 --ny 2896 --max-iter 4000" "f4096 --precision float --nx 4096 --ny 4096 --max-iter 2000" "f8192 --precision float --nx 8192 --ny 8192 --max-iter 400" "d2048 --precision double --nx 2048 --ny 2048 --max-iter 4000" "global-d2048 --precision double --nx 2048 --ny 2048 --kernel global --max-iter 3000" "sor-f2048 --precision float --nx 2048 --ny 2048 --method sor --max-iter 3000" "tiles-f2048 --precision float --nx 2048 --ny 2048 --devices 0,0 --partition 2x1 --max-iter 4000"; do
    set -- $case; name=$1; shift
    run="--backend gpu --top 1 --left 0.3 $*"
    for b in head overlap; do echo "$round $name $b $(us $B/laplace-$b $run)"; done
    echo "$round $name overlap-off $(LAPLACE_OVERLAP=0 us $B/laplace-overlap $run)"
  done
done > $OUT/times-7.txt
python3 - $OUT/times-7.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:14s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-overlap config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
echo "$(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-overlap --bench > $OUT/bench-sweep-7.txt 2>&1
tail -14 $OUT/bench-sweep-7.txt
}

# ---- run-8.sh, as it was (its text unchanged) ----
run_8() {
#!/usr/bin/env bash
# Eighth call, the final tree (laplace-overlap: a lone tile's sweeps overlap in the
# host loop too, which auto takes for it from 2048^2: run-7 found no gain, its binary
# overlapping only in run_alone's batches; no trigger): (1)
# compute-sanitizer on the lone tile's sweeps of every kernel (batched,
# the rows kernel, global/readonly/shared, SOR's two phases, the large rows lattice in
# both orders) and their faults; (2) us an iteration, HEAD (laplace-head) against it and
# against it with LAPLACE_OVERLAP=0, medians of 3 interleaved rounds; (3) the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SANITIZE_JOBS=12 GPU_SANITIZE_MATCH='--method sor.*--partition 1x1$|--max-iter 12 --partition 1x1|--loop batched|--partition 1x1 --kernel (rows|global|readonly|shared)$|--kernel rows --block 16x4' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-overlap > $OUT/gpu-sanitize-8.log 2>&1
echo "sanitize rc $?"; grep -E "^FAILED" $OUT/gpu-sanitize-8.log | head; tail -1 $OUT/gpu-sanitize-8.log
us() { line=$(timeout -s KILL 40 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "f2048 --precision float --nx 2048 --ny 2048 --max-iter 8000" "f2896 --precision float --nx 2896 --ny 2896 --max-iter 4000" "f4096 --precision float --nx 4096 --ny 4096 --max-iter 2000" "f8192 --precision float --nx 8192 --ny 8192 --max-iter 400" "d2048 --precision double --nx 2048 --ny 2048 --max-iter 4000" "global-d2048 --precision double --nx 2048 --ny 2048 --kernel global --max-iter 3000" "sor-f2048 --precision float --nx 2048 --ny 2048 --method sor --max-iter 3000" "tiles-f2048 --precision float --nx 2048 --ny 2048 --devices 0,0 --partition 2x1 --max-iter 4000"; do
    set -- $case; name=$1; shift
    run="--backend gpu --top 1 --left 0.3 $*"
    for b in head overlap; do echo "$round $name $b $(us $B/laplace-$b $run)"; done
    echo "$round $name overlap-off $(LAPLACE_OVERLAP=0 us $B/laplace-overlap $run)"
  done
done > $OUT/times-8.txt
python3 - $OUT/times-8.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:14s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-overlap config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
echo "$(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-overlap --bench > $OUT/bench-sweep-8.txt 2>&1
tail -14 $OUT/bench-sweep-8.txt
}

# ---- run-9.sh, as it was (its text unchanged) ----
run_9() {
#!/usr/bin/env bash
# Ninth call: the whole GPU suite on the final tree (laplace-overlap, as in run-8).
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=6 timeout -s KILL 540 bash tests/gpu_suite.sh build/gpu/laplace-overlap > $OUT/gpu-suite-9.log 2>&1
echo "suite rc $?"; grep -E "^FAILED" $OUT/gpu-suite-9.log | head -20; tail -1 $OUT/gpu-suite-9.log
}

steps=(medians run_3 run_4 run_5 run_7 run_8 run_9)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
