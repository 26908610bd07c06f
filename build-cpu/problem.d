build-cpu/problem.o: problem.c problem.h error.h expression.h
problem.h:
error.h:
expression.h:
