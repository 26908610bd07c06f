build-cpu/device.o: device.c device.h gpu_partition.h problem.h \
 stop_rule.h update_rule.h
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
