build-cpu/png_output.o: png_output.c png_output.h gpu_partition.h \
 problem.h
png_output.h:
gpu_partition.h:
problem.h:
