/* words: simulated memory as 64-bit words, carved into lines of
 * line_bytes (the platform's), each with a home node. Allocation only
 * grows: an address is never reused, so a freed object's later writes can
 * be counted (mem_freed_writes).
 */
#define _GNU_SOURCE /* mremap */
#include "memory_internal.h"
#include "zmap.h"

#include <string.h>
#include <sys/mman.h>

/* The lines and words grow as a run allocates, in anonymous mappings
 * (zmap.h: reused by the next machine of the process, zeroed): a mapping
 * grows without a copy (mremap) and its new pages read zero, so a fresh
 * line's words need no memset (lines are never reused). *map is the
 * mapping's size. */
static void *grow_zeroed(void *p, size_t *map, size_t new_bytes)
{
    if (!p)
        return zmap_get(new_bytes, map, ZMAP_HUGE); /* fewer TLB misses at thousands of CPUs */
    if (new_bytes <= *map)
        return p;
    void *q = mremap(p, *map, new_bytes, MREMAP_MAYMOVE);
    if (q == MAP_FAILED)
        abort();
    madvise(q, new_bytes, MADV_HUGEPAGE);
    *map = new_bytes;
    return q;
}

void mem_words_init(mem_t *m)
{
    uint64_t guard = MEM_NULL_GUARD_BYTES >> m->line_shift;
    m->cap_lines = 1024;
    while (m->cap_lines < 2 * guard)
        m->cap_lines *= 2;
    m->lines = grow_zeroed(NULL, &m->lines_map, m->cap_lines * sizeof *m->lines);
    m->words =
        grow_zeroed(NULL, &m->words_map, m->cap_lines * m->words_per_line * sizeof *m->words);
    for (uint64_t i = 0; i < guard; i++)
        m->lines[i].owner = -1;
    m->nlines = guard; /* the NULL guard: never allocated */
}

void mem_words_free(mem_t *m)
{
    zmap_put(m->lines, m->lines_map, m->nlines * sizeof *m->lines);
    zmap_put(m->words, m->words_map, m->nlines * m->words_per_line * sizeof *m->words);
}

maddr_t mem_alloc(mem_t *m, int node, size_t bytes)
{
    uint64_t n = (bytes + ((size_t)1 << m->line_shift) - 1) >> m->line_shift;
    if (n == 0)
        n = 1;
    uint64_t first = m->nlines;
    if (m->nlines + n > m->cap_lines) {
        uint64_t cap = m->cap_lines;
        while (cap < m->nlines + n)
            cap *= 2;
        m->lines = grow_zeroed(m->lines, &m->lines_map, sizeof *m->lines * cap);
        m->words = grow_zeroed(m->words, &m->words_map, sizeof *m->words * m->words_per_line * cap);
        m->cap_lines = cap;
    }
    for (uint64_t i = first; i < first + n; i++) { /* zero but for these */
        m->lines[i].owner = -1;
        m->lines[i].home = node;
    }
    m->nlines += n;
    return (maddr_t)first << m->line_shift;
}

uint64_t mem_line_of(const mem_t *m, maddr_t a)
{
    return a >> m->line_shift;
}

int mem_home(const mem_t *m, maddr_t a)
{
    return line_at(m, a)->home;
}

void mem_release(mem_t *m, maddr_t a, size_t bytes)
{
    for (uint64_t li = a >> m->line_shift; bytes && li <= (a + bytes - 1) >> m->line_shift; li++)
        line_at(m, li << m->line_shift)->freed = 1;
}

int mem_is_freed(const mem_t *m, maddr_t a)
{
    return line_at(m, a)->freed;
}

__attribute__((always_inline)) inline uint64_t mem_word(const mem_t *m, maddr_t a)
{
    return m->words[a >> 3];
}

__attribute__((always_inline)) inline void mem_set_word(mem_t *m, maddr_t a, uint64_t v)
{
    m->words[a >> 3] = v;
}

uint64_t mem_peek(const mem_t *m, maddr_t a)
{
    line_at(m, a);
    return m->words[a >> 3];
}

void mem_poke(mem_t *m, maddr_t a, uint64_t v)
{
    line_at(m, a);
    m->words[a >> 3] = v;
}

void mem_poke_words(mem_t *m, maddr_t a, const uint64_t *v, size_t n)
{
    if (!n)
        return;
    line_at(m, a); /* the two ends: allocations are contiguous */
    line_at(m, a + (maddr_t)(8 * (n - 1)));
    memcpy(&m->words[a >> 3], v, sizeof *v * n);
}

void mem_mark_code(mem_t *m, maddr_t a, size_t bytes)
{
    for (uint64_t li = a >> m->line_shift; bytes && li <= (a + bytes - 1) >> m->line_shift; li++)
        line_at(m, li << m->line_shift)->pad |= PAD_CODE;
}
