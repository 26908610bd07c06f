/*
 * test_install.c - what a newcomer meets before the first run: a build without the
 * libraries stops with one line saying how to get them, install-deps.sh without
 * root or sudo says what a root user should run, and make install / uninstall put
 * the binary, the presets and a man page under PREFIX and take exactly them away.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

Test(install, a_missing_library_header_is_named_with_the_command_that_installs_it)
{
    int status;
    char *out = shell_run("make -s check-build-deps BUILD_HEADERS='ini.h no_such_lib.h'",
                          &status);
    cr_assert_neq(status, 0, "the check fails: %s", out);
    cr_assert(strstr(out, "no_such_lib.h") && strstr(out, "make deps"),
              "one line naming the header and 'make deps': %s", out);
    cr_assert_null(strstr(out, "ini.h no_such"), "a header present is not named: %s",
                   out);
    free(out);
    out = shell_run("make -s check-build-deps", &status);
    cr_assert_eq(status, 0, "the headers of this machine are found: %s", out);
    free(out);
}

/* Every header of a package the sources include is checked, stb's too (a missing
 * libstb-dev gave a compiler error): a compiler that finds none names them all. */
Test(install, the_dependency_check_covers_every_package_header)
{
    static const char *build[] = {"ini.h", "matheval.h", "stb/stb_image_write.h",
                                  "stb/stb_easy_font.h"};
    int status;
    char *out = shell_run("make -s check-build-deps CC='gcc -nostdinc'", &status);
    cr_assert_neq(status, 0, "the check fails without the headers: %s", out);
    for (size_t i = 0; i < sizeof build / sizeof build[0]; i++)
        cr_assert(strstr(out, build[i]), "the check names %s: %s", build[i], out);
    cr_assert_null(strstr(out, "criterion"), "the program needs no Criterion: %s", out);
    free(out);
    out = shell_run("make -s check-test-deps CC='gcc -nostdinc'", &status);
    cr_assert(status != 0 && strstr(out, "criterion/criterion.h"),
              "the tests' check names Criterion: %s", out);
    free(out);
}

/* make builds with a job a core unless told otherwise (-j given, or make clean). */
Test(install, make_builds_in_parallel_unless_told)
{
    static const char *plain = "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -pn laplace "
                               "2>/dev/null | grep '^MAKEFLAGS'";
    int status;
    char *out = shell_run(plain, &status);
    cr_assert(strstr(out, "-j"), "a plain make runs jobs in parallel: %s", out);
    free(out);
    out = shell_run("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -j1 -pn laplace "
                    "2>/dev/null | grep '^MAKEFLAGS'",
                    &status);
    cr_assert(strstr(out, "-j1") && !strstr(out, "-j2"), "make -j1 stays serial: %s",
              out);
    free(out);
}

Test(install, install_deps_without_root_or_sudo_says_what_root_should_run)
{
    int status;
    char *out = shell_run("command -v setpriv && [ \"$(id -u)\" -eq 0 ]", &status);
    free(out);
    if (status != 0)
        cr_skip("needs setpriv and root, to run the script as another user");
    /* in /tmp, readable by the other user wherever the checkout lies (/root is not) */
    char command[1024], dir[64];
    snprintf(dir, sizeof dir, "/tmp/laplace-nosudo-%ld", out_pid());
    snprintf(command, sizeof command,
             "mkdir -p %s/bin && cp scripts/install-deps.sh %s/ && chmod -R a+rX %s && "
             "for t in bash dpkg-query grep id env; do "
             "ln -sf \"$(command -v $t)\" %s/bin/$t; done && cd %s && "
             "INSTALL_DEPS_PACKAGES='no-such-package-xyz' setpriv --reuid=65534 "
             "--regid=65534 --clear-groups env PATH=%s/bin bash ./install-deps.sh",
             dir, dir, dir, dir, dir, dir);
    out = shell_run(command, &status);
    cr_assert_eq(status, 1, "status 1: %s", out);
    cr_assert(strstr(out, "as root, run: apt-get") && strstr(out, "no-such-package-xyz"),
              "says the command for root: %s", out);
    cr_assert_null(strstr(out, "sudo: command not found"), "%s", out);
    free(out);
    snprintf(command, sizeof command, "rm -rf %s", dir);
    cr_assert_eq(system(command), 0);
}

/* A command run with the prefix's path in it, which holds a space. */
static char *run_with(int *status, const char *format, const char *prefix)
{
    char command[2048];
    snprintf(command, sizeof command, format, prefix, prefix, prefix);
    return shell_run(command, status);
}

/* make install under a PREFIX with a space: every file there, the manifest listing
 * them, no stray folder made of PREFIX's first word. */
static void check_installed(const char *prefix)
{
    char path[1024];
    const char *files[] = {"bin/laplace",
                           "share/laplace/config/course-512.ini",
                           "share/laplace/config/default.ini",
                           "share/laplace/scripts/plot_history.gp",
                           "share/laplace/scripts/plot_bench.gp",
                           "share/laplace/install-manifest",
                           "share/man/man1/laplace.1",
                           "share/doc/laplace/LICENSE"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", prefix, files[i]);
        cr_assert_eq(access(path, R_OK), 0, "%s installed", files[i]);
    }
    snprintf(path, sizeof path, "%s/share/laplace/install-manifest", prefix);
    char *manifest = slurp(path);
    cr_assert(manifest && strstr(manifest, "bin/laplace\n") &&
                  strstr(manifest, "share/laplace/config/course-512.ini\n") &&
                  strstr(manifest, "share/laplace/scripts/plot_history.gp\n") &&
                  strstr(manifest, "share/doc/laplace/LICENSE\n"),
              "the manifest lists what was written: %s", manifest);
    free(manifest);
    snprintf(path, sizeof path, "%.*s", (int)(strrchr(prefix, ' ') - prefix), prefix);
    cr_assert_neq(access(path, F_OK), 0, "no stray folder %s", path);
}

/* The man page: the help, EXAMPLES, EXIT STATUS and FILES with the real paths. */
static void check_man_page(const char *prefix)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/share/man/man1/laplace.1", prefix);
    char *man = slurp(path);
    cr_assert(man && strstr(man, ".TH LAPLACE 1") && strstr(man, "--partition") &&
                  strstr(man, "Usage: laplace"),
              "the man page holds the help text");
    const char *sections[] = {".SH EXAMPLES", ".SH EXIT STATUS", ".SH FILES"};
    for (int i = 0; i < 3; i++)
        cr_assert(strstr(man, sections[i]), "no %s in:\n%s", sections[i], man);
    snprintf(path, sizeof path, "%s/share/laplace/config", prefix);
    cr_assert(strstr(man, path), "FILES names %s:\n%s", path, man);
    cr_assert_null(strstr(man, "PREFIX"), "no literal PREFIX:\n%s", man);
    cr_assert(strstr(strstr(man, ".SH EXIT STATUS"), "130"), "the statuses are listed");
    free(man);
}

Test(install, make_install_and_uninstall_under_a_prefix_with_a_space, .timeout = 120)
{
    require_laplace();
    char prefix[512], cwd[256];
    snprintf(prefix, sizeof prefix, "%s/" TEST_OUT "/%ld-pre fix",
             getcwd(cwd, sizeof cwd), out_pid());
    int status;
    char *out = run_with(&status, "make -s install PREFIX='%s'", prefix);
    cr_assert_eq(status, 0, "make install: %s", out);
    free(out);
    check_installed(prefix);
    check_man_page(prefix);
    out = run_with(&status, "'%s/bin/laplace' --version", prefix);
    cr_assert(status == 0 && strstr(out, "laplace "), "the installed binary runs: %s",
              out);
    free(out);
    /* a preset by its bare name, from a folder without it; --help names the folder */
    out =
        run_with(&status, "cd / && '%s/bin/laplace' course-512.ini --dry-run -q", prefix);
    cr_assert_eq(status, 0, "course-512.ini found among the presets: %s", out);
    free(out);
    out = run_with(&status, "'%s/bin/laplace' --help", prefix);
    char presets[600];
    snprintf(presets, sizeof presets, "\n  %s/share/laplace/config\n", prefix);
    cr_assert(strstr(out, presets), "--help names %s: %s", presets, out);
    free(out);
    /* a file of the user's beside the presets outlives make uninstall */
    out = run_with(&status,
                   "echo '[problem]' > '%s/share/laplace/config/mine.ini' && "
                   "make -s uninstall PREFIX='%s'",
                   prefix);
    cr_assert_eq(status, 0, "make uninstall: %s", out);
    free(out);
    out = run_with(&status, "cd '%s' && find . -type f", prefix);
    cr_assert_str_eq(out, "./share/laplace/config/mine.ini\n",
                     "only the user's file is left: %s", out);
    free(out);
    out = run_with(&status, "make -s uninstall PREFIX='%s'", prefix);
    cr_assert(status != 0 && strstr(out, "install-manifest"),
              "a second uninstall finds no manifest and says so: %s", out);
    free(out);
    out = run_with(&status, "rm -rf '%s'", prefix);
    free(out);
}

