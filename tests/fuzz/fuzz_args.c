/*
 * fuzz_args.c - libFuzzer target of the command line.
 *
 * Feeds: the input split at newlines into argv (argv[0] is "laplace"; a NUL
 * byte ends its argument early), to config_from_args then config_validate, as
 * main does. Every run starts from config_defaults, so this also checks that
 * getopt_long's global state (optind, reset by config.c) does not carry from
 * one command line to the next.
 *
 * Checks: no crash, leak or undefined behaviour (ASan, UBSan); a refusal is
 * EXIT_BAD_USAGE with one non-empty line; an accepted and validated config keeps
 * every invariant of fuzz_config_check.c.
 *
 * A positional argument is a config file that config_from_args opens. So that
 * the fuzzer cannot reach files of this machine (a read of /proc/kmsg blocks),
 * the target runs in an empty directory and skips inputs with an argument that
 * starts with '/' or contains "..": INI contents are fuzz_ini.c's job.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "settings/config.h"
#include "fuzz_config_check.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ARGS_MAX 64

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char dir[] = "/tmp/laplace-fuzz-args-XXXXXX";
    fuzz_require(mkdtemp(dir) != NULL && chdir(dir) == 0, "an empty working directory");
    rmdir(dir); /* stays the working directory, empty, gone when the run ends */
    return 0;
}

/* Splits text (a writable copy of the input) at newlines into argv[1..]. */
static int split_arguments(char *text, size_t size, char **argv)
{
    int argc = 0;
    argv[argc++] = "laplace";
    char *start = text;
    for (size_t i = 0; i <= size && argc < ARGS_MAX; i++)
        if (i == size || text[i] == '\n') {
            text[i] = '\0';
            argv[argc++] = start;
            start = text + i + 1;
        }
    argv[argc] = NULL;
    return argc;
}

static int reaches_outside(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '/' || strstr(argv[i], ".."))
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *argv[ARGS_MAX + 1];
    struct config c;
    char err[CONFIG_ERROR_MAX];
    fuzz_require(text != NULL, "malloc works");
    memcpy(text, data, size);
    int argc = split_arguments(text, size, argv);
    if (size == 0)
        argc = 1; /* no input: no arguments, not one empty one */
    if (!reaches_outside(argc, argv)) {
        config_defaults(&c);
        int rc = config_from_args(&c, argc, argv, err, sizeof err);
        fuzz_check_result(rc, err, sizeof err);
        if (rc == 0 && !fuzz_validation_is_slow(&c)) {
            rc = config_validate(&c, err, sizeof err);
            fuzz_check_result(rc, err, sizeof err);
            if (rc == 0)
                fuzz_check_config(&c);
        }
    }
    free(text);
    return 0;
}
