/* translate: the TLBs' part of an access. A translation found in a
 * TLB costs that level's latency; a walk costs walk_cycles plus the reads
 * of its page-table entries' lines through the data caches, one a level
 * of the table (walk_levels, from the root down; each a foreign line of
 * its own, tag_pte: a line of the lowest level maps ptes-per-line pages,
 * one of the level above 512 times as many, the same for all CPUs), which
 * can evict what the access then wants. The reads are dependent, each
 * entry giving the next table's address, so their costs add up. Warm, the
 * upper levels' few lines hit the L1D (where a core's paging-structure
 * caches would skip them: walk_cycles, fitted on warm walks, absorbs the
 * difference); after a long wait they come from where the noise left
 * them.
 */
#include "memory_internal.h"

void mem_translate_init(mem_t *m)
{
    const platform_t *p = m->p;
    m->tlb = tlb_create(p);
    if (!m->tlb)
        return;
    for (int l = 0; l < TLB_NLEVELS; l++)
        m->tlb_cyc[l] = mem_cycles(p->tlb[l].cycles);
    m->c_walk = mem_cycles(p->walk_cycles);
    while ((8 << m->ptes_per_line_shift) < p->line_bytes)
        m->ptes_per_line_shift++;
    m->walk_levels = p->walk_levels > 0 ? p->walk_levels : 1;
}

uint32_t mem_translate(mem_t *m, int cpu, maddr_t a, int code)
{
    uint64_t page = tlb_page_of(m->tlb, a);
    int l = tlb_translate(m->tlb, cpu, page, code);
    m->xl_level = l;
    if (l >= 0)
        return m->xl_cost = m->tlb_cyc[2 * l + code];
    uint32_t cost = m->c_walk;
    for (int lv = m->walk_levels - 1; lv >= 0; lv--) { /* 512 entries a table */
        int hit = hier_access(m->hier, cpu, tag_pte(lv, page >> (m->ptes_per_line_shift + 9 * lv)),
                              HIER_DATA);
        cost += hit >= 0 ? m->lvl_cycles[hit] : m->c_local;
    }
    return m->xl_cost = cost;
}

void mem_translate_foreign(mem_t *m, int cpu, uint64_t base, uint64_t first, uint64_t last,
                           int code)
{
    uint64_t p0 = first / m->fp_lines_per_page, p1 = last / m->fp_lines_per_page;
    uint64_t n = p1 - p0 + 1, cap = tlb_max_entries(m->tlb);
    if (n > cap) {
        p0 += n - cap;
        n = cap;
    }
    tlb_fill_foreign(m->tlb, cpu, (base & ~TAG_FOREIGN) | (p0 & TAG_INDEX), n, code);
}

int mem_tlb_holds(const mem_t *m, int cpu, int level, maddr_t a, int code)
{
    return m->tlb && tlb_holds(m->tlb, cpu, level, tlb_page_of(m->tlb, a), code);
}
