build-cpu/watchers.o: watchers.c watchers.h config.h device.h \
 gpu_partition.h problem.h stop_rule.h update_rule.h history.h progress.h \
 report.h solver.h
watchers.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
history.h:
progress.h:
report.h:
solver.h:
