/* test_cpu: CPU time accounting, the scheduler's determinism, and ticks.
 *
 * Every test runs sim_run on smp4 (4 CPUs, one node) in its own forked
 * test process; the determinism test forks twice more itself, since it
 * needs two SimGrid runs to compare.
 */
#include "cpu.h"
#include "mem.h"
#include "simulated.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- exactness: cycle counts add up with no rounding or loss --- */

enum { STEPS = 1000000 };
static uint64_t g_end[4], g_after_miss;
static maddr_t g_line;
static mem_costs_t g_costs;

static void work_prog(cpu_t *c, void *arg)
{
    (void)arg;
    for (int i = 0; i < STEPS; i++)
        cpu_work(c, 1);
    g_end[cpu_id(c)] = cpu_now(c);
}

static void work_setup(machine_t *m, void *arg)
{
    (void)arg;
    for (int i = 0; i < 4; i++)
        machine_set_program(m, i, work_prog, NULL);
}

START_TEST(work_is_exact)
{
    platform_t *p = tu_platform_flat("smp4");
    tu_machine_run(p, "test_cpu", 7, work_setup, NULL, NULL);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(g_end[i], STEPS);
    platform_free(p);
}
END_TEST

static void read_prog(cpu_t *c, void *arg)
{
    (void)arg;
    cpu_read(c, g_line); /* the one miss */
    g_after_miss = cpu_now(c);
    for (int i = 0; i < STEPS; i++)
        cpu_read(c, g_line);
    g_end[0] = cpu_now(c);
}

static void read_setup(machine_t *m, void *arg)
{
    (void)arg;
    g_line = mem_alloc(sim_mem(m), 0, 8);
    g_costs = machine_platform(m)->costs;
    machine_set_program(m, 0, read_prog, NULL);
}

START_TEST(reads_are_exact)
{
    platform_t *p = tu_platform_flat("smp4");
    tu_machine_run(p, "test_cpu", 7, read_setup, NULL, NULL);
    ck_assert_uint_eq(g_after_miss, (uint64_t)g_costs.mem_local_cycles);
    ck_assert_uint_eq(g_end[0] - g_after_miss, (uint64_t)STEPS * (uint64_t)g_costs.hit_cycles);
    platform_free(p);
}
END_TEST

/* --- determinism: the fast path orders steps as always-yield does --- */

enum { NOPS = 3000, NLOG = 4 * NOPS };
typedef struct {
    uint64_t cpu, op, cycle, value;
} logent_t;
typedef struct {
    uint64_t switches; /* actor switches: fewer without always-yield */
    logent_t log[NLOG];
} runlog_t;
static runlog_t g_run;
static int g_nlog, g_always_yield;
static maddr_t g_shared[3];

static uint64_t next_rand(uint64_t *s) /* xorshift64: fixed per CPU */
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void mixed_prog(cpu_t *c, void *arg)
{
    (void)arg;
    uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(cpu_id(c) + 1), id = (uint64_t)cpu_id(c);
    for (uint64_t i = 0; i < NOPS; i++) {
        uint64_t r = next_rand(&s), v = 0, mine = id << 32 | i;
        maddr_t a = g_shared[r % 3] + 8 * (r >> 8 & 1); /* two words per line */
        switch (r >> 16 & 3) {
        case 0:
            v = cpu_read(c, a);
            break;
        case 1:
            cpu_write(c, a, mine);
            break;
        case 2:
            v = cpu_xchg(c, a, mine);
            break;
        default:
            cpu_work(c, r >> 24 & 63);
            break;
        }
        if (g_nlog < NLOG)
            g_run.log[g_nlog++] = (logent_t){id, r >> 16 & 3, cpu_now(c), v};
    }
}

static void mixed_setup(machine_t *m, void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        g_shared[i] = mem_alloc(sim_mem(m), 0, 16);
    sim_set_always_yield(m, g_always_yield);
    for (int i = 0; i < 4; i++)
        machine_set_program(m, i, mixed_prog, NULL);
}

static void count_switches(machine_t *m, void *arg)
{
    (void)arg;
    g_run.switches = machine_switches(m);
}

/* One run of the mixed program, in a child process. */
static int mixed_run(void *always_yield)
{
    g_always_yield = *(int *)always_yield;
    platform_t *p = tu_platform_flat("smp4");
    machine_hooks_t hooks = {mixed_setup, count_switches, NULL};
    err_t e;
    return sim_run(p, "test_cpu", 7, &hooks, &e) != 0 || g_nlog != NLOG ? 3 : 0;
}

/* Runs the mixed program in a child process; its log comes through a pipe. */
static void run_logged(int always_yield, runlog_t *out)
{
    tu_run_in_child(mixed_run, &always_yield, &g_run, out, sizeof *out,
                    always_yield ? "run (yield=1)" : "run (yield=0)");
}

START_TEST(yield_or_not_same_order)
{
    static runlog_t fast_run, slow_run;
    run_logged(0, &fast_run);
    run_logged(1, &slow_run);
    ck_assert_uint_gt(fast_run.switches, 0);                 /* CPUs did interleave */
    ck_assert_uint_lt(fast_run.switches, slow_run.switches); /* fast path taken */
    const logent_t *fast = fast_run.log, *slow = slow_run.log;
    for (int i = 0; i < NLOG; i++)
        ck_assert_msg(memcmp(&fast[i], &slow[i], sizeof fast[i]) == 0,
                      "step %d differs: cpu %llu cycle %llu value %llx vs cpu %llu cycle %llu "
                      "value %llx",
                      i, (unsigned long long)fast[i].cpu, (unsigned long long)fast[i].cycle,
                      (unsigned long long)fast[i].value, (unsigned long long)slow[i].cpu,
                      (unsigned long long)slow[i].cycle, (unsigned long long)slow[i].value);
    /* The logs say something: CPUs saw each other's writes, in cycle order
     * (each CPU's steps are logged at their end, so only per CPU). */
    int foreign = 0;
    uint64_t last[4] = {0};
    for (int i = 0; i < NLOG; i++) {
        foreign += fast[i].value && fast[i].value >> 32 != fast[i].cpu;
        ck_assert_uint_ge(fast[i].cycle, last[fast[i].cpu]);
        last[fast[i].cpu] = fast[i].cycle;
    }
    ck_assert_int_gt(foreign, 100);
}
END_TEST

/* --- ticks --- */

enum { PERIOD = 1000, MAXT = 64 };
static int g_ticks[4], g_ticks_at_end[4], g_done, g_bad_irq;
static uint64_t g_tick_at[4][MAXT];

static void on_tick(cpu_t *c, void *arg)
{
    (void)arg;
    int id = cpu_id(c);
    if (cpu_in_irq(c) != 1)
        g_bad_irq++;
    if (g_ticks[id] < MAXT)
        g_tick_at[id][g_ticks[id]] = cpu_now(c);
    g_ticks[id]++;
}

/* Ends the run when every CPU with a program is through it. */
static void done(cpu_t *c, int nprogs)
{
    g_ticks_at_end[cpu_id(c)] = g_ticks[cpu_id(c)];
    if (++g_done == nprogs)
        machine_stop(cpu_machine(c));
}

enum { WORK = 10 * PERIOD + PERIOD / 8 }; /* no tick falls on either end */

static void tick_prog(cpu_t *c, void *arg)
{
    (void)arg;
    cpu_work(c, WORK);
    done(c, 4);
}

static void tick_setup(machine_t *m, void *arg)
{
    (void)arg;
    machine_set_tick(m, PERIOD, PERIOD / 2, on_tick, NULL);
    for (int i = 0; i < 4; i++)
        machine_set_program(m, i, tick_prog, NULL);
}

START_TEST(ticks_on_schedule)
{
    platform_t *p = tu_platform_flat("smp4");
    tu_machine_run(p, "test_cpu", 7, tick_setup, NULL, NULL);
    ck_assert_int_eq(g_done, 4);
    ck_assert_int_eq(g_bad_irq, 0);
    for (int i = 0; i < 4; i++) {
        /* CPU i's ticks: offset + i*period/ncpus + k*period, k >= 0 */
        uint64_t first = PERIOD / 2 + (uint64_t)i * PERIOD / 4;
        int want = (int)((WORK - first + PERIOD - 1) / PERIOD);
        ck_assert_int_eq(g_ticks_at_end[i], want);
        for (int k = 0; k < want; k++)
            ck_assert_uint_eq(g_tick_at[i][k], first + (uint64_t)k * PERIOD);
    }
    ck_assert_int_eq(g_ticks_at_end[3], 9); /* 1250..9250 */
    platform_free(p);
}
END_TEST

static int g_during_off, g_nested_off, g_after_enable;
static uint64_t g_enable_at;

static void irq_prog(cpu_t *c, void *arg)
{
    (void)arg;
    /* CPU 0's ticks fall at 500, 1500, 2500, ... */
    cpu_work(c, 100);
    cpu_irq_disable(c);
    cpu_irq_disable(c); /* nested, like local_irq_save twice */
    cpu_work(c, 2 * PERIOD);
    cpu_read(c, g_line); /* steps poll too: still masked */
    g_during_off = g_ticks[0];
    cpu_irq_enable(c);
    g_nested_off = g_ticks[0];
    g_enable_at = cpu_now(c);
    cpu_irq_enable(c); /* the ticks due at 500 and 1500 are taken here */
    g_after_enable = g_ticks[0];
    cpu_work(c, PERIOD); /* and the next one keeps its schedule */
    done(c, 1);
}

static void irq_setup(machine_t *m, void *arg)
{
    (void)arg;
    g_line = mem_alloc(sim_mem(m), 0, 8);
    machine_set_tick(m, PERIOD, PERIOD / 2, on_tick, NULL);
    machine_set_program(m, 0, irq_prog, NULL);
}

START_TEST(ticks_wait_for_irq_enable)
{
    platform_t *p = tu_platform_flat("smp4");
    tu_machine_run(p, "test_cpu", 7, irq_setup, NULL, NULL);
    ck_assert_int_eq(g_during_off, 0);
    ck_assert_int_eq(g_nested_off, 0);
    ck_assert_uint_gt(g_enable_at, 1500);
    /* Every overdue tick is taken at once (poll_irq loops), at enable. */
    ck_assert_int_eq(g_after_enable, 2);
    ck_assert_uint_eq(g_tick_at[0][0], g_enable_at);
    ck_assert_uint_eq(g_tick_at[0][1], g_enable_at);
    ck_assert_int_eq(g_ticks_at_end[0], 3);
    ck_assert_uint_eq(g_tick_at[0][2], 2500);
    ck_assert_int_eq(g_bad_irq, 0);
    platform_free(p);
}
END_TEST

static Suite *cpu_suite(void)
{
    Suite *s = suite_create("cpu");
    TCase *t = tcase_create("cpu");
    tcase_add_test(t, work_is_exact);
    tcase_add_test(t, reads_are_exact);
    tcase_add_test(t, yield_or_not_same_order);
    tcase_add_test(t, ticks_on_schedule);
    tcase_add_test(t, ticks_wait_for_irq_enable);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(cpu_suite());
}
