build-cpu/bench/bench_stats.o: bench/bench_stats.c bench/bench_stats.h
bench/bench_stats.h:
