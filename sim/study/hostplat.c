/* hostplat: this host's platform file. Theory of operation.
 *
 * host_topo_read() (machine/native/host_topo.c) has copied what the platform
 * needs out of hwloc. host_write_platform() writes the file in one pass:
 * every value is preceded by a comment giving its origin: "hwloc", "probe
 * FILE" (with the rows it came from), "default" (see kDefaults and
 * kCacheDefaults; README and docs/hardware-sources.md say where the defaults
 * come from) or "numasim binary" (code sizes).
 *
 * Cache levels (docs/hardware-sources.md, "Caches", "From the host"): sizes,
 * ways and sharing from hwloc, made to fit the platform rules (bytes a
 * multiple of line_bytes x ways, each level at least as big as the one above,
 * scopes never narrowing); a level that cannot be made to fit is left out,
 * with a comment saying why. Hit latencies from the probe's pointer chase
 * (rows chase_S, S in bytes): the median of the rows whose working set lies
 * in the level's first plateau, between twice the level above and four times
 * it (and at most half the level). Without such rows, defaults. The last
 * level's size is what the chase shows this host's CPUs get, when that is
 * less than hwloc's (effective_size: a guest shares its L3 with others).
 *
 * Code sizes: the units of the platform contract are mapped to numasim's
 * own functions (kCodeUnits) and their sizes read from this very binary
 * (/proc/self/exe) with libelf; the comment of each value lists the
 * functions found and those absent (inlined by the compiler).
 */
#include "hostplat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* --- cache levels --------------------------------------------------------- */

static const char *const kLevelName[HOST_NLEVELS] = {"l1i", "l1d", "l2", "l3"};
static const char *const kScopeName[] = {"cpu", "node", "package"};
static const char *const kHwlocName[HOST_NLEVELS] = {"L1i", "L1d", "L2", "L3"};

/* Hit latencies when the probe has no chase rows for a level: the
 * development host, as for kDefaults (docs/hardware-sources.md, "The
 * development host"). No probe sees the instruction side. */
static const default_t kCacheDefaults[HOST_NLEVELS] = {
    {"l1i_cycles", 1,
     "estimate: an instruction-side hit is pipelined with execution; no probe sees it"},
    {"l1d_cycles", 5,
     "L1 hit, 5 cycles measured by pointer chase in 16 KiB on a Golden Cove-class core; "
     "estimate, to be fitted by numasim tune (probe-target mode)"},
    {"l2_cycles", 19,
     "L2 hit, 19 cycles measured by pointer chase in 512 KiB on a Golden Cove-class core; "
     "estimate, to be fitted by numasim tune (probe-target mode)"},
    {"l3_cycles", 108,
     "L3 hit, 108 cycles measured by pointer chase in 4 MiB on a Golden Cove-class core (a VM: "
     "a shared L3); estimate, to be fitted by numasim tune (probe-target mode)"},
};

/* The most ways a platform level may have (platform_caches.c). */
#define MAX_WAYS 256

/* Ways when hwloc does not know them (associativity 0). */
static int default_ways(int level)
{
    return level == HOST_L3 ? 16 : 8;
}

typedef struct {
    int on;
    unsigned long long bytes;
    int ways;
    host_scope_t scope;
    double cycles;
    char why_bytes[800], why_ways[300], why_scope[300], why_cycles[400];
} level_t;

/* The same-node rows PREFIXN (chase_S, pages_N) with lo < N <= hi,
 * ascending by N: N in s[], latencies in c[]; returns their count (at most
 * max). */
static int sized_rows(const probe_result_t *pr, const char *prefix, double lo, double hi, double *s,
                      double *c, int max)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (int i = 0; pr && i < pr->nrows && n < max; i++) {
        const probe_row_t *w = &pr->rows[i];
        char *end;
        if (strncmp(w->probe, prefix, len) != 0 || w->from_node != w->to_node)
            continue;
        double sz = strtod(w->probe + len, &end);
        if (*end || !(sz > lo && sz <= hi))
            continue;
        int k = n++;
        for (; k > 0 && s[k - 1] > sz; k--) {
            s[k] = s[k - 1];
            c[k] = c[k - 1];
        }
        s[k] = sz;
        c[k] = w->median;
    }
    return n;
}

/* Median of a[0..n) (sorted in place; n > 0). */
static double median_of(double *a, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort: few rows */
        for (int k = i; k > 0 && a[k - 1] > a[k]; k--) {
            double x = a[k];
            a[k] = a[k - 1];
            a[k - 1] = x;
        }
    return n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
}

/* Median of the same-node chase rows with lo < S <= hi; *n gets their count
 * and lo_s/hi_s the sizes seen. */
static double chase_median(const probe_result_t *pr, double lo, double hi, int *n, double *lo_s,
                           double *hi_s)
{
    double s[256], c[256];
    *n = sized_rows(pr, "chase_", lo, hi, s, c, 256);
    *lo_s = *n ? s[0] : 0;
    *hi_s = *n ? s[*n - 1] : 0;
    return *n ? median_of(c, *n) : 0;
}

/* The last level's capacity as this host's CPUs get it. In a guest, or
 * beside other tenants, a shared L3 can hold much less for us than hwloc
 * says (the development machine's 32 MB L3 served a chase like memory from
 * 6 MB on). When the chase has rows beyond the level (memory: their
 * median), the level ends at the last row, below the first one that costs
 * more than the geometric mean of the level's own latency and memory's;
 * the size is that row's, rounded down to whole sets, if it is smaller than
 * hwloc's and still bigger than the level above. */
static void effective_size(level_t *v, unsigned long long above, int line, const probe_result_t *pr,
                           const char *ppath)
{
    double s[256], c[256], ms[256], mc[256];
    int nm = sized_rows(pr, "chase_", (double)v->bytes, 1e300, ms, mc, 256);
    int n = sized_rows(pr, "chase_", 2.0 * (double)above, (double)v->bytes, s, c, 256);
    if (!nm || !n || !(v->cycles > 0))
        return;
    double mem = median_of(mc, nm); /* memory: the median of the rows beyond */
    double cut = sqrt(v->cycles * mem);
    if (!(mem > 2 * v->cycles))
        return; /* no memory plateau above the level's: nothing to tell */
    int first = -1;
    for (int i = 0; i < n; i++)
        if (c[i] > cut) {
            first = i;
            break;
        }
    if (first <= 0)
        return; /* the level holds all its rows, or none is below the cut */
    unsigned long long unit = (unsigned long long)line * (unsigned long long)v->ways;
    unsigned long long eff = (unsigned long long)s[first - 1] / unit * unit;
    if (eff >= v->bytes || eff <= above)
        return;
    snprintf(v->why_bytes + strlen(v->why_bytes), sizeof v->why_bytes - strlen(v->why_bytes),
             "; probe %s: the chase costs %g cycles at %.0f bytes, past the geometric mean "
             "(%.1f) of the level's %g and memory's %g (median of %d rows beyond %llu bytes), "
             "so this host's CPUs get %llu bytes of it: the last row below, in whole sets",
             ppath, c[first], s[first], cut, v->cycles, mem, nm, v->bytes, eff);
    v->bytes = eff;
}

/* The levels as the file will give them, each with the origin of its values. */
static void make_levels(const host_topo_t *t, int line, const probe_result_t *pr, const char *ppath,
                        level_t *lv)
{
    memset(lv, 0, sizeof *lv * HOST_NLEVELS);
    for (int l = 0; l < HOST_NLEVELS; l++) {
        const host_cache_t *c = &t->cache[l];
        level_t *v = &lv[l];
        if (!c->present)
            continue;
        v->on = 1;
        v->bytes = c->bytes;
        char lines[120] = "";
        if (c->linesize > 0 && c->linesize != line)
            snprintf(lines, sizeof lines, "; its %d-byte lines are counted as %d-byte lines",
                     c->linesize, line);
        snprintf(v->why_bytes, sizeof v->why_bytes, "hwloc: %s cache, %llu bytes%s%s",
                 kHwlocName[l], c->bytes,
                 c->uniform ? "" : " (the instance holding CPU 0; other instances differ)", lines);
        if (c->associativity > 0) {
            v->ways = c->associativity;
            snprintf(v->why_ways, sizeof v->why_ways, "hwloc: %d-way", v->ways);
        } else if (c->associativity < 0) {
            v->ways = (int)(c->bytes / (unsigned long long)line);
            snprintf(v->why_ways, sizeof v->why_ways,
                     "hwloc: fully associative, ways = bytes / line_bytes (one set)");
        } else {
            v->ways = default_ways(l);
            snprintf(v->why_ways, sizeof v->why_ways,
                     "default: hwloc does not know the associativity; %d ways, as the common "
                     "%s on current x86 and Arm cores (estimate)",
                     v->ways, l == HOST_L3 ? "L3" : "L1 and L2");
        }
        if (v->ways > MAX_WAYS) {
            /* the model's limit: the most ways <= MAX_WAYS that split the
             * lines into whole sets (a power of two for the usual sizes) */
            long long nlines = (long long)(c->bytes / (unsigned long long)line);
            int w = MAX_WAYS;
            while (w > 1 && nlines % w)
                w--;
            snprintf(v->why_ways + strlen(v->why_ways), sizeof v->why_ways - strlen(v->why_ways),
                     "; the model allows at most %d ways: %d", MAX_WAYS, w);
            v->ways = w;
        }
        v->scope = c->scope;
        if (c->scope == HOST_SCOPE_NODE && !c->exact) {
            /* A cache inside a node that is not the node's (an AMD CCX's L3):
             * one instance per node would make hand-offs between CCXs hits,
             * so each CPU gets its share of the capacity instead. */
            v->scope = HOST_SCOPE_CPU;
            unsigned long long share =
                c->bytes / (unsigned long long)(c->sharing > 0 ? c->sharing : 1);
            snprintf(v->why_scope, sizeof v->why_scope,
                     "hwloc: one instance is shared by %d of the node's %d CPUs, a scope the "
                     "model lacks: each CPU gets its share (estimate)",
                     c->sharing, c->scope_pus);
            snprintf(v->why_bytes + strlen(v->why_bytes),
                     sizeof v->why_bytes - strlen(v->why_bytes), "; per CPU: %llu / %d = %llu",
                     c->bytes, c->sharing, share);
            v->bytes = share;
        } else if (c->scope == HOST_SCOPE_CPU && c->sharing > 1) {
            snprintf(v->why_scope, sizeof v->why_scope,
                     "hwloc: shared by the %d CPUs (SMT siblings) of one core; the model has no "
                     "core scope, so each CPU has its own",
                     c->sharing);
        } else {
            snprintf(v->why_scope, sizeof v->why_scope, "hwloc: %s%s",
                     c->scope == HOST_SCOPE_CPU    ? "one instance per CPU"
                     : c->scope == HOST_SCOPE_NODE ? "shared by the CPUs of a NUMA node"
                                                   : "shared by the CPUs of a package",
                     c->exact ? "" : " (by part of them: widened to the scope)");
        }
        unsigned long long unit = (unsigned long long)line * (unsigned long long)v->ways;
        if (v->bytes % unit) {
            unsigned long long down = v->bytes / unit * unit;
            snprintf(v->why_bytes + strlen(v->why_bytes),
                     sizeof v->why_bytes - strlen(v->why_bytes),
                     "; rounded down to a multiple of line_bytes x ways = %llu", unit);
            v->bytes = down;
        }
        if (v->bytes == 0)
            v->on = 0;
    }
    /* The platform rules: l1d needed by all; l2 by l1i and l3; sizes and
     * scopes never shrink going down. What breaks them is left out. */
    level_t *i = &lv[HOST_L1I], *d = &lv[HOST_L1D], *l2 = &lv[HOST_L2], *l3 = &lv[HOST_L3];
    if (!d->on)
        i->on = l2->on = l3->on = 0;
    if (l2->on && (l2->bytes < d->bytes || l2->scope < d->scope))
        l2->on = 0;
    if (!l2->on)
        i->on = l3->on = 0;
    if (i->on && (l2->bytes < i->bytes || l2->scope < i->scope))
        i->on = 0;
    if (l3->on && (l3->bytes < l2->bytes || l3->scope < l2->scope))
        l3->on = 0;
    /* Hit latencies: the probe's chase plateau, else the default. */
    unsigned long long above = 0;
    for (int l = HOST_L1D; l < HOST_NLEVELS; l++) {
        level_t *v = &lv[l];
        if (!v->on)
            continue;
        double lo = 2.0 * (double)above, hi = above ? 4.0 * (double)above : (double)v->bytes / 2;
        if (hi > (double)v->bytes / 2)
            hi = (double)v->bytes / 2;
        int n = 0;
        double a, b, m = chase_median(pr, lo > 0 ? lo - 1 : 0, hi, &n, &a, &b);
        if (n > 0) {
            v->cycles = round(m * 100) / 100;
            snprintf(v->why_cycles, sizeof v->why_cycles,
                     "probe %s: median of %d same-node chase row%s with a working set of %g to %g "
                     "bytes",
                     ppath, n, n == 1 ? "" : "s", a, b);
        } else {
            v->cycles = kCacheDefaults[l].value;
            snprintf(v->why_cycles, sizeof v->why_cycles, "default (%s)%s%s%s",
                     kCacheDefaults[l].why, pr ? "; probe " : "", pr ? ppath : "",
                     pr ? " has no chase row in this level's plateau" : "");
        }
        above = v->bytes;
    }
    /* the last level's effective size, from the same chase */
    unsigned long long prev = 0;
    level_t *last = NULL;
    for (int l = HOST_L1D; l < HOST_NLEVELS; l++)
        if (lv[l].on) {
            if (last)
                prev = last->bytes;
            last = &lv[l];
        }
    if (last && pr)
        effective_size(last, prev, line, pr, ppath);
    if (i->on) {
        i->cycles = kCacheDefaults[HOST_L1I].value;
        snprintf(i->why_cycles, sizeof i->why_cycles, "default (%s)", kCacheDefaults[HOST_L1I].why);
    }
}

static void write_levels(FILE *f, const host_topo_t *t, const level_t *lv)
{
    for (int l = 0; l < HOST_NLEVELS; l++) {
        const level_t *v = &lv[l];
        if (!v->on) {
            fprintf(
                f, "    <!-- %s: %s -->\n", kLevelName[l],
                t->cache[l].present
                    ? "reported by hwloc but left out: it breaks the "
                      "platform rules with the levels kept (docs/hardware-sources.md, \"Caches\")"
                    : "not reported by hwloc");
            continue;
        }
        fprintf(f, "    <!-- %s -->\n    <prop id=\"%s_bytes\" value=\"%llu\"/>\n", v->why_bytes,
                kLevelName[l], v->bytes);
        fprintf(f, "    <!-- %s -->\n    <prop id=\"%s_ways\" value=\"%d\"/>\n", v->why_ways,
                kLevelName[l], v->ways);
        fprintf(f, "    <!-- %s -->\n    <prop id=\"%s_cycles\" value=\"%g\"/>\n", v->why_cycles,
                kLevelName[l], v->cycles);
        fprintf(f, "    <!-- %s -->\n    <prop id=\"%s_scope\" value=\"%s\"/>\n", v->why_scope,
                kLevelName[l], kScopeName[v->scope]);
    }
}

/* --- TLBs ------------------------------------------------------------------ */

/* The row of the largest N <= x (0 when none); its N in *at. */
static double row_at_most(const double *n, const double *v, int k, double x, double *at)
{
    *at = 0;
    double r = 0;
    for (int i = 0; i < k && n[i] <= x; i++) {
        *at = n[i];
        r = v[i];
    }
    return r;
}

/* The row of the smallest N >= x (0 when none); its N in *at. */
static double row_at_least(const double *n, const double *v, int k, double x, double *at)
{
    for (int i = 0; i < k; i++)
        if (n[i] >= x) {
            *at = n[i];
            return v[i];
        }
    *at = 0;
    return 0;
}

/* This host's TLBs from CPUID, and their costs from the probe's pages_N
 * rows when it has them (else starting values for scripts/validate's
 * stage t). Only for this system (CPUID describes this machine, not an
 * HWLOC_XMLFILE's) and with an l1d (a walk reads through it).
 *
 * The first level's effective entries, as for the last cache level: on an
 * SMT core the first-level DTLB is shared with the sibling thread (another
 * guest's vCPU, in a VM), and the development host's staircase stepped at
 * 72 pages one hour and at 32-48 the next. When the rows step up (past the
 * midpoint of the tread within the level and the tread just past CPUID's
 * entries) at or before CPUID's entries, the level ends at the last row
 * below the step. */
static void write_tlbs(FILE *f, const host_topo_t *t, const level_t *lv, const probe_result_t *pr,
                       const char *ppath)
{
    static const char *const names[TLB_NLEVELS] = {"dtlb1", "itlb1", "dtlb2", "itlb2"};
    platform_tlb_t tlb[TLB_NLEVELS];
    char why[200];
    if (!t->this_system || !lv[HOST_L1D].on || !host_topo_tlbs(tlb, why, sizeof why)) {
        fprintf(f, "    <!-- TLBs: none (%s) -->\n",
                !t->this_system    ? "CPUID describes this machine, not the topology file"
                : !lv[HOST_L1D].on ? "no l1d level, through which a walk reads"
                                   : why);
        return;
    }
    double n[64], v[64], a, b, c, d;
    int k = sized_rows(pr, "pages_", 0, INFINITY, n, v, 64);
    double d1 = tlb[TLB_DTLB1].entries, d2 = tlb[TLB_DTLB2].entries;
    /* the tread within the first level (lines in l1d) and just past it */
    double in1 = row_at_most(n, v, k, 16, &a), out1 = row_at_most(n, v, k, 2 * d1, &b);
    double hit2 = 3, walk = 30;
    char why1[400] = "", why2[300], whyw[300];
    snprintf(why2, sizeof why2, "starting value, fitted by scripts/validate (stage t)%s",
             pr ? ": the probe has no pages_N rows around dtlb1_entries" : "");
    snprintf(whyw, sizeof whyw, "starting value, fitted by scripts/validate (stage t)%s",
             pr ? ": the probe has no pages_N rows around dtlb2_entries" : "");
    if (a && b > d1 && out1 > in1 * 1.1) {
        hit2 = round((out1 - in1) * 10) / 10;
        snprintf(why2, sizeof why2,
                 "probe %s: pages_%g - pages_%g (just past dtlb1, and well within it)", ppath, b,
                 a);
        double cut = (in1 + out1) / 2, last = 0, first = 0;
        for (int i = 0; i < k && !first; i++)
            if (v[i] < cut)
                last = n[i];
            else
                first = n[i];
        if (first && first <= d1 && last >= 1) {
            int ways =
                tlb[TLB_DTLB1].ways == tlb[TLB_DTLB1].entries ? (int)last : tlb[TLB_DTLB1].ways;
            int eff = (int)last / ways * ways;
            if (eff >= 1) {
                snprintf(why1, sizeof why1,
                         "; probe %s: the pages_N rows step past %.3g cycles (between %.3g and "
                         "%.3g) at %g pages, so this CPU gets %d of them: the last row below",
                         ppath, cut, in1, out1, first, eff);
                tlb[TLB_DTLB1].entries = eff;
                tlb[TLB_DTLB1].ways = ways == (int)last ? eff : ways;
            }
        }
    }
    for (int l = 0; l < TLB_NLEVELS; l++)
        if (tlb[l].entries)
            fprintf(f,
                    "    <!-- %s: %s, %d entries, %s%s -->\n    <prop id=\"%s_entries\" "
                    "value=\"%d\"/>\n    <prop id=\"%s_ways\" value=\"%d\"/>\n",
                    why, names[l], l == TLB_DTLB1 && why1[0] ? (int)d1 : tlb[l].entries,
                    tlb[l].ways == tlb[l].entries ? "fully associative" : "set-associative",
                    l == TLB_DTLB1 ? why1 : "", names[l], tlb[l].entries, names[l], tlb[l].ways);
    long pg = sysconf(_SC_PAGESIZE);
    fprintf(f, "    <!-- sysconf(_SC_PAGESIZE) -->\n    <prop id=\"page_bytes\" value=\"%ld\"/>\n",
            pg > 0 ? pg : 4096);
    if (d2) {
        /* walk: rows past the second level against rows within half of it
         * (the walk's page-table read and the second level's cost, which
         * only the rows within it pay, about cancel) */
        double in2 = row_at_most(n, v, k, d2 / 2, &c), out2 = row_at_least(n, v, k, d2 * 1.3, &d);
        if (c && d && out2 > in2 + hit2) {
            walk = round((out2 - in2) * 10) / 10;
            snprintf(whyw, sizeof whyw,
                     "probe %s: pages_%g - pages_%g (past dtlb2, within half of it)", ppath, d, c);
        }
        fprintf(f, "    <!-- %s -->\n    <prop id=\"dtlb2_cycles\" value=\"%g\"/>\n", why2, hit2);
    }
    if (tlb[TLB_ITLB2].entries)
        fprintf(f,
                "    <!-- estimate: no probe sees the code side; the data side's value -->\n"
                "    <prop id=\"itlb2_cycles\" value=\"%g\"/>\n",
                hit2);
    fprintf(f, "    <!-- %s -->\n    <prop id=\"walk_cycles\" value=\"%g\"/>\n", whyw, walk);
}

/* --- code sizes ----------------------------------------------------------- */

/* Each code unit of the platform contract and the numasim functions that
 * implement it, on the 2.6.6 (classic) path, 2.6.13 for the tracking units.
 * A unit counts the helpers its call runs (locks, list operations: the
 * kernel inlines them) but not another unit it calls (a strategy's del_timer
 * is fetched as del_timer, the tick's run_timers as run_timers), nor the
 * machine API (cpu_*) and the oracle's hooks, which are the model, not the
 * kernel. "file.c:fn" names a static function. */
#define MAX_UNIT_FNS 12
static const struct {
    const char *unit;
    const char *fns[MAX_UNIT_FNS];
} kCodeUnits[] = {
    {"tick", {"timer_core.c:tick", "native.c:on_tick", "native.c:take_tick"}},
    {"run_timers",
     {"wheel_run", "timer_wheel.c:cascade", "timer_wheel.c:splice_init", "timer_wheel.c:tv_head",
      "timer_wheel.c:time_after_eq", "wheel_add", "tlist_add_tail", "tlist_unlink", "tlock_irq",
      "tunlock_irq", "spin_lock", "spin_unlock"}},
    {"mod_timer",
     {"mod_timer", "timer_ops.c:mod_classic", "timer_ops.c:is_pending", "timer_ops.c:check_timer",
      "timer_ops.c:unlink_classic", "tlist_unlink", "wheel_add", "timer_wheel.c:tv_head",
      "tlist_add_tail", "spin_lock", "spin_unlock"}},
    {"del_timer",
     {"del_timer", "timer_ops.c:del_classic", "timer_ops.c:check_timer",
      "timer_ops.c:unlink_classic", "tlist_unlink", "tlock_irq", "tunlock_irq", "spin_lock",
      "spin_unlock"}},
    {"try_to_del_timer_sync",
     {"try_to_del_timer_sync", "timer_ops.c:lock_timer_base", "detach_tracking", "tlist_unlink",
      "tlock_irq", "tunlock_irq", "spin_lock", "spin_unlock"}},
    {"del_timer_sync_scan",
     {"del_timer_sync_scan", "timer_pending", "timer_ops.c:is_pending", "tcore_base",
      "tcore_machine"}},
    {"del_timer_sync_last_running",
     {"del_timer_sync_last_running", "timer_pending", "timer_ops.c:is_pending"}},
    {"del_singleshot_timer_sync", {"del_singleshot_timer_sync"}},
    {"del_timer_sync_naive", {"del_timer_sync_naive"}},
    {"del_timer_sync_shortcut", {"del_timer_sync_shortcut"}},
    {"del_timer_sync_base_tracking", {"del_timer_sync_base_tracking"}},
};
#define NCODE_UNITS (int)(sizeof kCodeUnits / sizeof *kCodeUnits)

static void write_code(FILE *f)
{
    const char *names[NCODE_UNITS * MAX_UNIT_FNS];
    unsigned long long sizes[NCODE_UNITS * MAX_UNIT_FNS];
    int n = 0;
    for (int u = 0; u < NCODE_UNITS; u++)
        for (int k = 0; k < MAX_UNIT_FNS && kCodeUnits[u].fns[k]; k++)
            names[n++] = kCodeUnits[u].fns[k];
    err_t e = {{0}};
    if (host_topo_symbol_sizes("/proc/self/exe", names, n, sizes, &e) < 0) {
        fprintf(f, "    <!-- code sizes left out (no code fetched): %s -->\n", e.msg);
        return;
    }
    n = 0;
    for (int u = 0; u < NCODE_UNITS; u++) {
        char found[600] = "", absent[400] = "";
        unsigned long long sum = 0;
        for (int k = 0; k < MAX_UNIT_FNS && kCodeUnits[u].fns[k]; k++, n++) {
            const char *colon = strchr(names[n], ':');
            const char *fn = colon ? colon + 1 : names[n];
            char *buf = sizes[n] ? found : absent;
            size_t cap = sizes[n] ? sizeof found : sizeof absent, len = strlen(buf);
            if (len + 1 < cap)
                snprintf(buf + len, cap - len, "%s%s", len ? (sizes[n] ? "+" : ", ") : "",
                         sizes[n] ? names[n] : fn);
            sum += sizes[n];
        }
        fprintf(f, "    <!-- numasim binary: %s (nm -S)%s%s -->\n", found[0] ? found : "nothing",
                absent[0] ? "; absent (inlined): " : "", absent);
        fprintf(f, "    <prop id=\"code_%s_bytes\" value=\"%llu\"/>\n", kCodeUnits[u].unit, sum);
    }
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
    fprintf(
        f,
        "     Origins of the values: hwloc, the probe file, or a default (README,\n"
        "     \"Describing this host\"; docs/hardware-sources.md, \"The development\n"
        "     host\", which gives each default's measurement or estimate).\n\n"
        "     Units (numasim convention, see docs/platforms.md): one simulated second is one CPU\n"
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
    level_t lv[HOST_NLEVELS];
    make_levels(t, t->line_bytes > 0 ? t->line_bytes : 64, pr, ppath, lv);
    write_levels(f, t, lv);
    write_tlbs(f, t, lv, pr, ppath);
    int by_package = 0;
    for (int l = 0; l < HOST_NLEVELS; l++)
        by_package |= lv[l].on && lv[l].scope == HOST_SCOPE_PACKAGE;
    fprintf(
        f, "    <!-- kernel text: node 0, where Linux loads it (no replication; "
           "docs/hardware-sources.md, \"Caches\") -->\n    <prop id=\"text_node\" value=\"0\"/>\n");
    write_code(f);
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
    fprintf(f,
            "\"/>\n    <!-- hwloc: CPUs in logical order; os_index is the OS number to "
            "pin to%s -->\n",
            by_package ? "; package: who shares a package-wide cache level" : "");
    for (int i = 0; i < t->ncpus; i++) {
        fprintf(f,
                "    <host id=\"cpu%d\" speed=\"1f\"><prop id=\"numa_node\" value=\"%d\"/>"
                "<prop id=\"os_index\" value=\"%d\"/>",
                i, t->cpu_node[i], t->cpu_os[i]);
        if (by_package)
            fprintf(f, "<prop id=\"package\" value=\"%d\"/>",
                    t->cpu_package[i] >= 0 ? t->cpu_package[i] : 0);
        fprintf(f, "</host>\n");
    }
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
