/*
 * test_kernel_registers.c - the pass kernels (kernels/laplace_pairs.cu) compile to the
 * registers they were measured with, and spill nothing: ptxas's report of the build
 * (build/kernels/laplace_pairs.ptxas, written by the Makefile's nvcc rule).
 *
 * Their speed hangs on the code ptxas makes of them, which small edits of the source
 * change: writing at_edge's test as a call, or a runtime switch for the peer flags, took
 * sweep_stacked from 55 registers to 60-64 (float) and 74 to 80-89 (double), and the
 * graph's passes measured 2.5-5.8% slower on 2 GPUs (results/2026-11-27-several-gpus,
 * call 11); a row offset in it took 64-72 and 80-95 (ptxas on the CPU machine, beside
 * calls 17-21, where a split pass kept it out of that kernel). A kernel that moves
 * from its row here must be timed again on a GPU (crossover.sh, old against new) and its
 * row then changed with the measurement cited. Built without CUDA, there is no report and
 * nothing to check.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

#ifdef HAVE_CUDA

#define REPORT "build/kernels/laplace_pairs.ptxas"

/* A kernel's registers and spills as ptxas reported them. */
struct kernel_report {
    int found, registers, spill_stores, spill_loads;
};

/* The report of the entry function whose mangled name starts with `prefix`: the
 * "Compiling entry function" line, then its spills and "Used N registers" lines. */
static struct kernel_report report_of(const char *text, const char *prefix)
{
    struct kernel_report r = {0};
    char entry[64];
    snprintf(entry, sizeof entry, "entry function '%s", prefix);
    const char *at = strstr(text, entry);
    if (!at)
        return r;
    const char *next = strstr(at + 1, "Compiling entry function");
    const char *spills = strstr(at, "bytes spill stores");
    const char *used = strstr(at, "Used ");
    if (!spills || !used || (next && (spills > next || used > next)))
        return r;
    while (spills > at && spills[-1] != ',')
        spills--; /* back to ", N bytes spill stores" */
    r.found = sscanf(spills, " %d bytes spill stores, %d bytes spill loads",
                     &r.spill_stores, &r.spill_loads) == 2 &&
              sscanf(used, "Used %d registers", &r.registers) == 1;
    return r;
}

static void expect_kernel(const char *text, const char *prefix, int registers)
{
    struct kernel_report r = report_of(text, prefix);
    cr_assert(r.found, "%s: no report of %s*", REPORT, prefix);
    cr_expect_eq(r.registers, registers, "%s*: %d registers, measured with %d", prefix,
                 r.registers, registers);
    cr_expect(r.spill_stores == 0 && r.spill_loads == 0, "%s*: spills %d / %d bytes",
              prefix, r.spill_stores, r.spill_loads);
}

Test(kernel_registers, the_pass_kernels_keep_the_registers_they_were_measured_with)
{
    char *text = slurp(REPORT);
    cr_assert(text, "%s not found: the Makefile's nvcc rule writes it", REPORT);
    /* sweep_pair: a lone GPU's passes (results/2026-11-27-pairs; PTX unchanged since) */
    expect_kernel(text, "_Z10sweep_pairILi16ELi4EfE", 60);
    expect_kernel(text, "_Z10sweep_pairILi16ELi4EdE", 92);
    /* sweep_stacked: tiles stacked in rows meeting through the graph (67b04ce's PTX,
     * results/2026-11-27-several-gpus, calls 11 and 15) */
    expect_kernel(text, "_Z13sweep_stackedILi16ELi4EfE", 55);
    expect_kernel(text, "_Z13sweep_stackedILi16ELi4EdE", 74);
    free(text);
}

Test(kernel_registers, the_report_reader_finds_a_kernel_and_refuses_an_absent_one)
{
    const char *text =
        "ptxas info    : Compiling entry function '_Z1aILi1EfEv' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z1aILi1EfEv\n"
        "    16 bytes stack frame, 12 bytes spill stores, 68 bytes spill loads\n"
        "ptxas info    : Used 40 registers, used 1 barriers, 256 bytes smem\n"
        "ptxas info    : Compiling entry function '_Z1bILi1EfEv' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z1bILi1EfEv\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 55 registers, used 1 barriers, 256 bytes smem\n";
    struct kernel_report a = report_of(text, "_Z1aILi1EfE");
    cr_expect(a.found && a.registers == 40 && a.spill_stores == 12 && a.spill_loads == 68);
    struct kernel_report b = report_of(text, "_Z1bILi1EfE");
    cr_expect(b.found && b.registers == 55 && b.spill_stores == 0 && b.spill_loads == 0);
    cr_expect(!report_of(text, "_Z1cILi1EfE").found);
}

#endif
