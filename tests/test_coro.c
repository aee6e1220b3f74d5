/* test_coro: the simulated CPUs' coroutines (sim/machine/simgrid/coro.c).
 *
 * Jumps go where they are asked and come back to the right place with the
 * right stack (a ring of three coroutines and the caller, each keeping
 * locals across jumps); a coroutine that ends for good hands over without
 * returning; a deep frame fits in the stack the simulated CPUs get; and
 * 4096 stacks cost address space, not memory.
 */
#include "coro.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

enum { RING = 3, LAPS = 1000, STACK = 256 << 10 };

static coro_t g_main, g_ring[RING];
static int g_trace[RING * LAPS + 8], g_ntrace;

/* Each member notes its id, then jumps to the next; the last of the last
 * lap returns to the caller. Its local lap count must survive the jumps. */
static void ring_fn(void *arg)
{
    int id = (int)(long)arg;
    for (int lap = 0; lap < LAPS; lap++) {
        g_trace[g_ntrace++] = id * 100000 + lap;
        if (id == RING - 1 && lap == LAPS - 1)
            coro_switch(&g_ring[id], &g_main);
        else
            coro_switch(&g_ring[id], &g_ring[(id + 1) % RING]);
    }
    ck_abort_msg("coroutine %d resumed after its last lap", id);
}

START_TEST(ring_order)
{
    memset(&g_main, 0, sizeof g_main);
    for (long i = 0; i < RING; i++)
        ck_assert_int_eq(coro_init(&g_ring[i], STACK, ring_fn, (void *)i), 0);
    int canary = 12345; /* the caller's own frame survives too */
    coro_switch(&g_main, &g_ring[0]);
    ck_assert_int_eq(canary, 12345);
    ck_assert_int_eq(g_ntrace, RING * LAPS);
    for (int k = 0; k < g_ntrace; k++)
        ck_assert_int_eq(g_trace[k], (k % RING) * 100000 + k / RING);
    for (int i = 0; i < RING; i++)
        coro_free(&g_ring[i]);
}
END_TEST

/* A coroutine that ends: it hands over for good, as a CPU whose life is
 * over does; the one it hands to goes on, and nothing returns into it. */
static coro_t g_a, g_b;
static int g_steps;

static void ender_fn(void *arg)
{
    (void)arg;
    g_steps++;
    coro_switch(&g_a, &g_b); /* for good */
    ck_abort_msg("an ended coroutine was resumed");
}

static void survivor_fn(void *arg)
{
    (void)arg;
    g_steps += 10;
    coro_switch(&g_b, &g_main);
    ck_abort_msg("the survivor was resumed");
}

START_TEST(end_for_good)
{
    memset(&g_main, 0, sizeof g_main);
    g_steps = 0;
    ck_assert_int_eq(coro_init(&g_a, STACK, ender_fn, NULL), 0);
    ck_assert_int_eq(coro_init(&g_b, STACK, survivor_fn, NULL), 0);
    coro_switch(&g_main, &g_a);
    ck_assert_int_eq(g_steps, 11);
    coro_free(&g_a);
    coro_free(&g_b);
}
END_TEST

/* A frame of 200 KB (more than any simulated CPU's program uses) fits. */
static coro_t g_deep;
static volatile unsigned g_sum;

static void deep_fn(void *arg)
{
    (void)arg;
    volatile unsigned char buf[200 << 10];
    for (size_t i = 0; i < sizeof buf; i += 512)
        buf[i] = (unsigned char)i;
    unsigned s = 0;
    for (size_t i = 0; i < sizeof buf; i += 512)
        s += buf[i];
    g_sum = s;
    coro_switch(&g_deep, &g_main);
}

START_TEST(deep_frame)
{
    memset(&g_main, 0, sizeof g_main);
    g_sum = 0;
    ck_assert_int_eq(coro_init(&g_deep, STACK, deep_fn, NULL), 0);
    coro_switch(&g_main, &g_deep);
    unsigned want = 0;
    for (size_t i = 0; i < (200u << 10); i += 512)
        want += (unsigned char)i;
    ck_assert_uint_eq(g_sum, want);
    coro_free(&g_deep);
}
END_TEST

/* 4096 CPUs' stacks, each run once: the memory is what the frames touched,
 * not 4096 x 256 KiB (1 GiB). */
static coro_t *g_many;
static int g_next, g_nmany;

static void hop_fn(void *arg)
{
    int id = (int)(long)arg;
    g_next = id + 1;
    coro_switch(&g_many[id], id + 1 < g_nmany ? &g_many[id + 1] : &g_main);
}

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

START_TEST(many_stacks_are_lazy)
{
    memset(&g_main, 0, sizeof g_main);
    g_nmany = 4096;
    g_many = calloc((size_t)g_nmany, sizeof *g_many);
    ck_assert_ptr_nonnull(g_many);
    long before = max_rss_kib();
    for (long i = 0; i < g_nmany; i++)
        ck_assert_int_eq(coro_init(&g_many[i], STACK, hop_fn, (void *)i), 0);
    coro_switch(&g_main, &g_many[0]);
    ck_assert_int_eq(g_next, g_nmany);
    long grew = max_rss_kib() - before;
    ck_assert_msg(grew < 128 << 10, "4096 stacks grew the memory by %ld KiB", grew);
    for (int i = 0; i < g_nmany; i++)
        coro_free(&g_many[i]);
    free(g_many);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coro");
    TCase *tc = tcase_create("coro");
    tcase_add_test(tc, ring_order);
    tcase_add_test(tc, end_for_good);
    tcase_add_test(tc, deep_frame);
    tcase_add_test(tc, many_stacks_are_lazy);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
