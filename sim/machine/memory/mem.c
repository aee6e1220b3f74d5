/* mem: cache-coherence model. Theory of operation.
 *
 * State per line: `owner` (the CPU holding it exclusive, E or M; -1 if none)
 * or a set of sharers (S). A CPU of node n accessing a line homed on node h
 * pays, in cycles (figures from the platform; lat[a][b] is the round trip
 * between nodes a and b along SimGrid's route):
 *
 *   found                         | cost
 *   ------------------------------+-------------------------------------------
 *   held, op allowed              | hit_cycles (atomic_cycles for an RMW)
 *   clean, home local             | mem_local_cycles
 *   clean, home remote            | mem_local_cycles + lat[n][h]
 *   modified on this node's bus   | c2c_node_cycles
 *   modified in node m != n       | mem_local_cycles + lat3(n,h,m)
 *                                 |   + remote_dirty_cycles
 *   write: other sharers exist    | max(fetch, invalidation), where the
 *                                 |   invalidation is inval_node_cycles on the
 *                                 |   bus, or lat3(n,h,s) for the farthest
 *                                 |   sharer node s
 *
 * lat3(n,h,m) = (lat[n][h] + lat[h][m] + lat[m][n]) / 2: the three legs
 * requester -> home directory -> owner -> requester, each half a round trip.
 * It is lat[n][m] when the home is one of the two ends. An RMW costs the
 * acquisition plus atomic_cycles (IA-64 atomics execute in L2).
 *
 * Without cache levels in the platform, caches are infinite (no capacity
 * misses): a warm cache stays warm except for what other CPUs write.
 *
 * With levels (cache.c), the same states say which CPUs hold a line, and the
 * hierarchy says where: a hit costs the latency of the first level that has
 * the line (an atomic: atomic_cycles, as before; a store: l2's latency at
 * least when l1d is write-through), a line that a neighbour
 * brought into a shared level costs that level's latency instead of memory,
 * and a line leaving the last level is no longer held (a dirty one is
 * written back at no cost to the CPU: its write-back buffer). Another
 * CPU's write removes the line from every level of the CPUs it invalidates.
 * Code is fetched through the instruction side (mem_fetch_code): an L1I hit
 * costs nothing beyond the instructions, a miss its level's latency or,
 * from memory, a miss of the table above. Footprints (mem_footprint_*) bring
 * foreign lines into a CPU's levels, which evict by LRU.
 *
 * The common access (mem_hit): a read of a held line, or a write of an
 * owned one, found in the first level changes no state but that set's LRU
 * order, the counters and the dirty bit, so it skips the paths above;
 * anything else is mem_access.
 */
#define _GNU_SOURCE /* mremap */
#include "mem.h"
#include "cache.h"
#include "tlb.h"
#include "zmap.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* PAD_MARK: note_held's compaction; PAD_CODE: a code line (mem_mark_code);
 * PAD_FETCHED: fetched through the code side once, so may be in an l1i */
enum { PAD_MARK = 1, PAD_CODE = 2, PAD_FETCHED = 4 };

typedef struct {
    uint64_t *v;
    size_t n, cap;
} lvec_t; /* lines a CPU may hold; stale entries are allowed */

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
    uint64_t *fresh;                  /* [ncpus] footprint lines brought in so far */
    double *work_carry, *noise_carry; /* [ncpus] fractions of a footprint line */
    uint64_t *noise_at;               /* [ncpus] cycle up to which noise was applied */
    /* the TLBs (NULL: translation is free) */
    tlb_t *tlb;
    uint32_t tlb_cyc[TLB_NLEVELS], c_walk;
    uint64_t fp_lines_per_page; /* a footprint's lines in one page (footprint_lines_per_page) */
    uint64_t page_lines;        /* lines in a page (page_bytes / line_bytes) */
    int ptes_per_line_shift;    /* log2 of the 8-byte page-table entries of a line */
    int xl_level;               /* the last access's translation: 0, 1 or -1 (walk) */
    uint32_t xl_cost;           /* and its cost */
};

static void drop_line(void *ctx, int cpu, uint64_t li);

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

static uint32_t cyc(double v)
{
    return (uint32_t)(v + 0.5);
}

mem_t *mem_create(const platform_t *p)
{
    mem_t *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    m->p = p;
    m->ncpus = p->ncpus;
    m->nnodes = p->nnodes;
    while ((1 << m->line_shift) < p->line_bytes)
        m->line_shift++;
    m->words_per_line = (size_t)p->line_bytes / 8;
    m->bitset_words = ((size_t)p->ncpus + 63) / 64;
    m->held = calloc((size_t)p->ncpus, sizeof *m->held);
    if (!m->held)
        abort();
    m->c_hit = cyc(p->costs.hit_cycles);
    m->c_atomic = cyc(p->costs.atomic_cycles);
    m->c_local = cyc(p->costs.mem_local_cycles);
    m->c_c2c = cyc(p->costs.c2c_node_cycles);
    m->c_dirty = cyc(p->costs.remote_dirty_cycles);
    m->c_inval = cyc(p->costs.inval_node_cycles);
    m->c_insn = cyc(p->costs.insn_cycles);
    m->cap_lines = 1024;
    m->lines = grow_zeroed(NULL, &m->lines_map, m->cap_lines * sizeof *m->lines);
    m->words =
        grow_zeroed(NULL, &m->words_map, m->cap_lines * m->words_per_line * sizeof *m->words);
    m->lines[0].owner = -1;
    m->nlines = 1; /* line 0 holds address 0: never allocated */
    m->last_level = -1;
    m->hier = hier_create(p, drop_line, m);
    m->tlb = tlb_create(p);
    m->page_lines = (uint64_t)((p->page_bytes > 0 ? p->page_bytes : 4096) / p->line_bytes);
    if (m->page_lines < 1)
        m->page_lines = 1;
    m->fp_lines_per_page =
        p->footprint_lines_per_page > 0 ? (uint64_t)p->footprint_lines_per_page : m->page_lines;
    if (m->tlb) {
        for (int l = 0; l < TLB_NLEVELS; l++)
            m->tlb_cyc[l] = cyc(p->tlb[l].cycles);
        m->c_walk = cyc(p->walk_cycles);
        while ((8 << m->ptes_per_line_shift) < p->line_bytes)
            m->ptes_per_line_shift++;
    }
    if (m->hier) {
        for (int l = 0; l < CACHE_NLEVELS; l++)
            m->lvl_cycles[l] = hier_cycles(m->hier, l);
        size_t n = (size_t)p->ncpus;
        m->evictions = calloc(n, sizeof *m->evictions);
        m->footprint_evictions = calloc(n, sizeof *m->footprint_evictions);
        m->fresh = calloc(n, sizeof *m->fresh);
        m->work_carry = calloc(n, sizeof *m->work_carry);
        m->noise_carry = calloc(n, sizeof *m->noise_carry);
        m->noise_at = calloc(n, sizeof *m->noise_at);
        if (!m->evictions || !m->footprint_evictions || !m->fresh || !m->work_carry ||
            !m->noise_carry || !m->noise_at)
            abort();
    }
    for (int op = MEM_READ; op <= MEM_RMW; op++)
        for (int lvl = -1; lvl < CACHE_NLEVELS; lvl++) {
            uint32_t hit = lvl >= 0 ? m->lvl_cycles[lvl] : m->c_hit;
            if (op == MEM_WRITE && lvl == CACHE_L1D && p->l1d_write_through)
                hit = m->lvl_cycles[CACHE_L2];
            if (op == MEM_RMW)
                hit = m->c_atomic;
            m->hit_cost[op][lvl + 1] = hit + m->c_insn;
        }
    return m;
}

void mem_destroy(mem_t *m)
{
    if (!m)
        return;
    for (uint64_t i = 0; i < m->nlines; i++)
        free(m->lines ? m->lines[i].shx : NULL);
    for (int c = 0; c < m->ncpus; c++)
        free(m->held[c].v);
    free(m->held);
    free(m->flushed);
    hier_destroy(m->hier);
    tlb_destroy(m->tlb);
    free(m->evictions);
    free(m->footprint_evictions);
    free(m->fresh);
    free(m->work_carry);
    free(m->noise_carry);
    free(m->noise_at);
    zmap_put(m->lines, m->lines_map, m->nlines * sizeof *m->lines);
    zmap_put(m->words, m->words_map, m->nlines * m->words_per_line * sizeof *m->words);
    if (m->rng)
        gsl_rng_free(m->rng);
    free(m);
}

void mem_set_jitter(mem_t *m, uint32_t max_cycles, unsigned long seed)
{
    m->jitter = max_cycles;
    if (!m->rng)
        m->rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(m->rng, seed);
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

static line_t *line_at(const mem_t *m, maddr_t a)
{
    uint64_t i = a >> m->line_shift;
    if (i == 0 || i >= m->nlines)
        abort(); /* a simulator bug: an address that was never allocated */
    return &m->lines[i];
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

static int is_sharer(const line_t *l, int cpu)
{
    if (cpu < 64)
        return l->sh0 >> cpu & 1;
    return l->shx && (l->shx[(cpu >> 6) - 1] >> (cpu & 63) & 1);
}

int mem_holds(const mem_t *m, int cpu, maddr_t a)
{
    const line_t *l = line_at(m, a);
    return l->owner == cpu || (l->owner < 0 && is_sharer(l, cpu));
}

/* always_inline (here and mem_hit): on most stores and accesses, from
 * order.c and simulated.c; link-time optimisation inlines them there, a
 * build without it calls them. */
__attribute__((always_inline)) inline void mem_holders(const mem_t *m, maddr_t a, int except,
                                                       uint64_t *bits, size_t words, uint64_t *sum)
{
    const line_t *l = line_at(m, a);
    if (words == 1) { /* up to 64 CPUs: no memset calls */
        bits[0] = sum[0] = 0;
    } else {
        memset(bits, 0, sizeof *bits * words);
        memset(sum, 0, sizeof *sum * ((words + 63) / 64));
    }
    if (l->owner >= 0) {
        size_t w = (size_t)l->owner / 64;
        if (w < words && l->owner != except) {
            bits[w] |= 1ull << (l->owner % 64);
            sum[w / 64] |= 1ull << (w % 64);
        }
    } else if (l->nsharers) {
        size_t n = words < m->bitset_words ? words : m->bitset_words;
        size_t ew = except >= 0 ? (size_t)except / 64 : SIZE_MAX;
        uint64_t ebit = except >= 0 ? 1ull << (except % 64) : 0;
        for (size_t w = 0; w < n; w++) /* only a shared line pays a walk */
            if ((bits[w] = sh_bits(l, w) & ~(w == ew ? ebit : 0)))
                sum[w / 64] |= 1ull << (w % 64);
    }
}

static void note_held(mem_t *m, int cpu, uint64_t line)
{
    if (m->hier)
        return; /* mem_flush finds cpu's lines in its last level */
    lvec_t *h = &m->held[cpu];
    if (h->n == h->cap) {
        /* Compact: keep only lines still held, once each. */
        size_t k = 0;
        for (size_t i = 0; i < h->n; i++) {
            line_t *l = &m->lines[h->v[i]];
            if ((l->owner == cpu || (l->owner < 0 && is_sharer(l, cpu))) && !(l->pad & PAD_MARK)) {
                l->pad |= PAD_MARK;
                h->v[k++] = h->v[i];
            }
        }
        for (size_t i = 0; i < k; i++)
            m->lines[h->v[i]].pad &= (uint16_t)~PAD_MARK;
        h->n = k;
        /* more than a quarter still held: grow, so that a compaction's walk
         * is paid for by at least cap * 3/4 notes (also grows the first,
         * empty list) */
        if (h->n * 4 >= h->cap) {
            h->cap = h->cap ? h->cap * 2 : 64;
            h->v = realloc(h->v, sizeof *h->v * h->cap);
            if (!h->v)
                abort();
        }
    }
    h->v[h->n++] = line;
}

static void add_sharer(mem_t *m, line_t *l, int cpu, uint64_t li)
{
    if (cpu >= 64 && !l->shx) {
        l->shx = calloc(m->bitset_words - 1, sizeof *l->shx);
        if (!l->shx)
            abort();
    }
    if (!is_sharer(l, cpu)) {
        *sh_word(l, (size_t)cpu >> 6) |= 1ull << (cpu & 63);
        l->nsharers++;
        note_held(m, cpu, li);
    }
}

static void clear_sharers(line_t *l, size_t words)
{
    if (l->nsharers) {
        l->sh0 = 0;
        if (words > 1 && l->shx) /* over 64 CPUs */
            memset(l->shx, 0, sizeof *l->shx * (words - 1));
    }
    l->nsharers = 0;
}

static uint32_t lat(const mem_t *m, int a, int b)
{
    return platform_node_lat(m->p, a, b);
}

static uint32_t lat3(const mem_t *m, int n, int h, int o)
{
    return (lat(m, n, h) + lat(m, h, o) + lat(m, o, n)) / 2;
}

/* Cost of bringing the line to cpu's node for a read, and what was found. */
static uint32_t fetch_cost(const mem_t *m, const line_t *l, int n, access_kind_t *kind)
{
    if (l->owner >= 0 && l->dirty) {
        int o = m->p->cpu_node[l->owner];
        if (o == n) {
            *kind = ACCESS_C2C_NODE;
            return m->c_c2c;
        }
        *kind = ACCESS_C2C_REMOTE;
        return m->c_local + lat3(m, n, l->home, o) + m->c_dirty;
    }
    if (l->home == n) {
        *kind = ACCESS_MISS_LOCAL;
        return m->c_local;
    }
    *kind = ACCESS_MISS_REMOTE;
    return m->c_local + lat(m, n, l->home);
}

/* Cost for cpu (node n) to invalidate every other copy of the line. */
static uint32_t inval_cost(const mem_t *m, const line_t *l, int cpu, int n)
{
    uint32_t worst = 0;
    if (l->owner >= 0 && l->owner != cpu) {
        int o = m->p->cpu_node[l->owner];
        return o == n ? m->c_inval : lat3(m, n, l->home, o);
    }
    if (l->nsharers == 0)
        return 0;
    for (size_t w = 0; w < m->bitset_words; w++) {
        uint64_t bits = sh_bits(l, w);
        while (bits) {
            int s = (int)(w * 64) + __builtin_ctzll(bits);
            bits &= bits - 1;
            if (s == cpu)
                continue;
            int sn = m->p->cpu_node[s];
            uint32_t c = sn == n ? m->c_inval : lat3(m, n, l->home, sn);
            worst = c > worst ? c : worst;
        }
    }
    return worst;
}

/* cpu read line li, which it did not hold: it becomes E if nobody else had
 * it, else a sharer (an exclusive holder drops to S). */
static void read_fill(mem_t *m, line_t *l, int cpu, uint64_t li)
{
    if (l->owner >= 0) { /* the exclusive holder drops to S */
        int o = l->owner;
        l->owner = -1;
        l->dirty = 0;
        clear_sharers(l, m->bitset_words);
        add_sharer(m, l, o, li);
        add_sharer(m, l, cpu, li);
    } else if (l->nsharers == 0) {
        l->owner = cpu; /* E: nobody else has it */
        l->dirty = 0;
        note_held(m, cpu, li);
    } else {
        add_sharer(m, l, cpu, li);
    }
}

/* cpu is about to own line li: every other copy leaves every level of the
 * CPUs that held it, but for the levels they share with cpu. */
static void unlevel_others(mem_t *m, const line_t *l, int cpu, uint64_t li)
{
    int fetched = l->pad & PAD_FETCHED;
    if (l->owner >= 0 && l->owner != cpu)
        hier_remove(m->hier, l->owner, li, cpu, fetched);
    if (l->owner >= 0 || !l->nsharers)
        return;
    for (size_t w = 0; w < m->bitset_words; w++)
        for (uint64_t bits = sh_bits(l, w); bits; bits &= bits - 1) {
            int s = (int)(w * 64) + __builtin_ctzll(bits);
            if (s != cpu)
                hier_remove(m->hier, s, li, cpu, fetched);
        }
}

/* The level of cpu's hierarchy that serves line li on side (LRU updated,
 * the levels above filled), or -1: no hierarchy, or not cached where cpu
 * reaches, or a shared level's copy that another CPU has since modified. */
static int level_of(mem_t *m, const line_t *l, int cpu, uint64_t li, int held, hier_side_t side)
{
    if (!m->hier)
        return -1;
    /* not held: in none of cpu's private levels (inclusion), see cache.c */
    int lvl =
        held ? hier_access(m->hier, cpu, li, side) : hier_access_unheld(m->hier, cpu, li, side);
    if (held && lvl < 0)
        abort(); /* a simulator bug: inclusion says a held line is in the last level */
    if (!held && l->owner >= 0 && l->dirty)
        return -1;
    return lvl;
}

/* The page-table entries' lines: foreign (never shared, never written
 * back), one tag for every ptes-per-line pages, the same for all CPUs. */
#define PTE_TAG (HIER_FOREIGN | 1ull << 60)

/* cpu translates a on side (code 1, data 0): what it costs, the walk's
 * page-table read included. Comes first in an access: the walk's read can
 * evict the line the access wants, as it would on the machine. */
static uint32_t translate(mem_t *m, int cpu, maddr_t a, int code)
{
    uint64_t page = tlb_page_of(m->tlb, a);
    int l = tlb_translate(m->tlb, cpu, page, code);
    m->xl_level = l;
    if (l >= 0)
        return m->xl_cost = m->tlb_cyc[2 * l + code];
    int lvl = hier_access(m->hier, cpu, PTE_TAG | page >> m->ptes_per_line_shift, HIER_DATA);
    return m->xl_cost = m->c_walk + (lvl >= 0 ? m->lvl_cycles[lvl] : m->c_local);
}

uint32_t mem_access(mem_t *m, int cpu, maddr_t a, mem_op_t op, access_kind_t *kind_out)
{
    uint32_t xlate = m->tlb ? translate(m, cpu, a, 0) : 0;
    uint64_t li = a >> m->line_shift;
    line_t *l = line_at(m, a);
    int n = m->p->cpu_node[cpu];
    access_kind_t kind;
    uint32_t cost;

    if (op != MEM_READ && l->freed)
        m->freed_writes++;
    int held = l->owner == cpu || (l->owner < 0 && is_sharer(l, cpu));
    int lvl = level_of(m, l, cpu, li, held, HIER_DATA);
    uint32_t hit = lvl >= 0 ? m->lvl_cycles[lvl] : m->c_hit;
    if (op == MEM_WRITE && lvl == CACHE_L1D && m->p->l1d_write_through)
        hit = m->lvl_cycles[CACHE_L2]; /* the store completes in l2 */

    if (op == MEM_READ) {
        if (held) {
            kind = ACCESS_HIT;
            cost = hit;
        } else {
            if (lvl >= 0) { /* a neighbour brought it into a shared level */
                kind = ACCESS_HIT;
                cost = hit;
            } else {
                cost = fetch_cost(m, l, n, &kind);
            }
            read_fill(m, l, cpu, li);
        }
    } else {
        if (l->owner == cpu) {
            kind = ACCESS_HIT;
            cost = 0;
        } else if (l->owner < 0 && is_sharer(l, cpu)) {
            kind = ACCESS_UPGRADE;
            uint32_t dir = l->home == n ? m->c_inval : lat(m, n, l->home);
            uint32_t inv = inval_cost(m, l, cpu, n);
            cost = inv > dir ? inv : dir;
        } else {
            uint32_t f = lvl >= 0 ? hit : fetch_cost(m, l, n, &kind);
            uint32_t inv = inval_cost(m, l, cpu, n);
            cost = f > inv ? f : inv;
            if (lvl >= 0) { /* from a shared level: a hit, unless copies must go */
                kind = inv ? ACCESS_UPGRADE : ACCESS_HIT;
                cost = inv ? cost : 0; /* a hit's cost is added below */
            }
            note_held(m, cpu, li);
        }
        if (m->hier)
            unlevel_others(m, l, cpu, li);
        clear_sharers(l, m->bitset_words);
        l->owner = cpu;
        l->dirty = 1;
        cost += op == MEM_RMW ? m->c_atomic : (kind == ACCESS_HIT ? hit : 0);
    }
    cost += m->c_insn + xlate; /* the code around the access (0 but on measured hosts) */
    if (kind != ACCESS_HIT && m->jitter && m->rng)
        cost += (uint32_t)gsl_rng_uniform_int(m->rng, (unsigned long)m->jitter + 1);
    m->count[kind]++;
    m->last_level = kind == ACCESS_HIT ? lvl : -1;
    if (kind_out)
        *kind_out = kind;
    return cost;
}

__attribute__((always_inline)) inline int mem_hit(mem_t *m, int cpu, maddr_t a, mem_op_t op,
                                                  uint32_t *cost)
{
    line_t *l = line_at(m, a);
    /* & and |: one branch on the answer, not one per term */
    if (!((l->owner == cpu) | ((op == MEM_READ) & (l->owner < 0) & is_sharer(l, cpu))))
        return 0;
    int lvl = -1, way = 0;
    if (m->hier && (way = hier_first_way(m->hier, cpu, a >> m->line_shift, HIER_DATA, &lvl)) < 0)
        return 0;
    /* before the line moves: a walk's fill must find the LRU order as is */
    if (m->tlb && !tlb_first_mru(m->tlb, cpu, tlb_page_of(m->tlb, a), 0))
        return 0;
    if (way > 0) /* in the first level, not the most recent: hier_access's move only */
        hier_first_promote(m->hier, cpu, a >> m->line_shift, HIER_DATA, way);
    /* what mem_access does in this case, and nothing else */
    if (op != MEM_READ) {
        m->freed_writes += l->freed;
        l->dirty = 1;
    }
    *cost = m->hit_cost[op][lvl + 1];
    m->count[ACCESS_HIT]++;
    m->last_level = lvl;
    return 1;
}

uint32_t mem_fetch_code(mem_t *m, int cpu, maddr_t a, access_kind_t *kind_out, int *level)
{
    uint32_t xlate = m->tlb ? translate(m, cpu, a, 1) : 0;
    uint64_t li = a >> m->line_shift;
    line_t *l = line_at(m, a);
    access_kind_t kind = ACCESS_HIT;
    uint32_t cost;
    int held = l->owner == cpu || (l->owner < 0 && is_sharer(l, cpu));
    if (m->hier)
        l->pad |= PAD_FETCHED;
    int lvl = level_of(m, l, cpu, li, held, HIER_CODE);
    if (held) /* an L1I hit (or an infinite cache's) is in the instructions' own cycles */
        cost = lvl < 0 || lvl == CACHE_L1I ? 0 : m->lvl_cycles[lvl];
    else {
        cost = lvl >= 0 ? m->lvl_cycles[lvl] : fetch_cost(m, l, m->p->cpu_node[cpu], &kind);
        read_fill(m, l, cpu, li);
    }
    if (kind != ACCESS_HIT && m->jitter && m->rng)
        cost += (uint32_t)gsl_rng_uniform_int(m->rng, (unsigned long)m->jitter + 1);
    cost += xlate;
    *kind_out = kind;
    *level = kind == ACCESS_HIT ? lvl : -1;
    return cost;
}

int mem_fetch_code_private_hit(mem_t *m, int cpu, maddr_t a)
{
    if (!m->hier || !m->p->cache[CACHE_L1I].bytes)
        return 0;
    if (m->tlb && !tlb_first_mru(m->tlb, cpu, tlb_page_of(m->tlb, a), 1))
        return 0;
    /* in l1i means held: inclusion keeps it in the last level, and a line
     * that leaves the last level or is invalidated leaves l1i too */
    return hier_touch_private(m->hier, cpu, CACHE_L1I, a >> m->line_shift);
}

uint64_t mem_code_version(const mem_t *m, int cpu)
{
    return m->hier && m->p->cache[CACHE_L1I].bytes && !m->tlb
               ? hier_version(m->hier, cpu, CACHE_L1I) + 1
               : 0;
}

/* cpu stops holding line l (a dirty line is written back: memory has its
 * words already). Returns 0 when cpu did not hold it. */
static int let_go(line_t *l, int cpu)
{
    if (l->owner == cpu) {
        l->owner = -1;
        l->dirty = 0;
    } else if (l->owner < 0 && is_sharer(l, cpu)) {
        *sh_word(l, (size_t)cpu >> 6) &= ~(1ull << (cpu & 63));
        l->nsharers--;
    } else {
        return 0;
    }
    return 1;
}

/* The hierarchy let go of line li for cpu (capacity). */
static void drop_line(void *ctx, int cpu, uint64_t li)
{
    mem_t *m = ctx;
    if (!let_go(&m->lines[li], cpu))
        return;
    m->evictions[cpu]++;
    if (m->in_footprint)
        m->footprint_evictions[cpu]++;
}

/* cpu's flush let go of line li: it leaves cpu's private levels (emptied
 * after) and the shared ones that no other CPU there still holds. */
static void unlevel_flushed(mem_t *m, int cpu, uint64_t li)
{
    const line_t *l = &m->lines[li];
    for (int lv = 0; lv < CACHE_NLEVELS; lv++) {
        int k;
        const int *who = hier_members(m->hier, (cache_level_t)lv, cpu, &k);
        int kept = 0;
        for (int i = 0; i < k && !kept; i++)
            kept = who[i] != cpu && (l->owner == who[i] || (l->owner < 0 && is_sharer(l, who[i])));
        if (k > 1 && !kept)
            hier_remove_at(m->hier, cpu, (cache_level_t)lv, li);
    }
}

/* hier_flush_private's keep: the code lines a data-only flush leaves. */
static int keep_code(void *ctx, uint64_t tag)
{
    const mem_t *m = ctx;
    return !(tag & HIER_FOREIGN) && (m->lines[tag].pad & PAD_CODE);
}

void mem_mark_code(mem_t *m, maddr_t a, size_t bytes)
{
    for (uint64_t li = a >> m->line_shift; bytes && li <= (a + bytes - 1) >> m->line_shift; li++)
        line_at(m, li << m->line_shift)->pad |= PAD_CODE;
}

/* With a hierarchy, the lines cpu holds are in its last level (inclusion),
 * where a flush finds them: no list is kept as they come, one miss at a
 * time. The lines are let go in another order than they came, to the same
 * end: letting go of one changes no other. */
void mem_flush(mem_t *m, int cpu, int with_code)
{
    if (m->hier) {
        size_t n = hier_last_tags(m->hier, cpu, &m->flushed, &m->capflushed);
        for (size_t i = 0; i < n; i++) {
            line_t *l = &m->lines[m->flushed[i]];
            if (((l->pad & PAD_CODE) && !with_code) || !let_go(l, cpu))
                continue;
            unlevel_flushed(m, cpu, m->flushed[i]);
        }
        hier_flush_private(m->hier, cpu, with_code ? NULL : keep_code, m);
        return;
    }
    lvec_t *h = &m->held[cpu];
    size_t kept = 0;
    for (size_t i = 0; i < h->n; i++) {
        line_t *l = &m->lines[h->v[i]];
        if ((l->pad & PAD_CODE) && !with_code) {
            h->v[kept++] = h->v[i]; /* still held: stays on the list */
            continue;
        }
        let_go(l, cpu);
    }
    h->n = kept;
}

/* --- footprints ------------------------------------------------------------ */

#define FRESH_MASK ((1ull << 40) - 1)

/* The pages of foreign lines first..last (line numbers under base), at
 * footprint_lines_per_page lines a page, go through cpu's data TLBs, in
 * order. */
static void foreign_pages(mem_t *m, int cpu, uint64_t base, uint64_t first, uint64_t last)
{
    uint64_t p0 = first / m->fp_lines_per_page, p1 = last / m->fp_lines_per_page;
    uint64_t n = p1 - p0 + 1, cap = tlb_max_entries(m->tlb);
    if (n > cap) {
        p0 += n - cap;
        n = cap;
    }
    tlb_fill_foreign(m->tlb, cpu, (base & ~HIER_FOREIGN) | (p0 & FRESH_MASK), n);
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

/* Brings lines (plus the fraction carried) of fresh foreign data into cpu. */
static void fill_fresh(mem_t *m, int cpu, double lines, double *carry)
{
    double t = *carry + lines;
    uint64_t k = (uint64_t)t;
    *carry = t - (double)k;
    uint64_t cap = hier_max_lines(m->hier);
    if (k > cap) { /* beyond the largest level, more lines evict nothing more */
        m->fresh[cpu] += k - cap;
        k = cap;
    }
    uint64_t base = HIER_FOREIGN | (uint64_t)cpu << 40;
    m->in_footprint = 1;
    for (uint64_t i = 0; i < k; i++)
        hier_access(m->hier, cpu, base | (fresh_line(m, m->fresh[cpu] + i) & FRESH_MASK),
                    HIER_DATA);
    m->in_footprint = 0;
    if (m->tlb && k) /* the pages of those lines */
        foreign_pages(m, cpu, base, m->fresh[cpu], m->fresh[cpu] + k - 1);
    m->fresh[cpu] += k;
}

void mem_footprint_tick(mem_t *m, int cpu)
{
    uint64_t n = (uint64_t)(m->p->footprint.tick_lines + 0.5);
    if (!m->hier || !n)
        return;
    m->in_footprint = 1;
    hier_fill_foreign(m->hier, cpu, HIER_FOREIGN | 1ull << 61 | (uint64_t)cpu << 40, n);
    m->in_footprint = 0;
    if (m->tlb)
        foreign_pages(m, cpu, 1ull << 61 | (uint64_t)cpu << 40, 0, n - 1);
}

void mem_footprint_work(mem_t *m, int cpu, uint64_t cycles)
{
    double rate = m->p->footprint.work_per_mcycle;
    if (m->hier && rate > 0)
        fill_fresh(m, cpu, (double)cycles * rate / 1e6, &m->work_carry[cpu]);
}

void mem_footprint_time(mem_t *m, int cpu, uint64_t now)
{
    double rate = m->p->footprint.noise_per_mcycle;
    if (!m->hier || rate <= 0 || now <= m->noise_at[cpu])
        return;
    uint64_t dt = now - m->noise_at[cpu];
    m->noise_at[cpu] = now;
    fill_fresh(m, cpu, (double)dt * rate / 1e6, &m->noise_carry[cpu]);
}

int mem_has_tlbs(const mem_t *m)
{
    return m->tlb != NULL;
}

int mem_last_translation(const mem_t *m, uint32_t *cycles)
{
    *cycles = m->xl_cost;
    return m->xl_level;
}

int mem_has_levels(const mem_t *m)
{
    return m->hier != NULL;
}

int mem_last_level(const mem_t *m)
{
    return m->last_level;
}

uint32_t mem_spin_hit_cycles(const mem_t *m)
{
    return m->hier ? m->lvl_cycles[CACHE_L1D] : m->c_hit;
}

int mem_spin_exact(const mem_t *m)
{
    if (!m->hier)
        return 1;
    const platform_t *p = m->p;
    if (p->footprint.noise_per_mcycle > 0)
        return 0;
    for (int l = 0; l < CACHE_NLEVELS; l++)
        if (p->cache[l].bytes && p->cache[l].scope != SCOPE_CPU)
            return 0;
    return 1;
}

uint64_t mem_evictions(const mem_t *m, int cpu, int footprint_only)
{
    if (!m->hier)
        return 0;
    return footprint_only ? m->footprint_evictions[cpu] : m->evictions[cpu];
}

uint64_t mem_count(const mem_t *m, access_kind_t kind)
{
    return kind < ACCESS_NKINDS ? m->count[kind] : 0;
}

uint64_t mem_freed_writes(const mem_t *m)
{
    return m->freed_writes;
}
