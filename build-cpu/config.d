build-cpu/config.o: config.c config_internal.h config.h device.h \
 gpu_partition.h problem.h stop_rule.h update_rule.h error.h expression.h \
 laplace_kernels.h
config_internal.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
error.h:
expression.h:
laplace_kernels.h:
