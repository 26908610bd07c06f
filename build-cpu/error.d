build-cpu/error.o: error.c error.h
error.h:
