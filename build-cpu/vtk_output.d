build-cpu/vtk_output.o: vtk_output.c vtk_output.h gpu_partition.h \
 problem.h
vtk_output.h:
gpu_partition.h:
problem.h:
