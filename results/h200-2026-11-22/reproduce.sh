#!/usr/bin/env bash
# reproduce.sh - results/h200-2026-11-22 on one H200: the GPU suite on one GPU with the
# binary of the last tuning step (the tuning sweeps themselves are in NOTES.md and at
# the commit this README names).
set -u
bash tests/gpu_suite.sh ./laplace 2>&1 | tee test-gpu.log
