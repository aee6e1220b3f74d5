/* cache: set-associative LRU caches in a hierarchy, inclusive or with a
 * non-inclusive last level. Theory of operation.
 *
 * Each level (l1i, l1d, l2, l3, as the platform has them) has one instance
 * per scope group: per CPU, per NUMA node or per package. An instance is
 * nsets sets of `ways` tags, each set kept in recency order, most recent
 * first, so that a hit moves its tag to the front and a fill drops the last
 * one (true LRU). Sets are allocated on first use: a 4096-CPU machine with
 * 6 MB caches per CPU uses a few dozen of each CPU's 2,048 L3 sets. So an
 * instance finds its sets in a small hash table by set index (a dense array
 * of set pointers would be 64 MiB at 4096 CPUs, mostly zero, and its pages
 * most of a run's page faults), and the sets are slices of a per-level
 * arena: a run's start neither zeroes nor mallocs what it will not touch.
 * Below a path's first level, a set starts short and grows as lines come
 * (LRU_SET_END).
 *
 *   side  path (top-down)       a hit at level k      a miss everywhere
 *   data  l1d, l2, l3           LRU update at k,      fill every level,
 *   code  l1i, l2, l3           fill the levels       last level first
 *                               above k
 *
 * Inclusion: a line is filled bottom-up, and a line leaving level k (LRU
 * victim) leaves every level above k of the CPUs that share k's instance;
 * leaving the last level, it is lost to them (drop callback). So a line a
 * CPU holds in any level is in its last level, which is where the coherence
 * model (coherence.c) looks when it asks whether the CPU holds it.
 *
 * A non-inclusive last level (platform last_level_inclusive = 0: AMD's and
 * recent Intel servers' L3s) breaks only the last step: its victim stays in
 * the levels above, and the CPUs of its instance that hold it there keep it.
 * A CPU loses a line when it leaves the last of its levels that had it: the
 * last level, or a level above (its own LRU victim) that the last level no
 * longer backs. So a line a CPU holds is in one of its levels, and a line it
 * does not hold is in none of its private levels, either way.
 */
#include "cache.h"
#include "lru_set.h"
#include "tags.h"
#include "xalloc.h"
#include "zmap.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t key;  /* the set's index + 1; 0: an empty slot */
    uint64_t *set; /* `ways` tags, most recent first, 0 = empty */
} slot_t;

/* An instance's sets, by index. A sparse level keeps the sets used in an
 * open-addressing table (linear probing, at most half full), since a CPU
 * uses a few dozen of an L3's thousands of sets; an empty instance points
 * at a shared empty slot. A dense level finds them in blk. */
typedef struct {
    slot_t *slot;   /* sparse: the table */
    uint32_t mask;  /* sparse: its capacity - 1 (a power of two) */
    uint32_t n;     /* sets in use */
    uint32_t *used; /* dense: the indexes of the sets used, in order */
    uint32_t capused;
    uint64_t ver; /* bumped by every change of a set's tags or their order */
} inst_t;

static slot_t g_no_slot[1]; /* the table of every instance without sets */

/* A set of a level below a path's first starts with room for 3 tags, and
 * grows to 7, 15 (LRU_SET_END after them: 4, 8, 16 words), then to `ways`,
 * as lines come: a CPU holds a few hundred lines in an L3 of thousands of
 * 24-way sets, most of them alone in their set. */

/* The sets' arena grows by a chunk of SET_CHUNK_BYTES, then by as much as
 * it has (up to SET_CHUNK_MAX, what zmap keeps): thousands of CPUs' sets
 * take a few dozen chunks, not hundreds (each a mapping, and its page
 * faults at every run); chunks of 2 MiB or more ask for huge pages. */
enum { SET_CHUNK_BYTES = 1 << 18, SET_CHUNK_MAX = 1 << 22, SET_CHUNK_HUGE = 1 << 21 };
#define DENSE_MAX_BYTES ((size_t)4 << 20) /* see level_init */

typedef struct {
    int present;
    uint32_t nsets, ways, cycles;
    uint64_t mask; /* nsets - 1 when nsets is a power of two, else 0 (modulo) */
    int ninst;
    inst_t *inst;   /* [ninst] */
    int dense;      /* blk, not tables: set pointers of every set of every instance */
    uint64_t **blk; /* dense: [ninst * nsets], zero where unused (a zmap) */
    size_t blk_bytes;
    uint64_t *arena;   /* where the next set's tags go: zero, mapped in chunks */
    size_t arena_left; /* tags left in the current chunk */
    void **chunks;     /* every chunk mapped, to hand back */
    size_t *chunk_bytes;
    int nchunks;
    int *inst_of;      /* [ncpus] */
    int by_cpu;        /* inst_of[cpu] == cpu for every CPU (a private level) */
    int fast;          /* by_cpu, dense, nsets a power of two: cpu_set's one load */
    int shift;         /* log2(nsets), when fast */
    int *members;      /* CPUs by instance: members[first[i] .. first[i+1]) */
    int *first;        /* [ninst + 1] */
    uint32_t words0;   /* a new set's words: 4 when sets grow, else ways */
    uint64_t *free[3]; /* grown-out sets of 4, 8 and 16 words, to reuse */
} level_t;

struct hier {
    const platform_t *p;
    int ncpus;
    level_t lv[CACHE_NLEVELS];
    int path[2][CACHE_NLEVELS]; /* [side]: levels top-down */
    int npath[2];
    /* [side]: hier_first_way's copy of the first level's look-up, usable
     * (fast) when it is private and its sets are a power of two */
    struct {
        uint64_t **blk;
        uint64_t mask;
        size_t nsets;
        uint32_t ways;
        int l, fast;
    } top[2];
    int last;
    int noninclusive; /* the last level's victims stay in the levels above */
    uint64_t max_lines;
    hier_drop_fn drop;
    void *ctx;
};

static int group_of(const platform_t *p, cache_scope_t s, int cpu)
{
    switch (s) {
    case SCOPE_CPU:
        return cpu;
    case SCOPE_NODE:
        return p->cpu_node[cpu];
    default:
        return p->cpu_package ? p->cpu_package[cpu] : p->cpu_node[cpu];
    }
}

static void level_init(level_t *L, const platform_t *p, const platform_cache_t *c)
{
    int n = p->ncpus;
    L->present = 1;
    L->ways = (uint32_t)c->ways;
    L->nsets = (uint32_t)(c->bytes / (uint64_t)p->line_bytes / (uint64_t)c->ways);
    L->cycles = (uint32_t)(c->cycles + 0.5);
    L->mask = (L->nsets & (L->nsets - 1)) == 0 ? L->nsets - 1 : 0;
    /* number the groups in order of first appearance */
    int maxg = 0;
    for (int i = 0; i < n; i++) {
        int g = group_of(p, c->scope, i);
        maxg = g > maxg ? g : maxg;
    }
    int *map = xcalloc((size_t)maxg + 1, sizeof *map);
    for (int g = 0; g <= maxg; g++)
        map[g] = -1;
    L->inst_of = xcalloc((size_t)n, sizeof *L->inst_of);
    for (int i = 0; i < n; i++) {
        int g = group_of(p, c->scope, i);
        if (map[g] < 0)
            map[g] = L->ninst++;
        L->inst_of[i] = map[g];
    }
    free(map);
    L->by_cpu = 1;
    for (int i = 0; i < n; i++)
        L->by_cpu &= L->inst_of[i] == i;
    L->inst = xcalloc((size_t)L->ninst, sizeof *L->inst);
    for (int k = 0; k < L->ninst; k++)
        L->inst[k].slot = g_no_slot;
    L->blk_bytes = (size_t)L->ninst * L->nsets * sizeof *L->blk;
    L->first = xcalloc((size_t)L->ninst + 1, sizeof *L->first);
    L->members = xcalloc((size_t)n, sizeof *L->members);
    for (int i = 0; i < n; i++)
        L->first[L->inst_of[i] + 1]++;
    for (int k = 0; k < L->ninst; k++)
        L->first[k + 1] += L->first[k];
    int *fill = xcalloc((size_t)L->ninst, sizeof *fill);
    for (int i = 0; i < n; i++) {
        int k = L->inst_of[i];
        L->members[L->first[k] + fill[k]++] = i;
    }
    free(fill);
}

hier_t *hier_create(const platform_t *p, hier_drop_fn drop, void *ctx)
{
    if (p->ncache_levels == 0)
        return NULL;
    hier_t *h = xcalloc(1, sizeof *h);
    h->p = p;
    h->ncpus = p->ncpus;
    h->drop = drop;
    h->ctx = ctx;
    for (int l = 0; l < CACHE_NLEVELS; l++)
        if (p->cache[l].bytes)
            level_init(&h->lv[l], p, &p->cache[l]);
    for (int side = 0; side < 2; side++) {
        int top = side == HIER_DATA ? CACHE_L1D : CACHE_L1I;
        if (h->lv[top].present)
            h->path[side][h->npath[side]++] = top;
        for (int l = CACHE_L2; l < CACHE_NLEVELS; l++)
            if (h->lv[l].present)
                h->path[side][h->npath[side]++] = l;
    }
    /* An array of every set pointer is the faster look-up (one load), and
     * no more than a kept mapping (zmap.h) is cheap to clear: above that
     * (thousands of CPUs' l2s and l3s), it would be mostly zero and cost
     * most of a run's page faults. The first level of a path is always
     * dense: hier_first_way, on most accesses, reads blk unchecked. */
    for (int l = 0; l < CACHE_NLEVELS; l++) {
        level_t *L = &h->lv[l];
        L->dense = L->present && (L->blk_bytes <= DENSE_MAX_BYTES || l == h->path[0][0] ||
                                  (h->npath[1] && l == h->path[1][0]));
        if (L->dense)
            L->blk = zmap_get(L->blk_bytes, &L->blk_bytes, ZMAP_HUGE | ZMAP_NORESERVE);
        L->fast = L->dense && L->by_cpu && (L->mask || L->nsets == 1);
        /* A path's first level fills up, and its look-up reads the ways
         * unchecked (hier_first_way): its sets are whole from the start. */
        int first = l == h->path[0][0] || (h->npath[1] && l == h->path[1][0]);
        L->words0 = L->ways > 4 && !first ? 4 : L->ways;
        while (L->fast && (1u << L->shift) < L->nsets)
            L->shift++;
    }
    for (int side = 0; side < 2; side++) {
        if (!h->npath[side])
            continue;
        const level_t *L = &h->lv[h->path[side][0]];
        h->top[side].blk = L->blk;
        h->top[side].mask = L->mask;
        h->top[side].nsets = L->nsets;
        h->top[side].ways = L->ways;
        h->top[side].l = h->path[side][0];
        h->top[side].fast = L->fast; /* a path's first level is dense */
    }
    h->last = h->path[HIER_DATA][h->npath[HIER_DATA] - 1];
    h->noninclusive = p->last_noninclusive && h->last >= CACHE_L2;
    for (int k = 0; k < h->npath[HIER_DATA]; k++) {
        const level_t *L = &h->lv[h->path[HIER_DATA][k]];
        uint64_t lines = (uint64_t)L->nsets * L->ways;
        h->max_lines = lines > h->max_lines ? lines : h->max_lines;
    }
    return h;
}

void hier_destroy(hier_t *h)
{
    if (!h)
        return;
    for (int l = 0; l < CACHE_NLEVELS; l++) {
        level_t *L = &h->lv[l];
        if (!L->present)
            continue;
        for (int k = 0; k < L->ninst; k++) {
            inst_t *I = &L->inst[k];
            if (I->slot != g_no_slot)
                free(I->slot);
            for (uint32_t u = 0; L->dense && u < I->n; u++)
                L->blk[(size_t)k * L->nsets + I->used[u]] = NULL; /* blk goes back zero */
            free(I->used);
        }
        if (L->dense)
            zmap_put(L->blk, L->blk_bytes, 0);
        /* handed back zero (zmap.h) up to where their sets reach */
        for (int i = 0; i < L->nchunks; i++)
            zmap_put(L->chunks[i], L->chunk_bytes[i],
                     i + 1 < L->nchunks ? L->chunk_bytes[i]
                                        : L->chunk_bytes[i] - L->arena_left * sizeof *L->arena);
        free(L->chunks);
        free(L->chunk_bytes);
        free(L->inst);
        free(L->inst_of);
        free(L->members);
        free(L->first);
    }
    free(h);
}

