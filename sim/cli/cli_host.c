/* cli_host: `numasim platform --from-host` - writes this host's platform
 * file (hostplat.c), checked by reading it back before it is committed. */
#include "cli.h"
#include "hostplat.h"
#include "platform.h"
#include "outfile.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void host_usage(FILE *f)
{
    fprintf(f, "usage: numasim platform --from-host [-o FILE.xml] [--probe FILE.csv] "
               "[--name ID]\n"
               "                                    [--executed] [--tlbs cpuid|rows]\n"
               "\n"
               "Writes a platform file of this host from hwloc: its CPUs, NUMA nodes and\n"
               "packages, the cache line size, the cache levels (size, ways, who shares\n"
               "them), and one link class per distinct ACPI SLIT distance (without a SLIT:\n"
               "one class within a package, one across packages). Memory costs and cache\n"
               "hit latencies (rows chase_S) come from a probe CSV (numasim probe) when\n"
               "given, else from documented defaults. Code sizes are those of numasim's own\n"
               "functions, read from its symbol table, and their instructions those objdump\n"
               "counts in them (every instruction, taken or not), or with --executed those a\n"
               "call runs. The TLBs come from CPUID (on this system only), their costs\n"
               "and the first level's effective entries from the probe's pages_N rows when\n"
               "given; where CPUID names none, their entries come from those rows too.\n"
               "Every value carries a comment saying where it came from.\n"
               "HWLOC_XMLFILE=FILE in the environment describes a saved topology instead.\n"
               "\n"
               "  -o FILE         where to write it (default: standard output)\n"
               "  --probe FILE    probe CSV giving hit, atomic, memory, transfer and cache costs\n"
               "  --name ID       the platform's zone id (default \"host\")\n"
               "  --executed      count the instructions each code unit executes per call:\n"
               "                  valgrind's callgrind runs numasim run --native of\n"
               "                  paper-table and modern-table (a few minutes; needs valgrind)\n"
               "  --tlbs WHERE    cpuid (default): CPUID's TLBs, else the probe's rows;\n"
               "                  rows: the entries from the probe's pages_N rows only, for a\n"
               "                  CPUID that does not describe the hardware (also with\n"
               "                  HWLOC_XMLFILE, where CPUID is not read)\n");
}

/* The command line as recorded in the file: "--" cannot appear in an XML
 * comment, so each is written "- -". */
static void command_text(int argc, char **argv, char *buf, size_t n)
{
    size_t u = 0;
    for (int i = 0; i < argc && u + 3 < n; i++) {
        const char *s = i ? argv[i] : "numasim platform";
        if (i)
            buf[u++] = ' ';
        for (; *s && u + 3 < n; s++) {
            if (*s == '-' && u > 0 && buf[u - 1] == '-')
                buf[u++] = ' ';
            buf[u++] = (*s == '\n' || *s == '\r') ? '?' : *s;
        }
    }
    buf[u] = '\0';
}

static int valid_id(const char *s)
{
    if (!*s || strlen(s) > 64)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return 0;
    return 1;
}

/* Parses the options. Returns 0, 1 when --help was printed, or -1 with e. */
static int host_parse_opts(int argc, char **argv, const char **out, const char **probe,
                           const char **name, int *executed, int *tlb_rows, err_t *e)
{
    static const struct option lo[] = {
        {"from-host", no_argument, NULL, 'F'},   {"output", required_argument, NULL, 'o'},
        {"probe", required_argument, NULL, 'p'}, {"name", required_argument, NULL, 'n'},
        {"executed", no_argument, NULL, 'x'},    {"tlbs", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:p:n:h", lo, NULL)) != -1) {
        switch (c) {
        case 'F':
            break;
        case 'o':
            *out = optarg;
            break;
        case 'p':
            *probe = optarg;
            break;
        case 'n':
            *name = optarg;
            break;
        case 'x':
            *executed = 1;
            break;
        case 't':
            if (strcmp(optarg, "cpuid") && strcmp(optarg, "rows"))
                return err_set(e, NULL, 0, "--tlbs: '%.60s' is not cpuid or rows", optarg);
            *tlb_rows = !strcmp(optarg, "rows");
            break;
        case 'h':
            host_usage(stdout);
            return 1;
        default:
            return err_set(e, NULL, 0, "numasim platform --from-host: see --help");
        }
    }
    if (optind != argc)
        return err_set(e, NULL, 0,
                       "numasim platform --from-host: unexpected argument '%s' (see --help)",
                       argv[optind]);
    if (!valid_id(*name))
        return err_set(e, NULL, 0, "--name: '%.60s' is not a valid id (letters, digits, _ and -)",
                       *name);
    return 0;
}

/* Writes the platform of topology t to out (atomically, once it reads back
 * as a platform) or to standard output. Returns 0, or -1 with e. */
static int host_write(const host_topo_t *t, const char *name, const probe_result_t *pr,
                      const char *probe, const host_executed_t *x, int tlb_rows, const char *cmd,
                      const char *out, err_t *e)
{
    FILE *f = stdout;
    if (out && (outfile_ensure_dir(out, e) < 0 || !(f = outfile_open(out, e))))
        return -1;
    if (host_write_platform(f, t, name, probe ? pr : NULL, probe, x, tlb_rows, cmd) < 0) {
        if (out)
            outfile_abort(f, out);
        return err_set(e, out ? out : "-", 0, "write failed");
    }
    if (!out)
        return 0;
    fflush(f);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", out, (long)getpid());
    platform_t *p = platform_read(tmp, NULL, 0, e);
    if (!p) { /* a bug of the writer: keep no file */
        outfile_abort(f, out);
        return -1;
    }
    platform_free(p);
    return outfile_commit(f, out, e);
}

int cli_from_host(int argc, char **argv)
{
    const char *out = NULL, *probe = NULL, *name = "host";
    err_t e = {{0}};
    int executed = 0, tlb_rows = 0;
    int rc = host_parse_opts(argc, argv, &out, &probe, &name, &executed, &tlb_rows, &e);
    if (rc == 1)
        return 0; /* --help */
    if (rc < 0)
        return cli_exit_code(rc, &e);
    probe_result_t pr = {0};
    host_topo_t t;
    if (probe && probe_read_csv(probe, &pr, &e) < 0)
        rc = -1;
    if (rc == 0 && host_topo_read(&t, &e) < 0)
        rc = -1;
    host_executed_t *x = NULL;
    if (rc == 0 && executed && !(x = host_count_executed(&e))) {
        host_topo_free(&t);
        rc = -1;
    }
    if (rc == 0) {
        char cmd[1024];
        command_text(argc, argv, cmd, sizeof cmd);
        rc = host_write(&t, name, &pr, probe, x, tlb_rows, cmd, out, &e);
        host_topo_free(&t);
    }
    host_executed_free(x);
    probe_result_free(&pr);
    return cli_exit_code(rc, &e);
}
