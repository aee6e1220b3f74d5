/* test_mem: the coherence cost model of coherence.c against its cost table.
 *
 * mem_create needs the route latencies, so each test runs sim_run on
 * numa32 with no CPU programs and does its checks in the setup hook, where
 * sim_mem() exists at cycle 0. Expected costs are computed from the
 * platform's figures and node_lat with the table's formulas, so the tests
 * follow retuned platforms but not a changed model.
 *
 * numa32: CPU i sits on node i/2; nodes 0,1 share a C-brick, 0..7 a router.
 * The holders' bitset and its summary are checked on fat128 (two words).
 */
#include "cpu.h"
#include "simulated.h"
#include "mem.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*mem_check_fn)(mem_t *m, const platform_t *p);

typedef struct {
    mem_check_fn fn;
    int ran;
} check_arg_t;

static void in_setup(machine_t *m, void *arg)
{
    check_arg_t *a = arg;
    a->fn(sim_mem(m), machine_platform(m));
    a->ran = 1;
}

static void run_checks_on(const char *platform, mem_check_fn fn)
{
    platform_t *p = tu_platform_flat(platform);
    check_arg_t a = {fn, 0};
    tu_machine_run(p, "test_mem", 0, in_setup, NULL, &a);
    ck_assert_int_eq(a.ran, 1);
    platform_free(p);
}

static void run_checks(mem_check_fn fn)
{
    run_checks_on("numa32", fn);
}

static uint32_t cyc(double v)
{
    return (uint32_t)(v + 0.5);
}

static uint32_t lat(const platform_t *p, int a, int b)
{
    return platform_node_lat(p, a, b);
}

/* requester -> home -> owner -> requester, each leg half a round trip */
static uint32_t lat3(const platform_t *p, int n, int h, int o)
{
    return (lat(p, n, h) + lat(p, h, o) + lat(p, o, n)) / 2;
}

/* One access that must find `want`; returns its cost. */
static uint32_t acc(mem_t *m, int cpu, maddr_t a, mem_op_t op, access_kind_t want)
{
    access_kind_t k = ACCESS_NKINDS;
    uint32_t c = mem_access(m, cpu, a, op, &k);
    ck_assert_msg(k == want, "cpu %d op %d found %s, expected %s", cpu, (int)op,
                  access_kind_name(k), access_kind_name(want));
    return c;
}

/* --- hits and misses --- */

static void hit_local_remote(mem_t *m, const platform_t *p)
{
    maddr_t a = mem_alloc(m, 0, 8), far = mem_alloc(m, 8, 8), near = mem_alloc(m, 1, 8);
    ck_assert_int_eq(mem_home(m, a), 0);
    ck_assert_int_eq(mem_home(m, far), 8);
    ck_assert_uint_ne(mem_line_of(m, a), mem_line_of(m, far));
    uint32_t local = acc(m, 0, a, MEM_READ, ACCESS_MISS_LOCAL);
    uint32_t hit = acc(m, 0, a, MEM_READ, ACCESS_HIT);
    uint32_t remote = acc(m, 0, far, MEM_READ, ACCESS_MISS_REMOTE);
    uint32_t brick = acc(m, 0, near, MEM_READ, ACCESS_MISS_REMOTE);
    ck_assert_uint_eq(local, cyc(p->costs.mem_local_cycles));
    ck_assert_uint_eq(hit, cyc(p->costs.hit_cycles));
    ck_assert_uint_eq(remote, cyc(p->costs.mem_local_cycles) + lat(p, 0, 8));
    ck_assert_uint_eq(brick, cyc(p->costs.mem_local_cycles) + lat(p, 0, 1));
    ck_assert_uint_lt(hit, local);
    ck_assert_uint_lt(local, brick);
    ck_assert_uint_lt(brick, remote);
    /* The line is held exclusive (E): a write and an RMW hit too. */
    ck_assert_uint_eq(acc(m, 0, a, MEM_WRITE, ACCESS_HIT), cyc(p->costs.hit_cycles));
    ck_assert_uint_eq(acc(m, 0, a, MEM_RMW, ACCESS_HIT), cyc(p->costs.atomic_cycles));
    ck_assert_uint_eq(mem_count(m, ACCESS_HIT), 3);
    ck_assert_uint_eq(mem_count(m, ACCESS_MISS_LOCAL), 1);
    ck_assert_uint_eq(mem_count(m, ACCESS_MISS_REMOTE), 2);
}

START_TEST(hit_local_remote_costs)
{
    run_checks(hit_local_remote);
}
END_TEST

/* --- cache to cache --- */

static void c2c(mem_t *m, const platform_t *p)
{
    uint32_t local = cyc(p->costs.mem_local_cycles), dirty = cyc(p->costs.remote_dirty_cycles);
    /* Same bus: CPU 1 reads what CPU 0 (node 0) modified. */
    maddr_t a = mem_alloc(m, 0, 8);
    ck_assert_uint_eq(acc(m, 0, a, MEM_WRITE, ACCESS_MISS_LOCAL), local);
    ck_assert_uint_eq(acc(m, 1, a, MEM_READ, ACCESS_C2C_NODE), cyc(p->costs.c2c_node_cycles));
    ck_assert(mem_holds(m, 0, a) && mem_holds(m, 1, a)); /* both shared now */
    acc(m, 1, a, MEM_READ, ACCESS_HIT);

    /* Three distinct nodes: reader 8, home 1, owner 2. */
    maddr_t b = mem_alloc(m, 1, 8);
    acc(m, 4, b, MEM_WRITE, ACCESS_MISS_REMOTE);
    uint32_t c = acc(m, 16, b, MEM_READ, ACCESS_C2C_REMOTE);
    ck_assert_uint_eq(c, local + lat3(p, 8, 1, 2) + dirty);
    ck_assert_uint_gt(lat3(p, 8, 1, 2), lat(p, 8, 2)); /* the detour through home counts */

    /* Home at one end: lat3 is the plain round trip. */
    maddr_t d = mem_alloc(m, 0, 8);
    acc(m, 16, d, MEM_WRITE, ACCESS_MISS_REMOTE);
    ck_assert_uint_eq(acc(m, 0, d, MEM_READ, ACCESS_C2C_REMOTE), local + lat(p, 0, 8) + dirty);

    /* RMW of a remotely modified line: max(fetch, invalidation) + atomic. */
    maddr_t f = mem_alloc(m, 0, 8);
    acc(m, 16, f, MEM_WRITE, ACCESS_MISS_REMOTE);
    ck_assert_uint_eq(acc(m, 0, f, MEM_RMW, ACCESS_C2C_REMOTE),
                      local + lat(p, 0, 8) + dirty + cyc(p->costs.atomic_cycles));
    ck_assert(!mem_holds(m, 16, f));
    ck_assert_uint_eq(mem_count(m, ACCESS_C2C_NODE), 1);
    ck_assert_uint_eq(mem_count(m, ACCESS_C2C_REMOTE), 3);
}

START_TEST(c2c_costs)
{
    run_checks(c2c);
}
END_TEST

/* --- lines in transit (mem_access_at) --- */

static void transit(mem_t *m, const platform_t *p)
{
    uint32_t c2c = cyc(p->costs.c2c_node_cycles), inv = cyc(p->costs.inval_node_cycles);
    uint32_t local = cyc(p->costs.mem_local_cycles);
    access_kind_t k;
    maddr_t a = mem_alloc(m, 0, 8);
    mem_access_at(m, 0, a, MEM_READ, 0, &k);
    mem_access_at(m, 1, a, MEM_READ, 0, &k); /* CPUs 0 and 1 (node 0) share it */
    /* CPU 0 upgrades at 1000: the line is in transit until 1000 + inv */
    ck_assert_uint_eq(mem_access_at(m, 0, a, MEM_WRITE, 1000, &k), inv);
    ck_assert_int_eq(k, ACCESS_UPGRADE);
    /* CPU 1 reads at 1010: served when the upgrade ends, from CPU 0 */
    ck_assert_uint_eq(mem_access_at(m, 1, a, MEM_READ, 1010, &k), inv - 10 + c2c);
    ck_assert_int_eq(k, ACCESS_C2C_NODE);
    uint64_t waits, cycles;
    mem_busy_counts(m, &waits, &cycles);
    ck_assert_uint_eq(waits, 1);
    ck_assert_uint_eq(cycles, inv - 10);
    /* a read after the transaction, and the writer itself, wait for nothing */
    maddr_t b = mem_alloc(m, 0, 8);
    ck_assert_uint_eq(mem_access_at(m, 0, b, MEM_WRITE, 2000, &k), local);
    ck_assert_uint_eq(mem_access_at(m, 0, b, MEM_READ, 2001, &k), cyc(p->costs.hit_cycles));
    ck_assert_uint_eq(mem_access_at(m, 1, b, MEM_READ, 2000 + local, &k), c2c);
    /* a writer does not wait: racing stores keep the order of their
     * completions, as weak order lets them */
    maddr_t d = mem_alloc(m, 0, 8);
    mem_access_at(m, 0, d, MEM_WRITE, 3000, &k);
    ck_assert_uint_eq(mem_access_at(m, 1, d, MEM_WRITE, 3001, &k), c2c);
    mem_busy_counts(m, &waits, &cycles);
    ck_assert_uint_eq(waits, 1);
}

START_TEST(read_waits_for_a_line_in_transit)
{
    run_checks(transit);
}
END_TEST

/* --- flush and release --- */

static void flush(mem_t *m, const platform_t *p)
{
    uint32_t local = cyc(p->costs.mem_local_cycles);
    maddr_t a = mem_alloc(m, 0, 8);
    acc(m, 0, a, MEM_READ, ACCESS_MISS_LOCAL);
    acc(m, 0, a, MEM_READ, ACCESS_HIT);
    mem_flush(m, 0, 1);
    ck_assert(!mem_holds(m, 0, a));
    ck_assert_uint_eq(acc(m, 0, a, MEM_READ, ACCESS_MISS_LOCAL), local);

    /* A dirty line is written back: the next reader misses to memory. */
    maddr_t b = mem_alloc(m, 0, 8);
    acc(m, 0, b, MEM_WRITE, ACCESS_MISS_LOCAL);
    mem_flush(m, 0, 1);
    ck_assert_uint_eq(acc(m, 1, b, MEM_READ, ACCESS_MISS_LOCAL), local);

    /* Many lines (past the held list's first growth), half of them taken
     * away by CPU 1 meanwhile: the flush drops only CPU 0's copies. */
    enum { N = 300 };
    maddr_t base = mem_alloc(m, 0, (size_t)N * (size_t)p->line_bytes);
    for (int i = 0; i < N; i++)
        acc(m, 0, base + (maddr_t)i * (maddr_t)p->line_bytes, MEM_READ, ACCESS_MISS_LOCAL);
    for (int i = 0; i < N; i += 2)
        acc(m, 1, base + (maddr_t)i * (maddr_t)p->line_bytes, MEM_WRITE, ACCESS_MISS_LOCAL);
    mem_flush(m, 0, 1);
    for (int i = 0; i < N; i++) {
        maddr_t x = base + (maddr_t)i * (maddr_t)p->line_bytes;
        ck_assert_msg(!mem_holds(m, 0, x), "line %d still held after flush", i);
        ck_assert_int_eq(mem_holds(m, 1, x), i % 2 == 0);
    }
    acc(m, 1, base, MEM_WRITE, ACCESS_HIT);
}

START_TEST(flush_then_miss)
{
    run_checks(flush);
}
END_TEST

static void freed(mem_t *m, const platform_t *p)
{
    (void)p;
    maddr_t a = mem_alloc(m, 0, 256), live = mem_alloc(m, 0, 8);
    mem_release(m, a, 256);
    ck_assert(mem_is_freed(m, a) && mem_is_freed(m, a + 128));
    ck_assert(!mem_is_freed(m, live));
    mem_access(m, 0, a, MEM_READ, NULL); /* reads are not counted */
    ck_assert_uint_eq(mem_freed_writes(m), 0);
    mem_access(m, 0, a, MEM_WRITE, NULL);
    mem_access(m, 3, a + 128, MEM_RMW, NULL);
    mem_access(m, 0, live, MEM_WRITE, NULL);
    ck_assert_uint_eq(mem_freed_writes(m), 2);
}

START_TEST(freed_writes_counted)
{
    run_checks(freed);
}
END_TEST

/* mem_poke_words is n mem_pokes: the words between change, the ones
 * around do not, and no access is counted; mem_word and mem_set_word see
 * the same words. */
static void poke_words(mem_t *m, const platform_t *p)
{
    (void)p;
    maddr_t a = mem_alloc(m, 0, 64 * 8);
    uint64_t v[40];
    for (int i = 0; i < 40; i++)
        v[i] = 1000u + (uint64_t)i;
    mem_poke(m, a + 8, 7);
    mem_poke(m, a + 8 * 42, 9);
    mem_poke_words(m, a + 16, v, 40);
    mem_poke_words(m, a, v, 0); /* nothing */
    ck_assert_uint_eq(mem_peek(m, a), 0);
    ck_assert_uint_eq(mem_peek(m, a + 8), 7);
    for (int i = 0; i < 40; i++)
        ck_assert_uint_eq(mem_peek(m, a + 16 + 8 * (maddr_t)i), 1000u + (uint64_t)i);
    ck_assert_uint_eq(mem_peek(m, a + 8 * 42), 9);
    ck_assert_uint_eq(mem_word(m, a + 8 * 42), 9); /* the unchecked views */
    mem_set_word(m, a + 8 * 43, 11);
    ck_assert_uint_eq(mem_peek(m, a + 8 * 43), 11);
    for (int k = 0; k < ACCESS_NKINDS; k++)
        ck_assert_uint_eq(mem_count(m, (access_kind_t)k), 0);
}

START_TEST(poke_words_writes_a_range)
{
    run_checks(poke_words);
}
END_TEST

/* --- invalidation --- */

static void inval(mem_t *m, const platform_t *p)
{
    uint32_t bus = cyc(p->costs.inval_node_cycles);
    /* CPU 1 upgrades a line (home 0) also held on its bus only: bus cost. */
    maddr_t a = mem_alloc(m, 0, 8);
    acc(m, 0, a, MEM_READ, ACCESS_MISS_LOCAL);
    acc(m, 1, a, MEM_READ, ACCESS_MISS_LOCAL);
    ck_assert_uint_eq(acc(m, 1, a, MEM_WRITE, ACCESS_UPGRADE), bus);

    /* Sharers on nodes 0, 1 and 8: the farthest (8) sets the price. */
    maddr_t b = mem_alloc(m, 0, 8), c = mem_alloc(m, 0, 8);
    int sharers[] = {0, 1, 2, 16};
    for (int i = 0; i < 4; i++) {
        mem_access(m, sharers[i], b, MEM_READ, NULL);
        if (i < 3)
            mem_access(m, sharers[i], c, MEM_READ, NULL); /* c: nodes 0 and 1 */
    }
    ck_assert_uint_eq(acc(m, 1, c, MEM_WRITE, ACCESS_UPGRADE), lat3(p, 0, 0, 1));
    ck_assert_uint_eq(acc(m, 1, b, MEM_WRITE, ACCESS_UPGRADE), lat3(p, 0, 0, 8));
    ck_assert_uint_gt(lat3(p, 0, 0, 8), lat3(p, 0, 0, 1));
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(mem_holds(m, sharers[i], b), sharers[i] == 1);
    /* Same with the farthest sharer first in CPU order: CPU 17 (node 8)
     * upgrades a line of node 8 also held on nodes 1 (far), 8 and 9. */
    maddr_t g = mem_alloc(m, 8, 8);
    int others[] = {2, 16, 17, 18};
    for (int i = 0; i < 4; i++)
        mem_access(m, others[i], g, MEM_READ, NULL);
    ck_assert_uint_gt(lat(p, 8, 1), lat(p, 8, 9));
    ck_assert_uint_eq(acc(m, 17, g, MEM_WRITE, ACCESS_UPGRADE), lat3(p, 8, 8, 1));

    /* A non-sharer on node 2 writes: max(fetch, farthest invalidation). */
    maddr_t d = mem_alloc(m, 0, 8);
    for (int i = 0; i < 4; i++)
        mem_access(m, sharers[i], d, MEM_READ, NULL);
    uint32_t fetch = cyc(p->costs.mem_local_cycles) + lat(p, 2, 0);
    uint32_t worst = lat3(p, 2, 0, 8);
    ck_assert_uint_gt(worst, fetch); /* else this would not test the max */
    ck_assert_uint_eq(acc(m, 4, d, MEM_WRITE, ACCESS_MISS_REMOTE), worst);
    for (int i = 0; i < 4; i++)
        ck_assert(!mem_holds(m, sharers[i], d));
}

START_TEST(inval_farthest_sharer)
{
    run_checks(inval);
}
END_TEST

/* --- holders: the bitset over CPUs and its summary of non-zero words --- */

static void holders(mem_t *m, const platform_t *p)
{
    ck_assert_int_eq(p->ncpus, 128); /* two words */
    uint64_t bits[2], sum[1];
    maddr_t a = mem_alloc(m, 0, 8);
    mem_holders(m, a, -1, bits, 2, sum);
    ck_assert(bits[0] == 0 && bits[1] == 0 && sum[0] == 0);
    mem_access(m, 5, a, MEM_READ, NULL);
    mem_access(m, 100, a, MEM_READ, NULL); /* sharers in both words */
    mem_holders(m, a, -1, bits, 2, sum);
    ck_assert(bits[0] == 1ull << 5 && bits[1] == 1ull << (100 - 64));
    ck_assert_uint_eq(sum[0], 3);
    mem_holders(m, a, 100, bits, 2, sum); /* all but 100: word 1 empties */
    ck_assert(bits[0] == 1ull << 5 && bits[1] == 0);
    ck_assert_uint_eq(sum[0], 1);
    mem_holders(m, a, 5, bits, 2, sum);
    ck_assert(bits[0] == 0 && bits[1] == 1ull << (100 - 64));
    ck_assert_uint_eq(sum[0], 2);
    mem_access(m, 100, a, MEM_WRITE, NULL); /* the owner alone, in word 1 */
    mem_holders(m, a, -1, bits, 2, sum);
    ck_assert(bits[0] == 0 && bits[1] == 1ull << (100 - 64));
    ck_assert_uint_eq(sum[0], 2);
    mem_holders(m, a, 100, bits, 2, sum); /* the owner excepted: nobody */
    ck_assert(bits[0] == 0 && bits[1] == 0 && sum[0] == 0);
    mem_access(m, 7, a, MEM_READ, NULL); /* shared again, word 0 only */
    mem_access(m, 7, a, MEM_WRITE, NULL);
    mem_holders(m, a, -1, bits, 2, sum);
    ck_assert(bits[0] == 1ull << 7 && bits[1] == 0);
    ck_assert_uint_eq(sum[0], 1);
}

START_TEST(holders_and_summary)
{
    run_checks_on("fat128", holders);
}
END_TEST

/* --- the common access: mem_hit is mem_access where it answers --- */

enum { HL = 600, HSTEPS = 40000, HCPUS = 6 };

/* Two memories of one platform take the same random accesses: m by
 * mem_hit, then mem_access when it declines, ref by mem_access alone.
 * Every access must cost the same, find the same and hit the same level,
 * and the two must end holding the same lines. Hot lines make hits, the
 * many cold ones evict by capacity; flushes and freed lines come too. */
static void hit_vs_access(mem_t *m, const platform_t *p)
{
    mem_t *ref = mem_create(p);
    maddr_t a[HL];
    for (int i = 0; i < HL; i++) {
        a[i] = mem_alloc(m, i % p->nnodes, 8);
        ck_assert_uint_eq(mem_alloc(ref, i % p->nnodes, 8), a[i]);
    }
    uint64_t r = 88172645463325252ull;
    int answered = 0;
    for (int step = 0; step < HSTEPS; step++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17; /* xorshift64 */
        int cpu = p->ncpus >= HCPUS ? (int)(r % HCPUS) * (p->ncpus / HCPUS)
                                    : (int)(r % (uint64_t)p->ncpus),
            pick = (int)(r >> 8 & 7);
        int line = (int)(pick < 6 ? (r >> 16) % 8 : (r >> 16) % HL); /* 3/4 hot */
        mem_op_t op = (r >> 40) % 10 < 6 ? MEM_READ : (r >> 40) % 10 < 9 ? MEM_WRITE : MEM_RMW;
        if ((r >> 48) % 5000 == 0) {
            mem_flush(m, cpu, 1);
            mem_flush(ref, cpu, 1);
        }
        if (step == HSTEPS / 2) {
            mem_release(m, a[3], 8);
            mem_release(ref, a[3], 8);
        }
        uint32_t c1, c2;
        access_kind_t k1 = ACCESS_HIT, k2 = ACCESS_NKINDS;
        if (mem_hit(m, cpu, a[line], op, &c1))
            answered++;
        else
            c1 = mem_access(m, cpu, a[line], op, &k1);
        c2 = mem_access(ref, cpu, a[line], op, &k2);
        ck_assert_msg(c1 == c2 && k1 == k2 && mem_last_level(m) == mem_last_level(ref),
                      "step %d, cpu %d, line %d, op %d: %u %s level %d, against %u %s level %d",
                      step, cpu, line, (int)op, c1, access_kind_name(k1), mem_last_level(m), c2,
                      access_kind_name(k2), mem_last_level(ref));
    }
    for (int i = 0; i < HL; i++)
        for (int c = 0; c < p->ncpus; c++)
            ck_assert_int_eq(mem_holds(m, c, a[i]), mem_holds(ref, c, a[i]));
    for (int k = 0; k < ACCESS_NKINDS; k++)
        ck_assert_uint_eq(mem_count(m, (access_kind_t)k), mem_count(ref, (access_kind_t)k));
    ck_assert_uint_eq(mem_freed_writes(m), mem_freed_writes(ref));
    ck_assert_uint_gt(mem_freed_writes(m), 0);
    ck_assert_msg(answered > HSTEPS / 10 && answered < HSTEPS - HSTEPS / 10,
                  "mem_hit answered %d of %d accesses: the test does not exercise both paths",
                  answered, HSTEPS);
    mem_destroy(ref);
}

START_TEST(hit_matches_access_levels)
{
    platform_t *p = tu_platform("numa32"); /* l1d, l2, l3; a write-through l1d */
    check_arg_t arg = {hit_vs_access, 0};
    tu_machine_run(p, "test_mem", 0, in_setup, NULL, &arg);
    ck_assert_int_eq(arg.ran, 1);
    platform_free(p);
}
END_TEST

/* With TLBs, a hit in l1d that is not the most recent of its set moves
 * there only once its translation is known to be dtlb1's most recent:
 * else mem_access's page walk runs first, and its fill must find the old
 * LRU order (it may evict the very line). Tiny caches and TLBs, built by
 * hand (as in test_tlb), make that case common. */
START_TEST(hit_matches_access_tlbs)
{
    static int node[2] = {0, 0};
    static uint32_t lat0[1] = {0};
    platform_t *p = tu_bare_platform(2, 1, node, lat0, 64);
    p->cache[CACHE_L1D] = (platform_cache_t){4 * 2 * 64, 2, 1, SCOPE_CPU};
    p->cache[CACHE_L2] = (platform_cache_t){8 * 4 * 64, 4, 6, SCOPE_CPU};
    p->ncache_levels = 2;
    p->tlb[TLB_DTLB1] = (platform_tlb_t){4, 2, 0};
    p->tlb[TLB_DTLB2] = (platform_tlb_t){8, 4, 3};
    p->page_bytes = 128;
    p->footprint_lines_per_page = 2;
    p->walk_cycles = 30;
    mem_t *m = mem_create(p);
    hit_vs_access(m, p);
    mem_destroy(m);
    free(p);
}
END_TEST

START_TEST(hit_matches_access_flat)
{
    run_checks(hit_vs_access); /* infinite caches */
}
END_TEST

/* --- flushes: a CPU lets go of its lines, and of nothing else --- */

enum { FL = 6000, FCODE = 24, FSTEPS = 40000, FCPUS = 8 };

/* Random reads, writes and code fetches of several CPUs (some sharing a
 * last level, where the platform has shared ones), over more lines than
 * the first levels hold; now and then one CPU flushes, with or without its
 * code. After it, that CPU holds no line but the code it kept, and every
 * other CPU holds what it held before. mem_flush finds a CPU's lines in
 * its levels (the last one, when inclusive): a line missed there would
 * stay held. More lines than
 * the last levels have sets, so that sets hold several. */
static void flush_exact(mem_t *m, const platform_t *p)
{
    maddr_t a[FL];
    for (int i = 0; i < FL; i++)
        a[i] = mem_alloc(m, i % p->nnodes, 8);
    for (int i = 0; i < FCODE; i++)
        mem_mark_code(m, a[i], 8);
    int cpus[FCPUS];
    for (int k = 0; k < FCPUS; k++) /* neighbours, then CPUs far apart */
        cpus[k] = k < FCPUS / 2 ? k : (k * (p->ncpus / FCPUS)) % p->ncpus;
    static unsigned char held[FCPUS][FL];
    uint64_t r = 0x9e3779b97f4a7c15ull;
    int flushes = 0, let_go = 0;
    for (int step = 0; step < FSTEPS; step++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        int cpu = cpus[r % FCPUS], i = (int)((r >> 8) % ((r >> 60) < 8 ? 256 : FL)); /* hot */
        if (i < FCODE) {
            access_kind_t k;
            int lvl;
            mem_fetch_code(m, cpu, a[i], &k, &lvl);
        } else {
            mem_access(m, cpu, a[i], (r >> 20) % 3 ? MEM_READ : MEM_WRITE, NULL);
        }
        if ((r >> 32) % 1500)
            continue;
        int f = (int)((r >> 40) % FCPUS), with_code = (int)(r >> 50 & 1);
        for (int k = 0; k < FCPUS; k++)
            for (int j = 0; j < FL; j++)
                held[k][j] = (unsigned char)mem_holds(m, cpus[k], a[j]);
        mem_flush(m, cpus[f], with_code);
        flushes++;
        for (int k = 0; k < FCPUS; k++)
            for (int j = 0; j < FL; j++) {
                int now = mem_holds(m, cpus[k], a[j]);
                int want = cpus[k] != cpus[f] || (j < FCODE && !with_code) ? held[k][j] : 0;
                ck_assert_msg(now == want, "step %d: cpu %d, line %d: %d after cpu %d's flush",
                              step, cpus[k], j, now, cpus[f]);
                let_go += held[k][j] && !now;
            }
    }
    ck_assert_int_ge(flushes, 10);
    ck_assert_int_gt(let_go, 100); /* the flushes had lines to let go of */
}

/* A loop test, a platform a run (one SimGrid platform per process). */
static const char *const kFlushPlatforms[] = {"numa32", "epyc2s", "xeon2s",
                                              "epyc2s"}; /* private l3; shared; */

START_TEST(flush_lets_go_of_exactly_its_lines)
{
    platform_t *p = tu_platform(kFlushPlatforms[_i]);
    p->last_noninclusive = _i == 3; /* ... shared and not inclusive */
    check_arg_t arg = {flush_exact, 0};
    tu_machine_run(p, "test_mem", 0, in_setup, NULL, &arg);
    ck_assert_int_eq(arg.ran, 1);
    platform_free(p);
}
END_TEST

/* --- jitter --- */

enum { NJ = 200, JMAX = 50 };

/* Reads NJ fresh lines from CPU 0, homed round the machine; stores each
 * miss's cost minus its table cost. */
static void jitter_draws(mem_t *m, const platform_t *p, uint32_t *extra)
{
    for (int i = 0; i < NJ; i++) {
        int home = i % p->nnodes;
        maddr_t a = mem_alloc(m, home, 8);
        uint32_t base = cyc(p->costs.mem_local_cycles) + lat(p, 0, home);
        uint32_t c = mem_access(m, 0, a, MEM_READ, NULL);
        ck_assert_msg(c >= base && c <= base + JMAX, "cost %u outside [%u, %u]", c, base,
                      base + JMAX);
        extra[i] = c - base;
        ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), cyc(p->costs.hit_cycles));
    }
}

static void jitter(mem_t *m, const platform_t *p)
{
    uint32_t x[NJ], y[NJ], z[NJ];
    mem_set_jitter(m, JMAX, 1234);
    jitter_draws(m, p, x);
    mem_set_jitter(m, JMAX, 1234); /* same seed: same draws */
    jitter_draws(m, p, y);
    mem_set_jitter(m, JMAX, 99);
    jitter_draws(m, p, z);
    uint32_t lo = JMAX, hi = 0;
    int same_z = 1;
    for (int i = 0; i < NJ; i++) {
        ck_assert_uint_eq(x[i], y[i]);
        same_z &= x[i] == z[i];
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    ck_assert_msg(!same_z, "another seed gave the same draws");
    ck_assert_msg(lo <= 5 && hi >= JMAX - 5, "draws in [%u, %u]: not spread over [0, %d]", lo, hi,
                  JMAX);
}

START_TEST(jitter_bounded_and_seeded)
{
    run_checks(jitter);
}
END_TEST

/* --- noise: a level that CPUs share takes it once --- */

enum { NOISE_LINES = 256 };

/* How many of NOISE_LINES lines that CPU 0 read it still holds after 10^6
 * cycles of noise: CPU 0's time alone, or CPU 1's too (both), and then
 * 10^6 more cycles of CPU 1's (later). A private l1d, an l3 of 512 lines
 * (the two CPUs share it, or each has its own: l3_scope), noise at 320
 * lines a 10^6 cycles (5 in each set). */
/* Two CPUs of one node: a private l1d (and l1i), an l3 of 512 lines, noise
 * at 320 lines a 10^6 cycles. */
static platform_t *noise_platform(int l1i, int private_only, cache_scope_t l3_scope)
{
    static int node[2] = {0, 0};
    static uint32_t lat0[1] = {0};
    platform_t *p = tu_bare_platform(2, 1, node, lat0, 64);
    if (l1i)
        p->cache[CACHE_L1I] = (platform_cache_t){8 * 2 * 64, 2, 1, SCOPE_CPU};
    p->cache[CACHE_L1D] = (platform_cache_t){8 * 2 * 64, 2, 1, SCOPE_CPU};
    p->cache[CACHE_L3] = (platform_cache_t){64 * 8 * 64, 8, 10, l3_scope};
    p->ncache_levels = 2 + l1i;
    p->footprint.noise_per_mcycle = 320;
    p->footprint.noise_private = private_only;
    return p;
}

static int noise_survivors_in(int both, int later, int private_only, cache_scope_t l3_scope)
{
    platform_t *p = noise_platform(0, private_only, l3_scope);
    mem_t *m = mem_create(p);
    maddr_t a = mem_alloc(m, 0, NOISE_LINES * 64);
    for (int i = 0; i < NOISE_LINES; i++)
        mem_access(m, 0, a + (maddr_t)i * 64, MEM_READ, NULL);
    mem_footprint_time(m, 0, 1000000);
    if (both)
        mem_footprint_time(m, 1, 1000000);
    if (later)
        mem_footprint_time(m, 1, 2000000);
    int held = 0;
    for (int i = 0; i < NOISE_LINES; i++)
        held += mem_holds(m, 0, a + (maddr_t)i * 64);
    mem_destroy(m);
    free(p);
    return held;
}

static int noise_survivors(int both, int later, int private_only)
{
    return noise_survivors_in(both, later, private_only, SCOPE_NODE);
}

/* The noise is other software: an l3 two idle CPUs share loses lines at
 * the noise's rate, not twice it, and its clock moves on with either CPU. */
START_TEST(shared_level_takes_noise_once)
{
    int alone = noise_survivors(0, 0, 0);
    ck_assert_msg(alone > 0 && alone < NOISE_LINES, "CPU 0 kept %d of %d lines", alone,
                  NOISE_LINES);
    ck_assert_int_eq(noise_survivors(1, 0, 0), alone);
    ck_assert_int_lt(noise_survivors(1, 1, 0), alone);
}
END_TEST

/* noise_scope = cpu: the noise empties CPU 0's own l1d, never the l3 it
 * shares, so every line stays held (in the l3) however long both wait. */
START_TEST(private_noise_spares_shared_levels)
{
    ck_assert_int_eq(noise_survivors(1, 1, 1), NOISE_LINES);
    ck_assert_int_lt(noise_survivors(1, 1, 0), NOISE_LINES);
}
END_TEST

/* noise_scope = cpu leaves the last level alone even where each CPU has its
 * own (a virtual machine's topology may say so of a shared L3): the lines
 * stay held in it; with noise_scope = all they do not. */
START_TEST(private_noise_spares_a_private_last_level)
{
    ck_assert_int_eq(noise_survivors_in(0, 0, 1, SCOPE_CPU), NOISE_LINES);
    ck_assert_int_lt(noise_survivors_in(0, 0, 0, SCOPE_CPU), NOISE_LINES);
}
END_TEST

/* The noise is other software's code as well as its data: it empties a
 * private l1i as the l1d, whichever its scope. Code lines that CPU 0
 * fetched are held in its l1i (free) before 10^6 cycles of noise, and
 * found below it (in the l3) after. */
START_TEST(noise_reaches_the_l1i)
{
    for (int private_only = 0; private_only < 2; private_only++) {
        platform_t *p = noise_platform(1, private_only, SCOPE_CPU);
        mem_t *m = mem_create(p);
        maddr_t code = mem_alloc(m, 0, 8 * 64);
        access_kind_t k;
        int lv, held = 0, in_l1i = 0;
        for (int i = 0; i < 8; i++)
            mem_fetch_code(m, 0, code + (maddr_t)i * 64, &k, &lv);
        for (int i = 0; i < 8; i++)
            in_l1i += mem_fetch_code(m, 0, code + (maddr_t)i * 64, &k, &lv) == 0;
        ck_assert_int_eq(in_l1i, 8);
        mem_footprint_time(m, 0, 1000000);
        in_l1i = 0;
        for (int i = 0; i < 8; i++) {
            uint32_t cost = mem_fetch_code(m, 0, code + (maddr_t)i * 64, &k, &lv);
            in_l1i += cost == 0;
            held += lv == CACHE_L3;
        }
        ck_assert_int_eq(in_l1i, 0);
        if (private_only) /* scope cpu spares the l3 */
            ck_assert_int_eq(held, 8);
        mem_destroy(m);
        free(p);
    }
}
END_TEST

static Suite *mem_suite(void)
{
    Suite *s = suite_create("mem");
    TCase *t = tcase_create("mem");
    tcase_add_test(t, hit_local_remote_costs);
    tcase_add_test(t, c2c_costs);
    tcase_add_test(t, read_waits_for_a_line_in_transit);
    tcase_add_test(t, flush_then_miss);
    tcase_add_loop_test(t, flush_lets_go_of_exactly_its_lines, 0, 4);
    tcase_add_test(t, freed_writes_counted);
    tcase_add_test(t, inval_farthest_sharer);
    tcase_add_test(t, jitter_bounded_and_seeded);
    tcase_add_test(t, holders_and_summary);
    tcase_add_test(t, hit_matches_access_levels);
    tcase_add_test(t, hit_matches_access_tlbs);
    tcase_add_test(t, poke_words_writes_a_range);
    tcase_add_test(t, hit_matches_access_flat);
    tcase_add_test(t, shared_level_takes_noise_once);
    tcase_add_test(t, private_noise_spares_shared_levels);
    tcase_add_test(t, private_noise_spares_a_private_last_level);
    tcase_add_test(t, noise_reaches_the_l1i);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(mem_suite());
}
