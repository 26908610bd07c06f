/*
 * test_docs.c - the README and the pages of docs/ hold together: every relative link
 * of README.md and the pages of docs/ names a file of the tree, and every option that
 * `./laplace --help` prints has a row of its own in the option table of
 * docs/options.md (the table whose header is "| option | meaning (default) |").
 */
#include <criterion/criterion.h>

#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

#define OPTIONS_PAGE "docs/options.md"
#define OPTION_TABLE "| option | meaning (default) |"

/* The links of one markdown file that do not resolve; returns how many it checked. */
static int check_links(const char *path, int *broken)
{
    char *text = slurp(path);
    cr_assert(text, "%s not found", path);
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        dir[0] = '\0';
    int links = 0;
    for (const char *p = strstr(text, "]("); p; p = strstr(p + 2, "](")) {
        const char *target = p + 2;
        size_t n = strcspn(target, ") \n#");
        if (n == 0 || strncmp(target, "http://", 7) == 0 ||
            strncmp(target, "https://", 8) == 0 || strncmp(target, "mailto:", 7) == 0)
            continue;
        char file[1024];
        snprintf(file, sizeof file, "%s%.*s", dir, (int)n, target);
        links++;
        if (access(file, F_OK) != 0) {
            cr_expect_fail("%s: the link (%.*s) names no file (%s)", path, (int)n, target,
                           file);
            (*broken)++;
        }
    }
    free(text);
    return links;
}

Test(docs, every_relative_link_resolves)
{
    int broken = 0;
    int links = check_links("README.md", &broken);
    glob_t pages;
    cr_assert_eq(glob("docs/*.md", 0, NULL, &pages), 0, "no docs/*.md pages");
    cr_assert_geq(pages.gl_pathc, 1);
    for (size_t i = 0; i < pages.gl_pathc; i++)
        links += check_links(pages.gl_pathv[i], &broken);
    globfree(&pages);
    cr_assert_geq(links, 10, "only %d relative links found", links);
    cr_assert_eq(broken, 0, "%d links name no file", broken);
}

/* Every page of docs/ is linked from README.md. */
Test(docs, every_page_is_linked_from_the_readme)
{
    char *readme = slurp("README.md");
    cr_assert(readme, "README.md not found");
    glob_t pages;
    cr_assert_eq(glob("docs/*.md", 0, NULL, &pages), 0, "no docs/*.md pages");
    for (size_t i = 0; i < pages.gl_pathc; i++) {
        char link[600];
        snprintf(link, sizeof link, "](%s)", pages.gl_pathv[i]);
        cr_expect(strstr(readme, link), "README.md does not link %s", pages.gl_pathv[i]);
    }
    globfree(&pages);
    free(readme);
}

/* The README stays a page a student reads to the end. */
Test(docs, readme_is_at_most_250_lines)
{
    char *readme = slurp("README.md");
    cr_assert(readme, "README.md not found");
    int lines = count_lines(readme);
    cr_expect_leq(lines, 250, "README.md has %d lines", lines);
    free(readme);
}

/* Whether OPTION ("--nx") is named in the first cell of a row of TABLE. */
static int in_first_cell(const char *table, const char *option)
{
    size_t n = strlen(option);
    for (const char *row = table; *row == '|';) {
        const char *line_end = strchr(row, '\n');
        if (!line_end)
            line_end = row + strlen(row);
        const char *cell_end = memchr(row + 1, '|', (size_t)(line_end - row - 1));
        if (!cell_end)
            cell_end = line_end;
        for (const char *p = row; (p = strstr(p, option)) && p < cell_end; p += n) {
            char after = p[n];
            if (!(isalnum((unsigned char)after) || after == '-'))
                return 1;
        }
        if (*line_end == '\0')
            break;
        row = line_end + 1;
    }
    return 0;
}

Test(docs, every_help_option_is_in_the_option_table, .timeout = 60)
{
    require_laplace();
    struct run r = laplace_run("--help");
    cr_assert_eq(r.status, 0, "--help: status %d", r.status);
    char *page = slurp(OPTIONS_PAGE);
    cr_assert(page, OPTIONS_PAGE " not found");
    const char *table = strstr(page, OPTION_TABLE);
    cr_assert(table, OPTIONS_PAGE " holds no table headed \"" OPTION_TABLE "\"");
    int options = 0, missing = 0;
    for (const char *p = strstr(r.out, "--"); p; p = strstr(p + 2, "--")) {
        if (p > r.out && (isalnum((unsigned char)p[-1]) || p[-1] == '-'))
            continue;
        size_t n = 2;
        while (islower((unsigned char)p[n]) || isdigit((unsigned char)p[n]) ||
               p[n] == '-')
            n++;
        if (n == 2 || !islower((unsigned char)p[2]))
            continue;
        char option[64];
        snprintf(option, sizeof option, "%.*s", (int)n, p);
        options++;
        if (!in_first_cell(table, option)) {
            cr_expect_fail(
                "%s (printed by --help) has no row in the option table of " OPTIONS_PAGE,
                option);
            missing++;
        }
    }
    cr_assert_geq(options, 20, "only %d options found in --help", options);
    cr_assert_eq(missing, 0);
    free(page);
    run_free(&r);
}

/*
 * results/ is a record, not a lab notebook: no code under it (no .cu, .cuh, .patch or
 * .diff), and its index, results/README.md, links every question folder (a folder
 * with a README.md) of results/.
 */
Test(docs, results_holds_no_code_and_its_index_lists_every_folder, .timeout = 60)
{
    int status = 0;
    char *code = shell_run("find results \\( -name '*.cu' -o -name '*.cuh' -o -name "
                           "'*.patch' -o -name '*.diff' \\) -print",
                           &status);
    cr_assert(code, "find did not run");
    cr_expect_eq(code[0], '\0', "code under results/: %s", code);
    free(code);
    char *index = slurp("results/README.md");
    cr_assert(index, "results/README.md not found");
    glob_t folders;
    cr_assert_eq(glob("results/*/README.md", 0, NULL, &folders), 0,
                 "no question folders");
    for (size_t i = 0; i < folders.gl_pathc; i++) {
        char link[600];
        snprintf(link, sizeof link, "](%s)", folders.gl_pathv[i] + strlen("results/"));
        cr_expect(strstr(index, link), "results/README.md does not list %s",
                  folders.gl_pathv[i]);
    }
    globfree(&folders);
    free(index);
}

/* Issue 44, item 7: README's ParaView instruction is what works (colour a .pvti by its
 * pieces' "tile" cell array; ParaView reads a .pvti as one image, without blocks). */
Test(docs, readme_colours_the_partition_by_the_tile_array)
{
    char *readme = slurp("README.md");
    cr_assert(readme);
    cr_assert(strstr(readme, "colour it by the `tile` cell array"), "README's step 4");
    cr_assert_null(strstr(readme, "vtkBlockColors"), "a .pvti has no blocks");
    free(readme);
    require_laplace();
    struct run r = laplace_run("--help");
    cr_assert(strstr(r.out, "cell array 'tile'"), "--help: %s", r.out);
    run_free(&r);
}