/* --- one set ------------------------------------------------------------ */

/* The free list of a short set of `words` words (4, 8 or 16). */
static inline int short_class(uint32_t words)
{
    return words == 4 ? 0 : words == 8 ? 1 : 2;
}

/* Room for a new set of L of `words` words, zero: from the sets that grew
 * out of it, else from the level's arena (a malloc per set cost about a
 * tenth of a small run). */
static uint64_t *set_alloc(level_t *L, uint32_t words)
{
    int cls = short_class(words);
    if (words < L->ways && L->free[cls]) {
        uint64_t *set = L->free[cls];
        L->free[cls] = (uint64_t *)(uintptr_t)set[0];
        memset(set, 0, sizeof *set * words);
        return set;
    }
    if (L->arena_left < words) {
        size_t got, want = SET_CHUNK_BYTES;
        for (int i = 0; i < L->nchunks && want < SET_CHUNK_MAX; i++)
            want *= 2;
        void *c = zmap_get(want, &got, want >= SET_CHUNK_HUGE ? ZMAP_HUGE : 0);
        void **cs = xrealloc(L->chunks, sizeof *cs * (size_t)(L->nchunks + 1));
        size_t *cb = xrealloc(L->chunk_bytes, sizeof *cb * (size_t)(L->nchunks + 1));
        L->chunks = cs;
        L->chunk_bytes = cb;
        L->chunk_bytes[L->nchunks] = got;
        L->chunks[L->nchunks++] = c;
        L->arena = c;
        L->arena_left = got / sizeof *L->arena;
    }
    uint64_t *set = L->arena;
    L->arena += words;
    L->arena_left -= words;
    return set;
}

/* A new set of L, empty: its words0 words, the last LRU_SET_END when short. */
static uint64_t *set_new(level_t *L)
{
    uint64_t *set = set_alloc(L, L->words0);
    if (L->words0 < L->ways)
        set[L->words0 - 1] = LRU_SET_END;
    return set;
}

/* The slot of set i in I's table: the set's, or the empty one where it
 * would go. */
static inline const slot_t *slot_of(const inst_t *I, uint32_t i)
{
    uint32_t h = i & I->mask;
    while (I->slot[h].key && I->slot[h].key != i + 1)
        h = (h + 1) & I->mask;
    return &I->slot[h];
}

static inline uint32_t set_index(const level_t *L, uint64_t tag)
{
    return (uint32_t)(L->mask || L->nsets == 1 ? tag & L->mask : tag % L->nsets);
}

/* Doubles I's table (16 slots at first). */
static void inst_grow(inst_t *I)
{
    inst_t old = *I;
    uint32_t cap = old.slot == g_no_slot ? 16 : 2 * (old.mask + 1);
    I->slot = xcalloc(cap, sizeof *I->slot);
    I->mask = cap - 1;
    if (old.slot == g_no_slot)
        return;
    for (uint32_t j = 0; j <= old.mask; j++)
        if (old.slot[j].key)
            *(slot_t *)slot_of(I, old.slot[j].key - 1) = old.slot[j];
    free(old.slot);
}

/* Out of line: the dense levels' look-up stays short where it is inlined. */
static __attribute__((noinline)) uint64_t *sparse_get(const level_t *L, int k, uint32_t i)
{
    return slot_of(&L->inst[k], i)->set;
}

/* Set i of instance k of L, or NULL when never used. */
static inline uint64_t *set_get(const level_t *L, int k, uint32_t i)
{
    if (__builtin_expect(L->dense, 1))
        return L->blk[(size_t)k * L->nsets + i];
    return sparse_get(L, k, i);
}

/* The set of tag in instance k of L; allocated when create is set, else
 * NULL when never used. */
static inline uint64_t *set_of(level_t *L, int k, uint64_t tag, int create)
{
    uint32_t i = set_index(L, tag);
    uint64_t *s = set_get(L, k, i);
    if (__builtin_expect(s || !create, 1))
        return s;
    inst_t *I = &L->inst[k];
    s = set_new(L);
    if (L->dense) {
        L->blk[(size_t)k * L->nsets + i] = s;
        if (I->n == I->capused) { /* a CPU uses few of its sets: no nsets-long array */
            I->capused = I->capused ? 2 * I->capused : 16;
            I->used = xrealloc(I->used, sizeof *I->used * I->capused);
        }
        I->used[I->n++] = i; /* a flush visits these only */
        return s;
    }
    if (2 * (I->n + 1) > I->mask + 1)
        inst_grow(I);
    slot_t *w = (slot_t *)slot_of(I, i);
    w->key = i + 1;
    w->set = s;
    I->n++;
    return s;
}

/* set_of for cpu's instance of L. */
static inline uint64_t *cpu_set(level_t *L, int cpu, uint64_t tag, int create)
{
    if (__builtin_expect(L->fast, 1)) {
        uint64_t *s = L->blk[((size_t)cpu << L->shift) + (tag & L->mask)];
        if (__builtin_expect(s || !create, 1))
            return s;
    }
    return set_of(L, L->inst_of[cpu], tag, create);
}

/* Moves s, a short set of L whose n tags fill it, to a set twice its
 * size (or of `ways` tags), where set i of instance k was; its old words
 * go to the free list of their size. Returns the new set. */
static __attribute__((noinline)) uint64_t *set_grow(level_t *L, int k, uint32_t i, uint64_t *s,
                                                    uint32_t n)
{
    uint32_t words = n + 1, more = 2 * words;
    int whole = more >= L->ways || more > 16;
    uint64_t *g = set_alloc(L, whole ? L->ways : more);
    memcpy(g, s, sizeof *s * n);
    if (!whole)
        g[more - 1] = LRU_SET_END;
    int c = short_class(words);
    s[0] = (uint64_t)(uintptr_t)L->free[c];
    L->free[c] = s;
    if (L->dense)
        L->blk[(size_t)k * L->nsets + i] = g;
    else
        ((slot_t *)slot_of(&L->inst[k], i))->set = g;
    return g;
}

/* --- the hierarchy -------------------------------------------------------- */

/* Does cpu hold tag in a level of its data or code path from lo to hi? */
static int holds_between(const hier_t *h, int cpu, int lo, int hi, uint64_t tag)
{
    for (int u = lo; u <= hi; u++)
        if (hier_holds(h, cpu, (cache_level_t)u, tag))
            return 1;
    return 0;
}

/* The victim v left instance k of level l. Inclusive: it leaves the
 * levels above l of the CPUs sharing k, and, from the last level, their
 * coherence copies. A non-inclusive last level's victim stays above: a
 * CPU loses it when no level of its holds it any longer, from the last
 * level or from a level above whose victim the last level no longer has. */
static void evicted(hier_t *h, int l, int k, uint64_t v)
{
    const level_t *L = &h->lv[l];
    int stays_above = l == h->last && h->noninclusive;
    for (int m = L->first[k]; m < L->first[k + 1]; m++) {
        int cpu = L->members[m];
        for (int u = 0; u < l && l >= CACHE_L2 && !stays_above; u++)
            if (h->lv[u].present)
                hier_remove_at(h, cpu, (cache_level_t)u, v);
        if ((v & TAG_FOREIGN) || !h->drop)
            continue;
        int lost = l == h->last ? !stays_above || !holds_between(h, cpu, 0, l - 1, v)
                                : h->noninclusive && l >= CACHE_L2 &&
                                      !holds_between(h, cpu, l + 1, h->last, v);
        if (lost)
            h->drop(h->ctx, cpu, v);
    }
}

/* Fills tag into cpu's instance of level l, where hier_access has just
 * looked for it and missed (a fill below can evict, never bring it). */
static inline __attribute__((always_inline)) void fill(hier_t *h, int cpu, int l, uint64_t tag)
{
    level_t *L = &h->lv[l];
    int k = L->by_cpu ? cpu : L->inst_of[cpu];
    uint64_t *s = cpu_set(L, cpu, tag, 1);
    uint32_t n = lru_used(s, L->ways);
    if (s[n] == LRU_SET_END)
        s = set_grow(L, k, set_index(L, tag), s, n);
    uint64_t v = lru_insert(s, n, tag);
    L->inst[k].ver++;
    if (v)
        evicted(h, l, k, v);
}

/* hier_access, and hier_access_unheld when unheld is set: then cpu's
 * private levels are known not to have tag, and only the shared ones are
 * searched. */
static inline int access_path(hier_t *h, int cpu, uint64_t tag, hier_side_t side, int unheld)
{
    const int *path = h->path[side];
    int n = h->npath[side], found = -1, k;
    for (k = 0; k < n; k++) {
        level_t *L = &h->lv[path[k]];
        if (unheld && L->by_cpu) {
#ifndef NDEBUG /* the caller's promise, checked in debug builds (the sanitizers') */
            const uint64_t *s = set_of(L, cpu, tag, 0);
            if (s && lru_find(s, L->ways, tag) >= 0)
                abort();
#endif
            continue;
        }
        uint64_t *s = cpu_set(L, cpu, tag, 0);
        int i = s ? lru_find(s, L->ways, tag) : -1;
        if (i >= 0) {
            if (i > 0) {
                lru_to_front(s, i);
                L->inst[L->inst_of[cpu]].ver++;
            }
            found = path[k];
            break;
        }
    }
    for (int j = k - 1; j >= 0; j--)
        fill(h, cpu, path[j], tag);
    return found;
}

int hier_access(hier_t *h, int cpu, uint64_t tag, hier_side_t side)
{
    return access_path(h, cpu, tag, side, 0);
}

int hier_access_unheld(hier_t *h, int cpu, uint64_t tag, hier_side_t side)
{
    return access_path(h, cpu, tag, side, 1);
}

/* The set of tag in cpu's first level of side, through hier_t's copy
 * (top[side].fast only); NULL when the set was never used. */
static inline const uint64_t *top_set(const hier_t *h, hier_side_t side, int cpu, uint64_t tag)
{
    return h->top[side].blk[(size_t)cpu * h->top[side].nsets + (tag & h->top[side].mask)];
}

/* The set of tag in cpu's first level of side (NULL: never used), and
 * that level in *l. */
static inline uint64_t *first_set(const hier_t *h, hier_side_t side, int cpu, uint64_t tag, int *l,
                                  uint32_t *ways)
{
    if (__builtin_expect(h->top[side].fast, 1)) {
        *l = h->top[side].l;
        *ways = h->top[side].ways;
        return (uint64_t *)top_set(h, side, cpu, tag);
    }
    *l = h->path[side][0];
    const level_t *L = &h->lv[*l];
    *ways = L->ways;
    /* dense (hier_create), and a private level needs no inst_of */
    size_t k = L->by_cpu ? (size_t)cpu : (size_t)L->inst_of[cpu];
    return L->blk[k * L->nsets + set_index(L, tag)];
}

/* always_inline: on most accesses, from coherence.c; link-time optimisation
 * inlines it there, a build without it calls it. */
__attribute__((always_inline)) inline int hier_first_way(const hier_t *h, int cpu, uint64_t tag,
                                                         hier_side_t side, int *level)
{
    uint32_t ways;
    const uint64_t *s = first_set(h, side, cpu, tag, level, &ways);
    if (!s)
        return -1;
    if (__builtin_expect(s[0] == tag, 1))
        return 0;
    for (uint32_t i = 1; i < ways && s[i]; i++)
        if (s[i] == tag)
            return (int)i;
    return -1;
}

__attribute__((always_inline)) inline void hier_first_promote(hier_t *h, int cpu, uint64_t tag,
                                                              hier_side_t side, int way)
{
    int l;
    uint32_t ways;
    lru_to_front(first_set(h, side, cpu, tag, &l, &ways), way);
    h->lv[l].inst[h->lv[l].inst_of[cpu]].ver++;
}

int hier_touch_private(hier_t *h, int cpu, cache_level_t l, uint64_t tag)
{
    if (h->top[HIER_CODE].fast && (int)l == h->top[HIER_CODE].l) { /* l1i: most fetches */
        const uint64_t *s = top_set(h, HIER_CODE, cpu, tag);
        if (s && s[0] == tag)
            return 1;
    }
    level_t *L = &h->lv[l];
    if (!L->present)
        return 0;
    int k = L->inst_of[cpu];
    if (!L->by_cpu && L->first[k + 1] - L->first[k] != 1)
        return 0;
    uint64_t *s = set_get(L, k, set_index(L, tag));
    if (s && s[0] == tag)
        return 1; /* most fetches: already the most recent */
    int i = s ? lru_find(s, L->ways, tag) : -1;
    if (i < 0)
        return 0;
    lru_to_front(s, i);
    L->inst[k].ver++;
    return 1;
}

/* hier_remove_at, inlined in the loops that call it per level */
static inline __attribute__((always_inline)) void remove_at(hier_t *h, int cpu, int l, uint64_t tag)
{
    level_t *L = &h->lv[l];
    if (lru_remove(cpu_set(L, cpu, tag, 0), L->ways, tag))
        L->inst[L->inst_of[cpu]].ver++;
}

void hier_remove_at(hier_t *h, int cpu, cache_level_t l, uint64_t tag)
{
    remove_at(h, cpu, (int)l, tag);
}

void hier_remove(hier_t *h, int cpu, uint64_t tag, int keep, int fetched)
{
    for (int l = fetched ? 0 : CACHE_L1I + 1; l < CACHE_NLEVELS; l++) {
        const level_t *L = &h->lv[l];
        if (!L->present || (keep >= 0 && L->inst_of[cpu] == L->inst_of[keep]))
            continue;
        remove_at(h, cpu, l, tag);
    }
#ifndef NDEBUG /* the caller's promise, checked in debug builds (the sanitizers') */
    if (!fetched && hier_holds(h, cpu, CACHE_L1I, tag))
        abort();
#endif
}

const int *hier_members(const hier_t *h, cache_level_t l, int cpu, int *n)
{
    const level_t *L = &h->lv[l];
    if (!L->present) {
        *n = 0;
        return NULL;
    }
    int k = L->inst_of[cpu];
    *n = L->first[k + 1] - L->first[k];
    return L->members + L->first[k];
}

/* Instance k's sets of L, for walks: slots 0 .. inst_slots() - 1, each a
 * set or NULL (a sparse table's empty slot). */
static uint32_t inst_slots(const level_t *L, const inst_t *I)
{
    return L->dense ? I->n : I->mask + 1;
}

static uint64_t *inst_slot(const level_t *L, int k, uint32_t u)
{
    const inst_t *I = &L->inst[k];
    return L->dense ? L->blk[(size_t)k * L->nsets + I->used[u]] : I->slot[u].set;
}

void hier_flush_private(hier_t *h, int cpu, int (*keep)(void *ctx, uint64_t tag), void *ctx)
{
    for (int l = 0; l < CACHE_NLEVELS; l++) {
        level_t *L = &h->lv[l];
        int k = L->present ? L->inst_of[cpu] : 0;
        if (!L->present || L->first[k + 1] - L->first[k] > 1 || !L->inst[k].n)
            continue;
        inst_t *I = &L->inst[k];
        I->ver++;
        for (uint32_t u = 0; u < inst_slots(L, I); u++) {
            uint64_t *set = inst_slot(L, k, u);
            if (!set)
                continue;
            uint32_t n = 0, room = 0;
            while (room < L->ways && set[room] != LRU_SET_END)
                room++;
            for (uint32_t w = 0; w < room && set[w]; w++)
                if (keep && keep(ctx, set[w]))
                    set[n++] = set[w];
            memset(set + n, 0, sizeof *set * (room - n));
        }
    }
}

/* Appends the tags of instance k of L, foreign ones left out, to *buf. */
static size_t inst_tags(const level_t *L, int k, uint64_t **buf, size_t *cap, size_t n)
{
    const inst_t *I = &L->inst[k];
    for (uint32_t u = 0; u < inst_slots(L, I); u++) {
        const uint64_t *set = inst_slot(L, k, u);
        for (uint32_t w = 0; set && w < L->ways && lru_live(set[w]); w++) {
            if (set[w] & TAG_FOREIGN)
                continue;
            if (n == *cap) {
                *cap = *cap ? 2 * *cap : 256;
                *buf = xrealloc(*buf, sizeof **buf * *cap);
            }
            (*buf)[n++] = set[w];
        }
    }
    return n;
}

size_t hier_held_tags(const hier_t *h, int cpu, uint64_t **buf, size_t *cap)
{
    size_t n = 0;
    for (int l = h->noninclusive ? 0 : h->last; l <= h->last; l++)
        if (h->lv[l].present)
            n = inst_tags(&h->lv[l], h->lv[l].inst_of[cpu], buf, cap, n);
    return n;
}

void hier_fill_foreign(hier_t *h, int cpu, uint64_t first, uint64_t n)
{
    if (n > h->max_lines)
        n = h->max_lines;
    for (uint64_t i = 0; i < n; i++)
        hier_access(h, cpu, first + i, HIER_DATA);
}

int hier_shared_instance(const hier_t *h, cache_level_t l, int cpu)
{
    const level_t *L = &h->lv[l];
    if (!L->present || L->by_cpu)
        return -1;
    int k = L->inst_of[cpu];
    return L->first[k + 1] - L->first[k] > 1 ? k : -1;
}

int hier_instances(const hier_t *h, cache_level_t l)
{
    return h->lv[l].present ? h->lv[l].ninst : 0;
}

/* Does hier_fill_fresh(h, cpu, where, ...) with where < 0 fill data level
 * l: cpu's own instance, and (where -2) not the last level? */
static int fresh_reaches(const hier_t *h, int cpu, int where, int l)
{
    return hier_shared_instance(h, (cache_level_t)l, cpu) < 0 && (where == -1 || l != h->last);
}

void hier_fill_fresh(hier_t *h, int cpu, int l, uint64_t tag)
{
    if (l >= 0) {
        fill(h, cpu, l, tag);
        return;
    }
    const int *path = h->path[HIER_DATA];
    for (int j = h->npath[HIER_DATA] - 1; j >= 0; j--) /* from the last up, as hier_access */
        if (fresh_reaches(h, cpu, l, path[j]))
            fill(h, cpu, path[j], tag);
}

uint64_t hier_max_lines(const hier_t *h)
{
    return h->max_lines;
}

uint64_t hier_fill_reach(const hier_t *h, int cpu, int l)
{
    if (l >= 0)
        return (uint64_t)h->lv[l].nsets * h->lv[l].ways;
    uint64_t most = 0;
    const int *path = h->path[HIER_DATA];
    for (int j = 0; j < h->npath[HIER_DATA]; j++) {
        const level_t *L = &h->lv[path[j]];
        uint64_t lines = (uint64_t)L->nsets * L->ways;
        if (fresh_reaches(h, cpu, l, path[j]) && lines > most)
            most = lines;
    }
    return most;
}

uint32_t hier_cycles(const hier_t *h, int level)
{
    return level >= 0 && level < CACHE_NLEVELS ? h->lv[level].cycles : 0;
}

int hier_last_level(const hier_t *h)
{
    return h->last;
}

uint64_t hier_version(const hier_t *h, int cpu, cache_level_t l)
{
    const level_t *L = &h->lv[l];
    return L->present ? L->inst[L->inst_of[cpu]].ver : 0;
}

int hier_holds(const hier_t *h, int cpu, cache_level_t l, uint64_t tag)
{
    level_t *L = (level_t *)&h->lv[l];
    if (!L->present)
        return 0;
    const uint64_t *s = set_of(L, L->inst_of[cpu], tag, 0);
    return s && lru_find(s, L->ways, tag) >= 0;
}
