/*
 * threads.h - how many OpenMP threads a parallel region started here can get
 * (threads.c): the tiles' one thread each (solver.c), the automatic layout
 * (plan/plan.c) and the warning of more host tiles than cores (run.c) ask it.
 */
#ifndef LAPLACE_THREADS_H
#define LAPLACE_THREADS_H

/*
 * How many threads OpenMP gives a parallel region started here (asked from inside
 * an active region: the region it is in); *variable names the
 * setting that limits it (OMP_THREAD_LIMIT, OMP_MAX_ACTIVE_LEVELS), NULL when
 * nothing does.
 */
int threads_limit(const char **variable);

#endif
