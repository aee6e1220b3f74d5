/* hostplat: this host's platform file. Theory of operation.
 *
 * host_topo_read() (machine/native/host_topo.c) has copied what the platform
 * needs out of hwloc. host_write_platform() writes the file in one pass
 * through platform_emit.h: every value is preceded by a comment giving its
 * origin: "hwloc", "probe FILE" (with the rows it came from), "default" (see
 * kDefaults here and kCacheDefaults in hostplat_caches.c; README and
 * docs/hardware-sources.md say where the defaults come from) or "numasim
 * binary" (code sizes, hostplat_code.c).
 *
 * This file gives the memory model's values and the link classes between
 * the nodes (see hostplat.h); hostplat_caches.c the cache levels and TLBs;
 * hostplat_code.c the code sizes.
 */
#include "hostplat_internal.h"

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
    {"insn_cycles", 0,
     "none per access: the core below issues each code unit's counted instructions"},
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

/* --- the core ------------------------------------------------------------ */

/* Every current server core is out of order. The width and window are
 * estimates (docs/model.md, "The core"); the miss registers and the front
 * end's stream are starting points that numasim tune fits to the probes
 * mlp_K and code_N (scripts/validate). The clock read's own latency is the
 * probe's empty timing (timer_overhead), when there is a probe. */
static void write_core(pemit_t *e, const probe_result_t *pr, const char *ppath)
{
    pemit_comment(e, "an out-of-order core (docs/model.md, \"The core\")");
    pemit_prop(e, "core", "ooo");
    pemit_comment(e, "a starting point: 4 instructions a cycle, the decode width of current "
                     "x86 and Arm server cores; numasim tune fits it to the probe timer_ops "
                     "(in TSC cycles, so a core clocked above the TSC issues more)");
    pemit_prop(e, "core_width", "4");
    pemit_comment(e, "estimate: 256 instructions in flight, the smallest window of the modern "
                     "cores numasim models (AMD Zen 3, Arm Neoverse V1); newer cores hold more");
    pemit_prop(e, "core_rob", "256");
    pemit_comment(e, "a starting point: numasim tune fits it to the probes mlp_K");
    pemit_prop(e, "core_mshr", "8");
    pemit_comment(e, "a starting point: numasim tune fits it to the probes code_N");
    pemit_prop(e, "core_fetch_ahead", "2");
    pemit_comment(e, "a starting point: a locked RMW drains, as a full fence; scripts/validate "
                     "sets it from the probe rmw_load (1: issued as a load)");
    pemit_prop(e, "core_rmw_overlap", "0");
    int n = 0;
    double m = pr ? mean_rows(pr, "timer_overhead", 1, &n) : 0;
    if (n > 0) {
        pemit_comment(e,
                      "probe %s: median of the 'timer_overhead' row, the empty timing "
                      "(the clock read twice): what the read costs, beside the work it times",
                      ppath);
        pemit_prop(e, "core_clock_cycles", "%.0f", round(m));
    } else {
        pemit_comment(e, "default (no probe): the clock read overlaps nothing it times");
        pemit_prop(e, "core_clock_cycles", "0");
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
                        const char *ppath, const host_executed_t *ex, int tlbs_from_rows,
                        const char *command)
{
    pemit_t e;
    pemit_begin(&e, f);
    char dropped[120] = "";
    if (t->dropped_nodes)
        snprintf(dropped, sizeof dropped, "%d NUMA node%s without CPUs (memory only) left out.\n",
                 t->dropped_nodes, t->dropped_nodes == 1 ? "" : "s");
    pemit_comment(
        &e,
        "%s: generated by numasim platform (sim/study/hostplat.c), with the command below,\n"
        "where each \"- -\" stands for two hyphens:\n  %s\n\n"
        "%s: %d package%s, %d NUMA node%s with CPUs, %d CPUs (hwloc, %s).\n"
        "%sDistances: %s.\n"
        "Origins of the values: hwloc, the probe file, or a default (README,\n"
        "\"Describing this host\"; docs/hardware-sources.md, \"The development\n"
        "host\", which gives each default's measurement or estimate).\n\n"
        "Units (numasim convention, see docs/platforms.md): one simulated second is one CPU\n"
        "cycle. Hosts have speed 1f; link latencies are ONE-WAY cycles written\n"
        "\"Ns\"; numasim doubles a route's latency into the round trip it adds.",
        name, command, t->cpu_model, t->npackages, t->npackages == 1 ? "" : "s", t->nnodes,
        t->nnodes == 1 ? "" : "s", t->ncpus,
        t->this_system ? "this system" : "a topology file given by HWLOC_XMLFILE", dropped,
        t->nnodes == 1 ? "one node, none needed"
        : t->dist      ? "ACPI SLIT (hwloc \"NUMALatency\"), one link class per distance"
                       : "no SLIT: one link class within a package, one across packages");
    pemit_platform_open(&e);
    pemit_zone_open(&e, name, "Dijkstra");
    if (t->clock_mhz > 0)
        pemit_comment(&e, "read on this host: %s", t->clock_origin);
    else
        pemit_comment(&e, "default: clock unknown here (it only scales the microseconds shown)");
    pemit_prop(&e, "clock_mhz", "%g", t->clock_mhz > 0 ? t->clock_mhz : 2000);
    if (t->line_bytes > 0)
        pemit_comment(&e, "hwloc: cache line size");
    else
        pemit_comment(&e, "default: hwloc reports no cache; 64 bytes as on x86");
    pemit_prop(&e, "line_bytes", "%d", t->line_bytes > 0 ? t->line_bytes : 64);
    double mem_local = 0;
    for (int k = 0; k < NDEFAULTS; k++) {
        val_t v;
        model_value(&v, k, pr, ppath);
        if (!strcmp(kDefaults[k].id, "mem_local_cycles"))
            mem_local = v.v;
        pemit_comment(&e, "%s", v.origin);
        pemit_prop(&e, kDefaults[k].id, "%g", v.v);
    }
    int by_package = hostplat_write_caches(&e, t, pr, ppath, tlbs_from_rows);
    pemit_comment(&e, "kernel text: node 0, where Linux loads it (no replication; "
                      "docs/hardware-sources.md, \"Caches\")");
    pemit_prop(&e, "text_node", "0");
    hostplat_write_code(&e, ex);
    /* An x86 host is TSO; other hosts are weaker, and weak is the nearest
     * of numasim's models (docs/memory-ordering.md). */
#if defined(__x86_64__) || defined(__i386__)
    pemit_comment(&e, "x86-TSO (Intel SDM vol. 3A 8.2)");
    pemit_prop(&e, "memory_model", "tso");
#else
    pemit_comment(&e, "not x86: weakly ordered; queue delay an estimate");
    pemit_prop(&e, "memory_model", "weak");
    pemit_prop(&e, "inval_queue_cycles", "%g", mem_local);
#endif
    write_core(&e, pr, ppath);
    class_t cl[64];
    int ncl = make_classes(t, mem_local, pr, ppath, cl, 64);
    char tunable[64 * 56 + 64] = "mem_local_cycles,c2c_node_cycles"; /* 64 classes */
    size_t len = strlen(tunable);
    for (int k = 0; k < ncl; k++)
        if (cl[k].one_way > 0) {
            size_t n = strlen(cl[k].name);
            memcpy(tunable + len, ",link.", 6);
            memcpy(tunable + len + 6, cl[k].name, n + 1);
            len += 6 + n;
        }
    pemit_comment(&e, "parameters numasim tune fits by default");
    pemit_prop(&e, "tunable", "%s", tunable);
    pemit_comment(&e, "hwloc: CPUs in logical order; os_index is the OS number to pin to%s",
                  by_package ? "; package: who shares a package-wide cache level" : "");
    for (int i = 0; i < t->ncpus; i++) {
        pemit_iprop_t props[] = {{"numa_node", t->cpu_node[i]},
                                 {"os_index", t->cpu_os[i]},
                                 {"package", t->cpu_package[i] >= 0 ? t->cpu_package[i] : 0}};
        pemit_cpu(&e, i, props, by_package ? 3 : 2);
    }
    char a[48], b[48], id[48];
    pemit_comment(&e, "one router per NUMA node with CPUs (hwloc)");
    for (int n = 0; n < t->nnodes; n++) {
        snprintf(id, sizeof id, "node%d", n);
        snprintf(a, sizeof a, "OS node %d", t->node_os[n]);
        pemit_router(&e, id, a);
    }
    pemit_comment(&e, "each node's CPUs reach it with no latency: the memory model charges the\n"
                      "traffic inside a node (bandwidths are not used)");
    for (int n = 0; n < t->nnodes; n++) {
        snprintf(id, sizeof id, "bus%d", n);
        pemit_link(&e, id, "100GBps", 0, NULL);
    }
    for (int k = 0; k < ncl; k++) {
        pemit_comment(&e, "class %s (%d node pair%s): %s", cl[k].name, cl[k].npairs,
                      cl[k].npairs == 1 ? "" : "s", cl[k].origin);
        for (int x = 0; x < t->nnodes; x++)
            for (int y = x + 1; y < t->nnodes; y++) {
                char c[48];
                double d;
                pair_class(t, x, y, c, sizeof c, &d);
                if (strcmp(c, cl[k].name))
                    continue;
                snprintf(id, sizeof id, "n%d_%d", x, y);
                pemit_link(&e, id, "50GBps", cl[k].one_way, cl[k].name);
            }
    }
    for (int i = 0; i < t->ncpus; i++) {
        snprintf(a, sizeof a, "cpu%d", i);
        snprintf(b, sizeof b, "node%d", t->cpu_node[i]);
        snprintf(id, sizeof id, "bus%d", t->cpu_node[i]);
        pemit_route(&e, a, b, id);
    }
    for (int x = 0; x < t->nnodes; x++)
        for (int y = x + 1; y < t->nnodes; y++) {
            snprintf(a, sizeof a, "node%d", x);
            snprintf(b, sizeof b, "node%d", y);
            snprintf(id, sizeof id, "n%d_%d", x, y);
            pemit_route(&e, a, b, id);
        }
    pemit_zone_close(&e);
    pemit_platform_close(&e);
    return pemit_end(&e);
}
