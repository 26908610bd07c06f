#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/h200-2026-11-23-overflow/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/h200-2026-11-23-overflow/reproduce.sh             every step, in order
#   bash results/h200-2026-11-23-overflow/reproduce.sh STEP ...    some of them: run
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run.sh, as it was (its text unchanged) ----
run() {
#!/usr/bin/env bash
# device call 1: the GPU suite on main (overflow fix + MPI split, built without MPI),
# the overflow checks on the GPU, and old (70a41a9) against new in the same call.
set -u
cp build/gpu/laplace-new ./laplace
nvidia-smi -L > $OUT/machine.txt; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >> $OUT/machine.txt
./laplace --version >> $OUT/machine.txt
{ for p in "float 73786976294838206464" "double 3.514776401986872e+159"; do
    set -- $p
    for b in "--backend serial" "--backend gpu" "--backend gpu --partition 2x1 --devices 0,0" "--backend gpu --reduce device"; do
      ./laplace $b --precision $1 --top $2 --nx 257 --ny 129 --max-iter 3000 --csv --output $OUT/huge.bin | tail -1
      echo "$1 $b: $(md5sum < $OUT/huge.bin)"
    done
  done; } > $OUT/overflow-gpu.txt 2>&1
PAIR=0,0 timeout 240 scripts/before_after.sh build/gpu/laplace-70a41a9 ./laplace $OUT/ba > $OUT/before-after.txt 2>&1
( time make test-gpu ) > $OUT/test-gpu.log 2>&1
echo rc=$? >> $OUT/test-gpu.log
tail -3 $OUT/test-gpu.log; cat $OUT/before-after.txt | tail -8; cat $OUT/overflow-gpu.txt | grep -v "^laplace\|^[0-9]" | head; grep -c FAILED $OUT/test-gpu.log
}

steps=(run)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
