build-cpu/bench/bench_sweep.o: bench/bench_sweep.c bench/bench_sweep.h \
 bench/bench.h config.h device.h gpu_partition.h problem.h stop_rule.h \
 update_rule.h bench/bench_internal.h bench/bench_ceilings.h report.h \
 config.h solver.h run.h output.h report.h bench/bench_stats.h error.h
bench/bench_sweep.h:
bench/bench.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
bench/bench_internal.h:
bench/bench_ceilings.h:
report.h:
config.h:
solver.h:
run.h:
output.h:
report.h:
bench/bench_stats.h:
error.h:
