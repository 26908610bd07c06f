build-cpu/memory_check.o: memory_check.c memory_check.h config.h device.h \
 gpu_partition.h problem.h stop_rule.h update_rule.h run.h output.h \
 report.h solver.h error.h
memory_check.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
run.h:
output.h:
report.h:
solver.h:
error.h:
