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
    order_store(f->o, cpu, a, v, t, cost, 0);
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
    order_store(f.o, 0, f.b, 2, 300, 50, 1);
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
    uint64_t st, fw, stale;
    order_counts(f.o, &st, &fw, &stale);
    ck_assert_uint_eq(st, 1);
    ck_assert_uint_eq(stale, 0);
    done(&f);
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
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
