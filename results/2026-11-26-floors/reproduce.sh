#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-26-floors/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-26-floors/reproduce.sh             every step, in order
#   bash results/2026-11-26-floors/reproduce.sh STEP ...    some of them: repeat_15 run_9 run_10 run_11 run_13 run_14 stalls
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- repeat-15.sh, as it was (its text unchanged) ----
repeat_15() {
#!/usr/bin/env bash
# Fifteenth call, on another machine (asked of the nvidia-h200 kind): the session's start
# (laplace-new, 3e39ae2) against HEAD (laplace-final, 86db44f): the course problem, us an
# iteration where the cluster now runs (medians of 3 interleaved rounds), the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 64 64" "float 128 128" "float 256 256" "double 128 128"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter 50000"
    for b in new final; do echo "$round $1-$2x$3 $b $(us $B/laplace-$b $run)"; done
  done
  for b in new final; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round course-s $b $(tail -1 /tmp/t.csv | cut -d, -f12)"
  done
done > $OUT/times-15.txt
python3 - $OUT/times-15.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:10s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 120 $B/laplace-final --bench > $OUT/bench-sweep-15.txt 2>&1
grep -E "copy|^[0-9]+\^2" $OUT/bench-sweep-15.txt | head -12
}

# ---- run-9.sh, as it was (its text unchanged) ----
run_9() {
#!/usr/bin/env bash
# Ninth call: the whole GPU suite on the tree with the cluster in rounds
# (laplace-rounds), and the course problem's iterations and field.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-rounds config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
echo "$(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
echo "== GPU suite"
GPU_SUITE_JOBS=6 timeout -s KILL 540 bash tests/gpu_suite.sh $B/laplace-rounds > $OUT/gpu-suite-9.log 2>&1
echo "suite rc $?"
grep -E "^FAILED" $OUT/gpu-suite-9.log | head -20; tail -1 $OUT/gpu-suite-9.log
}

# ---- run-10.sh, as it was (its text unchanged) ----
run_10() {
#!/usr/bin/env bash
# Tenth call: (1) us an iteration, HEAD (3e39ae2, laplace-new) against the cluster in
# rounds (laplace-rounds), auto, eps 0, the norm every iteration, medians of 3
# interleaved rounds; the course problem's seconds; (2) compute-sanitizer on the loops
# on chip; (3) the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 32 32" "float 64 64" "float 128 128" "float 192 192" "float 256 256" "float 300 300" "double 64 64" "double 128 128" "double 256 256"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter 50000"
    for b in new rounds; do echo "$round $1-$2x$3 $b $(us $B/laplace-$b $run)"; done
  done
  for b in new rounds; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round course-s $b $(tail -1 /tmp/t.csv | cut -d, -f12)"
  done
done > $OUT/times-10.txt
python3 - $OUT/times-10.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:10s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== compute-sanitizer on the loops on chip"
GPU_SANITIZE_JOBS=8 GPU_SANITIZE_MATCH='--loop chip|--ny 67|--ny 12|--ny 13' timeout -s KILL 240 bash tests/gpu_sanitize.sh $B/laplace-rounds > $OUT/gpu-sanitize-10.log 2>&1
echo "sanitize rc $?"; grep -E "FAIL|passed" $OUT/gpu-sanitize-10.log | tail -6
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 150 $B/laplace-rounds --bench > $OUT/bench-sweep-10.txt 2>&1
tail -12 $OUT/bench-sweep-10.txt
}

# ---- run-11.sh, as it was (its text unchanged) ----
run_11() {
#!/usr/bin/env bash
# Eleventh call, on the committed tree (laplace-final: 777c8c4 plus the bench's shorter
# note; the spread and cluster loops share walk_column): (1) us an iteration against
# HEAD of the session's start (laplace-new, 3e39ae2) where the spread loop runs, and
# the cluster; the course problem; (2) the GPU suite's checks of the loops on chip;
# (3) compute-sanitizer on the loops on chip, given the time to finish.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-final config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
echo "$(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 128 128" "float 256 256" "float 512 512" "float 1024 1024" "float 1448 1448" "double 512 512" "double 1100 1000"; do
    set -- $case
    it=50000; [ $2 -ge 1024 ] && it=20000
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter $it"
    for b in new final; do echo "$round $1-$2x$3 $b $(us $B/laplace-$b $run)"; done
  done
  for b in new final; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round course-s $b $(tail -1 /tmp/t.csv | cut -d, -f12)"
  done
done > $OUT/times-11.txt
python3 - $OUT/times-11.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:10s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== GPU suite, loops on chip"
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='chip|cluster|on chip|SIGINT|fault|course-[0-9]+ .*--partition 1x1 \(|course table' timeout -s KILL 200 bash tests/gpu_suite.sh $B/laplace-final > $OUT/gpu-suite-11.log 2>&1
grep -E "^FAILED" $OUT/gpu-suite-11.log | head; tail -1 $OUT/gpu-suite-11.log
echo "== compute-sanitizer on the loops on chip"
GPU_SANITIZE_JOBS=10 GPU_SANITIZE_MATCH='--loop chip|--max-iter 24|--max-iter 23|--ny 12|--ny 13' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-final > $OUT/gpu-sanitize-11.log 2>&1
echo "sanitize rc $?"; grep -E "FAIL|passed" $OUT/gpu-sanitize-11.log | tail -6
}

# ---- run-13.sh, as it was (its text unchanged) ----
run_13() {
#!/usr/bin/env bash
# Thirteenth call, on the tree with rounds of 8 by default (laplace-final): (1) the
# course problem's iterations and field; (2) us an iteration, the session's start
# (laplace-new, 3e39ae2) against it, auto, medians of 3 interleaved rounds, and the
# course problem's seconds; (3) the GPU suite's checks of the loops on chip; (4)
# compute-sanitizer on the loops on chip; (5) the bench sweep.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== course problem, stored: 423553 7b365cae394aa52809a7d138fc24438a"
timeout -s KILL 20 $B/laplace-final config/course-512.ini --backend gpu --output /tmp/c.dat > /tmp/c.txt 2>&1
echo "$(grep -E "^  (loop|iterations) " /tmp/c.txt | tr -s ' ' | tr '\n' ' ') $(md5sum < /tmp/c.dat)"
us() { line=$(timeout -s KILL 30 "$@" --eps 0 --check-every 1 --csv 2>&1 | tail -1); python3 -c "print(f'{1e6*$(echo $line | cut -d, -f12)/$(echo $line | cut -d, -f8):.3f}')" 2>/dev/null || echo "failed: $line"; }
for round in 1 2 3; do
  for case in "float 16 16" "float 32 32" "float 64 64" "float 128 128" "float 192 192" "float 256 256" "float 300 300" "double 64 64" "double 128 128" "double 256 256"; do
    set -- $case
    run="--backend gpu --precision $1 --nx $2 --ny $3 --top 1 --left 0.3 --max-iter 50000"
    for b in new final; do echo "$round $1-$2x$3 $b $(us $B/laplace-$b $run)"; done
  done
  for b in new final; do
    timeout -s KILL 20 $B/laplace-$b config/course-512.ini --backend gpu --csv > /tmp/t.csv 2>&1
    echo "$round course-s $b $(tail -1 /tmp/t.csv | cut -d, -f12)"
  done
done > $OUT/times-13.txt
python3 - $OUT/times-13.txt <<'PY'
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, what, v = line.split()[:4]
    try: d[(n, what)].append(float(v))
    except ValueError: print("bad", line.strip())
for (n, what), vs in d.items():
    print(f"{n:18s} {what:10s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
PY
echo "== GPU suite, loops on chip"
GPU_SUITE_JOBS=8 GPU_SUITE_MATCH='chip|cluster|on chip|SIGINT|fault|course-[0-9]+ .*--partition 1x1 \(|course table' timeout -s KILL 200 bash tests/gpu_suite.sh $B/laplace-final > $OUT/gpu-suite-13.log 2>&1
grep -E "^FAILED" $OUT/gpu-suite-13.log | head; tail -1 $OUT/gpu-suite-13.log
echo "== compute-sanitizer on the loops on chip"
GPU_SANITIZE_JOBS=10 GPU_SANITIZE_MATCH='--loop chip|--max-iter 24|--max-iter 23|--ny 12|--ny 13' timeout -s KILL 200 bash tests/gpu_sanitize.sh $B/laplace-final > $OUT/gpu-sanitize-13.log 2>&1
echo "sanitize rc $?"; grep -E "FAIL|passed" $OUT/gpu-sanitize-13.log | tail -6
echo "== bench sweep"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout -s KILL 120 $B/laplace-final --bench > $OUT/bench-sweep-13.txt 2>&1
tail -12 $OUT/bench-sweep-13.txt
}

# ---- run-14.sh, as it was (its text unchanged) ----
run_14() {
#!/usr/bin/env bash
# Fourteenth call: the whole GPU suite on the final tree (rounds of 8, the report
# saying how often the blocks meet), and the report's loop line at three lattices.
set -u
B=build/gpu
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for args in "--nx 128 --ny 128 --precision float" "--nx 256 --ny 256 --precision double" "--nx 512 --ny 512 --precision float" "--nx 128 --ny 128 --method sor"; do
  echo "$args: $(timeout -s KILL 20 $B/laplace-final --backend gpu $args --max-iter 1000 2>&1 | grep -E '^  loop ')"
done
GPU_SUITE_JOBS=6 timeout -s KILL 560 bash tests/gpu_suite.sh $B/laplace-final > $OUT/gpu-suite-14.log 2>&1
echo "suite rc $?"
grep -E "^FAILED" $OUT/gpu-suite-14.log | head -20; tail -1 $OUT/gpu-suite-14.log
}

# ---- stalls.py, as it was (its text unchanged) ----
stalls() {
    python3 - "$@" <<'PYTHON'
"""Prints the instructions of an ncu source page (--print-source sass --csv) that hold
the most warp-state samples, with their stall reasons; and the totals by reason."""
import csv, sys

rows = list(csv.reader(open(sys.argv[1], errors="replace")))
head = next(i for i, r in enumerate(rows) if "Source" in r)
names = rows[head]
data = [r for r in rows[head + 1:] if len(r) == len(names)]
def number(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0
total = next(i for i, n in enumerate(names) if n.startswith("Warp Stall Sampling (All"))
src = names.index("Source")
reasons = [i for i, n in enumerate(names) if n.startswith("stall_") or "Stall" in n and i != total]
print("columns:", [n for n in names][:60])
all_samples = sum(number(r[total]) for r in data)
print(f"samples {all_samples:.0f}")
sums = {i: sum(number(r[i]) for r in data) for i in range(len(names)) if i != src}
for i, s in sorted(sums.items(), key=lambda t: -t[1])[:25]:
    print(f"  {names[i]:60s} {s:12.0f}")
order = sorted(range(len(data)), key=lambda j: -number(data[j][total]))
for j in order[:int(sys.argv[2]) if len(sys.argv) > 2 else 60]:
    r = data[j]
    top = sorted(((number(r[i]), names[i]) for i in reasons if number(r[i]) > 0), reverse=True)[:3]
    print(f"{j:5d} {number(r[total]):8.0f} {100*number(r[total])/all_samples:5.1f}% {r[src][:60]:60s} "
          + ", ".join(f"{n.replace('Warp Stall Sampling','').strip()}={v:.0f}" for v, n in top))
PYTHON
}

steps=(repeat_15 run_9 run_10 run_11 run_13 run_14 stalls)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
