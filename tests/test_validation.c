/*
 * test_validation.c - bad input, table-driven. Every entry of the two tables below
 * is a command line or an INI file that ./laplace must refuse before it does
 * anything: exit status 2, nothing on stdout, exactly one line on stderr, and that
 * line names the option (--nx), or the file:line and the key. Then the edge inputs
 * that must be accepted: the 3x3 lattice, empty and comment-only INI files (they
 * mean "all defaults"), the longest INI line, UTF-8 text, repeated output keys.
 *
 * The README quotes the number of bad inputs tried: BAD_INPUTS below, which the
 * test bad_inputs_tried_are_273 checks against the tables.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "settings/config.h"
#include "helpers.h"

#define BAD_INPUTS 273

TestSuite(validation, .init = require_laplace);

/* ---- how a refusal must look --------------------------------------------- */

/* 1 when the run was refused as a bad input must be; else 0 with why. */
static int refused_well(const struct run *r, const char *named, char *why, size_t n)
{
    size_t length = strlen(r->err);
    if (r->status != 2)
        return snprintf(why, n, "status %d, want 2", r->status), 0;
    if (count_lines(r->err) != 1 || r->err[length - 1] != '\n')
        return snprintf(why, n, "stderr is not exactly one line"), 0;
    if (strncmp(r->err, "laplace: ", 9) != 0)
        return snprintf(why, n, "stderr does not start with 'laplace: '"), 0;
    if (!strstr(r->err, named))
        return snprintf(why, n, "stderr does not name '%s'", named), 0;
    if (r->out[0] != '\0')
        return snprintf(why, n, "something ran: stdout is not empty"), 0;
    return 1;
}

/* ---- bad command lines --------------------------------------------------- */

struct bad_command_line {
    const char *args; /* through the shell, after ./laplace */
    const char *named;
};

/* A string of n copies of a word, made by the shell. */
#define REPEAT(word, n) "\"$(printf '" word "%.0s' $(seq " #n "))\""

static const struct bad_command_line bad_command_lines[] = {
    /* the lattice: integers, at least 3x3, at most 2^24 */
    {"--nx 2", "--nx"},
    {"--ny 2", "--ny"},
    {"--nx 0", "--nx"},
    {"--nx -5", "--nx"},
    {"--ny 1e3", "--ny"},
    {"--nx 5x", "--nx"},
    {"--nx ''", "--nx"},
    {"--nx '5 '", "--nx"},
    {"--nx 99999999999999999999", "--nx"},
    {"--nx 16777217", "--nx"},
    {"--ny 3.5", "--ny"},
    {"--ny 0x10", "--ny"},
    /* the edges: finite numbers, or formulas finite on their edge */
    {"--top nan", "--top"},
    {"--top inf", "--top"},
    {"--bottom 1e999", "--bottom"},
    {"--left -inf", "--left"},
    {"--right ''", "--right"},
    {"--top '  '", "--top"},
    {"--top 1/x", "--top"},
    {"--bottom 'log(x)'", "--bottom"},
    {"--top 'sqrt(x-0.5)'", "--top"},
    {"--left '1/(y-0.5)' --nx 5 --ny 5", "--left"},
    {"--right '0/0'", "--right"},
    {"--top 'exp(1000*x)'", "--top"},
    {"--right 'z+1'", "--right"},
    {"--left 'sin('", "--left"},
    {"--top '1 2'", "--top"},
    {"--top " REPEAT("x+", 150) "1", "--top"},
    /* characters outside libmatheval's grammar (its scanner would print them to
     * stdout and drop them: '"1"' read as 1) */
    {"--top '\"1\"'", "--top: '\"' at column 1"},
    {"--bottom \"'1'\"", "--bottom"},
    {"--source '$x'", "--source"},
    {"--left 'x@2'", "--left"},
    {"--right 'x,1'", "--right"},
    {"--top 'x|1'", "--top"},
    {"--top 'x % 2'", "--top"},
    {"--top '\xcf\x80*x'", "--top"},
    {"--source \"$(printf 'x\\r+1')\"", "--source"},
    /* operands side by side (libmatheval would also leak what it parsed) */
    {"--top 2x", "--top: an operator is missing"},
    {"--source 'x y'", "--source: an operator is missing"},
    {"--left 'sin(y)(y)'", "--left: an operator is missing"},
    {"--right '1e5e5'", "--right: an operator is missing"},
    /* the domain's size: finite, positive, cells whose squares are normal */
    {"--lx 0", "--lx"},
    {"--lx -1", "--lx"},
    {"--ly nan", "--ly"},
    {"--ly 1e999", "--ly"},
    {"--lx 1e-320", "--lx"},
    {"--lx 1e-200", "--lx"},
    {"--lx 1e200 --ly 1", "--lx"},
    /* the source: parses, finite at every interior site */
    {"--source '1/(x-0.5)' --nx 5 --ny 5", "--source"},
    {"--source 'log(x-1)'", "--source"},
    {"--source w", "--source"},
    {"--source ''", "--source"},
    {"--source '1e999*x'", "--source"},
    /* fixed regions */
    {"--region ''", "--region"},
    {"--region 'rect 0.1 0.1 0.2'", "--region"},
    {"--region 'square 0 0 1 1 1'", "--region"},
    {"--region 'disc 0.5 0.5 0 1'", "--region"},
    {"--region 'disc 0.5 0.5 -0.1 1'", "--region"},
    {"--region 'rect 0 0 1 1 nan'", "--region"},
    {"--region 'rect 0 0 1 1 1e999'", "--region"},
    {"--region 'rect 0.1 0.1 0.9 0.9 1 2'", "--region"},
    {"--region 'rect 2 2 3 3 1'", "region '--region #1'"},
    /* precision, method, omega, norm */
    {"--precision half", "--precision"},
    {"--precision Double", "--precision"},
    {"--method gauss", "--method"},
    {"--method ''", "--method"},
    {"--omega 0 --method sor", "--omega"},
    {"--omega -1 --method weighted", "--omega"},
    {"--omega nan --method sor", "--omega"},
    {"--omega 2 --method sor", "--omega"},
    {"--omega 0.5 --method sor", "--omega"},
    {"--omega 1.5 --method weighted", "--omega"},
    {"--omega auto --method weighted", "--omega"},
    {"--omega 1.5", "--omega"},
    {"--omega fast --method sor", "--omega"},
    {"--norm l1", "--norm"},
    {"--norm L2", "--norm"},
    /* the stopping test and time steps */
    {"--eps -1e-6", "--eps"},
    {"--eps nan", "--eps"},
    {"--eps 1e-400", "--eps"},
    {"--eps 1e-6x", "--eps"},
    {"--max-iter 0", "--max-iter"},
    {"--max-iter 1.5", "--max-iter"},
    {"--max-iter -1", "--max-iter"},
    {"--max-iter 9223372036854775808", "--max-iter"},
    {"--check-every 0", "--check-every"},
    {"--check-every -3", "--check-every"},
    {"--steps 0", "--steps"},
    {"--steps 10 --method sor", "--steps"},
    {"--snapshot-every 0", "--snapshot-every"},
    {"--snapshot-every 5", "--snapshot-every"},
    /* the backend and the partition */
    {"--backend cuda", "--backend"},
    {"--backend ''", "--backend"},
    {"--partition 0x2", "--partition"},
    {"--partition 2", "--partition"},
    {"--partition 2x", "--partition"},
    {"--partition x2", "--partition"},
    {"--partition 2x2x2", "--partition"},
    {"--partition 2*2", "--partition"},
    {"--partition 1025x1", "--partition"},
    {"--partition -1x2", "--partition"},
    {"--partition 4x1 --nx 5 --ny 5 --backend cpu", "--partition"},
    {"--partition 1x4 --nx 5 --ny 5 --backend cpu", "--partition"},
    {"--partition 2x2 --backend serial", "--partition"},
    {"--partition 64x32 --backend cpu", "--partition"},
    {"--compare --backend serial", "--compare"},
    {"--compare-cpu --backend serial", "--compare-cpu"},
    /* loop: the three names only */
    {"--loop fast", "--loop"},
    {"--loop Host", "--loop"},
    /* devices: non-negative ids, one per tile (a device may hold several) */
    {"--devices -1", "--devices"},
    {"--devices 0,,1", "--devices"},
    {"--devices 1,", "--devices"},
    {"--devices ,1", "--devices"},
    {"--devices abc", "--devices"},
    {"--devices '0;1'", "--devices"},
    {"--devices 1024", "--devices"},
    {"--devices 99999999999999999999", "--devices"},
    {"--devices $(seq -s, 0 64)", "--devices"},
    {"--devices 0,1 --partition 2x2 --backend cpu", "--devices"},
    /* the thread block: each side and the product at most 1024 */
    {"--block 0x8", "--block"},
    {"--block 1025x1", "--block"},
    {"--block 1x1025", "--block"},
    {"--block 64x32", "--block"},
    {"--block 1024x2", "--block"},
    {"--block 32", "--block"},
    {"--block 32x8y", "--block"},
    {"--block ''", "--block"},
    /* kernels and the reduction */
    {"--kernel warp", "--kernel"},
    {"--kernel ''", "--kernel"},
    {"--kernel rows --method sor", "--kernel"},
    {"--kernel global --source 1", "--kernel"},
    {"--reduce gpu", "--reduce"},
    /* flags take no value */
    {"--compare=yes", "--compare"},
    {"--no-p2p=1", "--no-p2p"},
    {"--csv=true", "--csv"},
    {"--quiet=0", "--quiet"},
    /* monitor, history, outputs */
    {"--monitor -1", "--monitor"},
    {"--monitor x", "--monitor"},
    {"--history h.txt", "--history"},
    {"--history ''", "--history"},
    {"--history " REPEAT("d/", 520) "h.csv", "--history"},
    {"--output f.txt", "--output"},
    {"--output f", "--output"},
    {"--output ''", "--output"},
    {"--output dir.d/f", "--output"},
    {"--output tests/out/a.dat --output tests/out/a.dat", "--output"},
    {"--output " REPEAT("d/", 510) "f.dat", "--output"},
    {"$(for i in $(seq 17); do printf -- '--output tests/out/o%d.dat ' $i; done)",
     "--output"},
    /* text that is not UTF-8 */
    {"--kernel \"$(printf '\\377')\"", "--kernel"},
    {"--output \"$(printf 'tests/out/caf\\351.dat')\"", "--output"},
    {"--top \"$(printf '\\300\\257')\"", "--top"},
    /* control characters: a message that echoed them would break its line */
    {"--kernel \"$(printf 'a\\nb')\"", "--kernel"},
    {"--nx \"$(printf '5\\r')\"", "--nx"},
    {"--output \"$(printf 'tests/out/a\\033[31m.dat')\"", "--output"},
    {"--method \"$(printf 'sor\\177')\"", "--method"},
    /* the command line itself */
    {"--bogus", "--bogus"},
    {"-z", "-z"},
    {"--nx", "--nx"},
    {"--nx 5 --ny", "--ny"},
    {"--comp", "--comp"},
    {"config/default.ini config/heater.ini", "more than one config file"},
    /* the config file itself */
    {"''", "config file name is empty"},
    {"tests/out/no-such-file.ini", "tests/out/no-such-file.ini"},
    {"tests/out", "tests/out"},
    {"Makefile/laplace.ini", "Makefile/laplace.ini"},
    {"/dev/null", "/dev/null"},
    {"tests/out/validation.fifo", "tests/out/validation.fifo"},
};

#define BAD_COMMAND_LINES ((int)(sizeof bad_command_lines / sizeof bad_command_lines[0]))

Test(validation, bad_command_lines_are_refused_naming_the_option)
{
    ensure_out_dir();
    mkfifo(TEST_OUT "/validation.fifo", 0600); /* reading it must not wait for a writer */
    for (int i = 0; i < BAD_COMMAND_LINES; i++) {
        const struct bad_command_line *b = &bad_command_lines[i];
        char why[256];
        struct run r = laplace_run_within(60, "%s", b->args);
        cr_expect(refused_well(&r, b->named, why, sizeof why),
                  "laplace %s: %s; stderr: %s", b->args, why, r.err);
        run_free(&r);
    }
    remove(TEST_OUT "/validation.fifo");
}

/* --loop chip where the loop on chip cannot run: one line naming it, status 2,
 * before anything runs (on a machine with or without a GPU). */
Test(validation, loop_chip_is_refused_where_it_cannot_run)
{
    static const struct {
        const char *args, *named;
    } cases[] = {
        {"--loop chip --backend cpu", "runs on a GPU"},
        {"--loop chip --backend serial", "runs on a GPU"},
        {"--loop chip --backend gpu --partition 2x1", "runs one tile"},
        {"--loop chip --backend gpu --partition 2x2", "tiles stacked in rows"},
        {"--loop chip --backend gpu --partition 1x9", "1xN (N up to 8)"},
        {"--loop chip --backend gpu --kernel rows", "runs its own kernel"},
        {"--loop chip --backend gpu --block 32x8", "runs its own kernel"},
        {"--loop chip --backend gpu --monitor 10", "--monitor"},
        {"--loop chip --backend gpu --snapshot-every 10 --output tests/out/chip.vti",
         "--monitor"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[256];
        struct run r = laplace_run_within(60, "--nx 64 --ny 64 %s", cases[i].args);
        cr_expect(refused_well(&r, "--loop chip", why, sizeof why) &&
                      strstr(r.err, cases[i].named),
                  "laplace %s: %s; stderr: %s", cases[i].args, why, r.err);
        run_free(&r);
    }
}

/* ---- bad INI files ------------------------------------------------------- */

struct bad_ini {
    const char *text;
    size_t length;     /* bytes of text (it may hold a NUL) */
    int line;          /* the line named as file:line; 0: named by the key only */
    const char *named; /* also in the message (NULL: file:line is enough) */
};

#define INI(text, line, named)                                                           \
    {                                                                                    \
        text, sizeof text - 1, line, named                                               \
    }
#define TEN "0123456789"
#define HUNDRED TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN
#define TEN_BLANKS "          "
#define BLANKS                                                                           \
    TEN_BLANKS TEN_BLANKS TEN_BLANKS TEN_BLANKS TEN_BLANKS TEN_BLANKS TEN_BLANKS         \
        TEN_BLANKS TEN_BLANKS TEN_BLANKS
#define REGION(name) "[region " name "]\n"

static const struct bad_ini bad_ini_files[] = {
    /* values, one per key and kind of mistake */
    INI("[problem]\nnx = 2\n", 2, "nx"),
    INI("[problem]\nny =\n", 2, "ny"),
    INI("[problem]\nnx = 5 5\n", 2, "nx"),
    INI("[problem]\nnx = 5;six\n", 2, "nx"),
    INI("[problem]\nnx = 5 # six\n", 2, "nx"),
    INI("[problem]\ntop = nan\n", 2, "top"),
    INI("[problem]\nbottom = \"1\" 2\n", 2, "bottom"), /* quoted: text after it */
    INI("[problem]\nleft =\n", 2, "left"),
    INI("[problem]\nright = 1e999\n", 2, "right"),
    INI("[problem]\nlx = -2\n", 2, "lx"),
    INI("[problem]\nly = 0\n", 2, "ly"),
    INI("[problem]\nsource = y^\n", 2, "source"),
    INI("[problem]\ntop = 'x'\n", 2, "top"),
    INI("[problem]\nsource = x % 2\n", 2, "source"),
    INI("[problem]\nleft = [y]\n", 2, "left"),
    INI("[problem]\nbottom = 1.5.5\n", 2, "bottom: an operator is missing"),
    INI("[problem]\nregion = rect 0 0\n", 2, "region"),
    INI("[problem]\nprecision = single\n", 2, "precision"),
    INI("[solver]\nmethod = SOR\n", 2, "method"),
    INI("[solver]\nomega = -0.5\n", 2, "omega"),
    INI("[solver]\neps = 1e999\n", 2, "eps"),
    INI("[solver]\nnorm = l2 \"\"\n", 2, "norm"),
    INI("[solver]\nmax-iter = 10 20\n", 2, "max-iter"),
    INI("[solver]\nmax_iter = 1e6\n", 2, "max_iter"),
    INI("[solver]\ncheck-every = 0x10\n", 2, "check-every"),
    INI("[solver]\nsteps = -1\n", 2, "steps"),
    INI("[solver]\nsnapshot-every = never\n", 2, "snapshot-every"),
    INI("[parallel]\nbackend = GPU\n", 2, "backend"),
    INI("[parallel]\npartition = 2 x 2\n", 2, "partition"),
    INI("[parallel]\ndevices = 3,x\n", 2, "devices"),
    INI("[parallel]\nblock = 2048x1\n", 2, "block"),
    INI("[parallel]\nkernel = fastest\n", 2, "kernel"),
    INI("[parallel]\nreduce = both\n", 2, "reduce"),
    INI("[parallel]\nno-p2p =\n", 2, "no-p2p"),
    INI("[parallel]\ncompare = 2\n", 2, "compare"),
    INI("[parallel]\ncompare-cpu = maybe\n", 2, "compare-cpu"),
    INI("[output]\nmonitor = -2\n", 2, "monitor"),
    INI("[output]\nhistory = h.dat\n", 2, "history"),
    INI("[output]\ncsv = yes please\n", 2, "csv"),
    INI("[output]\noutput = a.xyz\n", 2, "output"),
    INI("[output]\noutput = a.dat\noutput = a.dat\n", 3, "output"),
    INI("[output]\npng-tiles = 1.0\n", 2, "png-tiles"),
    INI("[output]\nquiet = on off\n", 2, "quiet"),
    /* values refused by the checks between settings: named by the key */
    INI("[problem]\ntop = 1/x\n", 0, "top = 1/x"),
    INI("[problem]\nleft = log(y - 0.5)\n", 0, "left = log(y - 0.5)"),
    INI("[problem]\nnx = 5\nny = 5\nsource = 1/(y-0.5)\n", 0, "source = 1/(y-0.5)"),
    INI("[solver]\nmethod = sor\nomega = 2.5\n", 0, "--omega"),
    INI("[solver]\nomega = 0.5\n", 0, "--omega"),
    INI("[parallel]\npartition = 300x1\nbackend = cpu\n", 0, "--partition"),
    INI("[parallel]\nbackend = serial\ncompare = true\n", 0, "--compare"),
    /* keys */
    INI("nx = 5\n", 1, "nx"),
    INI("[problem]\nsize = 5\n", 2, "size"),
    INI("[problem]\nNX = 5\n", 2, "NX"),
    INI("[problem]\n= 5\n", 2, NULL),
    INI("[problem]\nmax-iter = 5\n", 2, "max-iter"),
    INI("[output]\nbench = true\n", 2, "bench"),
    INI("[output]\nversion = 1\n", 2, "version"),
    /* a key given twice */
    INI("[problem]\nnx = 5\nny = 5\nnx = 7\n", 4, "first at line 2"),
    INI("[problem]\nnx = 5\nnx = 5\n", 3, "nx"),
    INI("[solver]\nmax_iter = 5\nmax-iter = 6\n", 3, "max-iter"),
    INI("[problem]\nnx = 5\n[solver]\neps = 1\n[problem]\nnx = 6\n", 6, "nx"),
    INI(REGION("a") "shape = rect\nshape = disc\n", 3, "shape"),
    INI("[parallel]\ncompare = true\ncompare = false\n", 3, "compare"),
    /* indented lines after a key: inih would glue them to its value */
    INI("[problem]\nnx = 5\n  ny = 5\n", 3, "indented"),
    INI("[problem]\nnx = 5\n\n\tnx = 7\n", 4, "indented"),
    INI("[problem]\nnx = 5\n  [solver]\n", 3, "indented"),
    /* sections */
    INI("[gpu]\n", 1, "[gpu]"),
    INI("\xef\xbb\xbf[gpu]\n", 1, "[gpu]"),
    INI("[problem]\nnx = 5\n[Solver]\neps = 1\n", 3, "[Solver]"),
    INI("[ problem ]\nnx = 5\n", 1, "[ problem ]"),
    INI("[]\n", 1, "[]"),
    INI("[problem] nx = 5\n", 1, "nx = 5"),
    INI("[problem]]\n", 1, "]"),
    INI("[problem\nnx = 5\n", 1, NULL),
    INI("[region]\nshape = rect\n", 1, "[region]"),
    INI("[problem]\rnx = 5\r", 1, NULL),
    /* regions */
    INI(REGION("heater"), 1, "'shape' is missing"),
    INI(REGION("h") "shape = disc\ncx = 0.5\ncy = 0.5\nvalue = 1\n", 1, "'r' is missing"),
    INI(REGION("h") "shape = rect\nx0 = 0.1\ny0 = 0.1\nx1 = 0.9\nvalue = 1\n", 1,
        "'y1' is missing"),
    INI("[problem]\nnx = 5\n" REGION("h") "x0 = 0.1\n", 3, "'shape' is missing"),
    INI(REGION("") "shape = rect\n", 1, "name"),
    INI(REGION("a-name-of-thirty-two-characters!") "shape = rect\n", 1, "name"),
    INI(REGION("a") REGION("b") REGION("c") REGION("d") REGION("e") REGION("f")
            REGION("g") REGION("h") REGION("i") REGION("j") REGION("k") REGION("l")
                REGION("m") REGION("n") REGION("o") REGION("p") REGION("q"),
        17, "at most 16"),
    INI(REGION("h") "shape = rect\ncolour = red\n", 3, "colour"),
    INI(REGION("h") "shape = triangle\n", 2, "shape"),
    INI(REGION("h") "shape = disc\nr = -1\n", 3, "r"),
    INI(REGION("h") "shape = disc\ncx = inf\n", 3, "cx"),
    INI(REGION("h") "value = 1 2\n", 2, "value"),
    INI(REGION("h") "shape = rect\nx0 = 2\ny0 = 2\nx1 = 3\ny1 = 3\nvalue = 1\n", 0,
        "region 'h'"),
    /* lines longer than the reader takes (198 bytes), comments too */
    INI("[problem]\ntop = 1+" HUNDRED HUNDRED "\n", 2, NULL),
    INI("[problem]\n; " HUNDRED HUNDRED "\nnx = 5\n", 2, NULL),
    INI("[problem]\nnx = 5" HUNDRED HUNDRED "\n", 2, NULL),
    INI("[problem]\n; " HUNDRED TEN TEN TEN TEN TEN TEN TEN TEN TEN "0123456\n", 2,
        "198"),
    INI("[problem]\nnx = 5" BLANKS BLANKS "\n", 2, NULL),
    /* bytes: NUL, and text that is not UTF-8 */
    INI("[problem]\nnx = 5\0 junk\n", 2, "NUL"),
    INI("\0", 1, "NUL"),
    INI("; caf\xe9\n", 1, "0xE9"),
    INI("[output]\noutput = \xff.dat\n", 2, "0xFF"),
    INI("; \xc0\xaf\n", 1, "not UTF-8"),
    INI("[problem]\nnx = 5\x1b[0m\n", 2, "control character 0x1B"),
    INI("[problem]\ntop = 1\f\n", 2, "control character 0x0C"),
    INI("[output]\noutput = a\x7f.dat\n", 2, "control character 0x7F"),
    INI("; \xed\xa0\x80\n", 1, "not UTF-8"),
    INI("; \xf4\x90\x80\x80\n", 1, "not UTF-8"),
    INI("[problem]\n; caf\xc3\n", 2, "not UTF-8"),
    INI("\xff\xfe[\0p\0r\0o\0b\0l\0e\0m\0]\0\n\0", 1, "not UTF-8"),
};

#define BAD_INI_FILES ((int)(sizeof bad_ini_files / sizeof bad_ini_files[0]))

static void write_bytes(const char *path, const char *bytes, size_t length)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    cr_assert_eq(fwrite(bytes, 1, length, f), length);
    cr_assert_eq(fclose(f), 0);
}

Test(validation, bad_ini_files_are_refused_naming_the_file_and_line)
{
    char path[256], where[300];
    ensure_out_dir();
    for (int i = 0; i < BAD_INI_FILES; i++) {
        const struct bad_ini *b = &bad_ini_files[i];
        char why[256];
        snprintf(path, sizeof path, TEST_OUT "/%ld-bad-%d.ini", out_pid(), i);
        snprintf(where, sizeof where, "%s:%d:", path, b->line);
        write_bytes(path, b->text, b->length);
        struct run r = laplace_run_within(60, "%s", path);
        /* file:line, and the key; or, for a check between settings, the key */
        int good = refused_well(&r, b->line > 0 ? where : b->named, why, sizeof why);
        if (good && b->named && !refused_well(&r, b->named, why, sizeof why))
            good = 0;
        cr_expect(good, "bad INI #%d (want line %d): %s; stderr: %s", i, b->line, why,
                  r.err);
        run_free(&r);
        remove(path);
    }
}

Test(validation, bad_inputs_tried_are_273)
{
    cr_assert_eq(BAD_COMMAND_LINES + BAD_INI_FILES, BAD_INPUTS,
                 "%d command lines + %d INI files: update BAD_INPUTS, the test's name "
                 "and the README",
                 BAD_COMMAND_LINES, BAD_INI_FILES);
}

/* An unreadable file (root reads every file: then the test cannot run). */
Test(validation, unreadable_ini_file_is_refused)
{
    char path[256];
    if (geteuid() == 0)
        cr_skip_test("running as root, which can read any file");
    out_path(path, sizeof path, "unreadable.ini");
    cr_assert_eq(write_text(path, "[problem]\nnx = 5\n"), 0);
    cr_assert_eq(chmod(path, 0), 0);
    struct run r = laplace_run("%s", path);
    check_refused(&r, 2, path);
    cr_assert(strstr(r.err, "Permission denied"), "says why: %s", r.err);
    run_free(&r);
}

/* ---- edge inputs that must be accepted ----------------------------------- */

Test(validation, smallest_lattice_3x3_is_solved_on_every_host_backend)
{
    const char *backends[] = {"serial", "cpu"};
    for (int k = 0; k < 2; k++) {
        struct run r = laplace_run("--nx 3 --ny 3 --backend %s --csv", backends[k]);
        cr_assert_eq(r.status, 0, "3x3 on %s: %s", backends[k], r.err);
        cr_assert_str_eq(r.err, "");
        cr_assert(strstr(r.out, ",3,3,1x1,"), "one tile of 3x3: %s", r.out);
        run_free(&r);
    }
}

/* A config built from the defaults and one INI file; the test fails if it is refused. */
static struct config loaded(const char *name, const char *bytes, size_t length)
{
    char path[256], err[CONFIG_ERROR_MAX] = "";
    struct config c;
    out_path(path, sizeof path, name);
    write_bytes(path, bytes, length);
    config_defaults(&c);
    cr_assert_eq(config_load_file(&c, path, err, sizeof err), 0, "%s refused: %s", name,
                 err);
    memset(c.config_file, 0, sizeof c.config_file);
    return c;
}

#define LOADED(name, text) loaded(name, text, sizeof text - 1)

Test(validation, empty_or_comment_only_ini_means_all_defaults)
{
    struct config defaults;
    config_defaults(&defaults);
    const struct config files[] = {
        LOADED("empty.ini", ""),
        LOADED("blank.ini", "\n \n\t\n"),
        LOADED("comments.ini", "; nothing here\n# nor here\n"),
        LOADED("bom.ini", "\xef\xbb\xbf"),
        LOADED("sections.ini", "[problem]\n[solver]\n[parallel]\n[output]\n"),
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++)
        cr_assert_eq(memcmp(&files[k], &defaults, sizeof defaults), 0,
                     "file %zu changed a setting", k);
    char path[256];
    out_path(path, sizeof path, "empty-run.ini");
    cr_assert_eq(write_text(path, ""), 0);
    struct run r = laplace_run("%s --nx 5 --ny 5 --backend serial", path);
    cr_assert_eq(r.status, 0, "an empty config file runs: %s", r.err);
    run_free(&r);
}

Test(validation, ini_edge_cases_that_are_accepted)
{
    /* a BOM, CRLF ends, UTF-8 comments, inline comments, an indented first key,
     * '_' for '-', a section given twice, repeated outputs, a 198-byte line */
    struct config c =
        LOADED("edges.ini", "\xef\xbb\xbf; temp\xc3\xa9rature in \xc2\xb0"
                            "C\r\n"
                            "[problem]\r\n"
                            "  nx = 7 ; seven\r\n"
                            "[solver]\n"
                            "max_iter = 50\n"
                            "[problem]\n"
                            "ny = 9\n"
                            "[parallel]\n"
                            "devices = 0, 1\n"
                            "[output]\n"
                            "output = a.dat\n"
                            "output = b.vti\n"
                            "; " HUNDRED TEN TEN TEN TEN TEN TEN TEN TEN TEN "012345\n");
    cr_assert_eq(c.problem.nx, 7);
    cr_assert_eq(c.problem.ny, 9);
    cr_assert_eq(c.max_iter, 50);
    cr_assert_eq(c.output_count, 2);
    cr_assert_eq(c.device_count, 2);
}

Test(validation, limits_that_are_accepted)
{
    const char *good[][2] = {
        {"block", "1024x1"}, {"block", "1x1024"}, {"block", "32x32"},
        {"nx", "3"},         {"ny", "16777216"},  {"partition", "1024x1024"},
        {"eps", "0"},        {"devices", "1023"}, {"left", "log(y)"},
        {"omega", "auto"},   {"monitor", "0"},    {"lx", "1e-150"},
    };
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        struct config c;
        char err[CONFIG_ERROR_MAX] = "";
        config_defaults(&c);
        cr_assert_eq(config_set(&c, good[k][0], good[k][1], err, sizeof err), 0,
                     "%s = %s refused: %s", good[k][0], good[k][1], err);
    }
    /* 64 devices; a left edge log(y) (the corners belong to the rows); tiny cells */
    struct run r = laplace_run("--devices $(seq -s, 0 63) --backend cpu --partition 1x1 "
                               "--nx 5 --ny 5 --left 'log(y)' --lx 1e-150 -q");
    cr_assert_eq(r.status, 0, "refused: %s", r.err);
    run_free(&r);
}