/* make with BUILD in a folder of its own, without the parent make's flags and
 * variables (make test SANITIZE=1 passes SANITIZE=1 down, in MAKEFLAGS and in the
 * environment): one object, so the test is quick. */
static char *make_object(const char *build, const char *options, int *status)
{
    char command[1024];
    snprintf(command, sizeof command,
             "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u NO_MPI -u GPU_ARCH "
             "make BUILD=%s %s %s/mpi/ranks.o",
             build, options, build);
    return shell_run(command, status);
}

Test(install, the_build_records_its_options_and_rebuilds_when_they_change, .timeout = 120)
{
    char build[256];
    int status;
    snprintf(build, sizeof build, TEST_OUT "/%ld-build", out_pid());
    char *out = make_object(build, "NO_MPI=1", &status);
    cr_assert_eq(status, 0, "make NO_MPI=1: %s", out);
    cr_assert(strstr(out, "without MPI (NO_MPI=1)"), "the real reason: %s", out);
    cr_assert_null(strstr(out, "no mpicc found"), "not 'no mpicc found': %s", out);
    cr_assert_null(strstr(out, "-DHAVE_MPI"), "built without MPI: %s", out);
    free(out);
    out = make_object(build, "NO_MPI=1", &status);
    cr_assert(status == 0 && !strstr(out, "ranks.c"), "nothing to rebuild: %s", out);
    free(out);
    out = shell_run("command -v mpicc", &status);
    free(out);
    if (status != 0)
        cr_skip("no mpicc: make with and without NO_MPI build alike");
    out = make_object(build, "", &status);
    cr_assert_eq(status, 0, "make: %s", out);
    cr_assert(strstr(out, "the build options changed") && strstr(out, "mpi=off"),
              "says why it rebuilds: %s", out);
    cr_assert(strstr(out, "-DHAVE_MPI") && strstr(out, "ranks.c"),
              "ranks.o rebuilt with MPI: %s", out);
    free(out);
    char command[512];
    snprintf(command, sizeof command, "rm -rf %s", build);
    cr_assert_eq(system(command), 0);
}

/* Every object is rebuilt when a header it includes changes: make reads the
 * dependency files of every folder, the kernels' included (a kernel object left
 * stale by a changed laplace_kernels.h read a struct at the old offsets). Asked of
 * make's database (-p): the object's rule must list the header. */
Test(install, a_changed_header_rebuilds_the_objects_that_include_it, .timeout = 60)
{
    static const char *const objects[][2] = {
        {"laplace_kernels.h", "build/kernels/laplace_chip.o"},
        {"laplace_kernels.h", "build/devices/cuda_tile.o"},
        {"problem/problem.h", "build/outputs/output.o"},
        {"problem/problem.h", "build/settings/config.o"},
    };
    for (size_t i = 0; i < sizeof objects / sizeof objects[0]; i++) {
        char command[512], depends[256];
        int status;
        snprintf(depends, sizeof depends, "%.*s.d", (int)strlen(objects[i][1]) - 2,
                 objects[i][1]);
        if (access(depends, F_OK) != 0)
            continue; /* not built here (no nvcc): nothing can be stale */
        snprintf(command, sizeof command,
                 "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u NO_MPI -u BUILD "
                 "-u GPU_ARCH make -pn %s 2>/dev/null | grep '^%s:' | tr ' ' '\\n' | "
                 "grep -cx '%s'",
                 objects[i][1], objects[i][1], objects[i][0]);
        char *out = shell_run(command, &status);
        cr_assert(status == 0 && atoi(out) >= 1,
                  "%s is not rebuilt when %s changes (make's rule does not list it): %s",
                  objects[i][1], objects[i][0], out);
        free(out);
    }
}

/* A PREFIX holding a quote, a '$' and a space is taken as typed (issue 45, item
 * 12): every file lands under it; make uninstall keeps a preset edited since, and
 * says so, and removes the rest. */
Test(install, a_prefix_with_a_quote_and_a_dollar_and_an_edited_preset, .timeout = 120)
{
    require_laplace();
    char prefix[512], cwd[256], command[2048], path[1024];
    snprintf(prefix, sizeof prefix, "%s/" TEST_OUT "/%ld-it's $HOME x",
             getcwd(cwd, sizeof cwd), out_pid());
    /* in double quotes: the '$' escaped for the shell, the quote as it is */
    snprintf(command, sizeof command,
             "make -s install PREFIX=\"%s/" TEST_OUT "/%ld-it's \\$HOME x\"", cwd,
             out_pid());
    int status;
    char *out = shell_run(command, &status);
    cr_assert_eq(status, 0, "make install: %s", out);
    free(out);
    const char *files[] = {"bin/laplace", "share/man/man1/laplace.1",
                           "share/laplace/config/default.ini"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", prefix, files[i]);
        cr_assert_eq(access(path, R_OK), 0, "%s not installed under the prefix", path);
    }
    snprintf(path, sizeof path, "%s/share/laplace/config/default.ini", prefix);
    FILE *preset = fopen(path, "a");
    cr_assert(preset && fputs("# mine\n", preset) >= 0 && fclose(preset) == 0);
    snprintf(command, sizeof command,
             "make -s uninstall PREFIX=\"%s/" TEST_OUT "/%ld-it's \\$HOME x\"", cwd,
             out_pid());
    out = shell_run(command, &status);
    cr_assert_eq(status, 0, "make uninstall: %s", out);
    cr_assert(strstr(out, "kept") && strstr(out, "default.ini"),
              "uninstall does not say it kept the edited preset: %s", out);
    free(out);
    cr_assert_eq(access(path, R_OK), 0, "the edited preset was removed");
    snprintf(path, sizeof path, "%s/bin/laplace", prefix);
    cr_assert_neq(access(path, F_OK), 0, "bin/laplace was not removed");
    snprintf(command, sizeof command, "rm -rf \"%s/" TEST_OUT "/%ld-it's \\$HOME x\"",
             cwd, out_pid());
    out = shell_run(command, &status);
    free(out);
}

/* Issue 44, item 10: installed use. The man page names every file make install
 * wrote and has a --sides example; the installed laplace-plot draws the lab's
 * figure; a missing preset names the folder searched and the presets there; make
 * uninstall removes the folders make install made and left empty, and keeps one
 * that was there before (bin/, holding someone else's file). */
Test(install, installed_use_from_the_man_page_to_uninstall, .timeout = 120)
{
    require_laplace();
    char prefix[512], cwd[256], path[700];
    snprintf(prefix, sizeof prefix, "%s/" TEST_OUT "/%ld-installed",
             getcwd(cwd, sizeof cwd), out_pid());
    int status;
    char *out = run_with(
        &status, "rm -rf '%s' && mkdir -p '%s/bin' && touch '%s/bin/theirs'", prefix);
    free(out);
    out = run_with(&status, "make -s install PREFIX='%s'", prefix);
    cr_assert_eq(status, 0, "make install: %s", out);
    free(out);
    snprintf(path, sizeof path, "%s/share/man/man1/laplace.1", prefix);
    char *man = slurp(path);
    snprintf(path, sizeof path, "%s/share/laplace/install-manifest", prefix);
    char *manifest = slurp(path);
    cr_assert(man && manifest);
    for (char *line = strtok(manifest, "\n"); line; line = strtok(NULL, "\n")) {
        const char *name = strrchr(line, '/') ? strrchr(line, '/') + 1 : line;
        cr_assert(strstr(strstr(man, ".SH FILES"), name), "FILES lacks %s", name);
    }
    const char *examples = strstr(man, ".SH EXAMPLES");
    cr_assert(examples && strstr(examples, "--sides ") &&
                  strstr(examples, "laplace-plot lab lab.csv"),
              "EXAMPLES: %s", examples);
    free(man), free(manifest);
    /* the lab's figure from the installed commands, in a folder of its own */
    if (system("command -v gnuplot >/dev/null") == 0) {
        out = run_with(&status,
                       "cd '%s' && bin/laplace --backend cpu --top 1 --eps 1e-6 "
                       "--sides 8,12,16 --csv-append lab.csv -q && "
                       "bin/laplace-plot lab lab.csv && test -s lab-lab.png && "
                       "rm lab.csv lab-lab.png",
                       prefix);
        cr_assert_eq(status, 0, "the lab's figure: %s", out);
        free(out);
    }
    /* a preset that is not there */
    out = run_with(&status, "cd / && '%s/bin/laplace' course-521.ini", prefix);
    snprintf(path, sizeof path,
             "laplace: course-521.ini: no such file, nor a preset in %s/share/laplace/"
             "config (course-512.ini, default-gpu.ini, ",
             prefix);
    cr_assert(status == 2 && strstr(out, path), "status %d: %s", status, out);
    free(out);
    out = run_with(
        &status,
        "make -s uninstall PREFIX='%s' >/dev/null 2>&1 && cd '%s' && find . | sort",
        prefix);
    cr_assert_str_eq(out, ".\n./bin\n./bin/theirs\n", "what make uninstall left: %s",
                     out);
    free(out);
    out = run_with(&status, "rm -rf '%s'", prefix);
    free(out);
}
