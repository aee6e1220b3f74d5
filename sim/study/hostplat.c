/* hostplat: this host's platform file. Theory of operation.
 *
 * host_topo_read() (machine/native/host_topo.c) has copied what the platform
 * needs out of hwloc. host_write_platform() writes the file in one pass:
 * every value is preceded by a comment giving its origin: "hwloc", "probe
 * FILE" (with the rows it came from) or "default" (see kDefaults; README and
 * docs/hardware-sources.md say where the defaults come from).
 */
#include "hostplat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --- the memory model's values and their origins ------------------------ */

typedef struct {
    const char *id;
    double value;
    const char *why; /* origin of the default */
} default_t;

/* Defaults when no probe is given: a current x86 server core, as measured
 * on the development host (docs/hardware-sources.md, "The development
 * host"), or estimates where nothing was measured. */
static const default_t kDefaults[] = {
    {"hit_cycles", 5, "L1 hit, 5 cycles measured on a Golden Cove-class core"},
    {"atomic_cycles", 20, "lock xadd on a line in L1, 17-22 cycles measured"},
    {"mem_local_cycles", 400, "DRAM load, 360-425 cycles measured (flushed line, pointer chase)"},
    {"c2c_node_cycles", 225, "load of a line Modified in another core, ~226 cycles measured"},
    {"remote_dirty_cycles", 0,
     "estimate: on Ice Lake a remote dirty line costs less than remote DRAM, so no extra"},
    {"inval_node_cycles", 200, "one-way compare-and-swap hand-off, ~200 cycles measured"},
    {"relax_cycles", 40, "estimate: one pause instruction"},
    {"insn_cycles", 4,
     "a starting point (whole cycles: the fit needs room to move): numasim tune fits it to the "
     "probe 'timer_ops' (scripts/validate)"},
};
#define NDEFAULTS (int)(sizeof kDefaults / sizeof *kDefaults)

typedef struct {
    double v;
    char origin[300];
} val_t;

static double mean_rows(const probe_result_t *r, const char *probe, int same_node, int *n)
{
    double s = 0;
    *n = 0;
    for (int i = 0; i < r->nrows; i++) {
        const probe_row_t *w = &r->rows[i];
        if (!strcmp(w->probe, probe) && (w->from_node == w->to_node) == same_node) {
            s += w->median;
            (*n)++;
        }
    }
    return *n ? s / *n : 0;
}

/* Value of a memory prop: the probe's rows when it has them, else the default. */
static void model_value(val_t *out, int k, const probe_result_t *pr, const char *ppath)
{
    static const struct {
        const char *id, *probe;
        int same;
    } from_probe[] = {{"hit_cycles", "hit", 1},
                      {"atomic_cycles", "atomic_held", 1},
                      {"mem_local_cycles", "load_mem", 1},
                      {"c2c_node_cycles", "load_dirty", 1},
                      {"inval_node_cycles", "store_inval_1", 1}};
    out->v = kDefaults[k].value;
    snprintf(out->origin, sizeof out->origin, "default (%s)", kDefaults[k].why);
    if (!pr)
        return;
    for (size_t i = 0; i < sizeof from_probe / sizeof *from_probe; i++) {
        if (strcmp(from_probe[i].id, kDefaults[k].id) != 0)
            continue;
        int n;
        double m = mean_rows(pr, from_probe[i].probe, from_probe[i].same, &n);
        if (n > 0 && round(m) == 0 && kDefaults[k].value > 0) {
            /* a store retires into the store buffer: timing it alone shows
             * nothing of the invalidation it sends (numasim tune can fit it
             * to the ping-pong probes) */
            snprintf(out->origin, sizeof out->origin,
                     "default (%s); probe %s times '%s' at 0 (the store buffer hides it)",
                     kDefaults[k].why, ppath, from_probe[i].probe);
        } else if (n > 0) {
            out->v = round(m);
            snprintf(out->origin, sizeof out->origin,
                     "probe %s: mean median of %d same-node '%s' row%s", ppath, n,
                     from_probe[i].probe, n == 1 ? "" : "s");
        } else {
            snprintf(out->origin, sizeof out->origin,
                     "default (%s); probe %s has no same-node '%s' row", kDefaults[k].why, ppath,
                     from_probe[i].probe);
        }
    }
}

/* Link class of nodes a < b and its distance. */
static void pair_class(const host_topo_t *t, int a, int b, char *cls, size_t n, double *d)
{
    if (t->dist) {
        double x = (t->dist[a * t->nnodes + b] + t->dist[b * t->nnodes + a]) / 2;
        *d = x;
        snprintf(cls, n, "slit%g", x);
        for (char *p = cls; *p; p++)
            if (*p == '.')
                *p = '_';
    } else {
        *d = 20;
        snprintf(cls, n, "%s", t->node_package[a] == t->node_package[b] ? "package" : "xpackage");
    }
}

typedef struct {
    char name[48];
    double dist, one_way;
    int npairs;
    char origin[300];
} class_t;

/* The classes of node pairs, with their one-way latencies. */
static int make_classes(const host_topo_t *t, double mem_local, const probe_result_t *pr,
                        const char *ppath, class_t *cl, int max)
{
    int ncl = 0;
    for (int a = 0; a < t->nnodes; a++)
        for (int b = a + 1; b < t->nnodes; b++) {
            char name[48];
            double d;
            pair_class(t, a, b, name, sizeof name, &d);
            int k = 0;
            while (k < ncl && strcmp(cl[k].name, name))
                k++;
            if (k == ncl && ncl < max) {
                memset(&cl[k], 0, sizeof cl[k]);
                snprintf(cl[k].name, sizeof cl[k].name, "%s", name);
                cl[k].dist = d;
                ncl++;
            }
            if (k < ncl)
                cl[k].npairs++;
        }
    for (int k = 0; k < ncl; k++) {
        class_t *c = &cl[k];
        double rt = mem_local * (c->dist - 10) / 10;
        c->one_way = rt > 0 ? rt / 2 : 0;
        snprintf(c->origin, sizeof c->origin,
                 "%s distance %g: remote miss = mem_local x %g / 10, one way = mem_local x "
                 "(%g - 10) / 20 (default)",
                 t->dist ? "SLIT (hwloc)" : "no SLIT (hwloc): Linux's default remote", c->dist,
                 c->dist, c->dist);
        if (!pr)
            continue;
        double s = 0;
        int n = 0;
        for (int i = 0; i < pr->nrows; i++) {
            const probe_row_t *w = &pr->rows[i];
            int a = w->from_node, b = w->to_node;
            if (strcmp(w->probe, "load_mem") || a == b || a >= t->nnodes || b >= t->nnodes)
                continue;
            char name[48];
            double d;
            pair_class(t, a < b ? a : b, a < b ? b : a, name, sizeof name, &d);
            if (!strcmp(name, c->name)) {
                s += (w->median - mem_local) / 2;
                n++;
            }
        }
        if (n > 0) {
            c->one_way = s / n > 0 ? round(s / n * 4) / 4 : 0;
            snprintf(c->origin, sizeof c->origin,
                     "%s distance %g; one way = (remote load_mem - mem_local) / 2, mean of %d "
                     "row%s of probe %s",
                     t->dist ? "SLIT (hwloc)" : "no SLIT (hwloc)", c->dist, n, n == 1 ? "" : "s",
                     ppath);
        }
    }
    return ncl;
}

/* --- writing ------------------------------------------------------------ */

int host_write_platform(FILE *f, const host_topo_t *t, const char *name, const probe_result_t *pr,
                        const char *ppath, const char *command)
{
    fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "
               "\"https://simgrid.org/simgrid.dtd\">\n");
    fprintf(
        f,
        "<!-- %s: generated by numasim platform (sim/study/hostplat.c), with the command below,\n"
        "     where each \"- -\" stands for two hyphens:\n       %s\n\n"
        "     %s: %d package%s, %d NUMA node%s with CPUs, %d CPUs (hwloc, %s).\n",
        name, command, t->cpu_model, t->npackages, t->npackages == 1 ? "" : "s", t->nnodes,
        t->nnodes == 1 ? "" : "s", t->ncpus,
        t->this_system ? "this system" : "a topology file given by HWLOC_XMLFILE");
    if (t->dropped_nodes)
        fprintf(f, "     %d NUMA node%s without CPUs (memory only) left out.\n", t->dropped_nodes,
                t->dropped_nodes == 1 ? "" : "s");
    fprintf(f, "     Distances: %s.\n",
            t->nnodes == 1 ? "one node, none needed"
            : t->dist      ? "ACPI SLIT (hwloc \"NUMALatency\"), one link class per distance"
                           : "no SLIT: one link class within a package, one across packages");
    fprintf(f, "     Origins of the values: hwloc, the probe file, or a default (README,\n"
               "     \"Describing this host\"; docs/hardware-sources.md, \"The development\n"
               "     host\", which gives each default's measurement or estimate).\n\n"
               "     Units (numasim convention, see README): one simulated second is one CPU\n"
               "     cycle. Hosts have speed 1f; link latencies are ONE-WAY cycles written\n"
               "     \"Ns\"; numasim doubles a route's latency into the round trip it adds. -->\n");
    fprintf(f, "<platform version=\"4.1\">\n  <zone id=\"%s\" routing=\"Dijkstra\">\n", name);
    if (t->clock_mhz > 0)
        fprintf(f, "    <!-- read on this host: %s -->\n", t->clock_origin);
    else
        fprintf(f, "    <!-- default: clock unknown here (it only scales the microseconds "
                   "shown) -->\n");
    fprintf(f, "    <prop id=\"clock_mhz\" value=\"%g\"/>\n",
            t->clock_mhz > 0 ? t->clock_mhz : 2000);
    if (t->line_bytes > 0)
        fprintf(f, "    <!-- hwloc: cache line size -->\n");
    else
        fprintf(f, "    <!-- default: hwloc reports no cache; 64 bytes as on x86 -->\n");
    fprintf(f, "    <prop id=\"line_bytes\" value=\"%d\"/>\n",
            t->line_bytes > 0 ? t->line_bytes : 64);
    double mem_local = 0;
    for (int k = 0; k < NDEFAULTS; k++) {
        val_t v;
        model_value(&v, k, pr, ppath);
        if (!strcmp(kDefaults[k].id, "mem_local_cycles"))
            mem_local = v.v;
        fprintf(f, "    <!-- %s -->\n    <prop id=\"%s\" value=\"%g\"/>\n", v.origin,
                kDefaults[k].id, v.v);
    }
    /* An x86 host is TSO; other hosts are weaker, and weak is the nearest
     * of numasim's models (docs/memory-ordering.md). */
#if defined(__x86_64__) || defined(__i386__)
    fprintf(f, "    <!-- x86-TSO (Intel SDM vol. 3A 8.2) -->\n"
               "    <prop id=\"memory_model\" value=\"tso\"/>\n");
#else
    fprintf(f,
            "    <!-- not x86: weakly ordered; queue delay an estimate -->\n"
            "    <prop id=\"memory_model\" value=\"weak\"/>\n"
            "    <prop id=\"inval_queue_cycles\" value=\"%g\"/>\n",
            mem_local);
#endif
    class_t cl[64];
    int ncl = make_classes(t, mem_local, pr, ppath, cl, 64);
    fprintf(f, "    <!-- parameters numasim tune fits by default -->\n"
               "    <prop id=\"tunable\" value=\"mem_local_cycles,c2c_node_cycles");
    for (int k = 0; k < ncl; k++)
        if (cl[k].one_way > 0)
            fprintf(f, ",link.%s", cl[k].name);
    fprintf(f, "\"/>\n    <!-- hwloc: CPUs in logical order; os_index is the OS number to "
               "pin to -->\n");
    for (int i = 0; i < t->ncpus; i++)
        fprintf(f,
                "    <host id=\"cpu%d\" speed=\"1f\"><prop id=\"numa_node\" value=\"%d\"/>"
                "<prop id=\"os_index\" value=\"%d\"/></host>\n",
                i, t->cpu_node[i], t->cpu_os[i]);
    fprintf(f, "    <!-- one router per NUMA node with CPUs (hwloc) -->\n");
    for (int n = 0; n < t->nnodes; n++)
        fprintf(f, "    <router id=\"node%d\"/> <!-- OS node %d -->\n", n, t->node_os[n]);
    fprintf(f, "    <!-- each node's CPUs reach it with no latency: the memory model charges "
               "the\n         traffic inside a node (bandwidths are not used) -->\n");
    for (int n = 0; n < t->nnodes; n++)
        fprintf(f, "    <link id=\"bus%d\" bandwidth=\"100GBps\" latency=\"0s\"/>\n", n);
    for (int k = 0; k < ncl; k++) {
        fprintf(f, "    <!-- class %s (%d node pair%s): %s -->\n", cl[k].name, cl[k].npairs,
                cl[k].npairs == 1 ? "" : "s", cl[k].origin);
        for (int a = 0; a < t->nnodes; a++)
            for (int b = a + 1; b < t->nnodes; b++) {
                char c[48];
                double d;
                pair_class(t, a, b, c, sizeof c, &d);
                if (!strcmp(c, cl[k].name))
                    fprintf(f,
                            "    <link id=\"n%d_%d\" bandwidth=\"50GBps\" latency=\"%gs\">"
                            "<prop id=\"class\" value=\"%s\"/></link>\n",
                            a, b, cl[k].one_way, cl[k].name);
            }
    }
    for (int i = 0; i < t->ncpus; i++)
        fprintf(f, "    <route src=\"cpu%d\" dst=\"node%d\"><link_ctn id=\"bus%d\"/></route>\n", i,
                t->cpu_node[i], t->cpu_node[i]);
    for (int a = 0; a < t->nnodes; a++)
        for (int b = a + 1; b < t->nnodes; b++)
            fprintf(f,
                    "    <route src=\"node%d\" dst=\"node%d\"><link_ctn id=\"n%d_%d\"/></route>\n",
                    a, b, a, b);
    fprintf(f, "  </zone>\n</platform>\n");
    return ferror(f) ? -1 : 0;
}
