build-cpu/config_help.o: config_help.c config_internal.h config.h \
 device.h gpu_partition.h problem.h stop_rule.h update_rule.h error.h \
 laplace_kernels.h
config_internal.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
error.h:
laplace_kernels.h:
