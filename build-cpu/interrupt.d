build-cpu/interrupt.o: interrupt.c interrupt.h
interrupt.h:
