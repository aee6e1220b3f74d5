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

int cli_generate(int argc, char **argv)
{
    static const struct option opts[] = {{"generate", no_argument, NULL, 'g'},
                                         {"cpus", required_argument, NULL, 'n'},
                                         {"cpus-per-node", required_argument, NULL, 'k'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *prog = "numasim platform --generate";
    int ncpus = 0, per_node = 2, have_cpus = 0, o;
    const char *out = NULL;
    err_t e;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        int rc = 0;
        switch (o) {
        case 'g':
            break;
        case 'n':
            rc = int_opt("--cpus", optarg, &ncpus, &e);
            have_cpus = 1;
            break;
        case 'k':
            rc = int_opt("--cpus-per-node", optarg, &per_node, &e);
            break;
        case 'o':
            out = optarg;
            break;
        case 'h':
            generate_usage(stdout);
            return 0;
        case ':':
            rc = err_set(&e, NULL, 0, "%s needs a value", argv[optind - 1]);
            break;
        default:
            rc = err_set(&e, NULL, 0, "unknown option '%s' (see --help)", argv[optind - 1]);
            break;
        }
        if (rc < 0) {
            fprintf(stderr, "%s: %s\n", prog, e.msg);
            return ERR_EXIT;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", prog, argv[optind]);
        return ERR_EXIT;
    }
    if (!have_cpus) {
        fprintf(stderr, "%s: --cpus N is required (see --help)\n", prog);
        return ERR_EXIT;
    }
    gen_tree_t t;
    if (gen_tree_init(&t, ncpus, per_node, &e) < 0) {
        fprintf(stderr, "%s: %s\n", prog, e.msg);
        return ERR_EXIT;
    }
    char command[4400];
    int len = snprintf(command, sizeof command, "numasim platform --generate --cpus %d", ncpus);
    if (per_node != 2)
        len +=
            snprintf(command + len, sizeof command - (size_t)len, " --cpus-per-node %d", per_node);
    if (out)
        snprintf(command + len, sizeof command - (size_t)len, " -o %s", out);
    if (!out) {
        if (gen_write(stdout, &t, command) < 0 || fflush(stdout) != 0) {
            fprintf(stderr, "%s: cannot write to standard output\n", prog);
            return ERR_EXIT;
        }
        return 0;
    }
    FILE *f = outfile_open(out, &e);
    if (!f) {
        fprintf(stderr, "%s\n", e.msg);
        return ERR_EXIT;
    }
    if (gen_write(f, &t, command) < 0) {
        outfile_abort(f, out);
        fprintf(stderr, "%s: cannot write\n", out);
        return ERR_EXIT;
    }
    if (outfile_commit(f, out, &e) < 0) {
        fprintf(stderr, "%s\n", e.msg);
        return ERR_EXIT;
    }
    return 0;
}
