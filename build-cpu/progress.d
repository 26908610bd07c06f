build-cpu/progress.o: progress.c progress.h
progress.h:
