#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-26-l2/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-26-l2/reproduce.sh             every step, in order
#   bash results/2026-11-26-l2/reproduce.sh STEP ...    some of them: final_1 final_2 final_3 final_4 final_5 final_6
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- final-1.sh, as it was (its text unchanged) ----
final_1() {
#!/usr/bin/env bash
# Final call 1 (one H100): HEAD 95f2cfb (laplace-head) against the change (laplace-new:
# block sums always into mapped host memory, the rows kernel at 4 rows a thread below 32
# waves), us an iteration, the norm every iteration, medians of 3 interleaved rounds;
# then the bench's lattice sweep and the whole GPU suite on the new binary.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,n,precision,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 2048:float 2896:float 4096:float 5792:float 8192:float 16384:float 4096:double 8192:double; do
    n=${spec%%:*}; prec=${spec#*:}; it=$((6000 * 2048 * 2048 / n / n)); [ $it -lt 200 ] && it=200
    for bin in head new; do
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$n,$prec,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-final.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list)
for r in csv.DictReader(open(os.environ['OUT']+'/speed-final.csv')):
    d[(r['precision'],int(r['n']),r['binary'])].append(float(r['us_per_iteration']))
for (p,n,b) in sorted(d):
    if b=='head':
        h=st.median(d[(p,n,'head')]); w=st.median(d[(p,n,'new')])
        print(f"{p} {n}^2: head {h:.2f} new {w:.2f} us/it ({100*(w/h-1):+.1f}%)  runs head {d[(p,n,'head')]} new {d[(p,n,'new')]}")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 build/gpu/laplace-new --bench > $OUT/bench-sweep.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep.txt
echo "== GPU suite (new)"
GPU_SUITE_JOBS=4 timeout 400 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite.log | tail -20
grep -E "many-block" $OUT/gpu-suite.log
}

# ---- final-2.sh, as it was (its text unchanged) ----
final_2() {
#!/usr/bin/env bash
# Final call 2 (one H100): HEAD 95f2cfb (laplace-head), 922875e (laplace-mid: mapped
# sums, 4 rows) and the rows kernel's block grown with the tile (laplace-new), us an
# iteration, the norm every iteration, medians of 3 interleaved rounds; 1024^2 on 2x1
# tiles of GPU 0 (batched, small blocks now); the bench sweep, the whole GPU suite and
# memcheck on 8836 mapped block sums, all on the new binary.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,n,precision,tiles,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 1024:float:2x1 2048:float:1x1 2896:float:1x1 4096:float:1x1 5792:float:1x1 8192:float:1x1 11585:float:1x1 16384:float:1x1 2048:double:1x1 4096:double:1x1 8192:double:1x1; do
    IFS=: read -r n prec tiles <<< "$spec"
    it=$((6000 * 2048 * 2048 / n / n)); [ $it -lt 200 ] && it=200
    dev=""; [ $tiles = 2x1 ] && dev="--devices 0,0"
    for bin in head mid new; do
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu --partition $tiles $dev --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$n,$prec,$tiles,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-final-2.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list)
for r in csv.DictReader(open(os.environ['OUT']+'/speed-final-2.csv')):
    d[(r['precision'],int(r['n']),r['tiles'],r['binary'])].append(float(r['us_per_iteration']))
for (p,n,t,b) in sorted(d):
    if b=='head':
        m={x: st.median(d[(p,n,t,x)]) for x in ('head','mid','new')}
        print(f"{p} {n}^2 {t}: head {m['head']:.2f} mid {m['mid']:.2f} new {m['new']:.2f} us/it (new/head {100*(m['new']/m['head']-1):+.1f}%, new/mid {100*(m['new']/m['mid']-1):+.1f}%)")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 build/gpu/laplace-new --bench > $OUT/bench-sweep-2.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep-2.txt
echo "== memcheck: 6000 x 3000 float, 8836 block sums into mapped host memory"
timeout 150 compute-sanitizer --tool memcheck --leak-check full build/gpu/laplace-new --backend gpu --nx 6000 --ny 3000 --precision float --top 1 --eps 3 --max-iter 100 -q 2>&1 | tail -3
echo "== GPU suite (new)"
GPU_SUITE_JOBS=4 timeout 330 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-2.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-2.log | tail -20
}

