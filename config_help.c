/*
 * config_help.c - the help text (config_print_help): the usage, every setting of
 * the table under its INI section with its default, then the formulas, regions,
 * norms, metrics, environment and exit statuses.
 */
#include "config_internal.h"

#include <stdio.h>
#include <string.h>

#include "laplace_kernels.h"

void config_print_help(const char *program)
{
    const char *sections[] = {"problem", "solver", "parallel", "output", NULL};
    printf(
        "Usage: %s [OPTIONS] [CONFIG.ini]\n"
        "Solves the 2D Laplace or Poisson equation (laplacian(u) = f) with Jacobi,\n"
        "weighted Jacobi or red-black SOR iterations on one or several GPUs (one\n"
        "OpenMP thread per GPU over NGx x NGy tiles), on host tiles, or serially.\n"
        "Options override the INI file, the file overrides the defaults. INI keys are\n"
        "the long option names, in the section shown in brackets.\n",
        program);
    for (int k = 0; k < (int)(sizeof sections / sizeof sections[0]); k++) {
        printf("\n%s%s%s:\n", sections[k] ? "[" : "",
               sections[k] ? sections[k] : "actions", sections[k] ? "]" : "");
        for (int i = 0; i < SETTING_COUNT; i++) {
            const struct setting *s = &settings[i];
            if ((s->section == NULL) != (sections[k] == NULL) ||
                (s->section && strcmp(s->section, sections[k]) != 0))
                continue;
            char left[64];
            snprintf(left, sizeof left, "--%s%s%s", s->name, s->arg ? " " : "",
                     s->arg ? s->arg : "");
            printf("  %-30s %s\n", left, s->help);
        }
    }
    printf(
        "\n  -q is --quiet, -h is --help. Known kernels: %s.\n"
        "\nValues of top, bottom, left, right and source are numbers or formulas in x\n"
        "and y (libmatheval: + - * / ^, sin cos exp log sqrt ..., pi, e), e.g.\n"
        "  --left 'sin(pi*y)' --source '-2*pi^2*sin(pi*x)*sin(pi*y)'\n"
        "Fixed regions in an INI file, one section each (a later one wins on overlap):\n"
        "  [region heater]  shape = rect, x0 = 0.4, y0 = 0.4, x1 = 0.6, y1 = 0.6, value "
        "= 1\n"
        "  [region body]    shape = disc, cx = 0.3, cy = 0.5, r = 0.1, value = 0\n"
        "\nNorms (computed every --check-every iterations, compared with --eps):\n"
        "  l2        sqrt(sum (new - old)^2) over the sites: the lecture's update norm\n"
        "  max       max |new - old|\n"
        "  residual  sqrt(dx dy sum r^2) / N, r = f - laplacian(u) at the N interior\n"
        "            sites, of the field each site's update started from\n"
        "\nMetrics in the report and CSV:\n"
        "  glups   interior sites updated per second, in 1e9 (iterations x sites / "
        "time)\n"
        "  gbps    bytes per second, counting one read and one write of each site per\n"
        "          iteration (8 bytes in float, 16 in double): the memory-traffic floor\n"
        "  gflops  4 flops per site update (3 adds, 1 multiply) plus 3 per site on\n"
        "          iterations that compute the norm (subtract, square, add)\n"
        "\nEnvironment of --bench:\n"
        "  LAPLACE_BENCH_ONLY=matrix|sweep   run one part after the ceilings (default "
        "both)\n"
        "  LAPLACE_BENCH_QUICK=1             tiny lattices, a smoke test (not for "
        "numbers)\n"
        "  LAPLACE_BENCH_DIR=DIR             where the CSVs go (default results)\n"
        "\nExit status: 0 finished (converged or stopped at --max-iter), 2 bad command\n"
        "line or config, 1 any other failure (device, memory, I/O, divergence).\n",
        kernel_names());
}
