/* tlb: per-CPU set-associative LRU TLBs. Theory of operation.
 *
 * Up to four structures per CPU, as the platform names them (platform.h):
 *
 *   side  first level  second level  a miss of both
 *   data  dtlb1        dtlb2         a walk: coherence.c reads the page-table
 *   code  itlb1        itlb2         line through the data caches
 *
 * Each is nsets sets of `ways` page numbers, most recent first (true LRU,
 * the sets of lru_set.h, as cache.c's). A hit in the second level fills the first; a walk fills
 * both. The levels are exclusive of nothing and inclusive of nothing: a
 * page leaving one stays in the other, as on the machines we model (AMD's
 * and Intel's second-level TLBs are not inclusive of the first).
 *
 * A CPU's arrays are allocated at its first translation: a machine with
 * thousands of CPUs and TLBs allocates those of the CPUs that run.
 */
#include "tlb.h"
#include "lru_set.h"
#include "tags.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int present;
    uint32_t nsets, ways;
} tlb_geom_t;

struct tlb {
    int ncpus;
    int page_shift;
    tlb_geom_t lv[TLB_NLEVELS];
    size_t off[TLB_NLEVELS]; /* where each level starts in a CPU's array */
    size_t per_cpu;          /* entries of all levels of one CPU */
    uint64_t **cpu;          /* [ncpus]: NULL until the CPU translates */
    uint64_t max_entries;
};

tlb_t *tlb_create(const platform_t *p)
{
    if (!p->tlb[TLB_DTLB1].entries)
        return NULL;
    tlb_t *t = xcalloc(1, sizeof *t);
    t->ncpus = p->ncpus;
    while ((1l << t->page_shift) < p->page_bytes)
        t->page_shift++;
    for (int l = 0; l < TLB_NLEVELS; l++) {
        const platform_tlb_t *q = &p->tlb[l];
        if (!q->entries)
            continue;
        t->lv[l].present = 1;
        t->lv[l].ways = (uint32_t)q->ways;
        t->lv[l].nsets = (uint32_t)(q->entries / q->ways);
        t->off[l] = t->per_cpu;
        t->per_cpu += (size_t)q->entries;
        t->max_entries =
            (uint64_t)q->entries > t->max_entries ? (uint64_t)q->entries : t->max_entries;
    }
    t->cpu = xcalloc((size_t)p->ncpus, sizeof *t->cpu);
    return t;
}

void tlb_destroy(tlb_t *t)
{
    if (!t)
        return;
    for (int c = 0; c < t->ncpus; c++)
        free(t->cpu[c]);
    free(t->cpu);
    free(t);
}

uint64_t tlb_page_of(const tlb_t *t, uint64_t a)
{
    return (a >> t->page_shift) + 1;
}

uint64_t tlb_max_entries(const tlb_t *t)
{
    return t ? t->max_entries : 0;
}

/* The set of page in level l of cpu (allocating the CPU's arrays). */
static inline uint64_t *set_of(tlb_t *t, int cpu, int l, uint64_t page)
{
    uint64_t *a = t->cpu[cpu];
    if (__builtin_expect(!a, 0)) {
        a = t->cpu[cpu] = xcalloc(t->per_cpu, sizeof *a);
    }
    const tlb_geom_t *L = &t->lv[l];
    return a + t->off[l] + (size_t)(page % L->nsets) * L->ways;
}

int tlb_translate(tlb_t *t, int cpu, uint64_t page, int code)
{
    int l1 = code ? TLB_ITLB1 : TLB_DTLB1, l2 = code ? TLB_ITLB2 : TLB_DTLB2;
    if (!t->lv[l1].present)
        return 0; /* this side is not translated: free */
    uint64_t *s = set_of(t, cpu, l1, page);
    if (s[0] == page)
        return 0;
    if (lru_use(s, t->lv[l1].ways, page))
        return 0;
    if (!t->lv[l2].present)
        return -1;
    return lru_use(set_of(t, cpu, l2, page), t->lv[l2].ways, page) ? 1 : -1;
}

int tlb_first_mru(const tlb_t *t, int cpu, uint64_t page, int code)
{
    int l1 = code ? TLB_ITLB1 : TLB_DTLB1;
    if (!t->lv[l1].present)
        return 1;
    const uint64_t *a = t->cpu[cpu];
    if (!a)
        return 0;
    const tlb_geom_t *L = &t->lv[l1];
    return a[t->off[l1] + (size_t)(page % L->nsets) * L->ways] == page;
}

void tlb_fill_foreign(tlb_t *t, int cpu, uint64_t first, uint64_t n, int code)
{
    if (n > t->max_entries)
        n = t->max_entries;
    for (int side = 0; side <= (code && t->lv[TLB_ITLB1].present); side++)
        for (uint64_t i = 0; i < n; i++)
            tlb_translate(t, cpu, TAG_FOREIGN | (first + i), side);
}

int tlb_holds(const tlb_t *t, int cpu, int level, uint64_t page, int code)
{
    int l = (level ? TLB_DTLB2 : TLB_DTLB1) + (code ? 1 : 0);
    if (!t->lv[l].present || !t->cpu[cpu])
        return 0;
    const tlb_geom_t *L = &t->lv[l];
    const uint64_t *s = t->cpu[cpu] + t->off[l] + (size_t)(page % L->nsets) * L->ways;
    for (uint32_t i = 0; i < L->ways; i++)
        if (s[i] == page)
            return 1;
    return 0;
}
