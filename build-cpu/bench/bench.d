build-cpu/bench/bench.o: bench/bench.c bench/bench.h config.h device.h \
 gpu_partition.h problem.h stop_rule.h update_rule.h \
 bench/bench_ceilings.h bench/bench_internal.h report.h config.h solver.h \
 run.h output.h report.h bench/bench_stats.h error.h gpu_partition.h \
 laplace_kernels.h p2p.h
bench/bench.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
bench/bench_ceilings.h:
bench/bench_internal.h:
report.h:
config.h:
solver.h:
run.h:
output.h:
report.h:
bench/bench_stats.h:
error.h:
gpu_partition.h:
laplace_kernels.h:
p2p.h:
