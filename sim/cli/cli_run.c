/* cli_run: `numasim run` - every platform x strategy x cache x seed of each
 * scenario, each simulation in a child process (SimGrid allows one engine
 * per process), up to --jobs at a time. Everything is validated before the
 * first simulation starts, so bad input never leaves a partial result.
 *
 * This file: --help and the options, checked before anything runs;
 * cli_run_scenario.c runs each scenario file, cli_run_jobs.c each
 * combination in its child. */
#include "cli_run_internal.h"

#include "child.h"
#include "cli.h"
#include "err.h"
#include "host.h"
#include "part.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_JOBS 256

static void run_usage(FILE *f)
{
    fprintf(f, "usage: numasim run [-o OUT.csv] [--set SECTION.KEY=VALUE]... [--trace] [--jobs N]\n"
               "                   [--paje DIR [--paje-calls N]] SCENARIO...\n"
               "       numasim run --native [--cpus LIST] [--timeout S] [-o OUT.csv]\n"
               "                   [--set SECTION.KEY=VALUE]... SCENARIO...\n"
               "       numasim run --slice I/N [-o PART] [options as above] SCENARIO\n"
               "\n"
               "Runs every platform x strategy x cache state (x seed, x sweep value) of each\n"
               "scenario and writes one CSV row per combination, cycles per del_timer_sync\n"
               "call, to results/<scenario-name>.csv (written atomically), with the resolved\n"
               "configuration beside it in results/<scenario-name>.resolved.ini.\n"
               "\n"
               "SCENARIO is a file (FILE.ini, or any path with a '/') or a name: NAME is\n"
               "looked up as ./NAME.ini, ./scenarios/NAME.ini, then in the installed\n"
               "share/numasim/scenarios/ beside this numasim (or its source tree). Results\n"
               "go under the working directory either way.\n"
               "\n"
               "  -o OUT.csv           write here instead (one scenario only)\n"
               "  --set S.K=V          override a scenario key; platform.NAME=V overrides a\n"
               "                       platform property (or link.CLASS latency) for this run\n"
               "  --trace              print the events before each combination's first\n"
               "                       violation (simulated time, CPU, event) on stderr\n"
               "  --paje DIR           also write a Paje trace (ViTE, pajeng) of each\n"
               "                       combination into DIR, named\n"
               "                       SCENARIO-PLATFORM-STRATEGY-CACHE[-SWEEP][-sSEED].paje\n"
               "  --paje-calls N       measured calls each trace shows (default 3)\n"
               "  --jobs N             simulations run at once (default: number of CPUs)\n"
               "  -q, --quiet          no progress line and no summary\n"
               "  --native             run on this host's CPUs and memory instead of the\n"
               "                       scenario's platforms (one run at a time), to\n"
               "                       results/<scenario-name>-host.csv; rows say platform 'host'\n"
               "  --cpus LIST          with --native: the host CPUs to use, e.g. 0,2-3 (default:\n"
               "                       all); scenario CPU i is the i-th of them\n"
               "  --timeout S          with --native: stop a run whose calls make no progress\n"
               "                       for S seconds (default 30)\n"
               "  --slice I/N          run only slice I (0 to N-1) of N: the combinations k\n"
               "                       (platform x strategy x cache x sweep value x seed, in\n"
               "                       run order) with k mod N = I, and write their raw result\n"
               "                       to PART (default results/<name>.part-I-of-N), for\n"
               "                       `numasim merge`; no CSV, no resolved configuration\n"
               "\n"
               "Keys, units and defaults: scenarios/README.md (man numasim). Errors exit with\n"
               "code 2.\n");
}

/* Creates DIR if missing and checks that a file can be written in it.
 * Returns 0, or -1 with e. */
static int paje_check_dir(const char *dir, err_t *e)
{
    struct stat st;
    if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0)
        return err_set(e, dir, 0, "cannot create the trace directory: %s", strerror(errno));
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return err_set(e, dir, 0, "not a directory (--paje)");
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.numasim-probe.%ld", dir, (long)getpid());
    FILE *f = fopen(probe, "w");
    if (!f)
        return err_set(e, dir, 0, "cannot write a trace here: %s", strerror(errno));
    fclose(f);
    unlink(probe);
    return 0;
}

/* Parses the options into o (o->sets, allocated, is the caller's to free);
 * the timeout and the CPU list are left in *timeout and *cpus, and whether
 * --paje-calls was given in *pcalls_set, for run_check_opts. Returns 0, 1
 * when --help was printed, or -1 with e (empty: the usage was printed). */
static int run_parse_opts(int argc, char **argv, run_opts_t *o, long *timeout, const char **cpus,
                          int *native, int *pcalls_set, err_t *e)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"set", required_argument, NULL, 's'},
                                         {"trace", no_argument, NULL, 't'},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"native", no_argument, NULL, 'N'},
                                         {"cpus", required_argument, NULL, 'C'},
                                         {"timeout", required_argument, NULL, 'T'},
                                         {"slice", required_argument, NULL, 'S'},
                                         {"paje", required_argument, NULL, 'P'},
                                         {"paje-calls", required_argument, NULL, 'K'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    long v;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:s:j:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            o->out = optarg;
            break;
        case 's':
            o->sets[o->nsets++] = optarg;
            break;
        case 't':
            o->trace = 1;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'N':
            *native = 1;
            break;
        case 'C':
            *cpus = optarg;
            break;
        case 'T':
            if (err_parse_long(optarg, timeout) < 0 || *timeout < 1 || *timeout > 86400)
                return err_set(e, NULL, 0, "--timeout: expected seconds from 1 to 86400, not '%s'",
                               optarg);
            break;
        case 'S':
            if (part_parse_slice(optarg, &o->slice, &o->nslices, e) < 0)
                return -1;
            break;
        case 'P':
            o->paje.dir = optarg;
            break;
        case 'K':
            if (err_parse_long(optarg, &v) < 0 || v < 1 || v > 1000000)
                return err_set(e, NULL, 0,
                               "--paje-calls: expected a whole number from 1 to 1000000, not '%s'",
                               optarg);
            o->paje.calls = (int)v;
            *pcalls_set = 1;
            break;
        case 'j':
            if (err_parse_long(optarg, &v) < 0 || v < 1 || v > MAX_JOBS)
                return err_set(e, NULL, 0,
                               "--jobs: expected a whole number from 1 to 256, not '%s'", optarg);
            o->jobs = (int)v;
            break;
        case 'h':
            run_usage(stdout);
            return 1;
        default:
            run_usage(stderr);
            return cli_err_printed(e);
        }
    }
    return 0;
}

/* Checks the options together, in the order of their messages, and opens
 * the host of --native. Returns 0, or -1 with e. */
static int run_check_opts(int argc, run_opts_t *o, long timeout, const char *cpus, int native,
                          int pcalls_set, err_t *e)
{
    int nfiles = argc - optind;
    if (nfiles < 1)
        return err_set(e, NULL, 0, "numasim run: no scenario file given (see --help)");
    if (o->out && nfiles > 1)
        return err_set(e, NULL, 0, "numasim run: -o takes one scenario file, %d given", nfiles);
    if (o->out &&
        strcmp(o->out, "-") == 0) /* the CSV and its .resolved.ini are renamed into place */
        return err_set(e, NULL, 0,
                       "numasim run: -o -: a run writes files (the CSV and its resolved "
                       "configuration), not standard output; give -o OUT.csv");
    if (!native && (cpus || timeout != 30))
        return err_set(e, NULL, 0, "numasim run: --cpus and --timeout go with --native");
    if (native && o->trace)
        return err_set(
            e, NULL, 0,
            "numasim run: --trace is for simulations; it is not available with --native");
    if (native) {
        if (!(o->host = host_open(cpus, e)))
            return -1;
        o->native.timeout_s = (int)timeout;
        o->jobs = 1; /* a native run needs every CPU it uses */
    }
    if (o->slice >= 0 && native)
        return err_set(
            e, NULL, 0,
            "numasim run: --slice is for simulations; it is not available with --native");
    if (o->slice >= 0 && nfiles > 1)
        return err_set(e, NULL, 0, "numasim run: --slice takes one scenario file, %d given",
                       nfiles);
    if (native && o->paje.dir)
        return err_set(e, NULL, 0,
                       "numasim run: --paje is for simulations; it is not available with --native");
    if (pcalls_set && !o->paje.dir)
        return err_set(e, NULL, 0, "numasim run: --paje-calls needs --paje DIR");
    if (o->paje.dir && paje_check_dir(o->paje.dir, e) < 0)
        return -1;
    return 0;
}

/* Runs each scenario file of the command line in turn, until one fails. */
static int run_files(int argc, char **argv, const run_opts_t *o, err_t *e)
{
    child_catch_signals();
    int rc = 0;
    for (int i = optind; i < argc && rc == 0; i++) {
        char *path = cli_find(argv[i], "scenario", e);
        if (!path)
            return -1;
        rc = cli_run_scenario_file(path, o, e);
        free(path);
    }
    return rc;
}

int cli_run(int argc, char **argv)
{
    run_opts_t o = {.sets = xcalloc((size_t)argc, sizeof *o.sets),
                    .jobs = (int)sysconf(_SC_NPROCESSORS_ONLN),
                    .slice = -1,
                    .nslices = 1,
                    .paje = {NULL, 3},
                    .native = {30},
                    .argc = argc,
                    .argv = argv};
    err_t e = {{0}};
    long timeout = 30;
    const char *cpus = NULL;
    int native = 0, pcalls_set = 0;
    int rc = run_parse_opts(argc, argv, &o, &timeout, &cpus, &native, &pcalls_set, &e);
    if (rc == 0)
        rc = run_check_opts(argc, &o, timeout, cpus, native, pcalls_set, &e);
    if (rc == 0)
        rc = run_files(argc, argv, &o, &e);
    else if (rc == 1)
        rc = 0; /* --help */
    free(o.sets);
    host_close(o.host);
    return cli_exit_code(rc, &e);
}
