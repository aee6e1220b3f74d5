/* test_spinlock: mutual exclusion and progress of the simulated spinlock.
 *
 * All 32 CPUs of numa32 increment one shared counter with a plain read and
 * write (not atomic), 100 times each, under spin_lock. Lost updates would
 * show as a count below 3200; a second holder inside the critical section
 * is caught directly. Progress: every program returns, and every CPU gets
 * the lock for the first time while other CPUs still compete for it. And
 * the spin fast-forward changes no cycle (compared with always-yield).
 * numa32 runs as sc here (see child_run).
 */
#include "spinlock.h"
#include "mem.h"
#include "simulated.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

enum { NCPU = 32, ROUNDS = 100, THINK = 200 };

/* What one run observed; compared field by field between two runs. */
typedef struct {
    uint64_t first[NCPU], finish[NCPU]; /* cycle of first acquisition, end */
    int rounds[NCPU], ticks[NCPU], overlaps, done, unlocked;
    uint64_t count, batched;
} result_t;

static result_t g_r;
static maddr_t g_lock, g_counter;
static int g_holder = -1, g_always_yield, g_tick;

static void on_tick(cpu_t *c, void *arg)
{
    (void)arg;
    g_r.ticks[cpu_id(c)]++;
    cpu_work(c, 100); /* the handler's own time */
}

static void lock_prog(cpu_t *c, void *arg)
{
    (void)arg;
    int id = cpu_id(c);
    for (int i = 0; i < ROUNDS; i++) {
        spin_lock(c, g_lock);
        if (i == 0)
            g_r.first[id] = cpu_now(c);
        g_r.overlaps += g_holder != -1; /* steps run in simulated order */
        g_holder = id;
        uint64_t v = cpu_read(c, g_counter);
        cpu_write(c, g_counter, v + 1);
        g_holder = -1;
        spin_unlock(c, g_lock);
        g_r.rounds[id]++;
        cpu_work(c, THINK); /* some work outside the lock, as in real code */
    }
    g_r.finish[id] = cpu_now(c);
    if (++g_r.done == NCPU)
        machine_stop(cpu_machine(c));
}

static void setup(machine_t *m, void *arg)
{
    (void)arg;
    g_lock = mem_alloc(sim_mem(m), 0, 8);
    g_counter = mem_alloc(sim_mem(m), 0, 8); /* its own line */
    sim_set_always_yield(m, g_always_yield);
    if (g_tick)
        machine_set_tick(m, 10000, 0, on_tick, NULL);
    for (int i = 0; i < machine_ncpus(m); i++)
        machine_set_program(m, i, lock_prog, NULL);
}

static void finish(machine_t *m, void *arg)
{
    (void)arg;
    g_r.count = mem_peek(sim_mem(m), g_counter);
    g_r.unlocked = mem_peek(sim_mem(m), g_lock) == 0;
    g_r.batched = machine_batched_reads(m);
}

/* One run on numa32, in the child process of run(). */
static int child_run(void *arg)
{
    const int *yield_tick = arg;
    err_t e;
    /* sc: on weak numa32 an unlock no longer stalls its CPU, which retakes
     * the test-and-set lock before a remote waiter sees it free, and a CPU
     * may wait until all others are done; fairness is not what a
     * test-and-set lock promises, so the progress check runs as sc. */
    platform_override_t sc = {"memory_model", "sc"};
    platform_t *p = platform_read(tu_src_path("platforms/numa32.xml"), &sc, 1, &e);
    if (!p || p->ncpus != NCPU) {
        fprintf(stderr, "%s\n", p ? "numa32 has not 32 CPUs" : e.msg);
        return 3;
    }
    g_always_yield = yield_tick[0];
    g_tick = yield_tick[1];
    machine_hooks_t hooks = {setup, finish, NULL};
    return sim_run(p, "test_spinlock", 1, &hooks, &e) != 0 ? 4 : 0;
}

/* One run on numa32 in a child process (one SimGrid engine per process). */
static void run(int always_yield, int tick, result_t *out)
{
    int yield_tick[2] = {always_yield, tick};
    tu_run_in_child(child_run, yield_tick, &g_r, out, sizeof *out, "run");
}

START_TEST(counter_exact_and_no_starvation)
{
    result_t r;
    run(0, 0, &r);
    ck_assert_int_eq(r.done, NCPU);
    ck_assert_int_eq(r.overlaps, 0);
    ck_assert_uint_eq(r.count, NCPU * ROUNDS);
    ck_assert(r.unlocked);
    /* The lock is not fair (TTAS on NUMA: CPUs near its home win most
     * handovers; CPUs 0-3 are through before some CPUs behind the other
     * router get a first turn), but no CPU may starve: each one gets in
     * before all the others are through, and so before the end. */
    uint64_t end = 0;
    for (int i = 0; i < NCPU; i++) {
        ck_assert_int_eq(r.rounds[i], ROUNDS);
        ck_assert_uint_gt(r.finish[i], r.first[i]);
        end = r.finish[i] > end ? r.finish[i] : end;
    }
    for (int i = 0; i < NCPU; i++) {
        uint64_t others_done = 0;
        for (int j = 0; j < NCPU; j++)
            if (j != i && r.finish[j] > others_done)
                others_done = r.finish[j];
        ck_assert_msg(r.first[i] < others_done,
                      "CPU %d first got the lock at cycle %llu, after all others were done (%llu)",
                      i, (unsigned long long)r.first[i], (unsigned long long)others_done);
        ck_assert_uint_lt(r.first[i], end);
    }
}
END_TEST

/* Waiters spin with cpu_spin_while_eq, whose fast-forward skips hit-only
 * iterations; always-yield turns it off. Both must give the same cycles,
 * without ticks (_i = 0) and with them (_i = 1). */
START_TEST(fast_forward_is_exact)
{
    result_t fast, slow;
    run(0, _i, &fast);
    run(1, _i, &slow);
    ck_assert_uint_gt(fast.batched, 0); /* the fast-forward did work */
    ck_assert_uint_eq(slow.batched, 0);
    ck_assert_uint_eq(fast.count, NCPU * ROUNDS);
    ck_assert_uint_eq(slow.count, NCPU * ROUNDS);
    for (int i = 0; i < NCPU; i++) {
        ck_assert_msg(fast.first[i] == slow.first[i] && fast.finish[i] == slow.finish[i],
                      "CPU %d: first lock at %llu, done at %llu with fast-forward; %llu, %llu "
                      "without",
                      i, (unsigned long long)fast.first[i], (unsigned long long)fast.finish[i],
                      (unsigned long long)slow.first[i], (unsigned long long)slow.finish[i]);
        ck_assert_int_eq(fast.ticks[i], slow.ticks[i]);
        ck_assert_int_eq(fast.ticks[i] > 0, _i);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("spinlock");
    TCase *t = tcase_create("spinlock");
    tcase_add_test(t, counter_exact_and_no_starvation);
    tcase_add_loop_test(t, fast_forward_is_exact, 0, 2);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
