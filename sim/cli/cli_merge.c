/* cli_merge: `numasim merge` - pools the part files of `numasim run --slice`
 * into the CSV and resolved configuration a plain run writes. Every part is
 * read and checked (part_merge) before any output file is opened, so a
 * missing, duplicated, truncated or foreign part leaves nothing behind. */
#include "child.h"
#include "cli.h"
#include "part.h"
#include "outfile.h"
#include "xalloc.h"

#include <getopt.h>
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

/* Parses the options: -o into *out, --slices into *nslices (0: not
 * given). Returns 0, 1 when --help was printed, or -1 with e (empty: the
 * usage was printed). */
static int merge_parse_opts(int argc, char **argv, const char **out, int *quiet, long *nslices,
                            err_t *e)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"slices", required_argument, NULL, 'n'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            *out = optarg;
            break;
        case 'q':
            *quiet = 1;
            break;
        case 'n':
            if (err_parse_long(optarg, nslices) < 0 || *nslices < 1 || *nslices > 100000000)
                return err_set(e, NULL, 0, "--slices: expected a whole number from 1, not '%s'",
                               optarg);
            break;
        case 'h':
            merge_usage(stdout);
            return 1;
        default:
            merge_usage(stderr);
            return cli_err_printed(e);
        }
    }
    if (!*out)
        return err_set(e, NULL, 0, "numasim merge: -o OUT.csv is required (see --help)");
    if (argc - optind < 1 && !*nslices)
        return err_set(e, NULL, 0, "numasim merge: no part files given (see --help)");
    return 0;
}

/* Reads the n part files and merges them (part_merge checks them all).
 * Returns the merge, or NULL with e. */
static part_t *read_parts(char **files, int n, long nslices, err_t *e)
{
    part_t **parts = xcalloc((size_t)n + 1, sizeof *parts);
    int *trunc = xcalloc((size_t)n + 1, sizeof *trunc);
    int ok = 1;
    for (int i = 0; i < n && ok; i++)
        ok = (parts[i] = part_read(files[i], &trunc[i], e)) != NULL;
    part_t *m =
        ok ? part_merge(parts, (const char *const *)files, trunc, n, (int)nslices, e) : NULL;
    for (int i = 0; i < n; i++)
        part_free(parts[i]);
    free(parts);
    free(trunc);
    return m;
}

/* Writes m's CSV to out and its resolved configuration beside it, as
 * `numasim run` does: atomically, the configuration first. Returns 0, or
 * -1 with e. */
static int write_merge(const part_t *m, const char *out, int quiet, err_t *e)
{
    char conf_path[4200];
    size_t ol = strlen(out);
    snprintf(conf_path, sizeof conf_path, "%.*s.resolved.ini",
             (int)(ol > 4 && !strcmp(out + ol - 4, ".csv") ? ol - 4 : ol), out);
    FILE *csv = NULL, *conf = NULL;
    if (outfile_ensure_dir(out, e) < 0 || !(csv = outfile_open(out, e)) ||
        !(conf = outfile_open(conf_path, e))) {
        if (csv)
            outfile_abort(csv, out);
        return -1;
    }
    if (!quiet)
        printf("%s (%s):\n%-9s %-20s %-5s %12s %10s %10s %7s%s%s\n", m->scenario, out, "platform",
               "strategy", "cache", "mean_cycles", "p95", "violations", "oopses",
               *m->sweep_key ? "  " : "", m->sweep_key);
    part_write_rows(m, csv, quiet ? NULL : stdout);
    /* The command of the equivalent plain run. */
    size_t cl = strlen(out) + strlen(m->command) + 16;
    char *cmd = xmalloc(cl);
    snprintf(cmd, cl, "run -o %s%s%s", out, *m->command ? " " : "", m->command);
    part_write_resolved(m, conf, cmd);
    free(cmd);
    if (outfile_commit(conf, conf_path, e) < 0) {
        outfile_abort(csv, out);
        return -1;
    }
    if (outfile_commit(csv, out, e) < 0) {
        unlink(conf_path);
        return -1;
    }
    return 0;
}

int cli_merge(int argc, char **argv)
{
    const char *out = NULL;
    int quiet = 0;
    long nslices = 0;
    err_t e = {{0}};
    int rc = merge_parse_opts(argc, argv, &out, &quiet, &nslices, &e);
    if (rc == 1)
        return 0; /* --help */
    if (rc == 0) {
        part_t *m = read_parts(argv + optind, argc - optind, nslices, &e);
        rc = m ? 0 : -1;
        if (m) {
            child_catch_signals(); /* removes the temporary outputs */
            rc = write_merge(m, out, quiet, &e);
        }
        part_free(m);
    }
    return cli_exit_code(rc, &e);
}
