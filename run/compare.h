/*
 * compare.h - --compare (the run again on one device of its backend) and
 * --compare-cpu (again on the host tiles), each set against the main run: its
 * line or CSV row, the speed-up and the largest difference of the fields.
 */
#ifndef LAPLACE_COMPARE_H
#define LAPLACE_COMPARE_H

#include "run/report.h"
#include "plan/plan.h"

/* --compare, then --compare-cpu, after a main run (its report, its field: under MPI
 * this rank's part) that ended with status; returns the status after them. Under
 * MPI every rank calls it and every rank ends with the same status. */
int compare_all(const struct plan *plan, const struct run_report *run,
                const struct field *field, int status);

#endif
