build-cpu/main.o: main.c bench/bench.h config.h device.h gpu_partition.h \
 problem.h stop_rule.h update_rule.h config.h fault.h history.h \
 interrupt.h memory_check.h run.h device.h gpu_partition.h output.h \
 problem.h report.h solver.h p2p.h progress.h
bench/bench.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
config.h:
fault.h:
history.h:
interrupt.h:
memory_check.h:
run.h:
device.h:
gpu_partition.h:
output.h:
problem.h:
report.h:
solver.h:
p2p.h:
progress.h:
