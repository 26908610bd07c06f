build-cpu/reference.o: reference.c reference.h problem.h solver.h \
 device.h gpu_partition.h stop_rule.h update_rule.h interrupt.h \
 reference_sweep.inc
reference.h:
problem.h:
solver.h:
device.h:
gpu_partition.h:
stop_rule.h:
update_rule.h:
interrupt.h:
reference_sweep.inc:
