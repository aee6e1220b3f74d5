/* memory_internal: the state that the files of the memory system share:
 *
 *   coherence.c  the coherence directory: line states, what an access
 *                costs, flushes (the entry points of mem.h)
 *   words.c      memory as words and lines: allocation, peek and poke
 *   translate.c  the TLBs' part of an access: translation and walks
 *   footprint.c  what other code brings into a CPU's caches
 *
 * Calls go one way: coherence.c calls the other three, footprint.c calls
 * translate.c. Not an API: mem.h is.
 */
#ifndef NUMASIM_MEM_INTERNAL_H
#define NUMASIM_MEM_INTERNAL_H

#include "cache.h"
#include "mem.h"
#include "tags.h"
#include "tlb.h"

#include <gsl/gsl_rng.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    int32_t owner;     /* exclusive holder, or -1 */
    uint8_t dirty;     /* owner has modified it */
    uint8_t freed;     /* released by mem_release */
    uint16_t pad;      /* PAD_* flags, below */
    int32_t home;      /* node */
    uint32_t nsharers; /* valid when owner == -1 */
    uint64_t sh0;      /* sharers among CPUs 0-63 (a bitset) */
    uint64_t *shx;     /* sharers from CPU 64 up, 64 a word; allocated on first share */
} line_t;              /* 32 bytes: two a host cache line, and a sharer test no pointer away */

/* Word w of l's sharers, to change (w >= 1 only once shx is allocated). */
static inline uint64_t *sh_word(line_t *l, size_t w)
{
    return w ? &l->shx[w - 1] : &l->sh0;
}

/* Word w of l's sharers, to read. */
static inline uint64_t sh_bits(const line_t *l, size_t w)
{
    return w == 0 ? l->sh0 : l->shx ? l->shx[w - 1] : 0;
}

/* line_t.pad: PAD_MARK: note_held's compaction; PAD_CODE: a code line
 * (mem_mark_code); PAD_FETCHED: fetched through the code side once, so may
 * be in an l1i */
enum { PAD_MARK = 1, PAD_CODE = 2, PAD_FETCHED = 4 };

/* The noise of one instance of a shared level (footprint.c). */
typedef struct {
    uint64_t at;    /* cycle up to which it was applied */
    uint64_t fresh; /* its lines brought in so far */
    double carry;   /* a fraction of a line */
} noise_clock_t;

typedef struct {
    uint64_t *v;
    size_t n, cap;
} lvec_t; /* lines a CPU may hold; stale entries are allowed */

/* mem_access_at's table of lines in transit: direct-mapped, so that a line
 * whose slot another line took since waits for nothing (rare: a transaction
 * lasts a few hundred cycles). */
enum { MEM_BUSY_SLOTS = 1024 };

typedef struct {
    uint64_t line, until; /* until: the cycle its transaction ends */
    int cpu;              /* the writer, which does not wait for itself */
} busy_t;

struct mem {
    const platform_t *p;
    int ncpus, nnodes;
    int line_shift;
    size_t words_per_line, bitset_words;
    uint64_t *words;
    line_t *lines;
    uint64_t nlines, cap_lines;
    size_t lines_map, words_map; /* the mappings' sizes (zmap may give more) */
    lvec_t *held;                /* [ncpus]; without a hierarchy only (note_held) */
    uint64_t *flushed;           /* mem_flush's tags of the last level */
    size_t capflushed;
    uint32_t c_hit, c_atomic, c_local, c_c2c, c_dirty, c_inval, c_insn;
    uint32_t jitter;
    gsl_rng *rng;
    uint64_t count[ACCESS_NKINDS];
    uint64_t freed_writes;
    /* the hierarchy (NULL: infinite caches) and its per-CPU state */
    hier_t *hier;
    int last_level;
    uint32_t lvl_cycles[CACHE_NLEVELS];
    uint32_t hit_cost[3][CACHE_NLEVELS + 1]; /* mem_hit's [op][level + 1], c_insn in */
    uint64_t *evictions;                     /* [ncpus] lines lost by capacity */
    uint64_t *footprint_evictions;           /* [ncpus] of them, while a footprint came in */
    int in_footprint;
    uint64_t *fresh;                            /* [ncpus] footprint lines brought in so far */
    double *work_carry, *noise_carry;           /* [ncpus] fractions of a footprint line */
    uint64_t *noise_at;                         /* [ncpus] cycle up to which noise was applied */
    noise_clock_t *shared_noise[CACHE_NLEVELS]; /* [instances] of a level CPUs share, or NULL */
    /* the TLBs (NULL: translation is free) */
    tlb_t *tlb;
    uint32_t tlb_cyc[TLB_NLEVELS], c_walk;
    uint64_t fp_lines_per_page; /* a footprint's lines in one page (footprint_lines_per_page) */
    uint64_t page_lines;        /* lines in a page (page_bytes / line_bytes) */
    int ptes_per_line_shift;    /* log2 of the 8-byte page-table entries of a line */
    int walk_levels;            /* page-table levels a walk reads (platform walk_levels) */
    int xl_level;               /* the last access's translation: 0, 1 or -1 (walk) */
    uint32_t xl_cost;           /* and its cost */
    /* mem_access_at's lines whose ownership is moving, by line % MEM_BUSY_SLOTS */
    busy_t busy[MEM_BUSY_SLOTS];
    uint64_t busy_waits, busy_cycles; /* accesses that waited, and how long */
};

static inline uint32_t mem_cycles(double v)
{
    return (uint32_t)(v + 0.5);
}

/* The line of address a, which must have been allocated. */
static inline line_t *line_at(const mem_t *m, maddr_t a)
{
    uint64_t i = a >> m->line_shift;
    if (i == 0 || i >= m->nlines)
        abort(); /* a simulator bug: an address that was never allocated */
    return &m->lines[i];
}

static inline int is_sharer(const line_t *l, int cpu)
{
    if (cpu < 64)
        return l->sh0 >> cpu & 1;
    return l->shx && (l->shx[(cpu >> 6) - 1] >> (cpu & 63) & 1);
}

/* Does cpu hold l, exclusive or shared? (& rather than &&: one branch on
 * the answer, not one per term.) */
static inline int line_held(const line_t *l, int cpu)
{
    return (l->owner == cpu) | ((l->owner < 0) & is_sharer(l, cpu));
}

/* words.c: the first lines and words of m (line 0 holds address 0 and
 * is never allocated), and handing them back. */
void mem_words_init(mem_t *m);
void mem_words_free(mem_t *m);

/* translate.c: m's TLBs from its platform (none: m->tlb NULL). */
void mem_translate_init(mem_t *m);
/* cpu translates a on side (code 1, data 0): what it costs, the walk's
 * page-table read included, and m->xl_level, m->xl_cost set. Comes first
 * in an access: the walk's read can evict the line the access wants, as
 * it would on the machine. Only with TLBs. */
uint32_t mem_translate(mem_t *m, int cpu, maddr_t a, int code);
/* The pages of foreign lines first..last (numbers under base), at
 * fp_lines_per_page lines a page, go through cpu's data TLBs, in order,
 * and with code through its code TLBs too. */
void mem_translate_foreign(mem_t *m, int cpu, uint64_t base, uint64_t first, uint64_t last,
                           int code);

/* footprint.c: the footprints' per-CPU state (with levels only). */
void mem_footprint_init(mem_t *m);
void mem_footprint_free(mem_t *m);

#endif
