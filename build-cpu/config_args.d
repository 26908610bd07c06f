build-cpu/config_args.o: config_args.c config_internal.h config.h \
 device.h gpu_partition.h problem.h stop_rule.h update_rule.h error.h
config_internal.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
error.h:
