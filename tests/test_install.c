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

Test(install, install_deps_without_root_or_sudo_says_what_root_should_run)
{
    int status;
    char *out = shell_run("command -v setpriv && [ \"$(id -u)\" -eq 0 ]", &status);
    free(out);
    if (status != 0)
        cr_skip("needs setpriv and root, to run the script as another user");
    /* in /tmp, readable by the other user wherever the checkout lies (/root is not) */
    char command[1024], dir[64];
    snprintf(dir, sizeof dir, "/tmp/laplace-nosudo-%ld", (long)getpid());
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

Test(install, make_install_and_uninstall_under_a_prefix, .timeout = 120)
{
    require_laplace();
    char prefix[256], command[1024], path[512];
    snprintf(prefix, sizeof prefix, "%s/" TEST_OUT "/%ld-prefix", getcwd(path, 256),
             (long)getpid());
    snprintf(command, sizeof command, "make -s install PREFIX=%s", prefix);
    int status;
    char *out = shell_run(command, &status);
    cr_assert_eq(status, 0, "make install: %s", out);
    free(out);
    const char *files[] = {"bin/laplace", "share/laplace/config/course-512.ini",
                           "share/laplace/config/default.ini",
                           "share/man/man1/laplace.1"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", prefix, files[i]);
        cr_assert_eq(access(path, R_OK), 0, "%s installed", files[i]);
    }
    snprintf(path, sizeof path, "%s/share/man/man1/laplace.1", prefix);
    char *man = slurp(path);
    cr_assert(man && strstr(man, ".TH LAPLACE 1") && strstr(man, "--partition") &&
                  strstr(man, "Usage: laplace"),
              "the man page holds the help text");
    free(man);
    snprintf(command, sizeof command, "%s/bin/laplace --version", prefix);
    out = shell_run(command, &status);
    cr_assert(status == 0 && strstr(out, "laplace "), "the installed binary runs: %s",
              out);
    free(out);
    snprintf(command, sizeof command,
             "make -s uninstall PREFIX=%s && test -z \"$(find %s -type f)\"", prefix,
             prefix);
    out = shell_run(command, &status);
    cr_assert_eq(status, 0, "make uninstall leaves no file: %s", out);
    free(out);
    snprintf(command, sizeof command, "rm -rf %s", prefix);
    cr_assert_eq(system(command), 0);
}
