/* platform_caches: the optional properties of a platform's caches, code,
 * footprints and core, checked after the required costs (platform_xml.c).
 *
 * Every property here is optional and a file without any of them describes
 * the machine numasim modelled before: infinite caches, free code. Rules, so
 * that a hierarchy is one the model can run:
 *
 *   level  NAME_bytes NAME_ways NAME_cycles [NAME_scope], NAME = l1i l1d l2 l3
 *          bytes a multiple of line_bytes * ways, ways 1..256, cycles >= 0;
 *          l1d is needed by any other level, l2 by l3 and by l1i (which it
 *          feeds); a level holds at least the bytes of the one above it, and
 *          scopes never narrow going down (cpu, node, package);
 *          l1d_write_through 0 or 1 (needs l2): a store costs l2's latency;
 *          last_level_inclusive 0 or 1 (default 1; 0 needs l2): whether a
 *          line the last level evicts leaves the levels above it;
 *   code   text_node (default 0) names an existing node; code_UNIT_bytes >= 0;
 *   fill   tick_footprint_lines, work_lines_per_mcycle,
 *          noise_lines_per_mcycle >= 0; noise_scope all (default) or
 *          cpu (the noise reaches only the levels above the last that
 *          are a CPU's own);
 *   tlb    NAME_entries [NAME_ways] [NAME_cycles], NAME = dtlb1 itlb1 dtlb2
 *          itlb2: entries 1..65536 a multiple of ways (default: entries,
 *          fully associative), cycles >= 0 (default 0); dtlb1 needs level
 *          l1d (a walk reads through the data caches), itlb1 needs dtlb1,
 *          dtlb2 dtlb1 and itlb2 itlb1; page_bytes (default 4096) a power
 *          of two from line_bytes to 1 GiB, walk_cycles >= 0 (default
 *          0), walk_levels 1..5 (default 1), all only with dtlb1;
 *          footprint_lines_per_page from 1 to
 *          the lines of a page (default: all of them), with level l1d;
 *   core   core none (default), inorder or ooo; with inorder or ooo only:
 *          core_width 1..64, a fraction allowed (default 1), core_rob
 *          width (rounded up)..4096 (ooo only, default that),
 *          core_mshr 1..256 (default 1),
 *          core_serialize_cycles >= 0 (default 0), core_fetch_ahead
 *          0..64 (default 0), core_insn_bytes 1..64 (default 4),
 *          core_irq_serialize 0 or 1 (default 0), core_rmw_overlap 0 or 1
 *          (ooo only, default 0), core_clock_cycles 0..100000 (ooo only,
 *          default 0); code_UNIT_insns >= 1 (needs
 *          code_UNIT_bytes).
 */
#include "platform.h"
#include "platform_caches.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const kLevelNames[CACHE_NLEVELS] = {"l1i", "l1d", "l2", "l3"};
static const char *const kScopeNames[] = {"cpu", "node", "package"};
static const char *const kTlbNames[TLB_NLEVELS] = {"dtlb1", "itlb1", "dtlb2", "itlb2"};

const char *platform_cache_name(cache_level_t l)
{
    return l < CACHE_NLEVELS ? kLevelNames[l] : "?";
}

const char *platform_scope_name(cache_scope_t s)
{
    return s <= SCOPE_PACKAGE ? kScopeNames[s] : "?";
}

/* An error at the line of q (or of --set, when q was overridden). */
__attribute__((format(printf, 4, 5))) static int
where(const platform_t *p, const platform_param_t *q, err_t *e, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return err_set(e, q->overridden ? "--set" : p->path, q->overridden ? 0 : q->line, "%s", msg);
}

/* Reads optional number prop name into *out (unchanged when absent).
 * Returns 1 when present, 0 when absent, -1 with e when not a number >= min. */
static int number(const platform_t *p, const char *name, double min, int whole, double *out,
                  err_t *e)
{
    const platform_param_t *q = platform_param(p, name);
    if (!q)
        return 0;
    double v;
    if (err_parse_double(q->value, &v) < 0 || v < min || (whole && v != floor(v)))
        return where(p, q, e, "property '%s' must be %s, not '%s'", name,
                     whole ? (min > 0 ? "a whole number >= 1" : "a whole number >= 0")
                           : "a number >= 0",
                     q->value);
    *out = v;
    return 1;
}

static int read_level(platform_t *p, cache_level_t l, err_t *e)
{
    char name[64];
    const char *ln = kLevelNames[l];
    platform_cache_t *c = &p->cache[l];
    double bytes = 0, ways = 0, cycles = 0;
    snprintf(name, sizeof name, "%s_bytes", ln);
    int has = number(p, name, 1, 1, &bytes, e);
    if (has < 0)
        return -1;
    const char *parts[] = {"ways", "cycles", "scope"};
    if (!has) {
        for (int i = 0; i < 3; i++) {
            snprintf(name, sizeof name, "%s_%s", ln, parts[i]);
            const platform_param_t *q = platform_param(p, name);
            if (q)
                return where(p, q, e, "property '%s' given without '%s_bytes'", name, ln);
        }
        return 0;
    }
    const platform_param_t *qb = platform_param(p, name);
    for (int i = 0; i < 2; i++) {
        snprintf(name, sizeof name, "%s_%s", ln, parts[i]);
        int r = number(p, name, i == 0 ? 1 : 0, i == 0, i == 0 ? &ways : &cycles, e);
        if (r < 0)
            return -1;
        if (r == 0)
            return where(p, qb, e, "cache level '%s' needs the property '%s'", ln, name);
    }
    snprintf(name, sizeof name, "%s_ways", ln);
    if (ways > 256)
        return where(p, platform_param(p, name), e, "property '%s' must be at most 256, not %g",
                     name, ways);
    if (fmod(bytes, ways * p->line_bytes) != 0)
        return where(p, qb, e,
                     "property '%s' = %s is not a multiple of line_bytes x ways (%g bytes a set)",
                     qb->name, qb->value, ways * p->line_bytes);
    c->bytes = (uint64_t)bytes;
    c->ways = (int)ways;
    c->cycles = cycles;
    c->scope = SCOPE_CPU;
    snprintf(name, sizeof name, "%s_scope", ln);
    const platform_param_t *qs = platform_param(p, name);
    if (qs) {
        int k = -1;
        for (int s = 0; s <= SCOPE_PACKAGE; s++)
            if (strcmp(qs->value, kScopeNames[s]) == 0)
                k = s;
        if (k < 0)
            return where(p, qs, e, "property '%s' must be cpu, node or package, not '%s'", name,
                         qs->value);
        c->scope = (cache_scope_t)k;
    }
    p->ncache_levels++;
    return 0;
}

/* The level each level needs above it (-1: none), for the rules above. */
static const int kAbove[CACHE_NLEVELS] = {CACHE_L2, -1, CACHE_L1D, CACHE_L2};

static int check_hierarchy(platform_t *p, err_t *e)
{
    char name[64];
    for (int l = 0; l < CACHE_NLEVELS; l++) {
        const platform_cache_t *c = &p->cache[l];
        if (!c->bytes)
            continue;
        snprintf(name, sizeof name, "%s_bytes", kLevelNames[l]);
        const platform_param_t *q = platform_param(p, name);
        int need = l == CACHE_L1I ? CACHE_L2 : kAbove[l];
        if (need >= 0 && !p->cache[need].bytes)
            return where(p, q, e, "cache level '%s' needs level '%s'", kLevelNames[l],
                         kLevelNames[need]);
        /* the level above l on its path, whose bytes and scope l bounds */
        for (int u = 0; u < l; u++) {
            if (!p->cache[u].bytes || (l == CACHE_L1D && u == CACHE_L1I))
                continue;
            if (c->bytes < p->cache[u].bytes)
                return where(p, q, e, "cache level '%s' (%s bytes) is smaller than level '%s'",
                             kLevelNames[l], q->value, kLevelNames[u]);
            if (c->scope < p->cache[u].scope)
                return where(p, q, e, "cache level '%s' is shared more narrowly (%s) than '%s'",
                             kLevelNames[l], kScopeNames[c->scope], kLevelNames[u]);
        }
    }
    return 0;
}

static int read_tlbs(platform_t *p, err_t *e);

/* Reads whole prop name into *out within [lo, hi] (unchanged when absent). */
static int bounded(const platform_t *p, const char *name, int lo, int hi, int *out, err_t *e)
{
    double v = *out;
    if (number(p, name, lo > 0 ? 1 : 0, 1, &v, e) < 0)
        return -1;
    if (v < lo || v > hi)
        return where(p, platform_param(p, name), e, "property '%s' must be from %d to %d, not %g",
                     name, lo, hi, v);
    *out = (int)v;
    return 0;
}

/* The core (props core, core_*): see the rules at the top. */
static int read_core(platform_t *p, err_t *e)
{
    static const char *const kinds[] = {"none", "inorder", "ooo"};
    static const char *const props[] = {
        "core_width",       "core_rob",        "core_mshr",          "core_serialize_cycles",
        "core_fetch_ahead", "core_insn_bytes", "core_irq_serialize", "core_rmw_overlap",
        "core_clock_cycles"};
    enum { NPROPS = sizeof props / sizeof *props };
    platform_core_t *k = &p->core;
    *k = (platform_core_t){.kind = CORE_NONE, .width = 1, .rob = 1, .mshr = 1, .insn_bytes = 4};
    const platform_param_t *q = platform_param(p, "core");
    if (q) {
        int i = 0;
        while (i < 3 && strcmp(q->value, kinds[i]) != 0)
            i++;
        if (i == 3)
            return where(p, q, e, "property 'core' must be none, inorder or ooo, not '%s'",
                         q->value);
        k->kind = (platform_core_kind_t)i;
    }
    for (int i = 0; i < NPROPS; i++) {
        const platform_param_t *r = platform_param(p, props[i]);
        if (r && k->kind == CORE_NONE)
            return where(p, r, e, "property '%s' needs 'core' inorder or ooo", props[i]);
        if (r && (i == 1 || i == 7 || i == 8) && k->kind != CORE_OOO)
            return where(p, r, e, "property '%s' needs 'core' ooo", props[i]);
    }
    if (k->kind == CORE_NONE)
        return 0;
    /* a fraction: counted in the counter's cycles (a host's TSC), a core
     * clocked above it issues a non-whole number of instructions in one */
    if (number(p, "core_width", 0, 0, &k->width, e) < 0)
        return -1;
    if (k->width < 1 || k->width > CORE_WIDTH_MAX)
        return where(p, platform_param(p, "core_width"), e,
                     "property 'core_width' must be from 1 to %d, not %g", CORE_WIDTH_MAX,
                     k->width);
    k->rob = (int)ceil(k->width);
    if (bounded(p, "core_rob", k->rob, 4096, &k->rob, e) < 0 ||
        bounded(p, "core_mshr", 1, CORE_MSHR_MAX, &k->mshr, e) < 0 ||
        bounded(p, "core_fetch_ahead", 0, CORE_FETCH_AHEAD_MAX, &k->fetch_ahead, e) < 0 ||
        number(p, "core_serialize_cycles", 0, 0, &k->serialize_cycles, e) < 0 ||
        bounded(p, "core_irq_serialize", 0, 1, &k->irq_serialize, e) < 0 ||
        bounded(p, "core_rmw_overlap", 0, 1, &k->rmw_overlap, e) < 0 ||
        bounded(p, "core_clock_cycles", 0, 100000, &k->clock_cycles, e) < 0 ||
        number(p, "core_insn_bytes", 0, 0, &k->insn_bytes, e) < 0)
        return -1;
    if (k->insn_bytes < 1 || k->insn_bytes > 64)
        return where(p, platform_param(p, "core_insn_bytes"), e,
                     "property 'core_insn_bytes' must be from 1 to 64, not %g", k->insn_bytes);
    return 0;
}

int platform_check_caches(platform_t *p, err_t *e)
{
    for (int l = 0; l < CACHE_NLEVELS; l++)
        if (read_level(p, (cache_level_t)l, e) < 0)
            return -1;
    if (check_hierarchy(p, e) < 0)
        return -1;
    double wt = 0;
    if (number(p, "l1d_write_through", 0, 1, &wt, e) < 0)
        return -1;
    if (wt > 1 || (wt && !p->cache[CACHE_L2].bytes))
        return where(p, platform_param(p, "l1d_write_through"), e,
                     "property 'l1d_write_through' must be 0 or 1, and 1 needs level 'l2'");
    p->l1d_write_through = wt == 1;
    double incl = 1;
    if (number(p, "last_level_inclusive", 0, 1, &incl, e) < 0)
        return -1;
    if (incl > 1 || (!incl && !p->cache[CACHE_L2].bytes))
        return where(p, platform_param(p, "last_level_inclusive"), e,
                     "property 'last_level_inclusive' must be 0 or 1, and 0 needs level 'l2'");
    p->last_noninclusive = incl == 0;
    double tn = 0;
    if (number(p, "text_node", 0, 1, &tn, e) < 0)
        return -1;
    if (tn >= p->nnodes) {
        const platform_param_t *q = platform_param(p, "text_node");
        return where(p, q, e, "property '%s' = %s names no node of this platform", q->name,
                     q->value);
    }
    p->text_node = (int)tn;
    if (number(p, "tick_footprint_lines", 0, 0, &p->footprint.tick_lines, e) < 0 ||
        number(p, "work_lines_per_mcycle", 0, 0, &p->footprint.work_per_mcycle, e) < 0 ||
        number(p, "noise_lines_per_mcycle", 0, 0, &p->footprint.noise_per_mcycle, e) < 0)
        return -1;
    const platform_param_t *ns = platform_param(p, "noise_scope");
    if (ns && strcmp(ns->value, "all") != 0 && strcmp(ns->value, "cpu") != 0)
        return where(p, ns, e, "property 'noise_scope' must be 'all' or 'cpu', not '%s'",
                     ns->value);
    p->footprint.noise_private = ns && strcmp(ns->value, "cpu") == 0;
    if (read_tlbs(p, e) < 0 || read_core(p, e) < 0)
        return -1;
    for (int i = 0; i < p->nparams; i++) {
        const char *n = p->params[i].name;
        size_t len = strlen(n);
        double v;
        if (strncmp(n, "code_", 5) == 0 && len > 11 && strcmp(n + len - 6, "_bytes") == 0 &&
            number(p, n, 0, 1, &v, e) < 0)
            return -1;
        if (strncmp(n, "code_", 5) == 0 && len > 11 && strcmp(n + len - 6, "_insns") == 0) {
            /* a whole count, for a unit that has bytes */
            char bytes[128];
            snprintf(bytes, sizeof bytes, "%.*s_bytes", (int)(len - 6), n);
            if (number(p, n, 1, 1, &v, e) < 0)
                return -1;
            if (!platform_param(p, bytes))
                return where(p, platform_param(p, n), e, "property '%s' needs '%s'", n, bytes);
        }
    }
    return 0;
}

/* Reads TLB level l; the level it needs above it must be read before. */
static int read_tlb(platform_t *p, int l, err_t *e)
{
    static const int kNeeds[TLB_NLEVELS] = {-1, TLB_DTLB1, TLB_DTLB1, TLB_ITLB1};
    char name[64];
    const char *ln = kTlbNames[l];
    double entries = 0, ways = 0, cycles = 0;
    snprintf(name, sizeof name, "%s_entries", ln);
    int has = number(p, name, 1, 1, &entries, e);
    if (has < 0)
        return -1;
    const platform_param_t *qe = platform_param(p, name);
    if (!has) {
        for (int i = 0; i < 2; i++) {
            snprintf(name, sizeof name, "%s_%s", ln, i ? "cycles" : "ways");
            const platform_param_t *q = platform_param(p, name);
            if (q)
                return where(p, q, e, "property '%s' given without '%s_entries'", name, ln);
        }
        return 0;
    }
    if (entries > 65536)
        return where(p, qe, e, "property '%s' must be at most 65536, not %s", qe->name, qe->value);
    if (l == TLB_DTLB1 && !p->cache[CACHE_L1D].bytes)
        return where(p, qe, e, "TLB '%s' needs cache level 'l1d' (a walk reads through it)", ln);
    if (kNeeds[l] >= 0 && !p->tlb[kNeeds[l]].entries)
        return where(p, qe, e, "TLB '%s' needs TLB '%s'", ln, kTlbNames[kNeeds[l]]);
    snprintf(name, sizeof name, "%s_ways", ln);
    int hw = number(p, name, 1, 1, &ways, e);
    if (hw < 0)
        return -1;
    if (!hw)
        ways = entries;
    else if (fmod(entries, ways) != 0)
        return where(p, qe, e, "property '%s' = %s is not a multiple of '%s' (%g)", qe->name,
                     qe->value, name, ways);
    snprintf(name, sizeof name, "%s_cycles", ln);
    if (number(p, name, 0, 0, &cycles, e) < 0)
        return -1;
    p->tlb[l].entries = (int)entries;
    p->tlb[l].ways = (int)ways;
    p->tlb[l].cycles = cycles;
    return 0;
}

static int read_tlbs(platform_t *p, err_t *e)
{
    for (int l = 0; l < TLB_NLEVELS; l++)
        if (read_tlb(p, l, e) < 0)
            return -1;
    p->page_bytes = 4096;
    const char *only[] = {"page_bytes", "walk_cycles", "walk_levels"};
    for (int i = 0; i < 3; i++) {
        const platform_param_t *q = platform_param(p, only[i]);
        if (q && !p->tlb[TLB_DTLB1].entries)
            return where(p, q, e, "property '%s' given without 'dtlb1_entries'", only[i]);
    }
    /* the density places footprint lines in the caches too (coherence.c) */
    const platform_param_t *fq = platform_param(p, "footprint_lines_per_page");
    if (fq && !p->cache[CACHE_L1D].bytes)
        return where(p, fq, e,
                     "property 'footprint_lines_per_page' given without cache levels "
                     "('l1d_bytes')");
    double pb = 4096;
    if (number(p, "page_bytes", 1, 1, &pb, e) < 0)
        return -1;
    long v = (long)pb;
    if (pb > (double)(1l << 30) || v < p->line_bytes || (v & (v - 1)))
        return where(p, platform_param(p, "page_bytes"), e,
                     "property 'page_bytes' must be a power of two from line_bytes (%d) to 1 GiB, "
                     "not %g",
                     p->line_bytes, pb);
    p->page_bytes = v;
    double most = (double)(v / p->line_bytes), fl = most;
    if (number(p, "footprint_lines_per_page", 1, 1, &fl, e) < 0)
        return -1;
    if (fl > most)
        return where(
            p, platform_param(p, "footprint_lines_per_page"), e,
            "property 'footprint_lines_per_page' must be at most the lines of a page (%g), "
            "not %g",
            most, fl);
    p->footprint_lines_per_page = (int)fl;
    double wl = 1;
    if (number(p, "walk_levels", 1, 1, &wl, e) < 0)
        return -1;
    if (wl > 5)
        return where(p, platform_param(p, "walk_levels"), e,
                     "property 'walk_levels' must be from 1 to 5 (the levels of x86-64's and "
                     "Arm's page tables), not %g",
                     wl);
    p->walk_levels = (int)wl;
    return number(p, "walk_cycles", 0, 0, &p->walk_cycles, e) < 0 ? -1 : 0;
}

uint64_t platform_code_insns(const platform_t *p, const char *unit)
{
    uint64_t bytes = platform_code_bytes(p, unit);
    if (p->core.kind == CORE_NONE || !bytes || p->core.insn_bytes <= 0)
        return 0;
    char name[128];
    snprintf(name, sizeof name, "code_%s_insns", unit);
    const platform_param_t *q = platform_param(p, name);
    double v;
    if (q && err_parse_double(q->value, &v) == 0 && v >= 1)
        return (uint64_t)v;
    return (uint64_t)ceil((double)bytes / p->core.insn_bytes);
}

uint64_t platform_code_bytes(const platform_t *p, const char *unit)
{
    char name[128];
    snprintf(name, sizeof name, "code_%s_bytes", unit);
    const platform_param_t *q = platform_param(p, name);
    double v;
    if (!q || err_parse_double(q->value, &v) < 0 || v < 0)
        return 0;
    return (uint64_t)v;
}
