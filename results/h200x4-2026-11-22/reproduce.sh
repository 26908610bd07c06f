#!/usr/bin/env bash
# reproduce.sh - results/h200x4-2026-11-22 on 4 H200s (nvidia-h200-x4): the machine, the
# whole benchmark and its plots, the scaling at 16384², the GPU suite, the default job.
set -u
nvidia-smi topo -m > machine.txt; ./laplace --topology >> machine.txt
./laplace --bench 2>&1 | tee bench.txt         # writes results/bench-<gpu>-<date>.csv
make plots                                     # its -scaling, -updates, -bandwidth PNGs
bash scripts/bench_scaling.sh 16384 1000 float > scaling-16384-float.csv
make test-gpu 2>&1 | tee test-gpu.log
./laplace config/default.ini 2>&1 | tee make-run.txt
