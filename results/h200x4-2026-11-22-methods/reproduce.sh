#!/usr/bin/env bash
# reproduce.sh - results/h200x4-2026-11-22-methods on 4 H200s (nvidia-h200-x4).
set -u
bash tests/gpu_suite.sh ./laplace 2>&1 | tee test-gpu.log
bash scripts/method_examples.sh 2>&1 | tee method-examples.txt
OUT=. bash scripts/gpu_session.sh methods           # kernels-16384-float.csv
