build-cpu/gpu_partition.o: gpu_partition.c gpu_partition.h problem.h
gpu_partition.h:
problem.h:
