/* hostplat_caches: the cache levels and TLBs of this host's platform file.
 * Theory of operation.
 *
 * Cache levels (docs/hardware-sources.md, "Caches", "From the host"): sizes,
 * ways and sharing from hwloc, made to fit the platform rules (bytes a
 * multiple of line_bytes x ways, each level at least as big as the one above,
 * scopes never narrowing); a level that cannot be made to fit is left out,
 * with a comment saying why. Hit latencies from the probe's pointer chase
 * (rows chase_S, S in bytes): the median of the rows whose working set lies
 * in the level's first plateau, between twice the level above and four times
 * it (and at most half the level). Without such rows, defaults
 * (kCacheDefaults). The last level's size is what the chase shows this
 * host's CPUs get, when that is less than hwloc's (effective_size: a guest
 * shares its L3 with others).
 *
 * TLBs: from CPUID, their costs and the first level's effective entries
 * from the probe's pages_N rows (write_tlbs); where CPUID names none, or
 * when asked, their entries from those rows too (tlbs_from_rows).
 */
#include "hostplat_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const kLevelName[HOST_NLEVELS] = {"l1i", "l1d", "l2", "l3"};
static const char *const kScopeName[] = {"cpu", "node", "package"};
static const char *const kHwlocName[HOST_NLEVELS] = {"L1i", "L1d", "L2", "L3"};

/* Hit latencies when the probe has no chase rows for a level: the
 * development host, as for hostplat.c's kDefaults (docs/hardware-sources.md, "The
 * development host"). No probe sees the instruction side. */
static const struct {
    const char *id;
    double value;
    const char *why; /* origin of the default */
} kCacheDefaults[HOST_NLEVELS] = {
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

/* Median of the probe's same-node load_mem rows (a load missing to this
 * node's memory); *n gets their count. */
static double load_mem_median(const probe_result_t *pr, int *n)
{
    double c[256];
    *n = 0;
    for (int i = 0; pr && i < pr->nrows && *n < 256; i++)
        if (!strcmp(pr->rows[i].probe, "load_mem") && pr->rows[i].from_node == pr->rows[i].to_node)
            c[(*n)++] = pr->rows[i].median;
    return *n ? median_of(c, *n) : 0;
}

/* The last level's capacity as this host's CPUs get it. In a guest, or
 * beside other tenants, a shared L3 can hold much less for us than hwloc
 * says (one development machine's 32 MB L3 served a chase like memory from
 * 6 MB on; another guest's CPUID claims 508 MB per CPU, and its chase
 * reaches memory's cost at 8 MB). Memory's cost is the median of the chase
 * rows beyond the level, or without any, of the probe's load_mem rows. The
 * level ends at the last row, below the first one that costs more than the
 * geometric mean of the level's own latency and memory's; the size is that
 * row's, rounded down to whole sets, if it is smaller than hwloc's and
 * still bigger than the level above. */
static void effective_size(level_t *v, unsigned long long above, int line, const probe_result_t *pr,
                           const char *ppath)
{
    double s[256], c[256], ms[256], mc[256];
    int nm = sized_rows(pr, "chase_", (double)v->bytes, 1e300, ms, mc, 256), nl = 0;
    int n = sized_rows(pr, "chase_", 2.0 * (double)above, (double)v->bytes, s, c, 256);
    double mem = nm ? median_of(mc, nm) : load_mem_median(pr, &nl);
    if (!(nm || nl) || !n || !(v->cycles > 0))
        return;
    char from[120];
    if (nm)
        snprintf(from, sizeof from, "median of %d chase row%s beyond %llu bytes", nm,
                 nm == 1 ? "" : "s", v->bytes);
    else
        snprintf(from, sizeof from, "median of %d load_mem row%s: no chase row beyond %llu bytes",
                 nl, nl == 1 ? "" : "s", v->bytes);
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
             "(%.1f) of the level's %g and memory's %g (%s), so this host's CPUs get %llu "
             "bytes of it: the last row below, in whole sets",
             ppath, c[first], s[first], cut, v->cycles, mem, from, eff);
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

static void write_levels(pemit_t *e, const host_topo_t *t, const level_t *lv)
{
    for (int l = 0; l < HOST_NLEVELS; l++) {
        const level_t *v = &lv[l];
        const char *name = kLevelName[l];
        char id[32];
        if (!v->on) {
            pemit_comment(e, "%s: %s", name,
                          t->cache[l].present
                              ? "reported by hwloc but left out: it breaks the platform rules "
                                "with the levels kept (docs/hardware-sources.md, \"Caches\")"
                              : "not reported by hwloc");
            continue;
        }
        pemit_comment(e, "%s", v->why_bytes);
        snprintf(id, sizeof id, "%s_bytes", name);
        pemit_prop(e, id, "%llu", v->bytes);
        pemit_comment(e, "%s", v->why_ways);
        snprintf(id, sizeof id, "%s_ways", name);
        pemit_prop(e, id, "%d", v->ways);
        pemit_comment(e, "%s", v->why_cycles);
        snprintf(id, sizeof id, "%s_cycles", name);
        pemit_prop(e, id, "%g", v->cycles);
        pemit_comment(e, "%s", v->why_scope);
        snprintf(id, sizeof id, "%s_scope", name);
        pemit_prop(e, id, "%s", kScopeName[v->scope]);
    }
    /* Whether the last level kept backs the levels above it: on AMD's L3
     * (a victim cache) and recent Intel servers' it does not, and a line
     * it evicts stays in a core's L2 (docs/caches.md, "Levels"). */
    int last = -1;
    for (int l = HOST_L2; l < HOST_NLEVELS; l++)
        last = lv[l].on ? l : last;
    if (last >= 0 && t->cache[last].inclusive == 0) {
        pemit_comment(e, "hwloc: the %s is not inclusive (\"Inclusive\" 0, from CPUID)",
                      kLevelName[last]);
        pemit_prop(e, "last_level_inclusive", "0");
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

/* What each pages_N row pays for translations: the row less the chase row
 * of as many lines (the same data, in the same level), into tr[]; NAN where
 * the probe has no such chase row. */
static void translations(const probe_result_t *pr, const double *n, const double *v, int k,
                         int line, double *tr)
{
    for (int i = 0; i < k; i++) {
        double s[1], c[1], bytes = n[i] * line;
        tr[i] = sized_rows(pr, "chase_", bytes - 0.5, bytes, s, c, 1) ? v[i] - c[0] : NAN;
    }
}

/* The second level's effective entries, when the rows say it holds more
 * than CPUID's d2 (a virtual machine's CPUID may give less than the
 * hardware has). Past the first level a row pays the second level's cost
 * (t2, its translation just past d1) until a walk adds at least
 * max(3 hit2, 5) cycles: the walk's step. When it lies past d2, the level
 * holds the last row below it, in whole sets; when no row shows it and the
 * largest row lies past d2, at least that row. Returns the entries (0: d2
 * stands); *first the row past the step (0: none). */
static int dtlb2_grown(const double *n, const double *tr, int k, double d1, double d2, double hit2,
                       int ways, double *first)
{
    double t2 = NAN, last = 0;
    *first = 0;
    for (int i = 0; i < k && !*first; i++) {
        if (n[i] <= d1 || isnan(tr[i]))
            continue;
        if (isnan(t2))
            t2 = tr[i];
        if (tr[i] >= t2 + fmax(3 * hit2, 5))
            *first = n[i];
        else
            last = n[i];
    }
    if (isnan(t2) || last <= d2 || ways < 1)
        return 0;
    int eff = (int)last / ways * ways;
    return eff > d2 ? eff : 0;
}

/* The ways of a level the rows found: the first level fully associative
 * (a scan of its few entries), the second 16-way where its entries allow
 * (estimates: CPUID, where it answers, gives 4 to 16 ways and fully
 * associative first levels on the x86 cores numasim models). */
static int rows_ways(int entries, int level)
{
    if (level == 0)
        return entries;
    for (int w = 16; w > 1; w /= 2)
        if (entries % w == 0)
            return w;
    return entries;
}

/* The data TLBs from the pages_N rows alone, when CPUID names none (a KVM
 * guest's leaf 18H may be all zeros) or when asked (rows != 0). tr[] is
 * what each row pays for translations (translations()). The first level
 * ends at the last row before the first of two rows in a row that pay
 * TLB_STEP cycles more than the smallest row. Past it, a walk shows where
 * a row adds dtlb2_grown's step to the first such row; the second level
 * then ends at the last row below the midpoint of the two treads (a row
 * just past the level misses in a few sets only), or, with no walk in the
 * rows, it holds at least the largest. The code side gets the data side's
 * shape (no probe sees it). Returns 1 with tlb[] and why set, or 0. */
#define TLB_STEP 2.0
static int tlbs_from_rows(platform_tlb_t tlb[TLB_NLEVELS], const double *n, const double *tr, int k,
                          const char *ppath, char *why, size_t wn)
{
    int i0 = 0, s1 = -1, s2 = -1;
    while (i0 < k && isnan(tr[i0]))
        i0++;
    for (int i = i0 + 1; i < k && s1 < 0; i++)
        if (!isnan(tr[i]) && tr[i] >= tr[i0] + TLB_STEP &&
            (i + 1 >= k || isnan(tr[i + 1]) || tr[i + 1] >= tr[i0] + TLB_STEP))
            s1 = i;
    if (s1 < 1 || n[s1 - 1] < 8)
        return 0;
    double hit2 = tr[s1] - tr[i0];
    for (int i = s1 + 1; i < k && s2 < 0; i++)
        if (!isnan(tr[i]) && tr[i] >= tr[s1] + fmax(3 * hit2, 5))
            s2 = i;
    int d1 = (int)n[s1 - 1], d2 = (int)n[k - 1];
    if (s2 > 0) {
        double walks = s2 + 1 < k && !isnan(tr[s2 + 1]) ? tr[s2 + 1] : tr[s2];
        for (int i = s1; i < k && (isnan(tr[i]) || tr[i] < (tr[s1] + walks) / 2); i++)
            d2 = (int)n[i];
    }
    if (d2 <= d1)
        return 0;
    memset(tlb, 0, sizeof *tlb * TLB_NLEVELS);
    for (int l = 0; l < TLB_NLEVELS; l++) {
        tlb[l].entries = l < TLB_DTLB2 ? d1 : d2;
        tlb[l].ways = rows_ways(tlb[l].entries, l >= TLB_DTLB2);
    }
    if (s2 > 0)
        snprintf(why, wn,
                 "probe %s: the pages_N rows, less the chase rows of as many lines, step up at "
                 "%g pages (the first level ends at %d) and by a walk at %g (the second ends at "
                 "%d, the last row below the treads' midpoint); ways and the code side estimates",
                 ppath, n[s1], d1, n[s2], d2);
    else
        snprintf(why, wn,
                 "probe %s: the pages_N rows, less the chase rows of as many lines, step up at "
                 "%g pages (the first level ends at %d) and show no walk up to %d pages, "
                 "so the second holds at least those; ways and the code side estimates",
                 ppath, n[s1], d1, d2);
    return 1;
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
static void write_tlbs(pemit_t *e, const host_topo_t *t, const level_t *lv,
                       const probe_result_t *pr, const char *ppath, int from_rows)
{
    static const char *const names[TLB_NLEVELS] = {"dtlb1", "itlb1", "dtlb2", "itlb2"};
    platform_tlb_t tlb[TLB_NLEVELS];
    char why[600];
    double n[64], v[64], a, b, c, d, tr[64];
    int k = sized_rows(pr, "pages_", 0, INFINITY, n, v, 64);
    translations(pr, n, v, k, t->line_bytes > 0 ? t->line_bytes : 64, tr);
    int ok =
        lv[HOST_L1D].on && !from_rows && t->this_system && host_topo_tlbs(tlb, why, sizeof why);
    if (lv[HOST_L1D].on && !ok && (from_rows || t->this_system)) {
        char cpuid[200];
        if (!from_rows) /* CPUID's answer, said beside the rows' */
            host_topo_tlbs(tlb, cpuid, sizeof cpuid);
        ok = tlbs_from_rows(tlb, n, tr, k, ppath, why, sizeof why);
        if (ok && !from_rows)
            snprintf(why + strlen(why), sizeof why - strlen(why), " (%s)", cpuid);
        else if (!ok && from_rows)
            snprintf(why, sizeof why, "the probe's pages_N rows show no TLB step");
    }
    if (!ok) {
        pemit_comment(e, "TLBs: none (%s)",
                      !lv[HOST_L1D].on ? "no l1d level, through which a walk reads"
                      : !t->this_system && !from_rows
                          ? "CPUID describes this machine, not the topology file"
                          : why);
        return;
    }
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
    char whyd2[400] = "";
    if (d2) {
        double first;
        int ways = tlb[TLB_DTLB2].ways == tlb[TLB_DTLB2].entries ? 1 : tlb[TLB_DTLB2].ways;
        int eff = dtlb2_grown(n, tr, k, tlb[TLB_DTLB1].entries, d2, hit2, ways, &first);
        if (eff) {
            if (first)
                snprintf(whyd2, sizeof whyd2,
                         "; probe %s: the pages_N rows, less the chase rows of as many lines, "
                         "step up by a walk at %g pages, so this CPU gets %d of them: the last "
                         "row below",
                         ppath, first, eff);
            else
                snprintf(whyd2, sizeof whyd2,
                         "; probe %s: the pages_N rows, less the chase rows of as many lines, "
                         "show no walk up to %d pages, so this CPU gets at least those",
                         ppath, eff);
            if (tlb[TLB_DTLB2].ways == tlb[TLB_DTLB2].entries)
                tlb[TLB_DTLB2].ways = eff;
            tlb[TLB_DTLB2].entries = eff;
        }
    }
    for (int l = 0; l < TLB_NLEVELS; l++) {
        if (!tlb[l].entries)
            continue;
        char id[32];
        pemit_comment(e, "%s: %s, %d entries, %s%s", why, names[l],
                      l == TLB_DTLB1 && why1[0]    ? (int)d1
                      : l == TLB_DTLB2 && whyd2[0] ? (int)d2
                                                   : tlb[l].entries,
                      tlb[l].ways == tlb[l].entries ? "fully associative" : "set-associative",
                      l == TLB_DTLB1   ? why1
                      : l == TLB_DTLB2 ? whyd2
                                       : "");
        snprintf(id, sizeof id, "%s_entries", names[l]);
        pemit_prop(e, id, "%d", tlb[l].entries);
        snprintf(id, sizeof id, "%s_ways", names[l]);
        pemit_prop(e, id, "%d", tlb[l].ways);
    }
    long pg = sysconf(_SC_PAGESIZE);
    pemit_comment(e, "sysconf(_SC_PAGESIZE)");
    pemit_prop(e, "page_bytes", "%ld", pg > 0 ? pg : 4096);
    if (d2) {
        /* walk: rows past the second level against rows within half of it
         * (the walk's page-table read and the second level's cost, which
         * only the rows within it pay, about cancel), each less its data's
         * cost where the chase has the row (past the l1d, the lines' level
         * moves too) */
        d2 = tlb[TLB_DTLB2].entries;
        double in2 = row_at_most(n, v, k, d2 / 2, &c), out2 = row_at_least(n, v, k, d2 * 1.3, &d);
        double tin = NAN, tout = NAN;
        for (int i = 0; i < k; i++) {
            if (n[i] == c)
                tin = tr[i];
            if (n[i] == d)
                tout = tr[i];
        }
        int less_data = !isnan(tin) && !isnan(tout);
        if (less_data) {
            in2 = tin;
            out2 = tout;
        }
        if (c && d && out2 > in2 + hit2) {
            walk = round((out2 - in2) * 10) / 10;
            snprintf(whyw, sizeof whyw,
                     "probe %s: pages_%g - pages_%g (past dtlb2, within half of it)%s", ppath, d, c,
                     less_data ? ", each less the chase row of as many lines" : "");
        }
        pemit_comment(e, "%s", why2);
        pemit_prop(e, "dtlb2_cycles", "%g", hit2);
    }
    if (tlb[TLB_ITLB2].entries) {
        pemit_comment(e, "estimate: no probe sees the code side; the data side's value");
        pemit_prop(e, "itlb2_cycles", "%g", hit2);
    }
    pemit_comment(e, "%s", whyw);
    pemit_prop(e, "walk_cycles", "%g", walk);
    char whyl[300];
    int levels = host_topo_walk_levels(whyl, sizeof whyl);
    if (levels > 0 && (t->this_system || from_rows)) {
        pemit_comment(e, "a walk reads one line a level of the page table: %s", whyl);
        pemit_prop(e, "walk_levels", "%d", levels);
    }
}

int hostplat_write_caches(pemit_t *e, const host_topo_t *t, const probe_result_t *pr,
                          const char *ppath, int tlbs_from_rows)
{
    level_t lv[HOST_NLEVELS];
    make_levels(t, t->line_bytes > 0 ? t->line_bytes : 64, pr, ppath, lv);
    write_levels(e, t, lv);
    write_tlbs(e, t, lv, pr, ppath, tlbs_from_rows);
    int by_package = 0;
    for (int l = 0; l < HOST_NLEVELS; l++)
        by_package |= lv[l].on && lv[l].scope == HOST_SCOPE_PACKAGE;
    return by_package;
}
