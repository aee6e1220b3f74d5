/* translate: the TLBs' part of an access. A translation found in a
 * TLB costs that level's latency; a walk costs walk_cycles plus the read
 * of the page-table entries' line through the data caches (a foreign line
 * of its own, TAG_PTE: one for every ptes-per-line pages, the same for all
 * CPUs), which can evict what the access then wants.
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
}

uint32_t mem_translate(mem_t *m, int cpu, maddr_t a, int code)
{
    uint64_t page = tlb_page_of(m->tlb, a);
    int l = tlb_translate(m->tlb, cpu, page, code);
    m->xl_level = l;
    if (l >= 0)
        return m->xl_cost = m->tlb_cyc[2 * l + code];
    int lvl = hier_access(m->hier, cpu, TAG_FOREIGN | TAG_PTE | page >> m->ptes_per_line_shift,
                          HIER_DATA);
    return m->xl_cost = m->c_walk + (lvl >= 0 ? m->lvl_cycles[lvl] : m->c_local);
}

void mem_translate_foreign(mem_t *m, int cpu, uint64_t base, uint64_t first, uint64_t last)
{
    uint64_t p0 = first / m->fp_lines_per_page, p1 = last / m->fp_lines_per_page;
    uint64_t n = p1 - p0 + 1, cap = tlb_max_entries(m->tlb);
    if (n > cap) {
        p0 += n - cap;
        n = cap;
    }
    tlb_fill_foreign(m->tlb, cpu, (base & ~TAG_FOREIGN) | (p0 & TAG_INDEX), n);
}
