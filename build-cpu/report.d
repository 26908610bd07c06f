build-cpu/report.o: report.c report.h config.h device.h gpu_partition.h \
 problem.h stop_rule.h update_rule.h solver.h
report.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
solver.h:
