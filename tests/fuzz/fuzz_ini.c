/*
 * fuzz_ini.c - libFuzzer target of the INI layer.
 *
 * Feeds: the input bytes as an INI file to config_load_file (on top of the
 * defaults), then config_validate. The file lives in memory (memfd_create) and
 * is named by /proc/self/fd/N, so config_load_file's own path, stat and inih's
 * fopen run unchanged and nothing is written to disk.
 *
 * Checks: no crash, leak or undefined behaviour (ASan, UBSan); a refusal is
 * EXIT_BAD_USAGE with one non-empty line; an accepted and validated config keeps
 * every invariant of fuzz_config_check.c.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "settings/config.h"
#include "fuzz_config_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memory_file = -1;
static char memory_path[64];

/* Replaces the in-memory file's contents with the input. */
static void write_memory_file(const uint8_t *data, size_t size)
{
    if (memory_file < 0) {
        memory_file = memfd_create("fuzz_ini", 0);
        fuzz_require(memory_file >= 0, "memfd_create works");
        snprintf(memory_path, sizeof memory_path, "/proc/self/fd/%d", memory_file);
    }
    fuzz_require(ftruncate(memory_file, 0) == 0, "ftruncate works");
    fuzz_require(pwrite(memory_file, data, size, 0) == (ssize_t)size, "pwrite works");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct config c;
    char err[CONFIG_ERROR_MAX];
    write_memory_file(data, size);
    config_defaults(&c);
    int rc = config_load_file(&c, memory_path, err, sizeof err);
    fuzz_check_result(rc, err, sizeof err);
    if (rc != 0 || fuzz_validation_is_slow(&c))
        return 0;
    rc = config_validate(&c, err, sizeof err);
    fuzz_check_result(rc, err, sizeof err);
    if (rc == 0)
        fuzz_check_config(&c);
    return 0;
}
