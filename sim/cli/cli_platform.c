/* cli_platform: `numasim platform FILE.xml [--csv]`. */
#include "cli.h"
#include "cpu.h"
#include "simulated.h"
#include "hostplat.h"
#include "platform.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void platform_usage(FILE *f)
{
    fprintf(f, "usage: numasim platform [--csv] FILE.xml\n"
               "       numasim platform --generate --cpus N [--cpus-per-node K] [-o FILE.xml]\n"
               "       numasim platform --from-host [-o FILE.xml] [--probe FILE.csv] [--name ID]\n"
               "\n"
               "Prints the platform's CPUs, its NUMA nodes, which CPU sits in which node,\n"
               "its memory-model costs, and the node-to-node round-trip latency matrix in\n"
               "cycles as SimGrid's routes give it.\n"
               "\n"
               "  --csv               print only the latency matrix, as CSV\n"
               "  --generate          write a fat-tree NUMA platform (see --generate --help)\n"
               "  --from-host         write this host's platform from hwloc (see --from-host\n"
               "                      --help)\n"
               "  --cpus N            CPUs of the generated platform (2..4096)\n"
               "  --cpus-per-node K   CPUs per node (default 2)\n"
               "  -o FILE             where to write it (default: standard output)\n");
}

static void print_text(const platform_t *p)
{
    printf("platform %s (%s): %d CPUs in %d NUMA nodes, %.0f MHz, %d-byte lines\n", p->name,
           p->path, p->ncpus, p->nnodes, p->clock_mhz, p->line_bytes);
    printf("\nnode  CPUs\n");
    for (int n = 0; n < p->nnodes; n++) {
        printf("%4d ", n);
        for (int i = 0; i < p->ncpus; i++)
            if (p->cpu_node[i] == n)
                printf(" %d", i);
        printf("\n");
    }
    const mem_costs_t *k = &p->costs;
    printf("\nmemory costs (cycles): hit %g, atomic %g, local memory %g, modified on the same "
           "bus %g,\n  extra for a line modified in a remote cache %g, bus invalidation %g, "
           "cpu_relax %g,\n  memory barrier %g\n",
           k->hit_cycles, k->atomic_cycles, k->mem_local_cycles, k->c2c_node_cycles,
           k->remote_dirty_cycles, k->inval_node_cycles, k->relax_cycles, k->barrier_cycles);
    if (p->ncache_levels) {
        printf("\ncaches (%s, LRU, %d-byte lines):\n",
               p->last_noninclusive ? "the last level not inclusive" : "inclusive", p->line_bytes);
        for (int l = 0; l < CACHE_NLEVELS; l++) {
            const platform_cache_t *c = &p->cache[l];
            if (c->bytes)
                printf("  %-4s %8llu bytes, %3d ways, %5llu sets, %g cycles, per %s\n",
                       platform_cache_name((cache_level_t)l), (unsigned long long)c->bytes, c->ways,
                       (unsigned long long)(c->bytes / (uint64_t)p->line_bytes / (uint64_t)c->ways),
                       c->cycles, platform_scope_name(c->scope));
        }
        const platform_footprint_t *f = &p->footprint;
        printf("  kernel text on node %d; footprints: %g lines per tick, %g lines per 10^6 "
               "cycles of work,\n  %g lines per 10^6 cycles of time (other software%s)\n",
               p->text_node, f->tick_lines, f->work_per_mcycle, f->noise_per_mcycle,
               f->noise_private ? ", in each CPU's own levels above the last only" : "");
        if (p->tlb[TLB_DTLB1].entries) {
            static const char *const names[TLB_NLEVELS] = {"dtlb1", "itlb1", "dtlb2", "itlb2"};
            printf("\nTLBs (per cpu, LRU, %ld-byte pages; a walk costs %g cycles and reads "
                   "%d page-table line%s\n  through the data caches):\n",
                   p->page_bytes, p->walk_cycles, p->walk_levels, p->walk_levels == 1 ? "" : "s");
            for (int l = 0; l < TLB_NLEVELS; l++)
                if (p->tlb[l].entries)
                    printf("  %-5s %5d entries, %4d ways, %g cycles\n", names[l], p->tlb[l].entries,
                           p->tlb[l].ways, p->tlb[l].cycles);
        }
    } else {
        printf("\ncaches: infinite (no cache level in the file)\n");
    }
    if (p->core.kind != CORE_NONE) { /* core none prints nothing: the output is as before */
        printf("\ncore: %s, %g instructions a cycle",
               p->core.kind == CORE_OOO ? "out of order" : "in order", p->core.width);
        if (p->core.kind == CORE_OOO)
            printf(", window %d", p->core.rob);
        printf(", %d misses outstanding, serialising %g cycles, %d code lines fetched ahead\n",
               p->core.mshr, p->core.serialize_cycles, p->core.fetch_ahead);
        printf("      %g code bytes an instruction where a unit has no count%s\n",
               p->core.insn_bytes, p->core.irq_serialize ? "; enabling interrupts serialises" : "");
    }
    printf("\nnode-to-node round-trip latency (cycles, from SimGrid routes; add the local "
           "memory\nlatency for a remote miss):\n");
    printf("from\\to");
    for (int b = 0; b < p->nnodes; b++)
        printf(" %5d", b);
    printf("\n");
    for (int a = 0; a < p->nnodes; a++) {
        printf("%7d", a);
        for (int b = 0; b < p->nnodes; b++)
            printf(" %5u", platform_node_lat(p, a, b));
        printf("\n");
    }
}

static void print_csv(const platform_t *p)
{
    printf("node");
    for (int b = 0; b < p->nnodes; b++)
        printf(",%d", b);
    printf("\n");
    for (int a = 0; a < p->nnodes; a++) {
        printf("%d", a);
        for (int b = 0; b < p->nnodes; b++)
            printf(",%u", platform_node_lat(p, a, b));
        printf("\n");
    }
}

/* Reads the platform file of the command line and computes its routes;
 * prints it as text or CSV. Returns 0, or -1 with e. */
static int show_platform(const char *arg, int csv, err_t *e)
{
    char *path = cli_find(arg, "platform", e);
    platform_t *p = path ? platform_read(path, NULL, 0, e) : NULL;
    free(path);
    if (!p)
        return -1;
    int rc = sim_run(p, "numasim", 0, NULL, e) < 0 ? -1 : 0;
    if (rc == 0 && csv)
        print_csv(p);
    else if (rc == 0)
        print_text(p);
    platform_free(p);
    return rc;
}

int cli_platform(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--generate"))
            return cli_generate(argc, argv);
        else if (!strcmp(argv[i], "--from-host"))
            return cli_from_host(argc, argv);
    static const struct option opts[] = {
        {"csv", no_argument, NULL, 'c'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int csv = 0, o;
    err_t e = {{0}};
    optind = 1;
    while ((o = getopt_long(argc, argv, "ch", opts, NULL)) != -1) {
        if (o == 'c')
            csv = 1;
        else if (o == 'h') {
            platform_usage(stdout);
            return 0;
        } else {
            platform_usage(stderr);
            return cli_exit_code(cli_err_printed(&e), &e);
        }
    }
    int rc = optind != argc - 1
                 ? err_set(&e, NULL, 0, "numasim platform: expected one platform file (see --help)")
                 : show_platform(argv[optind], csv, &e);
    return cli_exit_code(rc, &e);
}