# ---- final-3.sh, as it was (its text unchanged) ----
final_3() {
#!/usr/bin/env bash
# Final call 3 (one H100): the committed tree (laplace-new: tiles too small for 4 rows
# a thread keep 32x8 blocks) against HEAD 95f2cfb (laplace-head) on tiles of GPU 0
# (batched and host loop), medians of 3 interleaved rounds; the bench sweep and the
# whole GPU suite on the new binary.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,n,precision,tiles,loop_asked,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for spec in 1024:float:1x1:batched 1024:float:2x1:auto 2048:float:2x1:auto 2048:float:2x2:auto 1024:double:2x1:auto 2048:float:1x1:auto 4096:float:1x1:auto 16384:float:1x1:auto; do
    IFS=: read -r n prec tiles loop <<< "$spec"
    it=$((6000 * 2048 * 2048 / n / n)); [ $it -lt 200 ] && it=200
    dev=""; [ $tiles = 2x1 ] && dev="--devices 0,0"; [ $tiles = 2x2 ] && dev="--devices 0,0,0,0"
    for bin in head new; do
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu --partition $tiles $dev --loop $loop --nx $n --ny $n --top 1 --left 0.3 --precision $prec --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$n,$prec,$tiles,$loop,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-final-3.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loops={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-final-3.csv')):
    k=(r['precision'],int(r['n']),r['tiles'],r['loop_asked']); d[k+(r['binary'],)].append(float(r['us_per_iteration'])); loops[k]=r['loop']
for k in sorted(loops):
    h=st.median(d[k+('head',)]); w=st.median(d[k+('new',)])
    print(f"{k[0]} {k[1]}^2 {k[2]} --loop {k[3]} ({loops[k]}): head {h:.2f} new {w:.2f} us/it ({100*(w/h-1):+.1f}%)")
PY
echo "== bench sweep (new)"
LAPLACE_BENCH_DIR=$OUT LAPLACE_BENCH_ONLY=sweep timeout 200 build/gpu/laplace-new --bench > $OUT/bench-sweep-3.txt 2>&1; echo "bench status $?"
sed -n '/^lattice  /,/^one GPU/p' $OUT/bench-sweep-3.txt
echo "== GPU suite (new)"
GPU_SUITE_JOBS=4 timeout 360 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-3.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-3.log | tail -20
}

# ---- final-4.sh, as it was (its text unchanged) ----
final_4() {
#!/usr/bin/env bash
# Final call 4 (one H100): way_on_chip plans only the ways that may be taken (the
# spread strips no longer planned where the cluster is taken): the GPU suite's checks of
# the loop on chip (both ways, forced and auto, every rule, refusals, faults, Ctrl-C).
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=4 GPU_SUITE_MATCH='chip|spread|on chip|cluster|batched on the GPUs' timeout 400 \
  bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-chip-4.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-chip-4.log | tail -20
}

# ---- final-5.sh, as it was (its text unchanged) ----
final_5() {
#!/usr/bin/env bash
# Final call 5 (one H100), the committed tree plus the suite's wide-block checks: the
# rows kernel's new blocks (32x4, 64x4, 128x4) against serial at every size class and
# under compute-sanitizer (memcheck with leak check, racecheck), 3 iterations each.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
GPU_SUITE_JOBS=2 GPU_SUITE_MATCH='wide-blocks|many-block-sums' timeout 300 \
  bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-wide-5.log 2>&1; echo "suite status $?"
grep -E "^ok|^FAILED|gpu suite:" $OUT/gpu-suite-wide-5.log | tail -12
for spec in "1000 900 --loop batched" "3000 3000" "4200 4200" "8200 8200" "8201 8195" "4200 4200 --partition 2x1 --devices 0,0"; do
  set -- $spec; n=$1; m=$2; shift 2
  tools=("memcheck --leak-check full")
  [ "$n" -le 4200 ] && tools+=(racecheck)
  for tool in "${tools[@]}"; do
    echo "-- $tool: $n x $m float $*"
    timeout 150 compute-sanitizer --tool $tool build/gpu/laplace-new --backend gpu --nx $n --ny $m --precision float --top 1 --left 0.3 --eps 0 --max-iter 3 -q "$@" 2>&1 | tail -2
  done
done
}

# ---- final-6.sh, as it was (its text unchanged) ----
final_6() {
#!/usr/bin/env bash
# Final call 6 (one H100), the tree after the review's fixes (laplace-new): --reduce
# device keeps the fewer blocks of 32x8 at 64 bytes a thread; SOR's first phase keeps its
# block sums on the device (the second adds its own to them into mapped host memory);
# odd-width floats step down to 4 rows again. Against HEAD 95f2cfb (laplace-head),
# medians of 3 interleaved; compute-sanitizer on SOR's two phases; the whole GPU suite.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
{
echo "binary,case,round,iterations,compute_s,us_per_iteration,loop"
for round in 1 2 3; do
  for c in "jacobi-2048|--nx 2048 --ny 2048|6000" \
           "jacobi-4096|--nx 4096 --ny 4096|1500" \
           "jacobi-16384|--nx 16384 --ny 16384|200" \
           "reduce-device-2048|--nx 2048 --ny 2048 --reduce device|6000" \
           "reduce-device-4096|--nx 4096 --ny 4096 --reduce device|1500" \
           "sor-1024|--nx 1024 --ny 1024 --method sor|8000" \
           "sor-1448|--nx 1448 --ny 1448 --method sor|4000" \
           "sor-4096|--nx 4096 --ny 4096 --method sor|500" \
           "sor-2048-2x1|--nx 2048 --ny 2048 --method sor --partition 2x1 --devices 0,0|2000" \
           "odd-701-2x1|--nx 701 --ny 701 --partition 2x1 --devices 0,0|20000"; do
    IFS='|' read -r name opts it <<< "$c"
    for bin in head new; do
      # shellcheck disable=SC2086
      line=$(timeout -s KILL 60 build/gpu/laplace-$bin --backend gpu $opts --top 1 --left 0.3 --precision float --eps 0 --max-iter $it --check-every 1 --csv 2>/dev/null | tail -1)
      i=$(echo "$line" | cut -d, -f8); t=$(echo "$line" | cut -d, -f12)
      echo "$bin,$name,$round,$i,$t,$(python3 -c "print(f'{1e6*$t/$i:.3f}')"),$(echo "$line" | cut -d, -f22)"
    done
  done
done
} > $OUT/speed-final-6.csv
python3 - <<'PY'
import csv,os,statistics as st,collections
d=collections.defaultdict(list); loop={}
for r in csv.DictReader(open(os.environ['OUT']+'/speed-final-6.csv')):
    d[(r['case'],r['binary'])].append(float(r['us_per_iteration'])); loop[r['case']]=r['loop']
for c in dict.fromkeys(k[0] for k in d):
    h=st.median(d[(c,'head')]); w=st.median(d[(c,'new')])
    print(f"{c} ({loop[c]}): head {h:.2f} new {w:.2f} us/it ({100*(w/h-1):+.1f}%)")
PY
for spec in "1500 1500" "1200 900 --partition 2x1 --devices 0,0" "1200 900 --partition 2x1 --devices 0,0 --loop host"; do
  for tool in "memcheck --leak-check full" racecheck; do
    echo "-- $tool: SOR $spec"
    # shellcheck disable=SC2086
    set -- $spec; n=$1; m=$2; shift 2
    # shellcheck disable=SC2086
    timeout 120 compute-sanitizer --tool $tool build/gpu/laplace-new --backend gpu --nx $n --ny $m "$@" --method sor --precision float --top 1 --eps 0 --max-iter 3 -q 2>&1 | tail -1
  done
done
GPU_SUITE_JOBS=4 timeout 330 bash tests/gpu_suite.sh build/gpu/laplace-new > $OUT/gpu-suite-6.log 2>&1; echo "suite status $?"
grep -E "^FAILED|gpu suite:" $OUT/gpu-suite-6.log | tail -12
}

steps=(final_1 final_2 final_3 final_4 final_5 final_6)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
