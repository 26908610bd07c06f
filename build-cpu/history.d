build-cpu/history.o: history.c history.h error.h interrupt.h output.h \
 gpu_partition.h problem.h
history.h:
error.h:
interrupt.h:
output.h:
gpu_partition.h:
problem.h:
