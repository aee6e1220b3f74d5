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

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_JOBS 256

/* --native: every scenario runs on this host instead of its platforms. */
host_t *cli_run_host;
native_opts_t cli_run_native = {30};

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
 * Returns 0, or ERR_EXIT with the message printed. */
static int paje_check_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0) {
        fprintf(stderr, "%s: cannot create the trace directory: %s\n", dir, strerror(errno));
        return ERR_EXIT;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: not a directory (--paje)\n", dir);
        return ERR_EXIT;
    }
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.numasim-probe.%ld", dir, (long)getpid());
    FILE *f = fopen(probe, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot write a trace here: %s\n", dir, strerror(errno));
        return ERR_EXIT;
    }
    fclose(f);
    unlink(probe);
    return 0;
}

int cli_run(int argc, char **argv)
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
    const char *out = NULL;
    const char **sets = calloc((size_t)argc, sizeof *sets);
    int nsets = 0, trace = 0, quiet = 0, native = 0, o, slice = -1, nslices = 1;
    const char *cpus = NULL;
    long timeout = 30;
    err_t e = {{0}};
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    long pcalls = 0;
    int pcalls_set = 0;
    paje_opt_t po = {NULL, 3};
    optind = 1;
    while ((o = getopt_long(argc, argv, "o:s:j:qh", opts, NULL)) != -1) {
        switch (o) {
        case 'o':
            out = optarg;
            break;
        case 's':
            sets[nsets++] = optarg;
            break;
        case 't':
            trace = 1;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'N':
            native = 1;
            break;
        case 'C':
            cpus = optarg;
            break;
        case 'T':
            if (err_parse_long(optarg, &timeout) < 0 || timeout < 1 || timeout > 86400) {
                fprintf(stderr, "--timeout: expected seconds from 1 to 86400, not '%s'\n", optarg);
                free(sets);
                return ERR_EXIT;
            }
            break;
        case 'S':
            if (part_parse_slice(optarg, &slice, &nslices, &e) < 0) {
                fprintf(stderr, "%s\n", e.msg);
                free(sets);
                return ERR_EXIT;
            }
            break;
        case 'P':
            po.dir = optarg;
            break;
        case 'K':
            if (err_parse_long(optarg, &pcalls) < 0 || pcalls < 1 || pcalls > 1000000) {
                fprintf(stderr,
                        "--paje-calls: expected a whole number from 1 to 1000000, not '%s'\n",
                        optarg);
                free(sets);
                return ERR_EXIT;
            }
            po.calls = (int)pcalls;
            pcalls_set = 1;
            break;
        case 'j':
            if (err_parse_long(optarg, &jobs) < 0 || jobs < 1 || jobs > MAX_JOBS) {
                fprintf(stderr, "--jobs: expected a whole number from 1 to 256, not '%s'\n",
                        optarg);
                free(sets);
                return ERR_EXIT;
            }
            break;
        case 'h':
            run_usage(stdout);
            free(sets);
            return 0;
        default:
            run_usage(stderr);
            free(sets);
            return ERR_EXIT;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "numasim run: no scenario file given (see --help)\n");
        free(sets);
        return ERR_EXIT;
    }
    if (out && argc - optind > 1) {
        fprintf(stderr, "numasim run: -o takes one scenario file, %d given\n", argc - optind);
        free(sets);
        return ERR_EXIT;
    }
    if (!native && (cpus || timeout != 30)) {
        fprintf(stderr, "numasim run: --cpus and --timeout go with --native\n");
        free(sets);
        return ERR_EXIT;
    }
    if (native && trace) {
        fprintf(stderr,
                "numasim run: --trace is for simulations; it is not available with --native\n");
        free(sets);
        return ERR_EXIT;
    }
    if (native) {
        cli_run_host = host_open(cpus, &e);
        if (!cli_run_host) {
            fprintf(stderr, "%s\n", e.msg);
            free(sets);
            return ERR_EXIT;
        }
        cli_run_native.timeout_s = (int)timeout;
        jobs = 1; /* a native run needs every CPU it uses */
    }
    if (slice >= 0 && native) {
        fprintf(stderr,
                "numasim run: --slice is for simulations; it is not available with --native\n");
        free(sets);
        return ERR_EXIT;
    }
    if (slice >= 0 && argc - optind > 1) {
        fprintf(stderr, "numasim run: --slice takes one scenario file, %d given\n", argc - optind);
        free(sets);
        return ERR_EXIT;
    }
    if (native && po.dir) {
        fprintf(stderr,
                "numasim run: --paje is for simulations; it is not available with --native\n");
        free(sets);
        return ERR_EXIT;
    }
    if (pcalls_set && !po.dir) {
        fprintf(stderr, "numasim run: --paje-calls needs --paje DIR\n");
        free(sets);
        return ERR_EXIT;
    }
    if (po.dir && paje_check_dir(po.dir) != 0) {
        free(sets);
        return ERR_EXIT;
    }
    child_catch_signals();
    int rc = 0;
    for (int i = optind; i < argc && rc == 0; i++) {
        char *path = cli_find(argv[i], "scenario", &e);
        if (!path) {
            fprintf(stderr, "%s\n", e.msg);
            rc = ERR_EXIT;
            break;
        }
        rc = cli_run_scenario_file(path, out, sets, nsets, trace, &po, (int)jobs, quiet, slice,
                                   nslices, argc, argv);
        free(path);
    }
    free(sets);
    host_close(cli_run_host);
    cli_run_host = NULL;
    return rc;
}
