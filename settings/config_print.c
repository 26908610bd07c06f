/*
 * config_print.c - the settings written back as an INI file (--print-config): what
 * the defaults, the INI file and the options made, in the sections config_ini.c
 * reads, so that the file given back to laplace runs the same problem the same
 * way. A setting left to its default meaning ("auto", "none") is written as a
 * comment. Numbers are written with the digits that read back to the same bits;
 * names and formulas bare, or quoted where INI cannot hold them bare (ini_value.h).
 */
#include "settings/config_internal.h"
#include "settings/ini_value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *yes_no(int flag)
{
    return flag ? "true" : "false";
}

/* An edge: its formula, or its number. */
static void print_edge(FILE *out, const char *key, const char *formula, double value)
{
    char buf[32];
    if (formula[0])
        ini_value_print(out, key, formula);
    else
        fprintf(out, "%s = %s\n", key, number_text(value, buf));
}

/* Every fixed region as a --region line of [problem], in their order (a later one
 * wins where they overlap). */
static void print_regions(FILE *out, const struct problem *p)
{
    for (int k = 0; k < p->region_count; k++) {
        const struct region *r = &p->regions[k];
        char a[32], b[32], c[32], d[32], e[32];
        if (r->shape == REGION_RECT)
            fprintf(out, "region = rect %s %s %s %s %s\n", number_text(r->x0, a),
                    number_text(r->y0, b), number_text(r->x1, c), number_text(r->y1, d),
                    number_text(r->value, e));
        else
            fprintf(out, "region = disc %s %s %s %s\n", number_text(r->cx, a),
                    number_text(r->cy, b), number_text(r->r, c),
                    number_text(r->value, d));
    }
}

static void print_problem(FILE *out, const struct config *c)
{
    const struct problem *p = &c->problem;
    char buf[32];
    fprintf(out, "[problem]\nnx = %ld\nny = %ld\n", p->nx, p->ny);
    print_edge(out, "top", p->edge_formula[EDGE_TOP], p->top);
    print_edge(out, "bottom", p->edge_formula[EDGE_BOTTOM], p->bottom);
    print_edge(out, "left", p->edge_formula[EDGE_LEFT], p->left);
    print_edge(out, "right", p->edge_formula[EDGE_RIGHT], p->right);
    if (p->lx > 0)
        fprintf(out, "lx = %s\n", number_text(p->lx, buf));
    else
        fprintf(out, "; lx: the default, 1\n");
    if (p->ly > 0)
        fprintf(out, "ly = %s\n", number_text(p->ly, buf));
    else
        fprintf(out, "; ly: the default, square cells\n");
    ini_value_print(out, "source", p->source[0] ? p->source : "0");
    if (c->exact[0])
        ini_value_print(out, "exact", c->exact);
    else
        fprintf(out, "; exact: none\n");
    print_regions(out, p);
    fprintf(out, "precision = %s\n", precision_name(p->precision));
}

static void print_solver(FILE *out, const struct config *c)
{
    char buf[32];
    fprintf(out, "\n[solver]\nmethod = %s\n", method_name(c->method));
    if (c->omega == OMEGA_AUTO)
        fprintf(out, "omega = auto\n");
    else if (c->omega > 0)
        fprintf(out, "omega = %s\n", number_text(c->omega, buf));
    else
        fprintf(out, "; omega: the method's default\n");
    fprintf(out, "eps = %s\nnorm = %s\nmax-iter = %ld\ncheck-every = %ld\n",
            number_text(c->eps, buf), norm_name(c->norm), c->max_iter, c->check_every);
    if (c->steps > 0)
        fprintf(out, "steps = %ld\n", c->steps);
    else
        fprintf(out, "; steps: none, iterate to eps\n");
    if (c->snapshot_every > 0)
        fprintf(out, "snapshot-every = %ld\n", c->snapshot_every);
    else
        fprintf(out, "; snapshot-every: none\n");
    fprintf(out, "error-if-not-converged = %s\n", yes_no(c->error_if_not_converged));
}

/* "AxB", or "auto" for 0 x 0. */
static void print_pair(FILE *out, const char *key, int a, int b)
{
    if (a > 0)
        fprintf(out, "%s = %dx%d\n", key, a, b);
    else
        fprintf(out, "%s = auto\n", key);
}

static void print_parallel(FILE *out, const struct config *c)
{
    static const char *reduce[] = {"host", "device"},
                      *loop[] = {"auto", "host", "batched", "chip"};
    fprintf(out, "\n[parallel]\nbackend = %s\n", backend_name(c->backend));
    print_pair(out, "partition", c->partition_x, c->partition_y);
    print_pair(out, "ranks", c->ranks_x, c->ranks_y);
    if (c->device_count > 0) {
        fprintf(out, "devices = ");
        for (int i = 0; i < c->device_count; i++)
            fprintf(out, "%s%d", i ? "," : "", c->devices[i]);
        fputc('\n', out);
    } else {
        fprintf(out, "; devices: every visible device\n");
    }
    print_pair(out, "block", c->block_x, c->block_y);
    fprintf(out, "kernel = %s\nreduce = %s\nloop = %s\n", c->kernel, reduce[c->reduce],
            loop[c->loop]);
    fprintf(out, "no-p2p = %s\ncompare = %s\ncompare-cpu = %s\n", yes_no(!c->use_p2p),
            yes_no(c->compare), yes_no(c->compare_cpu));
}

static void print_output(FILE *out, const struct config *c)
{
    fprintf(out, "\n[output]\nmonitor = %ld\n", c->monitor_every);
    if (c->history[0])
        ini_value_print(out, "history", c->history);
    else
        fprintf(out, "; history: none\n");
    fprintf(out, "csv = %s\n", yes_no(c->csv));
    if (c->csv_append[0])
        ini_value_print(out, "csv-append", c->csv_append);
    else
        fprintf(out, "; csv-append: none\n");
    for (int i = 0; i < c->output_count; i++)
        ini_value_print(out, "output", c->outputs[i]);
    if (c->output_count == 0)
        fprintf(out, "; output: none\n");
    fprintf(out, "png-tiles = %s\nquiet = %s\n", yes_no(c->png_tiles), yes_no(c->quiet));
    if (c->png_range) {
        char lo[32], hi[32];
        fprintf(out, "png-range = %s:%s\n", number_text(c->png_lo, lo),
                number_text(c->png_hi, hi));
    } else {
        fprintf(out, "; png-range: each field's own\n");
    }
}

void config_print_ini(FILE *out, const struct config *c)
{
    fprintf(out, "; laplace --print-config: the settings of this run\n");
    print_problem(out, c);
    print_solver(out, c);
    print_parallel(out, c);
    print_output(out, c);
}
