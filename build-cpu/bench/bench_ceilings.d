build-cpu/bench/bench_ceilings.o: bench/bench_ceilings.c \
 bench/bench_ceilings.h config.h device.h gpu_partition.h problem.h \
 stop_rule.h update_rule.h bench/bench_stats.h error.h p2p.h config.h
bench/bench_ceilings.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
bench/bench_stats.h:
error.h:
p2p.h:
config.h:
