build-cpu/expression.o: expression.c expression.h error.h
expression.h:
error.h:
