build-cpu/device_host.o: device_host.c device.h gpu_partition.h problem.h \
 stop_rule.h update_rule.h laplace_kernels.h error.h fault.h \
 host_sweep.inc
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
laplace_kernels.h:
error.h:
fault.h:
host_sweep.inc:
