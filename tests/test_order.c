/* test_order: the store buffers and invalidate queues of order.c, driven
 * directly (no SimGrid): smp4's memory with a zero route matrix (one node),
 * the model and the queue delay set by each test. Times and costs are given
 * by hand, so each check follows from order.h's contract alone.
 */
#include "mem.h"
#include "order.h"
#include "testutil.h"

#include <check.h>
#include <stdlib.h>

typedef struct {
    platform_t *p;
    mem_t *mem;
    order_t *o;
    maddr_t a, b; /* two lines */
} fx_t;

static fx_t make(platform_model_t model, double queue)
{
    fx_t f;
    f.p = tu_platform("smp4");
    f.p->memory_model = model;
    f.p->costs.inval_queue_cycles = queue;
    f.p->node_lat = calloc((size_t)f.p->nnodes * (size_t)f.p->nnodes, sizeof *f.p->node_lat);
    ck_assert_ptr_nonnull(f.p->node_lat);
    f.mem = mem_create(f.p);
    f.o = order_create(f.p, f.mem);
    f.a = mem_alloc(f.mem, 0, 8);
    f.b = mem_alloc(f.mem, 0, 8);
    return f;
}

static void done(fx_t *f)
{
    order_destroy(f->o);
    mem_destroy(f->mem);
    platform_free(f->p); /* frees node_lat too */
}

/* A plain store of v by cpu at t whose transaction takes cost. */
static void store(fx_t *f, int cpu, maddr_t a, uint64_t v, uint64_t t, uint32_t cost)
{
    order_settle(f->o, t);
    order_before_store(f->o, cpu, a, t);
    mem_access(f->mem, cpu, a, MEM_WRITE, NULL);
    order_store(f->o, cpu, a, v, t, cost, 0, 0);
}

/* What cpu's load of a at t returns (mem when order.c says so). */
static uint64_t load(fx_t *f, int cpu, maddr_t a, uint64_t t, order_src_t *src)
{
    order_settle(f->o, t);
    uint64_t v;
    order_src_t s = order_load(f->o, cpu, a, t, &v);
    if (s == ORDER_FROM_MEM) {
        v = mem_peek(f->mem, a);
        mem_access(f->mem, cpu, a, MEM_READ, NULL);
    }
    if (src)
        *src = s;
    return v;
}

START_TEST(tso_forwards_and_drains_in_order)
{
    fx_t f = make(PLATFORM_TSO, 0);
    store(&f, 0, f.a, 1, 0, 100); /* slow */
    store(&f, 0, f.b, 2, 1, 10);  /* fast, but behind a in the FIFO */
    order_src_t s;
    ck_assert_uint_eq(load(&f, 0, f.a, 2, &s), 1); /* its own store */
    ck_assert_int_eq(s, ORDER_FROM_BUFFER);
    ck_assert_uint_eq(load(&f, 1, f.a, 50, &s), 0);   /* not visible yet */
    ck_assert_uint_eq(load(&f, 1, f.b, 99, NULL), 0); /* FIFO: not before a */
    ck_assert_uint_eq(order_drained_at(f.o, 0), 100);
    ck_assert_uint_eq(order_peek(f.o, f.b), 2); /* the value it will have */
    ck_assert_uint_eq(load(&f, 1, f.b, 100, NULL), 2);
    ck_assert_uint_eq(load(&f, 1, f.a, 100, NULL), 1);
    ck_assert_uint_eq(order_drained_at(f.o, 0), 0);
    done(&f);
}
END_TEST

START_TEST(weak_buffer_is_not_fifo)
{
    fx_t f = make(PLATFORM_WEAK, 0);
    store(&f, 0, f.a, 1, 0, 100);
    store(&f, 0, f.b, 2, 1, 10);
    ck_assert_uint_eq(load(&f, 1, f.b, 11, NULL), 2); /* b passed a */
    ck_assert_uint_eq(load(&f, 1, f.a, 12, NULL), 0);
    ck_assert_uint_eq(load(&f, 1, f.a, 100, NULL), 1);
    /* Stores to one line stay in order: a second, faster store to a waits. */
    store(&f, 0, f.a, 3, 200, 100);
    store(&f, 0, f.a, 4, 201, 5);
    ck_assert_uint_eq(order_line_drained_at(f.o, 0, f.a), 300);
    ck_assert_uint_eq(load(&f, 1, f.a, 299, NULL), 1);
    ck_assert_uint_eq(load(&f, 1, f.a, 300, NULL), 4);
    done(&f);
}
END_TEST

START_TEST(weak_queue_keeps_a_stale_copy)
{
    fx_t f = make(PLATFORM_WEAK, 500);
    ck_assert_uint_eq(load(&f, 1, f.a, 0, NULL), 0); /* CPU 1 caches a's line */
    store(&f, 0, f.a, 7, 10, 50);                    /* visible at 60, applied at 510 */
    ck_assert(!order_line_quiet(f.o, 1, f.a));
    order_src_t s;
    ck_assert_uint_eq(load(&f, 1, f.a, 100, &s), 0); /* stale, though visible */
    ck_assert_int_eq(s, ORDER_FROM_STALE);
    ck_assert_uint_eq(load(&f, 2, f.a, 100, &s), 7); /* CPU 2 had no copy */
    ck_assert_int_eq(s, ORDER_FROM_MEM);
    ck_assert_uint_eq(load(&f, 1, f.a, 510, &s), 7); /* the queue got to it */
    ck_assert_int_eq(s, ORDER_FROM_MEM);
    done(&f);
}
END_TEST

START_TEST(weak_fence_and_release_end_staleness)
{
    fx_t f = make(PLATFORM_WEAK, 500);
    load(&f, 1, f.a, 0, NULL);
    store(&f, 0, f.a, 7, 10, 50);
    order_settle(f.o, 100);
    order_process_queue(f.o, 1, 100); /* mf or an acquire on CPU 1 */
    ck_assert_uint_eq(load(&f, 1, f.a, 101, NULL), 7);
    /* A release store is visible to every CPU at once. */
    load(&f, 2, f.b, 200, NULL);
    store(&f, 0, f.b, 1, 210, 50); /* plain: CPU 2 would stay stale */
    order_settle(f.o, 300);
    order_before_store(f.o, 0, f.b, 300);
    mem_access(f.mem, 0, f.b, MEM_WRITE, NULL);
    order_store(f.o, 0, f.b, 2, 300, 50, 1, 0);
    order_src_t s;
    ck_assert_uint_eq(load(&f, 2, f.b, 349, &s), 0); /* its copy from before b = 1 */
    ck_assert_int_eq(s, ORDER_FROM_STALE);
    ck_assert_uint_eq(load(&f, 2, f.b, 350, &s), 2);
    ck_assert_int_eq(s, ORDER_FROM_MEM);
    done(&f);
}
END_TEST

START_TEST(weak_invalidation_processed_before_completion)
{
    /* Queue delay 0: the invalidation is applied when it arrives, before
     * the store completes, so nothing is ever stale. */
    fx_t f = make(PLATFORM_WEAK, 0);
    load(&f, 1, f.a, 0, NULL);
    store(&f, 0, f.a, 7, 10, 50);
    order_src_t s;
    ck_assert_uint_eq(load(&f, 1, f.a, 60, &s), 7);
    ck_assert_int_eq(s, ORDER_FROM_MEM);
    uint64_t st, fw, stale, early;
    order_counts(f.o, &st, &fw, &stale, &early);
    ck_assert_uint_eq(st, 1);
    ck_assert_uint_eq(stale, 0);
    done(&f);
}
END_TEST

/* --- early visibility against the lazy way ---
 *
 * One random run of 4 CPUs on three lines of two words each, in the
 * scheduler's (cycle, CPU) order, played twice: the lazy way (quiet_until
 * 0: every store through the heap) and the way simulated.c calls it (the
 * other CPUs' next cycle). Every load's value and source, every drain, every
 * spinner's question and every word's value at every step must be equal. */

typedef struct {
    uint64_t h;          /* a hash of everything observed */
    uint64_t early;      /* stores applied early */
    uint64_t stale, fwd; /* loads from a stale copy, forwarded */
} trace_t;

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void mix(trace_t *tr, uint64_t v)
{
    tr->h = (tr->h ^ v) * 0x100000001b3ull;
}

static trace_t random_run(platform_model_t model, double queue, int early, uint64_t seed)
{
    fx_t f = make(model, queue);
    enum { NCPU = 4, NW = 6, STEPS = 20000 };
    maddr_t w[NW];
    maddr_t lb = (maddr_t)f.p->line_bytes, l0 = mem_alloc(f.mem, 0, (size_t)lb * 3);
    for (int i = 0; i < NW; i++)
        w[i] = l0 + (maddr_t)(i / 2) * lb + (maddr_t)(i % 2) * 8;
    uint64_t next[NCPU] = {0, 1, 2, 3}, x = seed, val = 1;
    int pending[NCPU] = {-1, -1, -1, -1}, last[NCPU] = {0, 0, 0, 0};
    trace_t tr = {0xcbf29ce484222325ull, 0, 0, 0};
    for (int step = 0; step < STEPS; step++) {
        int c = 0;
        for (int i = 1; i < NCPU; i++)
            if (next[i] < next[c])
                c = i;
        uint64_t t = next[c], quiet = UINT64_MAX;
        for (int i = 0; i < NCPU; i++)
            if (i != c && next[i] < quiet)
                quiet = next[i];
        int op = pending[c] >= 0 ? pending[c] / NW : (int)(rnd(&x) % 10);
        int k = pending[c] >= 0 ? pending[c] % NW : (int)(rnd(&x) % NW);
        if (op < 4 && rnd(&x) % 2)
            k = last[c]; /* its own store, maybe still buffered */
        uint32_t cost = 1 + (uint32_t)(rnd(&x) % 80);
        uint64_t v = 0;
        order_settle(f.o, t);
        if (op >= 8) { /* as simulated.c: an RMW or a release waits for the buffer */
            uint64_t d = op == 8 && model == PLATFORM_WEAK ? order_line_drained_at(f.o, c, w[k])
                                                           : order_drained_at(f.o, c);
            if (d > t) {
                pending[c] = op * NW + k;
                next[c] = d;
                continue;
            }
            pending[c] = -1;
        }
        if (op < 4) { /* a load */
            order_src_t src;
            v = load(&f, c, w[k], t, &src);
            mix(&tr, v * 4 + (uint64_t)src);
        } else if (op < 8 || op == 9) { /* a store; 9: a release store */
            order_before_store(f.o, c, w[k], t);
            mem_access(f.mem, c, w[k], MEM_WRITE, NULL);
            order_store(f.o, c, w[k], val++, t, cost, op == 9, early ? quiet : 0);
            last[c] = k;
        } else { /* an RMW, then an acquire */
            order_before_store(f.o, c, w[k], t);
            order_rmw(f.o, c, w[k], t);
            mem_access(f.mem, c, w[k], MEM_RMW, NULL);
            v = mem_peek(f.mem, w[k]);
            mem_poke(f.mem, w[k], v + 1000);
            order_process_queue(f.o, c, t);
            mix(&tr, v);
        }
        mix(&tr, order_drained_at(f.o, c));
        mix(&tr, order_line_drained_at(f.o, c, w[k]));
        mix(&tr, (uint64_t)order_line_quiet(f.o, c, w[(k + 3) % NW]));
        for (int i = 0; i < NW; i++)
            mix(&tr, order_peek(f.o, w[i]));
        next[c] = t + 1 + rnd(&x) % 12 + (rnd(&x) % 8 ? 0 : 100 + rnd(&x) % 300); /* bursts */
    }
    order_settle_all(f.o);
    for (int i = 0; i < NW; i++)
        mix(&tr, mem_peek(f.mem, w[i]));
    uint64_t st;
    order_counts(f.o, &st, &tr.fwd, &tr.stale, &tr.early);
    done(&f);
    return tr;
}

static void check_early_same(platform_model_t model, double queue)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        trace_t lazy = random_run(model, queue, 0, seed * 0x9e3779b97f4a7c15ull);
        trace_t early = random_run(model, queue, 1, seed * 0x9e3779b97f4a7c15ull);
        ck_assert_uint_eq(lazy.early, 0);
        ck_assert_uint_gt(early.early, 300); /* the way under test was taken */
        ck_assert_uint_gt(early.fwd, 100);
        ck_assert_uint_eq(early.fwd, lazy.fwd);
        ck_assert_uint_eq(early.stale, lazy.stale);
        ck_assert_uint_eq(early.h, lazy.h);
    }
}

START_TEST(tso_early_visibility_changes_nothing)
{
    check_early_same(PLATFORM_TSO, 0);
}
END_TEST

START_TEST(weak_early_visibility_changes_nothing)
{
    check_early_same(PLATFORM_WEAK, 40);
    trace_t t = random_run(PLATFORM_WEAK, 40, 1, 7);
    ck_assert_uint_gt(t.stale, 0); /* queues were in play */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("order");
    TCase *t = tcase_create("order");
    tcase_add_test(t, tso_forwards_and_drains_in_order);
    tcase_add_test(t, weak_buffer_is_not_fifo);
    tcase_add_test(t, weak_queue_keeps_a_stale_copy);
    tcase_add_test(t, weak_fence_and_release_end_staleness);
    tcase_add_test(t, weak_invalidation_processed_before_completion);
    tcase_add_test(t, tso_early_visibility_changes_nothing);
    tcase_add_test(t, weak_early_visibility_changes_nothing);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
