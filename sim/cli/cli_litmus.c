/* cli_litmus: `numasim litmus`, litmus tests in the kernel's C format run
 * on a simulated platform or on this host (study/litmus.h). Each test runs
 * in a child process of its own (one SimGrid engine per process); its
 * report goes to standard output, its error to standard error. All files
 * are parsed first, so that a bad one stops the command before any run.
 * SIGINT or SIGTERM ends the running child with the command (child.h). */
#include "cli.h"

#include "child.h"
#include "err.h"
#include "litmus.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: numasim litmus [--runs N] [--platform FILE.xml] [--seed N]\n"
               "                      [--cpus LIST] [--set NAME=VALUE]... TEST.litmus...\n"
               "       numasim litmus --native [--cpus LIST] [--runs N] TEST.litmus...\n"
               "\n"
               "Runs each litmus test (the C format of the Linux kernel memory model,\n"
               "tools/memory-model/litmus-tests; see docs/memory-ordering.md for the\n"
               "subset) N times and prints the histogram of final states and the line\n"
               "'Observation NAME Never|Sometimes|Always POSITIVE NEGATIVE', as herd7 and\n"
               "klitmus7 do. POSITIVE counts the runs whose final state satisfies the\n"
               "proposition of the exists/~exists/forall clause.\n"
               "\n"
               "  --runs N          runs per test (default 10000)\n"
               "  --platform FILE   the simulated machine, a file or a name (default numa32);\n"
               "                    its memory_model (sc, tso, weak) decides what may show\n"
               "  --set NAME=VALUE  override a platform property, e.g. memory_model=tso\n"
               "  --seed N          seeds the start offsets and the jitter (default 1)\n"
               "  --cpus LIST       the CPUs, e.g. 0,2-3: process i runs on the i-th of them\n"
               "                    in ascending order (default: simulated, spread evenly\n"
               "                    over the platform's CPUs; native, all the host's)\n"
               "  --native          run on this host's CPUs instead of a simulated platform\n"
               "\n"
               "Exit code 0, or 2 for bad input (one line FILE:LINE: message).\n");
}

/* Parses the options into o. Returns 0, 1 when --help was printed, or -1
 * with e (empty when the usage was printed to standard error). */
static int parse_opts(int argc, char **argv, lit_opts_t *o, err_t *e)
{
    static const struct option opts[] = {
        {"runs", required_argument, NULL, 'r'}, {"platform", required_argument, NULL, 'p'},
        {"seed", required_argument, NULL, 's'}, {"set", required_argument, NULL, 'S'},
        {"native", no_argument, NULL, 'n'},     {"cpus", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0}};
    int c;
    long v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            if (err_parse_long(optarg, &v) < 0 || v < 1 || v > 1000000000)
                return err_set(e, NULL, 0, "--runs: '%s' is not a number of runs >= 1", optarg);
            o->runs = (uint64_t)v;
            break;
        case 's':
            if (err_parse_long(optarg, &v) < 0 || v < 0)
                return err_set(e, NULL, 0, "--seed: '%s' is not a number >= 0", optarg);
            o->seed = (unsigned long)v;
            break;
        case 'p':
            o->platform = optarg;
            break;
        case 'S':
            if (o->nset == 16 || !strchr(optarg, '=') || strchr(optarg, '=') == optarg)
                return err_set(e, NULL, 0, "--set: '%s' is not NAME=VALUE (at most 16)", optarg);
            o->set[o->nset++] = strncmp(optarg, "platform.", 9) ? optarg : optarg + 9;
            break;
        case 'n':
            o->native = 1;
            break;
        case 'c':
            o->cpus = optarg;
            break;
        case 'h':
            usage(stdout);
            return 1;
        default:
            usage(stderr);
            return -1;
        }
    }
    if (optind >= argc)
        return err_set(e, NULL, 0, "numasim litmus: no test given (see --help)");
    if (o->cpus && !o->native) { /* the syntax now; the platform's range in the run */
        int first, highest;
        if (litmus_parse_cpus(o->cpus, &first, 1, &highest, e) < 0)
            return -1;
    }
    return 0;
}

/* Runs test t in a child; its report goes to standard output, followed by
 * an empty line unless it is the last. Returns 0, 1 (the child failed) or
 * -1 with e (a user error, printed by the child, or fork failed). */
static int run_test(const litmus_t *t, const lit_opts_t *o, int last, err_t *e)
{
    pid_t pid = child_try_fork();
    if (pid < 0)
        return err_set(e, NULL, 0, "numasim litmus: fork: %s", strerror(errno));
    if (pid == 0) {
        lit_hist_t h;
        if (litmus_run(t, o, &h, e) < 0) {
            fprintf(stderr, "%s\n", e->msg);
            _exit(ERR_EXIT);
        }
        litmus_print(t, &h, stdout);
        if (!last)
            printf("\n");
        fflush(stdout);
        litmus_hist_free(&h);
        _exit(0);
    }
    int st = child_wait(pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == ERR_EXIT) {
        e->msg[0] = '\0'; /* printed */
        return -1;
    }
    return 1;
}

/* Reads every test, then runs each in turn. Returns 0, 1 (a child failed)
 * or -1 with e (empty when the child printed it). */
static int litmus_main(int argc, char **argv, lit_opts_t *o, err_t *e)
{
    char *platform = NULL; /* a file, or a name looked up as run does (cli_find) */
    if (!o->native) {
        if (!(platform = cli_find(o->platform, "platform", e)))
            return -1;
        o->platform = platform;
    }
    int n = argc - optind, rc = 0;
    litmus_t **t = xcalloc((size_t)n, sizeof *t);
    for (int i = 0; i < n && rc == 0; i++)
        if (!(t[i] = litmus_read(argv[optind + i], e)))
            rc = -1;
    child_catch_signals();
    for (int i = 0; i < n && rc == 0; i++)
        rc = run_test(t[i], o, i + 1 == n, e);
    for (int i = 0; i < n; i++)
        litmus_free(t[i]);
    free(t);
    free(platform);
    return rc;
}

int cli_litmus(int argc, char **argv)
{
    lit_opts_t o = {.runs = 10000, .seed = 1, .platform = "numa32", .argv0 = argv[0]};
    err_t e = {{0}};
    int rc = parse_opts(argc, argv, &o, &e);
    if (rc == 1)
        return 0; /* --help */
    if (rc == 0)
        rc = litmus_main(argc, argv, &o, &e);
    if (rc < 0 && *e.msg)
        fprintf(stderr, "%s\n", e.msg);
    return rc < 0 ? ERR_EXIT : rc;
}
