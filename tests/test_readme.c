/*
 * test_readme.c - the README's walkthrough works as written: the commands of the
 * block marked "need no GPU" run from the repository's folder, succeed, and leave
 * the files the text says they leave.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

#define MARKER "<!-- walkthrough: the commands below need no GPU"

Test(readme, walkthrough_commands_run_as_written, .timeout = 120)
{
    require_laplace();
    char *readme = slurp("README.md");
    cr_assert(readme, "README.md not found");
    const char *marker = strstr(readme, MARKER);
    cr_assert(marker, "the walkthrough block is marked in README.md");
    const char *block = strstr(marker, "```sh\n");
    const char *end = block ? strstr(block + 6, "```") : NULL;
    cr_assert(block && end, "a ```sh block follows the marker");
    int commands = 0;
    for (const char *line = block + 6; line < end; line = strchr(line, '\n') + 1) {
        char command[2048];
        while (*line == ' ') /* the block is indented inside a list item */
            line++;
        if (strncmp(line, "```", 3) == 0)
            break;
        int length = (int)(strchr(line, '\n') - line);
        while (length > 0 && line[length - 1] == ' ')
            length--;
        if (length == 0)
            continue;
        snprintf(command, sizeof command, "%.*s > /dev/null 2>&1", length, line);
        cr_assert_eq(system(command), 0, "README command failed: %.*s", length, line);
        commands++;
    }
    cr_assert_geq(commands, 2);
    const char *left[] = {"plate.csv",   "plate.pvti", "plate_0.vti",
                          "plate_3.vti", "plate.png",  "plate-history.png"};
    for (int i = 0; i < 6; i++) {
        cr_expect_eq(access(left[i], R_OK), 0, "%s was not written", left[i]);
        remove(left[i]);
    }
    remove("plate_1.vti");
    remove("plate_2.vti");
    free(readme);
}
