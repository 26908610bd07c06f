/*
 * config_help.c - the help text (config_print_help): the usage, every setting of
 * the table under its INI section with its default, then the formulas, regions,
 * norms, metrics, environment and exit statuses. Every line fits in 80 columns:
 * a setting's help is wrapped under its own column.
 */
#include "support/tuning.h"
#include "settings/config_internal.h"

#include <stdio.h>
#include <string.h>

#include "laplace_kernels.h"
#include "settings/presets.h"

#define HELP_WIDTH 80
#define HELP_COLUMN 33 /* where a setting's help starts: "  " + 30 + " " */

/*
 * Prints text from the current column (column) on, words wrapped at HELP_WIDTH,
 * each further line indented to indent.
 */
static void print_wrapped(int column, int indent, const char *text)
{
    while (*text) {
        size_t word = strcspn(text, " ");
        if (column > indent && column + 1 + (int)word > HELP_WIDTH) {
            printf("\n%*s", indent, "");
            column = indent;
        } else if (column > indent) {
            putchar(' ');
            column++;
        }
        printf("%.*s", (int)word, text);
        column += (int)word;
        text += word;
        text += strspn(text, " ");
    }
    putchar('\n');
}

/* "  --name ARG    help wrapped under column 33" (the help on the next line when
 * the name and its argument take the whole left column). */
static void print_setting(const struct setting *s)
{
    char left[64];
    snprintf(left, sizeof left, "--%s%s%s", s->name, s->arg ? " " : "",
             s->arg ? s->arg : "");
    if (strlen(left) > HELP_COLUMN - 3) {
        printf("  %s\n%*s", left, HELP_COLUMN, "");
    } else {
        printf("  %-30s ", left);
    }
    print_wrapped(HELP_COLUMN, HELP_COLUMN, s->help);
}

static void print_settings(void)
{
    const char *sections[] = {"problem", "solver", "parallel", "output", NULL};
    for (int k = 0; k < (int)(sizeof sections / sizeof sections[0]); k++) {
        printf("\n%s%s%s:\n", sections[k] ? "[" : "",
               sections[k] ? sections[k] : "actions", sections[k] ? "]" : "");
        for (int i = 0; i < SETTING_COUNT; i++) {
            const struct setting *s = &settings[i];
            if ((s->section == NULL) != (sections[k] == NULL) ||
                (s->section && strcmp(s->section, sections[k]) != 0))
                continue;
            print_setting(s);
        }
    }
}

/* The presets folder this binary reads bare CONFIG.ini names from. */
static void print_presets(void)
{
    char dir[4096];
    printf(
        "\nPresets (a CONFIG.ini named without a folder, e.g. course-512.ini, that the\n"
        "current folder lacks is read from there):\n  %s\n",
        presets_dir(dir, sizeof dir) == 0 ? dir : "none found beside this binary");
}

/* The variables the program reads, and its exit statuses. */
static void print_environment_and_status(void)
{
    printf(
        "\nEnvironment:\n"
        "  LAPLACE_BENCH_ONLY=matrix|sweep  --bench: run one part after the ceilings\n"
        "                                   (default both)\n"
        "  LAPLACE_BENCH_QUICK=1            --bench: tiny lattices, a smoke test\n"
        "  LAPLACE_BENCH_DIR=DIR            --bench: where the CSVs go (default "
        "results)\n"
        "  LAPLACE_INJECT_FAULT=D:K         tests: device D fails at iteration K\n"
        "  LAPLACE_INJECT_SIGNAL=S:K[,...]  tests: signal S before the K-th output\n"
        "                                   file takes its name\n"
        "%s"
        "  OMP_NUM_THREADS, OMP_THREAD_LIMIT, OMP_WAIT_POLICY, OMP_PROC_BIND, ...\n"
        "                                   OpenMP: one thread per tile; host tiles\n"
        "                                   spin 1000 times at a barrier, then sleep,\n"
        "                                   unless OMP_WAIT_POLICY or GOMP_SPINCOUNT\n"
        "                                   says otherwise\n"
        "  LAPLACE_LOADAVG=X                tests: the load average a comparison or\n"
        "                                   --sides sees (not /proc/loadavg's)\n"
        "  CUDA_VISIBLE_DEVICES             which GPUs CUDA shows (--devices counts\n"
        "                                   among those)\n"
        "\nExit status:\n"
        "  0    finished: converged, or stopped at --max-iter (the report says which)\n"
        "  1    any other failure: device, memory, I/O (a full or closed stdout\n"
        "       too: SIGPIPE and SIGXFSZ are ignored), divergence, and --max-iter\n"
        "       with --error-if-not-converged\n"
        "  2    bad command line or config (one line on stderr naming it)\n"
        "  130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM, 129 SIGHUP, 131\n"
        "       SIGQUIT: 128 + the signal, also when it comes as the outputs are\n"
        "       written (they are finished first)\n",
        tuning_help());
}

void config_print_help(const char *program)
{
    printf(
        "Usage: %s [OPTIONS] [CONFIG.ini]\n"
        "Solves the 2D Laplace or Poisson equation (laplacian(u) = f) with Jacobi,\n"
        "weighted Jacobi or red-black SOR iterations on one or several GPUs (one\n"
        "OpenMP thread per GPU over NGx x NGy tiles), on host tiles, or serially.\n"
        "Options override the INI file, the file overrides the defaults. INI keys are\n"
        "the long option names, in the section shown in brackets.\n",
        program);
    print_settings();
    printf("\n  -q is --quiet, -h is --help, -V is --version. Known kernels:\n    ");
    print_wrapped(4, 4, kernel_names());
    printf(
        "\nValues of top, bottom, left, right and source are numbers or formulas in x\n"
        "and y (libmatheval: + - * / ^, sin cos exp log sqrt ..., pi, e), e.g.\n"
        "  --left 'sin(pi*y)' --source '-2*pi^2*sin(pi*x)*sin(pi*y)'\n"
        "Fixed regions in an INI file, one section each (a later one wins on overlap):\n"
        "  [region heater]  shape = rect, x0 = 0.4, y0 = 0.4, x1 = 0.6, y1 = 0.6,\n"
        "                   value = 1\n"
        "  [region body]    shape = disc, cx = 0.3, cy = 0.5, r = 0.1, value = 0\n"
        "\nNorms (computed every --check-every iterations, compared with --eps):\n"
        "  l2        sqrt(sum (new - old)^2) over the sites: the lecture's update norm\n"
        "  max       max |new - old|\n"
        "  residual  sqrt(dx dy sum r^2) / N, r = f - laplacian(u) at the N interior\n"
        "            sites, of the field each site's update started from\n"
        "\nStops (the report's \"stopped\" line, the CSV's stop column):\n"
        "  converged    the norm fell below --eps\n"
        "  stagnated    the update became exactly 0 while the norm before it was still\n"
        "               >= eps: the working precision can move no site any more (float\n"
        "               at a small eps); the field is the best this precision holds,\n"
        "               and the report's final norm line names the last nonzero norm\n"
        "  max-iter     --max-iter came first (status 0, or 1 with\n"
        "               --error-if-not-converged)\n"
        "  steps        the --steps asked for are done\n"
        "  diverged     the norm not finite, or 1e8 times its first (status 1)\n"
        "  interrupted  a signal stopped it (status 128 + the signal)\n"
        "  failed       a device failed (status 1)\n"
        "\nMetrics in the report and CSV:\n"
        "  glups   interior sites updated per second, in 1e9 (iterations x sites /\n"
        "          time)\n"
        "  gbps    bytes per second, counting one read and one write of each site per\n"
        "          iteration (8 bytes in float, 16 in double): the memory-traffic floor\n"
        "  gflops  4 flops per site update (3 adds, 1 multiply) plus 3 per site on\n"
        "          iterations that compute the norm (subtract, square, add)\n"
        "  speedup, efficiency  CSV rows of --compare and --compare-cpu: the main\n"
        "          run's compute-time speed-up over the compared run, and against one\n"
        "          device of the same backend speed-up / N (empty elsewhere)\n");
    print_presets();
    print_environment_and_status();
}
