#!/usr/bin/env bash
# reproduce.sh [STEP...] - the runs behind results/2026-11-25-final/README.md.
# The folder's scripts, folded into one file (issue 43): each is a function below,
# named after the script it was, with its text unchanged; the README says which run
# gave which number and on which machine. Run it as the scripts were run (from the
# repository's root, with the binaries the README names):
#   bash results/2026-11-25-final/reproduce.sh             every step, in order
#   bash results/2026-11-25-final/reproduce.sh STEP ...    some of them: run
# Scripts that built probes (forked kernels, patches) left the tree; the README names
# the commit that holds them.
set -u

# ---- run.sh, as it was (its text unchanged) ----
run() {
#!/usr/bin/env bash
# device call (the session's last): the GPU suite on the final main of 2026-11-25
# (after the review's fixes), built here without MPI.
set -u
cp build/gpu/laplace-new ./laplace
./laplace --version > "$OUT/machine.txt" 2>&1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >> "$OUT/machine.txt" 2>&1
( time GPU_SUITE_JOBS=3 timeout 330 bash tests/gpu_suite.sh ./laplace ) > "$OUT/gpu-suite.log" 2>&1
echo "rc=$?" >> "$OUT/gpu-suite.log"
tail -3 "$OUT/gpu-suite.log"
}

steps=(run)
[ $# -gt 0 ] && steps=("$@")
for step in "${steps[@]}"; do
    echo "== $step"
    ( "$step" ) || echo "== $step: status $?"
done
