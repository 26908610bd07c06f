build-cpu/solver.o: solver.c solver.h device.h gpu_partition.h problem.h \
 stop_rule.h update_rule.h interrupt.h
solver.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
interrupt.h:
