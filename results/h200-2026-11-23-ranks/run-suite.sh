#!/usr/bin/env bash
# device call 4: after the solver.c split (the batched loop moved to solver_batches.c):
# the GPU suite (no sanitizer), on main built without MPI.
set -u
cp build/gpu/laplace-new ./laplace
./laplace --version
( time bash tests/gpu_suite.sh ./laplace ) > $OUT/gpu-suite.log 2>&1
echo rc=$? >> $OUT/gpu-suite.log
tail -4 $OUT/gpu-suite.log; grep -c "^ok" $OUT/gpu-suite.log; grep "^FAILED" $OUT/gpu-suite.log | head
