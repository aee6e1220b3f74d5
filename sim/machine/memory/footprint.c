/* footprint: what other code brings into a CPU's caches (platform.h's
 * footprints), by LRU through every data level, at no cost in cycles: the
 * tick's own lines (the same each tick), fresh lines for plain work, and
 * fresh lines for the time since the last call (other software). Their
 * tags are foreign (tags.h); their pages go through the data TLBs.
 *
 * Noise is the one footprint that is not the CPU's own doing, so a level
 * that CPUs share takes it once, not once for each of them: each CPU's
 * clock brings it into the levels that are the CPU's alone, and each
 * instance of a shared level has a clock of its own, which whichever of
 * its CPUs steps moves on. (Counted per CPU, an L3 shared by two idle CPUs
 * would lose its lines twice as fast as under one, and the host's pause
 * probe, one CPU at a time, cannot tell the two apart.) With noise_scope
 * = cpu it reaches only the levels above the last that are each CPU's own:
 * software that shares a core, not the last level (an SMT sibling, a
 * virtual CPU that moves between the cores of one L3). The last level is
 * left out even where it is each CPU's own: a virtual machine's topology
 * may say so of an L3 that the host's cores share. Other software runs
 * code too, so the noise also passes through a CPU's own L1I, whatever its
 * scope, and its pages through the CPU's code TLBs as well as its data
 * TLBs. The work footprint is the CPU's own work, through every data
 * level and the data TLBs.
 */
#include "memory_internal.h"
#include "xalloc.h"

void mem_footprint_init(mem_t *m)
{
    const platform_t *p = m->p;
    m->page_lines = (uint64_t)((p->page_bytes > 0 ? p->page_bytes : 4096) / p->line_bytes);
    if (m->page_lines < 1)
        m->page_lines = 1;
    m->fp_lines_per_page =
        p->footprint_lines_per_page > 0 ? (uint64_t)p->footprint_lines_per_page : m->page_lines;
    if (!m->hier)
        return;
    size_t n = (size_t)p->ncpus;
    m->fresh = xcalloc(n, sizeof *m->fresh);
    m->work_carry = xcalloc(n, sizeof *m->work_carry);
    m->noise_carry = xcalloc(n, sizeof *m->noise_carry);
    m->noise_at = xcalloc(n, sizeof *m->noise_at);
    if (p->footprint.noise_per_mcycle <= 0 || p->footprint.noise_private)
        return; /* no clock for a shared level: the noise does not reach it */
    for (int l = CACHE_L1D; l < CACHE_NLEVELS; l++) /* the data side's levels */
        for (int cpu = 0; cpu < p->ncpus && !m->shared_noise[l]; cpu++)
            if (hier_shared_instance(m->hier, (cache_level_t)l, cpu) >= 0)
                m->shared_noise[l] = xcalloc((size_t)hier_instances(m->hier, (cache_level_t)l),
                                             sizeof *m->shared_noise[l]);
}

void mem_footprint_free(mem_t *m)
{
    free(m->fresh);
    free(m->work_carry);
    free(m->noise_carry);
    free(m->noise_at);
    for (int l = 0; l < CACHE_NLEVELS; l++)
        free(m->shared_noise[l]);
}

/* The physical line of fresh footprint line x: its page (x's page of
 * fp_lines_per_page lines) at a pseudo-random frame, the lines of a page
 * side by side from a pseudo-random start. Other software's pages lie
 * wherever the allocator found frames, so its lines fall into random sets
 * of every physically indexed level and evict there gradually, not a level
 * at once. A bijection of 34-bit frames (xor-shifts and odd multipliers):
 * with pages of up to 64 lines no two pages share a frame within the
 * 40 bits of a fresh tag; larger pages may wrap there, a harmless alias. */
static uint64_t fresh_line(const mem_t *m, uint64_t x)
{
    const uint64_t mask = (1ull << 34) - 1;
    uint64_t page = x / m->fp_lines_per_page, off = x % m->fp_lines_per_page;
    uint64_t f = page & mask;
    f ^= f >> 17;
    f = (f * 0xed5ad4bbull) & mask;
    f ^= f >> 11;
    f = (f * 0xac4c1b51ull) & mask;
    f ^= f >> 15;
    return f * m->page_lines + (off + (f >> 20)) % m->page_lines;
}

/* fill_fresh's where, besides a level (FILL_PRIVATE and FILL_CORE are
 * hier_fill_fresh's -1 and -2) */
enum { FILL_ALL = -3, FILL_CORE = -2, FILL_PRIVATE = -1 };

/* Brings lines (plus the fraction carried) of fresh foreign data, tags
 * base | the running numbers from *next on, through cpu: into every data
 * level (FILL_ALL), those that are cpu's alone (FILL_PRIVATE), those of
 * them above the last level (FILL_CORE), or cpu's instance of one shared
 * level. FILL_PRIVATE and FILL_CORE are the noise's: other software runs
 * code too, so they pass through cpu's own l1i as well. Only cpu's own
 * lines take its TLBs. */
static void fill_fresh(mem_t *m, int cpu, double lines, double *carry, uint64_t base,
                       uint64_t *next, int where)
{
    double t = *carry + lines;
    uint64_t k = (uint64_t)t, all = k, first = *next;
    *carry = t - (double)k;
    /* beyond the largest level the fill reaches, more lines evict nothing
     * more: a fill that spares the last level is bounded by the core's own
     * levels, not by the size of one it never touches. Their pages still
     * reach the TLBs, which are the CPU's own whatever the caches: a long
     * wait's lines span more pages than its second level holds, though the
     * L2 keeps only the last of them (tlb_fill_foreign caps the pages) */
    uint64_t cap =
        where == FILL_ALL ? hier_max_lines(m->hier) : hier_fill_reach(m->hier, cpu, where);
    if (k > cap) {
        *next += k - cap;
        k = cap;
    }
    int l1i = where < 0 && hier_instances(m->hier, CACHE_L1I) > 0 &&
              hier_shared_instance(m->hier, CACHE_L1I, cpu) < 0;
    m->in_footprint = 1;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t tag = base | (fresh_line(m, *next + i) & TAG_INDEX);
        if (where == FILL_ALL) {
            hier_access(m->hier, cpu, tag, HIER_DATA);
            continue;
        }
        hier_fill_fresh(m->hier, cpu, where, tag);
        if (l1i)
            hier_fill_fresh(m->hier, cpu, CACHE_L1I, tag);
    }
    m->in_footprint = 0;
    if (m->tlb && all && where < 0) /* the pages of all those lines, the noise's code too */
        mem_translate_foreign(m, cpu, base, first, first + all - 1, where != FILL_ALL);
    *next += k;
}

void mem_footprint_tick(mem_t *m, int cpu)
{
    uint64_t n = (uint64_t)(m->p->footprint.tick_lines + 0.5);
    if (!m->hier || !n)
        return;
    m->in_footprint = 1;
    hier_fill_foreign(m->hier, cpu, tag_footprint(cpu) | TAG_TICK, n);
    m->in_footprint = 0;
    if (m->tlb)
        mem_translate_foreign(m, cpu, tag_footprint(cpu) | TAG_TICK, 0, n - 1, 0);
}

void mem_footprint_work(mem_t *m, int cpu, uint64_t cycles)
{
    double rate = m->p->footprint.work_per_mcycle;
    if (m->hier && rate > 0)
        fill_fresh(m, cpu, (double)cycles * rate / 1e6, &m->work_carry[cpu], tag_footprint(cpu),
                   &m->fresh[cpu], FILL_ALL);
}

void mem_footprint_time(mem_t *m, int cpu, uint64_t now)
{
    double rate = m->p->footprint.noise_per_mcycle;
    if (!m->hier || rate <= 0)
        return;
    if (now > m->noise_at[cpu]) {
        uint64_t dt = now - m->noise_at[cpu];
        m->noise_at[cpu] = now;
        fill_fresh(m, cpu, (double)dt * rate / 1e6, &m->noise_carry[cpu], tag_footprint(cpu),
                   &m->fresh[cpu], m->p->footprint.noise_private ? FILL_CORE : FILL_PRIVATE);
    }
    for (int l = CACHE_L1D; l < CACHE_NLEVELS; l++) {
        int k = m->shared_noise[l] ? hier_shared_instance(m->hier, (cache_level_t)l, cpu) : -1;
        noise_clock_t *c = k >= 0 ? &m->shared_noise[l][k] : NULL;
        if (!c || now <= c->at)
            continue;
        uint64_t dt = now - c->at;
        c->at = now;
        fill_fresh(m, cpu, (double)dt * rate / 1e6, &c->carry, tag_shared_noise(l, k), &c->fresh,
                   l);
    }
}
