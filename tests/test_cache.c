/* test_cache: the cache hierarchy (cache.c) alone and under the coherence
 * model (coherence.c): set index and LRU order, capacity and dirty
 * eviction, inclusion and a non-inclusive last level, invalidation by
 * another CPU's write, shared levels, code fetches, footprints and flush.
 *
 * The platforms are built here by hand (no file, no SimGrid): 4 CPUs on 2
 * nodes, 64-byte lines, tiny caches so that a few lines fill them.
 */
#include "cache.h"
#include "mem.h"
#include "platform.h"
#include "testutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

enum { NCPU = 4, LINE = 64 };

static int g_node[NCPU] = {0, 0, 1, 1};
static uint32_t g_lat[4] = {0, 200, 200, 0};

/* l1d: 2 sets x 2 ways; l2: 4 sets x 2 ways; l1i: 1 set x 2 ways; l3 (when
 * l3_scope >= 0): 8 sets x 2 ways, shared as l3_scope says. */
static platform_t *tiny(int with_l1i, int l3_scope)
{
    platform_t *p = tu_bare_platform(NCPU, 2, g_node, g_lat, LINE);
    p->cache[CACHE_L1D] = (platform_cache_t){2 * 2 * LINE, 2, 1, SCOPE_CPU};
    p->cache[CACHE_L2] = (platform_cache_t){4 * 2 * LINE, 2, 6, SCOPE_CPU};
    p->ncache_levels = 2;
    if (with_l1i) {
        p->cache[CACHE_L1I] = (platform_cache_t){1 * 2 * LINE, 2, 1, SCOPE_CPU};
        p->ncache_levels++;
    }
    if (l3_scope >= 0) {
        p->cache[CACHE_L3] = (platform_cache_t){8 * 2 * LINE, 2, 14, (cache_scope_t)l3_scope};
        p->ncache_levels++;
    }
    return p;
}

static void drop_count(void *ctx, int cpu, uint64_t tag)
{
    (void)tag;
    ((int *)ctx)[cpu]++;
}

START_TEST(set_index_and_lru)
{
    platform_t *p = tiny(0, -1);
    int drops[NCPU] = {0};
    hier_t *h = hier_create(p, drop_count, drops);
    ck_assert_ptr_nonnull(h);
    /* l1d sets: tag % 2; tags 2, 4, 6 share set 0, tag 3 is set 1 */
    ck_assert_int_eq(hier_access(h, 0, 2, HIER_DATA), -1);
    ck_assert_int_eq(hier_access(h, 0, 4, HIER_DATA), -1);
    ck_assert_int_eq(hier_access(h, 0, 3, HIER_DATA), -1); /* other set: evicts nothing */
    ck_assert(hier_holds(h, 0, CACHE_L1D, 2) && hier_holds(h, 0, CACHE_L1D, 4));
    ck_assert_int_eq(hier_access(h, 0, 2, HIER_DATA), CACHE_L1D); /* 2 most recent now */
    ck_assert_int_eq(hier_access(h, 0, 6, HIER_DATA), -1);        /* evicts 4, the LRU */
    ck_assert(hier_holds(h, 0, CACHE_L1D, 2));
    ck_assert(!hier_holds(h, 0, CACHE_L1D, 4));
    ck_assert(hier_holds(h, 0, CACHE_L2, 4)); /* still in l2: found there next */
    ck_assert_int_eq(hier_access(h, 0, 4, HIER_DATA), CACHE_L2);
    ck_assert(hier_holds(h, 0, CACHE_L1D, 4)); /* and filled into l1d again */
    ck_assert(!hier_holds(h, 1, CACHE_L2, 4)); /* private: CPU 1 has nothing */
    ck_assert_int_eq(drops[0], 0);
    hier_destroy(h);
    free(p);
}
END_TEST

/* hier_version moves with every change of an instance's tags or their
 * order, and only then (sim_exec skips a unit's fetches while it stays). */
START_TEST(version_moves_with_every_change)
{
    platform_t *p = tiny(1, -1);
    hier_t *h = hier_create(p, NULL, NULL);
    uint64_t v = hier_version(h, 0, CACHE_L1I);
    ck_assert_int_eq(hier_access(h, 0, 2, HIER_CODE), -1); /* a fill */
    ck_assert_uint_ne(hier_version(h, 0, CACHE_L1I), v);
    v = hier_version(h, 0, CACHE_L1I);
    ck_assert(hier_touch_private(h, 0, CACHE_L1I, 2)); /* already the most recent */
    ck_assert_int_eq(hier_access(h, 0, 2, HIER_CODE), CACHE_L1I);
    ck_assert(hier_holds(h, 0, CACHE_L1I, 2));
    ck_assert_uint_eq(hier_version(h, 0, CACHE_L1I), v); /* nothing moved */
    hier_access(h, 0, 4, HIER_CODE);                     /* 2 is second now */
    v = hier_version(h, 0, CACHE_L1I);
    ck_assert(hier_touch_private(h, 0, CACHE_L1I, 2)); /* moves to the front */
    ck_assert_uint_ne(hier_version(h, 0, CACHE_L1I), v);
    v = hier_version(h, 0, CACHE_L1I);
    hier_access(h, 0, 4, HIER_CODE); /* back to the front: a move */
    ck_assert_uint_ne(hier_version(h, 0, CACHE_L1I), v);
    v = hier_version(h, 0, CACHE_L1I);
    hier_access(h, 1, 6, HIER_CODE); /* CPU 1's l1i: not CPU 0's */
    hier_access(h, 0, 8, HIER_DATA); /* CPU 0's data side: not its l1i */
    ck_assert_uint_eq(hier_version(h, 0, CACHE_L1I), v);
    hier_remove_at(h, 0, CACHE_L1I, 99); /* not there: no change */
    ck_assert_uint_eq(hier_version(h, 0, CACHE_L1I), v);
    hier_remove(h, 0, 2, -1, 1); /* an invalidation */
    ck_assert_uint_ne(hier_version(h, 0, CACHE_L1I), v);
    v = hier_version(h, 0, CACHE_L1I);
    hier_flush_private(h, 0, NULL, NULL);
    ck_assert_uint_ne(hier_version(h, 0, CACHE_L1I), v);
    ck_assert_uint_eq(hier_version(h, 0, CACHE_L3), 0); /* absent */
    hier_destroy(h);
    free(p);
}
END_TEST

START_TEST(capacity_eviction_and_inclusion)
{
    platform_t *p = tiny(0, -1);
    int drops[NCPU] = {0};
    hier_t *h = hier_create(p, drop_count, drops);
    /* l2 set 0 (tag % 4 == 0) has 2 ways: 0+4k; the third evicts the first */
    hier_access(h, 0, 4, HIER_DATA);
    hier_access(h, 0, 8, HIER_DATA);
    ck_assert_int_eq(drops[0], 0);
    hier_access(h, 0, 12, HIER_DATA);
    ck_assert_int_eq(drops[0], 1); /* 4 left the last level: the CPU lost it */
    ck_assert(!hier_holds(h, 0, CACHE_L2, 4));
    ck_assert(!hier_holds(h, 0, CACHE_L1D, 4)); /* inclusion: out of l1d too */
    ck_assert_uint_eq(hier_max_lines(h), 8);
    ck_assert_uint_eq(hier_cycles(h, CACHE_L2), 6);
    hier_destroy(h);
    free(p);
}
END_TEST

/* A non-inclusive last level: its victim stays in the levels above, and
 * the CPU loses the line only when the last of them lets it go. */
START_TEST(noninclusive_last_level_keeps_victims_above)
{
    for (int noninclusive = 0; noninclusive <= 1; noninclusive++) {
        platform_t *p = tiny(0, SCOPE_NODE);
        p->last_noninclusive = noninclusive;
        int drops[NCPU] = {0};
        hier_t *h = hier_create(p, drop_count, drops);
        hier_access(h, 0, 8, HIER_DATA); /* l3 set 0 (tag % 8), l2 set 0, l1d set 0 */
        hier_access(h, 1, 16, HIER_DATA);
        hier_access(h, 1, 24, HIER_DATA); /* the shared l3's set 0 lets 8 go */
        ck_assert(!hier_holds(h, 0, CACHE_L3, 8));
        ck_assert_int_eq(hier_holds(h, 0, CACHE_L2, 8), noninclusive);
        ck_assert_int_eq(hier_holds(h, 0, CACHE_L1D, 8), noninclusive);
        ck_assert_int_eq(drops[0], !noninclusive);
        uint64_t *tags = NULL;
        size_t cap = 0, n = hier_held_tags(h, 0, &tags, &cap), has8 = 0;
        for (size_t i = 0; i < n; i++)
            has8 += tags[i] == 8;
        ck_assert_msg(noninclusive ? has8 >= 1 : has8 == 0, "8 listed %zu times", has8);
        free(tags);
        if (noninclusive) {
            ck_assert_int_eq(hier_access(h, 0, 8, HIER_DATA), CACHE_L1D);
            hier_access(h, 0, 4, HIER_DATA); /* l2 set 0: 8 is the oldest of two */
            ck_assert_int_eq(drops[0], 0);
            hier_access(h, 0, 12, HIER_DATA); /* ... and leaves, with no l3 copy */
            ck_assert_int_eq(drops[0], 1);
            ck_assert(!hier_holds(h, 0, CACHE_L1D, 8));
            ck_assert_int_eq(hier_access(h, 0, 8, HIER_DATA), -1);
        }
        hier_destroy(h);
        free(p);
    }
}
END_TEST

/* Lines homed on node 0, consecutive indices. */
static maddr_t lines(mem_t *m, int n)
{
    return mem_alloc(m, 0, (size_t)n * LINE);
}

START_TEST(mem_hits_by_level_and_dirty_eviction)
{
    platform_t *p = tiny(0, -1);
    mem_t *m = mem_create(p);
    ck_assert(mem_has_levels(m));
    maddr_t a = lines(m, 40);
    access_kind_t k;
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_WRITE, &k), 100);
    ck_assert_int_eq(k, ACCESS_MISS_LOCAL);
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, &k), 1); /* l1d hit */
    ck_assert_int_eq(mem_last_level(m), CACHE_L1D);
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_RMW, &k), 7); /* atomic on a held line */
    /* two more lines of a's l2 set (every 4th line; 2 ways): a leaves */
    ck_assert_uint_eq(mem_evictions(m, 0, 0), 0);
    for (int i = 1; i <= 2; i++)
        mem_access(m, 0, a + (maddr_t)i * 4 * LINE, MEM_READ, NULL);
    ck_assert(!mem_holds(m, 0, a));
    ck_assert_uint_ge(mem_evictions(m, 0, 0), 1);
    /* written back: CPU 2 (other node) finds it in memory, not in a cache */
    mem_access(m, 2, a, MEM_READ, &k);
    ck_assert_int_eq(k, ACCESS_MISS_REMOTE);
    mem_destroy(m);
    free(p);
}
END_TEST

START_TEST(write_through_l1d)
{
    platform_t *p = tiny(0, -1);
    p->l1d_write_through = 1;
    mem_t *m = mem_create(p);
    maddr_t a = lines(m, 1);
    mem_access(m, 0, a, MEM_WRITE, NULL);
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), 1);  /* loads hit l1d */
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_WRITE, NULL), 6); /* stores complete in l2 */
    mem_destroy(m);
    free(p);
}
END_TEST

START_TEST(write_invalidates_every_level)
{
    platform_t *p = tiny(0, -1);
    mem_t *m = mem_create(p);
    maddr_t a = lines(m, 1);
    mem_access(m, 1, a, MEM_READ, NULL);
    mem_access(m, 2, a, MEM_READ, NULL);
    mem_access(m, 1, a, MEM_READ, NULL);
    mem_access(m, 0, a, MEM_WRITE, NULL);
    /* hier_t is inside mem: observe it through the costs. The readers lost
     * it (a miss each), the writer hits in l1d. */
    access_kind_t k;
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, &k), 1);
    ck_assert(!mem_holds(m, 1, a) && !mem_holds(m, 2, a));
    mem_access(m, 1, a, MEM_READ, &k);
    ck_assert_int_eq(k, ACCESS_C2C_NODE);
    mem_destroy(m);
    free(p);
}
END_TEST

START_TEST(shared_level_serves_a_neighbour)
{
    platform_t *p = tiny(0, SCOPE_NODE);
    mem_t *m = mem_create(p);
    maddr_t a = lines(m, 1);
    access_kind_t k;
    mem_access(m, 0, a, MEM_READ, &k);
    ck_assert_int_eq(k, ACCESS_MISS_LOCAL);
    ck_assert_uint_eq(mem_access(m, 1, a, MEM_READ, &k), 14); /* node-mate: l3 */
    ck_assert_int_eq(k, ACCESS_HIT);
    ck_assert_int_eq(mem_last_level(m), CACHE_L3);
    mem_access(m, 2, a, MEM_READ, &k); /* the other node: its own l3 is empty */
    ck_assert_int_eq(k, ACCESS_MISS_REMOTE);
    /* a flush of CPU 0 keeps the line in the node's l3 for CPU 1 */
    mem_flush(m, 0, 1);
    ck_assert(!mem_holds(m, 0, a) && mem_holds(m, 1, a));
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, &k), 14);
    ck_assert_int_eq(k, ACCESS_HIT);
    ck_assert(!mem_spin_exact(m)); /* a neighbour can evict a spinner's line */
    mem_destroy(m);
    free(p);
}
END_TEST

/* Under coherence: the line the shared l3 let go of still hits in CPU 0's
 * l1d, stays held, and a flush finds it there. */
START_TEST(noninclusive_line_held_above_the_last_level)
{
    platform_t *p = tiny(0, SCOPE_NODE);
    p->last_noninclusive = 1;
    mem_t *m = mem_create(p);
    maddr_t a = lines(m, 17);
    access_kind_t k;
    mem_access(m, 0, a, MEM_READ, &k);
    mem_access(m, 1, a + 8 * LINE, MEM_READ, &k); /* the same l3 set */
    mem_access(m, 1, a + 16 * LINE, MEM_READ, &k);
    ck_assert(mem_holds(m, 0, a));
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, &k), 1);
    ck_assert_int_eq(k, ACCESS_HIT);
    mem_flush(m, 0, 1);
    ck_assert(!mem_holds(m, 0, a));
    mem_access(m, 0, a, MEM_READ, &k);
    ck_assert_int_eq(k, ACCESS_MISS_LOCAL);
    mem_destroy(m);
    free(p);
}
END_TEST

START_TEST(code_fetches)
{
    platform_t *p = tiny(1, -1);
    mem_t *m = mem_create(p);
    maddr_t code = mem_alloc(m, 1, 2 * LINE);
    access_kind_t k;
    int lv;
    ck_assert_uint_eq(mem_fetch_code(m, 0, code, &k, &lv), 300); /* node 1: remote */
    ck_assert_int_eq(k, ACCESS_MISS_REMOTE);
    ck_assert_int_eq(lv, -1);
    ck_assert_uint_eq(mem_fetch_code(m, 0, code, &k, &lv), 0); /* l1i hit: free */
    ck_assert_int_eq(lv, CACHE_L1I);
    /* l1i holds two lines: the second code line does not evict the first */
    mem_fetch_code(m, 0, code + LINE, &k, &lv);
    ck_assert_uint_eq(mem_fetch_code(m, 0, code, &k, &lv), 0);
    ck_assert_uint_eq(mem_count(m, ACCESS_MISS_REMOTE), 0); /* code is counted apart */
    mem_destroy(m);
    free(p);
}
END_TEST

START_TEST(footprints_evict_by_lru)
{
    platform_t *p = tiny(0, -1);
    p->footprint.tick_lines = 2;
    p->footprint.work_per_mcycle = 1000; /* a line per 1000 cycles */
    mem_t *m = mem_create(p);
    maddr_t a = lines(m, 1);
    mem_access(m, 0, a, MEM_READ, NULL);
    mem_footprint_tick(m, 0); /* 2 lines: l1d set 0 or 1 loses a at worst */
    ck_assert(mem_holds(m, 0, a));
    mem_footprint_work(m, 0, 500); /* half a line: carried, nothing yet */
    ck_assert_uint_eq(mem_evictions(m, 0, 1), 0);
    mem_footprint_work(m, 0, 1000000); /* 1000 lines, capped at l2's 8 */
    ck_assert(!mem_holds(m, 0, a));
    ck_assert_uint_eq(mem_evictions(m, 0, 1), 1);
    ck_assert_uint_eq(mem_evictions(m, 0, 0), 1);
    ck_assert(!mem_holds(m, 1, a));
    mem_destroy(m);
    free(p);
}
END_TEST

/* Fresh footprint lines lie in pages at random frames: on a level with more
 * sets than a page has lines, three quarters of its capacity of them evict
 * a line per set from some sets (those that drew more than their share),
 * not from none, as lines in address order would (three a set), nor all. */
START_TEST(fresh_footprint_evicts_gradually)
{
    for (int lpp = 1; lpp <= LINE; lpp *= LINE) { /* a line a page, dense pages */
        platform_t *p = tiny(0, -1);
        p->cache[CACHE_L2] = (platform_cache_t){256 * 4 * LINE, 4, 6, SCOPE_CPU};
        p->footprint.work_per_mcycle = 1e6; /* a line a cycle */
        p->footprint_lines_per_page = lpp;
        mem_t *m = mem_create(p);
        maddr_t a = lines(m, 256); /* a line in every l2 set */
        for (int i = 0; i < 256; i++)
            mem_access(m, 0, a + (maddr_t)i * LINE, MEM_READ, NULL);
        mem_footprint_work(m, 0, 768); /* three quarters of l2 */
        int kept = 0;
        for (int i = 0; i < 256; i++)
            kept += mem_holds(m, 0, a + (maddr_t)i * LINE);
        ck_assert_msg(kept > 0 && kept < 256, "%d lines a page: %d of 256 kept", lpp, kept);
        ck_assert_uint_eq(mem_evictions(m, 0, 1), (uint64_t)(256 - kept));
        mem_destroy(m);
        free(p);
    }
}
END_TEST

START_TEST(flush_empties_every_level)
{
    platform_t *p = tiny(1, -1);
    mem_t *m = mem_create(p);
    maddr_t a = lines(m, 4);
    for (int i = 0; i < 4; i++)
        mem_access(m, 0, a + (maddr_t)i * LINE, i % 2 ? MEM_WRITE : MEM_READ, NULL);
    access_kind_t k;
    int lv;
    mem_fetch_code(m, 0, a, &k, &lv);
    mem_flush(m, 0, 1);
    for (int i = 0; i < 4; i++) {
        ck_assert(!mem_holds(m, 0, a + (maddr_t)i * LINE));
        mem_access(m, 0, a + (maddr_t)i * LINE, MEM_READ, &k);
        ck_assert_int_eq(k, ACCESS_MISS_LOCAL);
    }
    mem_destroy(m);
    free(p);
}
END_TEST

START_TEST(data_flush_keeps_code)
{
    platform_t *p = tiny(1, -1);
    mem_t *m = mem_create(p);
    maddr_t code = mem_alloc(m, 0, LINE), data = lines(m, 1);
    mem_mark_code(m, code, LINE);
    access_kind_t k;
    int lv;
    mem_fetch_code(m, 0, code, &k, &lv);
    mem_access(m, 0, data, MEM_WRITE, NULL);
    mem_flush(m, 0, 0); /* data only: the code stays in l1i */
    ck_assert(!mem_holds(m, 0, data));
    ck_assert_uint_eq(mem_fetch_code(m, 0, code, &k, &lv), 0);
    ck_assert_int_eq(lv, CACHE_L1I);
    mem_flush(m, 0, 1); /* with the code */
    ck_assert(!mem_holds(m, 0, code));
    ck_assert_uint_eq(mem_fetch_code(m, 0, code, &k, &lv), 100);
    ck_assert_int_eq(k, ACCESS_MISS_LOCAL);
    mem_destroy(m);
    free(p);
}
END_TEST

/* Keeps the tags that are even. */
static int keep_even(void *ctx, uint64_t tag)
{
    (void)ctx;
    return tag % 2 == 0;
}

/* The same random accesses, removals, touches and flushes on CPUs 0-3 of
 * two machines whose CPUs have the same private caches: 4 CPUs, whose
 * levels look their sets up in arrays (dense), and 4096, whose set-pointer
 * arrays would be 8 MiB (l2) and 16 MiB (l3): they use tables. Every answer
 * must be the same. */
START_TEST(sparse_levels_behave_as_dense)
{
    enum { BIG = 4096 };
    static int node_big[BIG];
    for (int i = 0; i < BIG; i++)
        node_big[i] = i % 2;
    platform_t *p[2] = {tiny(1, SCOPE_CPU), tu_bare_platform(BIG, 2, node_big, g_lat, LINE)};
    for (int k = 0; k < 2; k++) {
        p[k]->cache[CACHE_L1D] = (platform_cache_t){4 * 2 * LINE, 2, 1, SCOPE_CPU};
        p[k]->cache[CACHE_L1I] = (platform_cache_t){2 * 2 * LINE, 2, 1, SCOPE_CPU};
        p[k]->cache[CACHE_L2] = (platform_cache_t){256 * 2 * LINE, 2, 6, SCOPE_CPU};
        p[k]->cache[CACHE_L3] = (platform_cache_t){512 * 2 * LINE, 2, 14, SCOPE_CPU};
        p[k]->ncache_levels = 4;
    }
    static int drops[2][BIG];
    hier_t *h[2] = {hier_create(p[0], drop_count, drops[0]),
                    hier_create(p[1], drop_count, drops[1])};
    unsigned long r = 12345;
    for (int step = 0; step < 200000; step++) {
        r = r * 6364136223846793005ul + 1442695040888963407ul;
        int cpu = (int)((r >> 60) % NCPU), op = (int)((r >> 50) % 16);
        uint64_t tag = 1 + (r >> 20) % 3000;
        int got[2];
        for (int k = 0; k < 2; k++) {
            got[k] = 0;
            if (op < 10)
                got[k] = hier_access(h[k], cpu, tag, op < 8 ? HIER_DATA : HIER_CODE);
            else if (op < 13)
                got[k] = hier_touch_private(h[k], cpu, CACHE_L1I, tag);
            else if (op < 15)
                hier_remove(h[k], cpu, tag, -1, 1);
            else if (step % 64 == 0)
                hier_flush_private(h[k], cpu, keep_even, NULL);
        }
        ck_assert_msg(got[0] == got[1], "step %d: %d (dense) against %d (sparse)", step, got[0],
                      got[1]);
        for (int l = 0; l < CACHE_NLEVELS; l++)
            ck_assert_int_eq(hier_holds(h[0], cpu, (cache_level_t)l, tag),
                             hier_holds(h[1], cpu, (cache_level_t)l, tag));
    }
    for (int c = 0; c < NCPU; c++)
        ck_assert_int_eq(drops[0][c], drops[1][c]);
    ck_assert_int_gt(drops[0][0], 0); /* the l3 did evict */
    for (int k = 0; k < 2; k++) {
        hier_destroy(h[k]);
        free(p[k]);
    }
}
END_TEST

/* A plain model of one CPU's inclusive LRU hierarchy: per level, per set,
 * the tags most recent first (what cache.c must answer, however it keeps
 * its sets). */
enum { MLV = 3, MSETS = 512, MWAYS = 24 };
typedef struct {
    int nsets, ways;
    uint64_t t[MSETS][MWAYS];
    int n[MSETS];
} mlevel_t;

static int m_find(mlevel_t *L, uint64_t tag)
{
    int s = (int)(tag % (uint64_t)L->nsets);
    for (int i = 0; i < L->n[s]; i++)
        if (L->t[s][i] == tag)
            return i;
    return -1;
}

/* Puts tag first in its set; returns the tag that fell out, or 0. */
static uint64_t m_put(mlevel_t *L, uint64_t tag, int at)
{
    int s = (int)(tag % (uint64_t)L->nsets), n = at >= 0 ? at : L->n[s];
    uint64_t v = at < 0 && n == L->ways ? L->t[s][--n] : 0;
    memmove(&L->t[s][1], &L->t[s][0], sizeof(uint64_t) * (size_t)n);
    L->t[s][0] = tag;
    if (at < 0 && !v)
        L->n[s]++;
    return v;
}

static void m_remove(mlevel_t *L, uint64_t tag)
{
    int i = m_find(L, tag), s = (int)(tag % (uint64_t)L->nsets);
    if (i < 0)
        return;
    memmove(&L->t[s][i], &L->t[s][i + 1], sizeof(uint64_t) * (size_t)(L->n[s] - i - 1));
    L->n[s]--;
}

/* The level that had tag (-1: none); fills the levels above it. */
static int m_access(mlevel_t *lv, uint64_t tag, int *drops)
{
    int k = 0;
    while (k < MLV && m_find(&lv[k], tag) < 0)
        k++;
    if (k < MLV)
        m_put(&lv[k], tag, m_find(&lv[k], tag));
    for (int j = k - 1; j >= 0; j--) {
        uint64_t v = m_put(&lv[j], tag, -1);
        for (int u = 0; v && u < j; u++)
            m_remove(&lv[u], v);
        *drops += v && j == MLV - 1;
    }
    return k < MLV ? k : -1;
}

/* Sets of more than 4 ways below the first level start short and grow as
 * lines come (cache.c): an 8-way l2 and a 24-way l3 under random
 * accesses, removals and flushes answer as the plain model does, for
 * every tag, at every level, at every step: on 4 CPUs, whose levels find
 * their sets in arrays, and on 4096, whose l2 and l3 use tables. The 160
 * tags fall into 4 sets of each level. */
START_TEST(wide_sets_grow_as_a_model_says)
{
    enum { BIG = 4096, NT = 160 };
    static int node_big[BIG];
    for (int i = 0; i < BIG; i++)
        node_big[i] = i % 2;
    platform_t *p = _i ? tu_bare_platform(BIG, 2, node_big, g_lat, LINE)
                       : tu_bare_platform(NCPU, 2, g_node, g_lat, LINE);
    static mlevel_t lv[MLV];
    memset(lv, 0, sizeof lv);
    int nsets[MLV] = {2, 256, 512}, ways[MLV] = {2, 8, 24};
    cache_level_t ids[MLV] = {CACHE_L1D, CACHE_L2, CACHE_L3};
    for (int k = 0; k < MLV; k++) {
        lv[k].nsets = nsets[k];
        lv[k].ways = ways[k];
        p->cache[ids[k]] = (platform_cache_t){(uint64_t)(nsets[k] * ways[k] * LINE), ways[k],
                                              1 + 4 * k, SCOPE_CPU};
    }
    p->ncache_levels = MLV;
    uint64_t tags[NT];
    for (int i = 0; i < NT; i++)
        tags[i] = 1 + (uint64_t)(i % 4) + 512 * (uint64_t)(i / 4);
    static int drops[BIG];
    memset(drops, 0, sizeof drops);
    int mdrops = 0;
    hier_t *h = hier_create(p, drop_count, drops);
    unsigned long r = 777;
    for (int step = 0; step < 20000; step++) {
        r = r * 6364136223846793005ul + 1442695040888963407ul;
        int op = (int)((r >> 50) % 32);
        uint64_t tag = tags[(r >> 20) % NT];
        if (op < 28) {
            int want = m_access(lv, tag, &mdrops), got = hier_access(h, 0, tag, HIER_DATA);
            ck_assert_int_eq(got, want < 0 ? -1 : (int)ids[want]);
        } else if (op < 31) {
            hier_remove(h, 0, tag, -1, 1);
            for (int k = 0; k < MLV; k++)
                m_remove(&lv[k], tag);
        } else {
            hier_flush_private(h, 0, keep_even, NULL);
            for (int k = 0; k < MLV; k++)
                for (int i = 0; i < NT; i++)
                    if (tags[i] % 2)
                        m_remove(&lv[k], tags[i]);
        }
        for (int k = 0; k < MLV; k++)
            for (int i = step % 8; i < NT; i += 8)
                ck_assert_msg(hier_holds(h, 0, ids[k], tags[i]) == (m_find(&lv[k], tags[i]) >= 0),
                              "step %d: level %d, tag %llu", step, k, (unsigned long long)tags[i]);
    }
    ck_assert_int_eq(drops[0], mdrops);
    ck_assert_int_gt(mdrops, 100); /* the l3's sets did fill to 24 and evict */
    hier_destroy(h);
    free(p);
}
END_TEST

START_TEST(no_levels_no_hierarchy)
{
    platform_t *p = tiny(0, -1);
    p->cache[CACHE_L1D].bytes = p->cache[CACHE_L2].bytes = 0;
    p->ncache_levels = 0;
    ck_assert_ptr_null(hier_create(p, drop_count, NULL));
    mem_t *m = mem_create(p);
    ck_assert(!mem_has_levels(m) && mem_spin_exact(m));
    maddr_t a = lines(m, 1);
    mem_access(m, 0, a, MEM_READ, NULL);
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), 5); /* hit_cycles, as before */
    ck_assert_int_eq(mem_last_level(m), -1);
    mem_destroy(m);
    free(p);
}
END_TEST

/* A fresh fill's reach: the largest level it fills. Into each CPU's own
 * levels above the last (-2) it is the l2's 8 lines whatever the l3; into
 * every level that is the CPU's alone (-1) the l3 counts only when it is
 * the CPU's own; into one level, that level. */
START_TEST(fill_reach_is_the_largest_level_filled)
{
    for (int scope = SCOPE_CPU; scope <= SCOPE_NODE; scope++) {
        platform_t *p = tiny(1, scope);
        hier_t *h = hier_create(p, NULL, NULL);
        ck_assert_uint_eq(hier_max_lines(h), 16);
        ck_assert_uint_eq(hier_fill_reach(h, 0, -2), 8);
        ck_assert_uint_eq(hier_fill_reach(h, 0, -1), scope == SCOPE_CPU ? 16 : 8);
        ck_assert_uint_eq(hier_fill_reach(h, 0, CACHE_L1D), 4);
        hier_destroy(h);
        free(p);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cache");
    TCase *t = tcase_create("hierarchy");
    tcase_add_test(t, set_index_and_lru);
    tcase_add_test(t, version_moves_with_every_change);
    tcase_add_test(t, capacity_eviction_and_inclusion);
    tcase_add_test(t, mem_hits_by_level_and_dirty_eviction);
    tcase_add_test(t, write_through_l1d);
    tcase_add_test(t, write_invalidates_every_level);
    tcase_add_test(t, shared_level_serves_a_neighbour);
    tcase_add_test(t, noninclusive_last_level_keeps_victims_above);
    tcase_add_test(t, noninclusive_line_held_above_the_last_level);
    tcase_add_test(t, code_fetches);
    tcase_add_test(t, footprints_evict_by_lru);
    tcase_add_test(t, fresh_footprint_evicts_gradually);
    tcase_add_test(t, flush_empties_every_level);
    tcase_add_test(t, data_flush_keeps_code);
    tcase_add_test(t, sparse_levels_behave_as_dense);
    tcase_add_loop_test(t, wide_sets_grow_as_a_model_says, 0, 2);
    tcase_add_test(t, no_levels_no_hierarchy);
    tcase_add_test(t, fill_reach_is_the_largest_level_filled);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
