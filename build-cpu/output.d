build-cpu/output.o: output.c output.h gpu_partition.h problem.h error.h \
 interrupt.h png_output.h vtk_output.h
output.h:
gpu_partition.h:
problem.h:
error.h:
interrupt.h:
png_output.h:
vtk_output.h:
