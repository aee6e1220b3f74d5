/* cli_probe: `numasim probe` - runs the latency microbenchmarks of probe.c
 * on a platform and writes one CSV row per probe and CPU pair.
 *
 * The command is split so that a native run can slot in: options are parsed
 * into probe_opts_t, the platform comes from the file (with --set
 * overrides, which `numasim tune --probe-target` uses), and probe_to_csv()
 * takes the platform whatever backend runs it. */
#include "cli.h"
#include "host.h"
#include "host_topo.h"
#include "platform.h"
#include "probe.h"
#include "outfile.h"
#include "xalloc.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *out;      /* NULL: results/probe-NAME.csv */
    const char *platform; /* PLATFORM.xml */
    host_t *host;         /* --native: probe this host instead */
    long reps, hz, chase_max;
    uint64_t pauses[PROBE_PAUSES_MAX];
    int npauses, only_cache, only_core;
    int quiet;
    platform_override_t *ov;
    int nov;
} probe_cli_t;

static void probe_usage(FILE *f)
{
    fprintf(
        f,
        "usage: numasim probe [-o FILE.csv] [--reps N] [--hz N] [--chase-max BYTES]\n"
        "                     [--pauses P,...] [--only-cache | --only-core]\n"
        "                     [--set platform.NAME=VALUE]... PLATFORM.xml\n"
        "       numasim probe --native [--cpus LIST] [-o FILE.csv] [--reps N] [--hz N]\n"
        "                     [--chase-max BYTES] [--pauses P,...] [--only-cache | --only-core]\n"
        "\n"
        "Runs the latency microbenchmarks (cache hit, atomic on a held line, load\n"
        "missing to each node's memory, load of a line dirty in another CPU, store\n"
        "invalidating K sharers, load/store and compare-and-swap ping-pong between\n"
        "CPUs of the same node and of each pair of nodes, the timer_ops pair, a pointer\n"
        "chase through working sets of growing size, and the timer_ops pair after a\n"
        "pause of growing length, with and without ticks) on the simulated platform,\n"
        "or with --native the same programs on this host's pinned threads and real\n"
        "memory, and writes one CSV row per probe and CPU pair:\n"
        "  %s\n"
        "Each sample is one operation (a ping-pong: one round trip) timed with the\n"
        "CPU's clock just before and after it, minus the cost of an empty timing;\n"
        "hit, atomic_held and timer_ops time 32 operations, chase_S 512 dependent\n"
        "loads, and report one. Rows besides the memory probes:\n"
        "  chase_S                 cycles per load of a dependent pointer chase through\n"
        "                          S bytes, lines and pages in random order (lmbench\n"
        "                          lat_mem_rd); S from 1 KiB in x2 steps with x1.5\n"
        "                          midpoints up to --chase-max\n"
        "  pages_N                 the same chase through N pages, one line in each:\n"
        "                          a translation a load (lmbench tlb_initialize); N\n"
        "                          from 8 to 4x the largest data TLB (at least 16,384\n"
        "                          pages, or 128x its entries, within --chase-max),\n"
        "                          only where the platform has TLBs (natively: CPUID's)\n"
        "  timer_ops_pause_P       mod_timer + del_timer, timed once after P cycles of\n"
        "                          other work, interrupts off (P = 0, 10, ..., 10^7)\n"
        "  timer_ops_pause_tick_P  the same with the timer core's tick at --hz\n"
        "  mlp_K                   with --only-core: cycles per load of K independent\n"
        "                          chases interleaved through --chase-max bytes (K = 1..16):\n"
        "                          the misses the core overlaps (lmbench par_mem)\n"
        "  code_N                  with --only-core: a call through N cold code lines\n"
        "                          after a flush of the caches, code too: the front\n"
        "                          end's stream (natively: a function of N lines of\n"
        "                          NOPs that numasim generates)\n"
        "  rmw_load                with --only-core: a cold fetch-and-add then a cold load\n"
        "                          of another line, timed together: one miss where the\n"
        "                          core issues a locked RMW as a load, two where it\n"
        "                          drains (natively: lock xadd, then mov)\n"
        "\n"
        "  -o FILE       output (default results/probe-NAME.csv, NAME = the platform's\n"
        "                zone id; '-' for standard output)\n"
        "  --reps N      repetitions per probe (default 5 simulated, where they agree;\n"
        "                1000 native; the pause rows 200 at most)\n"
        "  --hz N        tick rate of the timer_ops_pause_tick rows (default 1024, the\n"
        "                scenarios' kernel.hz)\n"
        "  --chase-max BYTES\n"
        "                the largest chase working set (default 4x the largest cache\n"
        "                level, l1d/l2/l3_bytes, at most 64 MiB; 256 KiB without levels)\n"
        "  --pauses P,...\n"
        "                the pauses of the timer_ops_pause rows, ascending cycles (default\n"
        "                0,10,100,...,10000000; at most 200 repetitions each, fewer past\n"
        "                10^7)\n"
        "  --only-cache  only the empty timing, hit, and the pause, pages and chase rows (what\n"
        "                tune --probe-target simulates for a target of those alone)\n"
        "  --only-core   only the empty timing and the core's rows mlp_K, code_N and\n"
        "                rmw_load\n"
        "  --native      probe this host (platform 'host'); --cpus LIST as for run\n"
        "  --set platform.NAME=VALUE\n"
        "                override a platform parameter (as numasim run --set)\n"
        "\n"
        "PLATFORM.xml may be a name (numa32), looked up as numasim run looks up\n"
        "scenarios. Errors exit with code 2 and leave no output file.\n",
        probe_csv_header);
}

/* Runs the probes on p and writes the CSV (atomically unless to stdout). */
static int probe_to_csv(platform_t *p, const probe_cli_t *o, err_t *e)
{
    char def[300];
    const char *out = o->out;
    if (!out) {
        snprintf(def, sizeof def, "results/probe-%s.csv", p->name);
        out = def;
    }
    FILE *f = NULL;
    if (strcmp(out, "-") != 0 && (outfile_ensure_dir(out, e) < 0 || !(f = outfile_open(out, e))))
        return -1;
    probe_result_t r;
    probe_opts_t po = {.reps = (int)o->reps,
                       .hz = (int)o->hz,
                       .chase_max = o->chase_max,
                       .pauses = o->npauses ? o->pauses : NULL,
                       .npauses = o->npauses,
                       .only_cache = o->only_cache,
                       .only_core = o->only_core};
    if (probe_run(p, o->host, &po, "numasim", &r, e) < 0) {
        if (f)
            outfile_abort(f, out);
        return -1;
    }
    int rc = probe_write_csv(f ? f : stdout, p->name, &r);
    probe_result_free(&r);
    if (!f) {
        fflush(stdout);
        return rc < 0 ? err_set(e, "-", 0, "cannot write to standard output") : 0;
    }
    if (rc < 0) {
        outfile_abort(f, out);
        return err_set(e, out, 0, "write failed");
    }
    if (outfile_commit(f, out, e) < 0)
        return -1;
    if (!o->quiet)
        fprintf(stderr, "wrote %s\n", out);
    return 0;
}

/* The native chase's default largest size: 4x the largest data cache level
 * hwloc reports (the host's platform carries no levels), at most
 * PROBE_CHASE_CAP; 0 (probe.c's default) when hwloc reports none. */
static long host_chase_max(void)
{
    host_topo_t t;
    err_t e = {{0}};
    if (host_topo_read(&t, &e) < 0)
        return 0;
    unsigned long long largest = 0;
    for (int l = HOST_L1D; l < HOST_NLEVELS; l++)
        if (t.cache[l].present && t.cache[l].bytes > largest)
            largest = t.cache[l].bytes;
    long line = t.line_bytes > 0 ? t.line_bytes : 64;
    host_topo_free(&t);
    if (!largest)
        return 0;
    return 4 * largest < (unsigned long long)PROBE_CHASE_CAP ? (long)(4 * largest) / line * line
                                                             : PROBE_CHASE_CAP;
}

static int add_set(probe_cli_t *o, const char *arg, err_t *e)
{
    const char *eq = strchr(arg, '=');
    if (strncmp(arg, "platform.", 9) != 0 || !eq || eq == arg + 9)
        return err_set(e, "--set", 0, "expected platform.NAME=VALUE, not '%.60s'", arg);
    platform_override_t *v = &o->ov[o->nov++];
    v->name = xcheck(strndup(arg + 9, (size_t)(eq - arg - 9)));
    v->value = xstrdup(eq + 1);
    return 0;
}

/* Parses the options into o (--native and --cpus into *native and
 * *cpus). Returns 0, 1 when --help was printed, or -1 with e. */
static int probe_parse_opts(int argc, char **argv, probe_cli_t *o, int *native, const char **cpus,
                            err_t *e)
{
    static const struct option lo[] = {{"output", required_argument, NULL, 'o'},
                                       {"reps", required_argument, NULL, 'r'},
                                       {"set", required_argument, NULL, 's'},
                                       {"quiet", no_argument, NULL, 'q'},
                                       {"native", no_argument, NULL, 'N'},
                                       {"cpus", required_argument, NULL, 'C'},
                                       {"hz", required_argument, NULL, 'z'},
                                       {"chase-max", required_argument, NULL, 'x'},
                                       {"pauses", required_argument, NULL, 'p'},
                                       {"only-cache", no_argument, NULL, 'K'},
                                       {"only-core", no_argument, NULL, 'Q'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:r:s:qh", lo, NULL)) != -1) {
        switch (c) {
        case 'o':
            o->out = optarg;
            break;
        case 'r':
            if (err_parse_long(optarg, &o->reps) < 0 || o->reps < 1 || o->reps > 10000000)
                return err_set(e, "--reps", 0,
                               "expected a whole number from 1 to 10000000, not '%.40s'", optarg);
            break;
        case 'z':
            if (err_parse_long(optarg, &o->hz) < 0 || o->hz < 0 || o->hz > 100000)
                return err_set(e, "--hz", 0,
                               "expected a whole number from 0 to 100000, not '%.40s'", optarg);
            break;
        case 'x':
            if (err_parse_long(optarg, &o->chase_max) < 0 || o->chase_max < 1024 ||
                o->chase_max > PROBE_CHASE_CAP)
                return err_set(e, "--chase-max", 0, "expected bytes from 1024 to %ld, not '%.40s'",
                               PROBE_CHASE_CAP, optarg);
            break;
        case 'K':
            o->only_cache = 1;
            break;
        case 'Q':
            o->only_core = 1;
            break;
        case 'p':
            if ((o->npauses = probe_parse_pauses(optarg, o->pauses, e)) < 0)
                return -1;
            break;
        case 's':
            if (add_set(o, optarg, e) < 0)
                return -1;
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
        case 'h':
            probe_usage(stdout);
            return 1;
        default:
            return err_set(e, NULL, 0, "numasim probe: see numasim probe --help");
        }
    }
    if (o->only_cache && o->only_core)
        return err_set(e, NULL, 0, "numasim probe: --only-cache or --only-core, not both");
    if (!*native && *cpus)
        return err_set(e, NULL, 0, "numasim probe: --cpus goes with --native");
    if (*native && (argc - optind != 0 || o->nov))
        return err_set(e, NULL, 0, "numasim probe --native: takes no platform file and no --set");
    return 0;
}

/* --native: probes this host's CPUs. Returns 0, or -1 with e. */
static int probe_native(probe_cli_t *o, const char *cpus, err_t *e)
{
    if (!o->reps)
        o->reps = 1000;
    if (!o->chase_max)
        o->chase_max = host_chase_max();
    o->host = host_open(cpus, e);
    int rc = o->host && probe_to_csv(host_platform(o->host), o, e) == 0 ? 0 : -1;
    host_close(o->host);
    return rc;
}

/* Probes the platform file of the command line. Returns 0, or -1 with e. */
static int probe_platform(int argc, char **argv, probe_cli_t *o, err_t *e)
{
    if (!o->reps)
        o->reps = 5;
    if (argc - optind != 1)
        return err_set(e, NULL, 0,
                       "numasim probe: expected one PLATFORM.xml, got %d arguments "
                       "(see --help)",
                       argc - optind);
    char *path = cli_find(argv[optind], "platform", e);
    o->platform = path;
    platform_t *p = path ? platform_read(o->platform, o->ov, o->nov, e) : NULL;
    int rc = p && probe_to_csv(p, o, e) == 0 ? 0 : -1;
    platform_free(p);
    free(path);
    return rc;
}

int cli_probe(int argc, char **argv)
{
    probe_cli_t o = {.reps = 0, .hz = 1024};
    int native = 0;
    const char *cpus = NULL;
    o.ov = xcalloc((size_t)argc + 1, sizeof *o.ov);
    err_t e = {{0}};
    int rc = probe_parse_opts(argc, argv, &o, &native, &cpus, &e);
    if (rc == 1)
        rc = 0; /* --help */
    else if (rc == 0)
        rc = native ? probe_native(&o, cpus, &e) : probe_platform(argc, argv, &o, &e);
    for (int i = 0; i < o.nov; i++) {
        free((char *)o.ov[i].name);
        free((char *)o.ov[i].value);
    }
    free(o.ov);
    return cli_exit_code(rc, &e);
}
