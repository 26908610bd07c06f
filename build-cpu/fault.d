build-cpu/fault.o: fault.c fault.h
fault.h:
