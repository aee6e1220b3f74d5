/* cli_merge: `numasim merge` - pools the part files of `numasim run --slice`
 * into the CSV and resolved configuration a plain run writes. Every part is
 * read and checked (part_merge) before any output file is opened, so a
 * missing, duplicated, truncated or foreign part leaves nothing behind. */
#include "cli.h"
#include "part.h"
#include "outfile.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void merge_usage(FILE *f)
{
    fprintf(f, "usage: numasim merge -o OUT.csv [--slices N] [-q] PART...\n"
               "\n"
               "Checks that the parts written by `numasim run --slice I/N` belong to one\n"
               "scenario and configuration and to this numasim version, that they hold every\n"
               "slice 0..N-1 exactly once and that none is truncated; then writes OUT.csv and\n"
               "OUT.resolved.ini byte for byte as `numasim run -o OUT.csv ARGS` would, where\n"
               "ARGS are the slices' arguments without --slice, -o and --jobs.\n"
               "\n"
               "  -o OUT.csv     the merged CSV (required)\n"
               "  --slices N     expect N slices (then no PART at all is a list of\n"
               "                 missing slices, not a usage error)\n"
               "  -q, --quiet    no summary table\n"
               "\n"
               "On any problem: one line naming the part, or the slices to rerun, on stderr,\n"
               "exit code 2, and no output file.\n");
}

static void on_signal(int sig)
{
    outfile_cleanup();
    _exit(128 + sig);
}

int cli_merge(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"slices", required_argument, NULL, 'n'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *out = NULL;
    int quiet = 0, o;
    long nslices = 0;
    optind = 1;
    while ((o = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
        switch (o) {
        case 'o':
            out = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'n':
            if (err_parse_long(optarg, &nslices) < 0 || nslices < 1 || nslices > 100000000) {
                fprintf(stderr, "--slices: expected a whole number from 1, not '%s'\n", optarg);
                return ERR_EXIT;
            }
            break;
        case 'h':
            merge_usage(stdout);
            return 0;
        default:
            merge_usage(stderr);
            return ERR_EXIT;
        }
    }
    if (!out) {
        fprintf(stderr, "numasim merge: -o OUT.csv is required (see --help)\n");
        return ERR_EXIT;
    }
    int n = argc - optind;
    if (n < 1 && !nslices) {
        fprintf(stderr, "numasim merge: no part files given (see --help)\n");
        return ERR_EXIT;
    }
    part_t **parts = calloc((size_t)n + 1, sizeof *parts);
    int *trunc = calloc((size_t)n + 1, sizeof *trunc);
    if (!parts || !trunc)
        abort();
    err_t e = {{0}};
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        parts[i] = part_read(argv[optind + i], &trunc[i], &e);
        if (!parts[i]) {
            fprintf(stderr, "%s\n", e.msg);
            rc = ERR_EXIT;
        }
    }
    part_t *m = NULL;
    if (rc == 0 &&
        !(m = part_merge(parts, (const char *const *)argv + optind, trunc, n, (int)nslices, &e))) {
        fprintf(stderr, "%s\n", e.msg);
        rc = ERR_EXIT;
    }
    for (int i = 0; i < n; i++)
        part_free(parts[i]);
    free(parts);
    free(trunc);
    if (rc)
        return rc;

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    char conf_path[4200];
    size_t ol = strlen(out);
    snprintf(conf_path, sizeof conf_path, "%.*s.resolved.ini",
             (int)(ol > 4 && !strcmp(out + ol - 4, ".csv") ? ol - 4 : ol), out);
    FILE *csv = NULL, *conf = NULL;
    if (outfile_ensure_dir(out, &e) < 0 || !(csv = outfile_open(out, &e)) ||
        !(conf = outfile_open(conf_path, &e))) {
        fprintf(stderr, "%s\n", e.msg);
        if (csv)
            outfile_abort(csv, out);
        part_free(m);
        return ERR_EXIT;
    }
    if (!quiet)
        printf("%s (%s):\n%-8s %-14s %-5s %12s %10s %10s %7s%s%s\n", m->scenario, out, "platform",
               "strategy", "cache", "mean_cycles", "p95", "violations", "oopses",
               *m->sweep_key ? "  " : "", m->sweep_key);
    part_write_rows(m, csv, quiet ? NULL : stdout);
    /* The command of the equivalent plain run. */
    size_t cl = strlen(out) + strlen(m->command) + 16;
    char *cmd = malloc(cl);
    if (!cmd)
        abort();
    snprintf(cmd, cl, "run -o %s%s%s", out, *m->command ? " " : "", m->command);
    part_write_resolved(m, conf, cmd);
    free(cmd);
    part_free(m);
    /* The configuration first, the CSV last, as `numasim run` does. */
    if (outfile_commit(conf, conf_path, &e) < 0) {
        fprintf(stderr, "%s\n", e.msg);
        outfile_abort(csv, out);
        return ERR_EXIT;
    }
    if (outfile_commit(csv, out, &e) < 0) {
        fprintf(stderr, "%s\n", e.msg);
        unlink(conf_path);
        return ERR_EXIT;
    }
    return 0;
}
