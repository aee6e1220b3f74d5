/* cli_generate: `numasim platform --generate`, the command line around
 * generate.h. */
#include "cli.h"
#include "generate.h"
#include "outfile.h"

#include <getopt.h>
#include <stdio.h>

static void generate_usage(FILE *f)
{
    fprintf(f,
            "usage: numasim platform --generate --cpus N [--cpus-per-node K] [-o FILE.xml]\n"
            "\n"
            "Writes a NUMA platform of N CPUs (2..%d) in nodes of K CPUs (1..%d, default 2;\n"
            "N a multiple of K), built like platforms/numa32.xml and grown as a fat tree of\n"
            "routers (see sim/machine/platform/generate.h). Its name is fatN (fatN-kK\n"
            "when K is not 2).\n"
            "\n"
            "  --cpus N            number of CPUs\n"
            "  --cpus-per-node K   CPUs per NUMA node (default 2)\n"
            "  -o, --output FILE   write FILE atomically (default: standard output)\n",
            GEN_MAX_CPUS, GEN_MAX_CPUS_PER_NODE);
}

/* Parses a whole number option value; -1 with e on error. */
static int int_opt(const char *opt, const char *s, int *out, err_t *e)
{
    long v;
    if (err_parse_long(s, &v) < 0 || v < -1000000 || v > 1000000)
        return err_set(e, NULL, 0, "%s expects a whole number, not '%s'", opt, s);
    *out = (int)v;
    return 0;
}

#define PROG "numasim platform --generate"

/* Parses the options. Returns 0, 1 when --help was printed, or -1 with e. */
static int generate_parse_opts(int argc, char **argv, int *ncpus, int *per_node, const char **out,
                               err_t *e)
{
    static const struct option opts[] = {{"generate", no_argument, NULL, 'g'},
                                         {"cpus", required_argument, NULL, 'n'},
                                         {"cpus-per-node", required_argument, NULL, 'k'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int have_cpus = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'g':
            break;
        case 'n':
            rc = int_opt("--cpus", optarg, ncpus, e);
            have_cpus = 1;
            break;
        case 'k':
            rc = int_opt("--cpus-per-node", optarg, per_node, e);
            break;
        case 'o':
            *out = optarg;
            break;
        case 'h':
            generate_usage(stdout);
            return 1;
        case ':':
            return err_set(e, PROG, 0, "%s needs a value", argv[optind - 1]);
        default:
            return err_set(e, PROG, 0, "unknown option '%s' (see --help)", argv[optind - 1]);
        }
        if (rc < 0) {
            err_t why = *e;
            return err_set(e, PROG, 0, "%s", why.msg);
        }
    }
    if (optind < argc)
        return err_set(e, PROG, 0, "unexpected argument '%s' (see --help)", argv[optind]);
    if (!have_cpus)
        return err_set(e, PROG, 0, "--cpus N is required (see --help)");
    return 0;
}

/* Writes platform t, made by command, to out (atomically) or to standard
 * output. Returns 0, or -1 with e. */
static int generate_write(const gen_tree_t *t, const char *command, const char *out, err_t *e)
{
    if (!out) {
        if (gen_write(stdout, t, command) < 0 || fflush(stdout) != 0)
            return err_set(e, PROG, 0, "cannot write to standard output");
        return 0;
    }
    FILE *f = outfile_open(out, e);
    if (!f)
        return -1;
    if (gen_write(f, t, command) < 0) {
        outfile_abort(f, out);
        return err_set(e, out, 0, "cannot write");
    }
    return outfile_commit(f, out, e) < 0 ? -1 : 0;
}

int cli_generate(int argc, char **argv)
{
    int ncpus = 0, per_node = 2;
    const char *out = NULL;
    err_t e = {{0}};
    gen_tree_t t;
    int rc = generate_parse_opts(argc, argv, &ncpus, &per_node, &out, &e);
    if (rc == 1)
        return 0; /* --help */
    if (rc == 0 && gen_tree_init(&t, ncpus, per_node, &e) < 0) {
        err_t why = e;
        rc = err_set(&e, PROG, 0, "%s", why.msg);
    }
    if (rc == 0) {
        char command[4400];
        int len = snprintf(command, sizeof command, "numasim platform --generate --cpus %d", ncpus);
        if (per_node != 2)
            len += snprintf(command + len, sizeof command - (size_t)len, " --cpus-per-node %d",
                            per_node);
        if (out)
            snprintf(command + len, sizeof command - (size_t)len, " -o %s", out);
        rc = generate_write(&t, command, out, &e);
    }
    return cli_exit_code(rc, &e);
}
