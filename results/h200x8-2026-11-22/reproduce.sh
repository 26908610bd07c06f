#!/usr/bin/env bash
# reproduce.sh - results/h200x8-2026-11-22 on 8 H200s (nvidia-h200-x8).
set -u
nvidia-smi topo -m > machine.txt; ./laplace --topology >> machine.txt
OUT=. bash scripts/gpu_session.sh layouts           # scaling-16384-float.csv, -double.csv
OUT=. bash scripts/gpu_session.sh largest           # scaling-20480-*.csv, largest-65536-float.csv
for csv in scaling-16384-float.csv scaling-20480-float.csv; do
    gnuplot -e "csv='$csv'" scripts/plot_scaling.gp
done
GPU_SUITE_MIN_GPUS=8 bash tests/gpu_suite.sh ./laplace 2>&1 | tee test-gpu-8-part1.log
