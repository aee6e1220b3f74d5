/* test_timer: the timer core's API on simulated CPUs (the wheel against a
 * reference model is in test_timer_wheel.c).
 *
 *   moved_timer_runs_once_on_new_cpu  armed on CPU 1, moved by mod_timer
 *       from CPU 2 before it is due (once to a later, once to an earlier
 *       jiffy): each runs exactly once, on CPU 2, at its new expiry; the
 *       move returns 1 and leaves timer->base naming CPU 2's base. Both
 *       designs.
 *   rearming_timer_is_periodic  a function that re-arms its own timer with
 *       mod_timer(read_jiffies() + P) runs at exactly arm + k*P, for every k
 *       up to the end of the run (P = 7, and P = 300 which cascades from tv2
 *       every time: 50 runs), on its CPU. Both designs.
 *   ticks_one_second_numa32  32 CPUs of numa32, HZ 1024, one simulated
 *       second with no other work: per CPU, tcore_ticks_run equals the
 *       number of ticks at period + i*period/32 + k*period <= 1.5e9; one
 *       tick of CPU 0, CPU 1 and CPU 5 costs exactly what the cost table
 *       says (written out step by step below); at the end every base's first
 *       line is held by its CPU alone and is dirty (another CPU's read of it
 *       costs a cache-to-cache transfer).
 *   api_returns_bug_and_uaf  del_timer returns 1 only for a pending timer
 *       (never armed, armed, deleted, already run); add_timer of a pending
 *       timer reports exactly one TEV_BUG (on that timer, that CPU) and of a
 *       non-pending one none; writes into a freed timer by mod_timer are
 *       counted by mem_freed_writes, exactly (6 classic, 5 tracking). Both
 *       designs.
 *   strategy_table_expansions_agree  the ids, names, designs and code units
 *       expanded from strategy_table.h agree, names are unique,
 *       last_running is asked of the classic design only, and the 6.1 rows
 *       and code units come after every 2.6 one. No machine.
 *
 * Every other test runs sim_run in its own forked Check process. Programs
 * never call ck_assert (they run in SimGrid actors): they record, and the
 * test asserts after the run.
 */
#include "cpu.h"
#include "mem.h"
#include "simulated.h"
#include "testutil.h"
#include "strategy.h"
#include "timer/timer.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HZ = 1024, MAXLOG = 8192 };

typedef struct {
    int id, cpu;
    uint64_t jiffy;
} run_t;

static struct {
    timer_design_t design;
    tcore_t *tc;
    mem_t *mem;
    const platform_t *p;
    uint64_t period;
    maddr_t t[4];
    run_t log[MAXLOG];
    int nlog;
    uint64_t P[4]; /* rearm periods by timer id */
    uint64_t j_arm, j_move, j_stop;
    int ret[8];
    maddr_t base_after[4], base[32];
    int bugs, bug_cpu, freed_events;
    unsigned obs_events;    /* the observer's mask; 0: TEV_ALL */
    int heard[TEV_BUG + 1]; /* events the observer was told of, by kind */
    maddr_t bug_timer;
    uint64_t uaf_before, uaf_after, uaf_initial;
    int del_ret[8], pending_after_bug;
    uint64_t expires_after_bug;
    /* numa32 */
    uint64_t tick_cost[3], want_cost[3], probe_cost[32], want_probe[32];
    uint64_t tick_at[3], next_tick_seen[3], probe_end;
    int holds_own[32], holds_other[32];
    uint64_t ticks_run[32];
} g;

static const timer_design_t kDesigns[2] = {TIMER_CLASSIC, TIMER_TRACKING};

static void run_machine(const char *platform, machine_setup_fn setup, machine_setup_fn finish)
{
    platform_t *p = tu_platform_flat(platform);
    tu_machine_run(p, "test_timer", 1, setup, finish, NULL);
    platform_free(p);
    tcore_destroy(g.tc);
}

/* The common set-up: a timer core with the tick at HZ, timekeeper CPU 0. */
static int core_setup(machine_t *m, timer_fn_t fn)
{
    g.p = machine_platform(m);
    g.mem = sim_mem(m);
    g.period = (uint64_t)(g.p->clock_mhz * 1e6 / HZ + 0.5);
    g.tc = tcore_create(m, g.design, 0, g.period, 0);
    for (int i = 0; i < g.p->ncpus && i < 32; i++)
        g.base[i] = tcore_base(g.tc, i);
    return fn ? tcore_register_fn(g.tc, fn, NULL) : -1;
}

static void log_run(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *ctx)
{
    (void)t, (void)ctx;
    cpu_sync(c);
    if (g.nlog < MAXLOG)
        g.log[g.nlog++] = (run_t){(int)data, cpu_id(c), tcore_jiffies_now(tc)};
}

/* Takes c's next tick; returns jiffies as seen right after it. Operations
 * done next run well before any other CPU's tick (a quarter period away on
 * smp4), so they never race with a run loop. */
static uint64_t after_tick(cpu_t *c)
{
    cpu_idle_until(c, cpu_next_tick(c) + 1);
    cpu_sync(c);
    return tcore_jiffies_now(g.tc);
}

/* CPU 0: ends the run after its tick at jiffy j_stop (CPUs 1..3 have then
 * processed j_stop - 1). */
static void stopper(cpu_t *c, void *arg)
{
    (void)arg;
    while (after_tick(c) < g.j_stop)
        ;
    machine_stop(cpu_machine(c));
}

/* --- 3. a timer moved between CPUs --- */

static void arm_on_1(cpu_t *c, void *arg)
{
    (void)arg;
    g.j_arm = after_tick(c);
    g.ret[0] = mod_timer(c, g.tc, g.t[0], g.j_arm + 10);
    g.ret[1] = mod_timer(c, g.tc, g.t[1], g.j_arm + 10);
}

static void move_to_2(cpu_t *c, void *arg)
{
    (void)arg;
    uint64_t j;
    while ((j = after_tick(c)) < g.j_arm + 3)
        ;
    g.j_move = j;
    g.ret[2] = mod_timer(c, g.tc, g.t[0], j + 20); /* later than on CPU 1 */
    g.ret[3] = mod_timer(c, g.tc, g.t[1], j + 2);  /* earlier */
    for (int i = 0; i < 2; i++)
        g.base_after[i] = mem_peek(g.mem, g.t[i] + TIMER_BASE);
}

static void move_setup(machine_t *m, void *arg)
{
    (void)arg;
    int fn = core_setup(m, log_run);
    for (int i = 0; i < 2; i++)
        g.t[i] = timer_alloc(g.tc, 0, fn, (uint64_t)i);
    g.j_stop = 60;
    machine_set_program(m, 0, stopper, NULL);
    machine_set_program(m, 1, arm_on_1, NULL);
    machine_set_program(m, 2, move_to_2, NULL);
}

START_TEST(moved_timer_runs_once_on_new_cpu)
{
    memset(&g, 0, sizeof g);
    g.design = kDesigns[_i];
    run_machine("smp4", move_setup, NULL);
    ck_assert_uint_eq(g.j_arm, 1); /* the first tick processes jiffies 0 and 1 */
    ck_assert_uint_eq(g.j_move, 4);
    ck_assert_int_eq(g.ret[0], 0);
    ck_assert_int_eq(g.ret[1], 0);
    ck_assert_int_eq(g.ret[2], 1);
    ck_assert_int_eq(g.ret[3], 1);
    ck_assert_uint_eq(g.base_after[0], g.base[2]);
    ck_assert_uint_eq(g.base_after[1], g.base[2]);
    ck_assert_int_eq(g.nlog, 2);
    /* timer 1 first (due at 4 + 2), then timer 0 (4 + 20); never at 11 */
    ck_assert_int_eq(g.log[0].id, 1);
    ck_assert_int_eq(g.log[0].cpu, 2);
    ck_assert_uint_eq(g.log[0].jiffy, 6);
    ck_assert_int_eq(g.log[1].id, 0);
    ck_assert_int_eq(g.log[1].cpu, 2);
    ck_assert_uint_eq(g.log[1].jiffy, 24);
}
END_TEST

/* --- 4. a self-re-arming timer --- */

static void rearm_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *ctx)
{
    log_run(c, tc, t, data, ctx);
    mod_timer(c, tc, t, read_jiffies(c, tc) + g.P[data]);
}

static void arm_own(cpu_t *c, void *arg)
{
    (void)arg;
    int id = cpu_id(c) - 1; /* timer 0 on CPU 1, timer 1 on CPU 2 */
    uint64_t j = after_tick(c);
    if (id == 0)
        g.j_arm = j;
    mod_timer(c, g.tc, g.t[id], j + g.P[id]);
}

static void rearm_setup(machine_t *m, void *arg)
{
    (void)arg;
    int fn = core_setup(m, rearm_fn);
    g.P[0] = 7;
    g.P[1] = 300;
    for (int i = 0; i < 2; i++)
        g.t[i] = timer_alloc(g.tc, 0, fn, (uint64_t)i);
    g.j_stop = 1 + 50 * 300 + 150; /* CPUs 1, 2 process up to j_stop - 1 */
    machine_set_program(m, 0, stopper, NULL);
    machine_set_program(m, 1, arm_own, NULL);
    machine_set_program(m, 2, arm_own, NULL);
}

START_TEST(rearming_timer_is_periodic)
{
    memset(&g, 0, sizeof g);
    g.design = kDesigns[_i];
    run_machine("smp4", rearm_setup, NULL);
    ck_assert_uint_eq(g.j_arm, 1);
    uint64_t last = g.j_stop - 1, n[2] = {0, 0}, prev[2] = {g.j_arm, g.j_arm};
    for (int k = 0; k < g.nlog; k++) {
        const run_t *r = &g.log[k];
        ck_assert_int_eq(r->cpu, r->id + 1);
        ck_assert_uint_eq(r->jiffy - prev[r->id], g.P[r->id]);
        prev[r->id] = r->jiffy;
        n[r->id]++;
    }
    ck_assert_uint_eq(n[0], (last - g.j_arm) / 7); /* 2164 */
    ck_assert_uint_eq(n[1], 50);
    ck_assert_int_lt(g.nlog, MAXLOG);
}
END_TEST

/* --- 5. one second of ticks on numa32 --- */

static const int kMeasured[3] = {0, 1, 5};
enum { MEASURED_TICK = 500 }; /* jiffy 501: 501 & 255 != 0, no cascade */

/* CPU i's tick k is at period + i*period/32 + k*period. */
static uint64_t tick_cycle(int cpu, uint64_t k)
{
    return g.period + (uint64_t)cpu * g.period / 32 + k * g.period;
}

/* The cost, from the platform's table, of one tick of CPU cpu at jiffy J,
 * in steady state: every CPU ticked in the previous period, nothing else
 * runs, and J & 255 != 0 (no cascade). */
static uint64_t expected_tick_cost(int cpu)
{
    const mem_costs_t *k = &g.p->costs;
    uint64_t hit = (uint64_t)k->hit_cycles, atomic = (uint64_t)k->atomic_cycles;
    uint64_t local = (uint64_t)k->mem_local_cycles, c2c = (uint64_t)k->c2c_node_cycles;
    uint64_t inval = (uint64_t)k->inval_node_cycles;
    int n = g.p->cpu_node[cpu], h = g.p->cpu_node[0]; /* jiffies is homed with CPU 0 */
    uint64_t cost = 0;
    if (cpu == 0) {
        /* do_timer: fetch_add on jiffies. Every CPU read it last period, so
         * the line is shared (CPU 0 included): an upgrade, paying the
         * slowest invalidation, max(home directory = inval on this node,
         * each sharer: inval on the bus, else lat3(0, h, its node)) plus the
         * atomic. */
        uint64_t worst = inval;
        for (int s = 1; s < g.p->ncpus; s++) {
            int sn = g.p->cpu_node[s];
            uint64_t c = sn == n ? inval
                                 : (platform_node_lat(g.p, n, h) + platform_node_lat(g.p, h, sn) +
                                    platform_node_lat(g.p, sn, n)) /
                                       2;
            worst = c > worst ? c : worst;
        }
        cost += worst + atomic;
    }
    cost += hit; /* tick: read base->timer_jiffies (base line, own, dirty) */
    /* tick: read jiffies. CPU 0 just wrote it; CPU 1 (same bus) is the
     * first reader: a HITM from CPU 0's cache. Then the line is shared and
     * clean: every later reader gets it from its home memory (node 0).
     * CPU 0 itself holds it exclusive now: a hit. */
    if (cpu == 0)
        cost += hit;
    else if (cpu == 1)
        cost += c2c;
    else
        cost += local + (n == h ? 0 : platform_node_lat(g.p, n, h));
    cost += atomic;    /* wheel_run: spin_lock = xchg on its own held line */
    cost += hit + hit; /* loop: read timer_jiffies, read jiffies (now held) */
    cost += hit;       /* write timer_jiffies + 1 */
    cost += hit;       /* splice_init: read tv1[index].next (line held
                        * since jiffy index was last run, 256 jiffies ago) */
    cost += hit + hit; /* empty: write work.next, work.prev (stack line) */
    cost += hit;       /* read work.next: the list is empty */
    cost += hit + hit; /* loop: read timer_jiffies, read jiffies: done */
    cost += hit;       /* write running_timer = NULL */
    cost += hit;       /* spin_unlock: write lock = 0 */
    return cost;
}

static void measure_tick(cpu_t *c, void *arg)
{
    (void)arg;
    int id = cpu_id(c), m = id == 0 ? 0 : id == 1 ? 1 : 2;
    uint64_t at = tick_cycle(id, MEASURED_TICK);
    cpu_idle_until(c, at - 1);
    g.next_tick_seen[m] = cpu_next_tick(c);
    cpu_idle_until(c, at); /* takes the tick at `at`; nothing else runs */
    g.tick_at[m] = at;
    g.tick_cost[m] = cpu_now(c) - at;
    if (id != 0)
        return; /* ticks go on by themselves */
    /* After one second: CPU 31's last tick (k = 1022) is over, CPU 0's
     * next is at 1024 periods = 1,500,000,256 and CPU 1's 45,776 cycles
     * later. Between the two, with its own tick held off, CPU 0 looks at
     * the state and reads each base's first line (lock, timer_jiffies,
     * running_timer): 31 reads of ~1,300 cycles fit before CPU 1's tick. */
    cpu_idle_until(c, tick_cycle(31, 1022) + 5000);
    cpu_irq_disable(c);
    cpu_sync(c);
    for (int i = 0; i < g.p->ncpus; i++) {
        maddr_t b = tcore_base(g.tc, i);
        g.ticks_run[i] = tcore_ticks_run(g.tc, i);
        g.holds_own[i] = mem_holds(g.mem, i, b);
        for (int j = 0; j < g.p->ncpus; j++)
            g.holds_other[i] += j != i && mem_holds(g.mem, j, b);
    }
    for (int i = 1; i < g.p->ncpus; i++) {
        uint64_t t0 = cpu_now(c);
        cpu_read(c, tcore_base(g.tc, i) + BASE_LOCK);
        g.probe_cost[i] = cpu_now(c) - t0;
    }
    g.probe_end = cpu_now(c);
    machine_stop(cpu_machine(c));
    cpu_irq_enable(c); /* no tick is taken once the machine stops */
}

static void numa_setup(machine_t *m, void *arg)
{
    (void)arg;
    core_setup(m, NULL);
    for (int k = 0; k < 3; k++) {
        g.want_cost[k] = expected_tick_cost(kMeasured[k]);
        machine_set_program(m, kMeasured[k], measure_tick, NULL);
    }
    /* A line modified in CPU i's cache, read from CPU 0 (node 0): on the
     * same bus a HITM; else memory + lat3(0, home, owner) + the remote
     * intervention, the base being homed on its owner's node. */
    const mem_costs_t *k = &g.p->costs;
    for (int i = 1; i < g.p->ncpus; i++) {
        int o = g.p->cpu_node[i];
        g.want_probe[i] = o == 0
                              ? (uint64_t)k->c2c_node_cycles
                              : (uint64_t)k->mem_local_cycles +
                                    (platform_node_lat(g.p, 0, o) + platform_node_lat(g.p, o, o) +
                                     platform_node_lat(g.p, o, 0)) /
                                        2 +
                                    (uint64_t)k->remote_dirty_cycles;
    }
}

START_TEST(ticks_one_second_numa32)
{
    memset(&g, 0, sizeof g);
    g.design = TIMER_CLASSIC;
    run_machine("numa32", numa_setup, NULL);
    ck_assert_uint_eq(g.period, 1464844); /* 1.5e9 / 1024, rounded */
    int ncpus = 32;
    for (int i = 0; i < ncpus; i++) {
        uint64_t want = 0;
        while (tick_cycle(i, want) <= 1500000000ull)
            want++;
        ck_assert_msg(g.ticks_run[i] == want, "cpu %d: %llu runs, %llu ticks", i,
                      (unsigned long long)g.ticks_run[i], (unsigned long long)want);
        /* period rounds 1464843.75 up: 1024 periods end at 1,500,000,256 */
        ck_assert_uint_eq(want, 1023);
        ck_assert_msg(g.holds_own[i] && !g.holds_other[i], "cpu %d: base line held %d/%d", i,
                      g.holds_own[i], g.holds_other[i]);
        if (i)
            ck_assert_msg(g.probe_cost[i] == g.want_probe[i],
                          "base %d's line: read from cpu 0 cost %llu, a dirty line %llu", i,
                          (unsigned long long)g.probe_cost[i], (unsigned long long)g.want_probe[i]);
    }
    fprintf(stderr,
            "numa32 tick cycles: cpu 0 %llu, cpu 1 %llu, cpu 5 %llu; probe of base 2 %llu\n",
            (unsigned long long)g.tick_cost[0], (unsigned long long)g.tick_cost[1],
            (unsigned long long)g.tick_cost[2], (unsigned long long)g.probe_cost[2]);
    ck_assert_uint_lt(g.probe_end, tick_cycle(1, 1023)); /* no tick ran meanwhile */
    for (int k = 0; k < 3; k++) {
        ck_assert_uint_eq(g.next_tick_seen[k], g.tick_at[k]);
        ck_assert_msg(g.tick_cost[k] == g.want_cost[k],
                      "cpu %d's tick: %llu cycles, table says %llu", kMeasured[k],
                      (unsigned long long)g.tick_cost[k], (unsigned long long)g.want_cost[k]);
    }
}
END_TEST

/* --- 6. return values, BUG, use-after-free --- */

static void observe(tcore_t *tc, tcore_event_t ev, cpu_t *c, maddr_t t, void *ctx)
{
    (void)tc, (void)ctx;
    g.heard[ev]++;
    if (ev == TEV_BUG) {
        g.bugs++;
        g.bug_cpu = cpu_id(c);
        g.bug_timer = t;
    }
    g.freed_events += ev == TEV_FREED;
}

static void api_prog(cpu_t *c, void *arg)
{
    (void)arg;
    tcore_t *tc = g.tc;
    maddr_t a = g.t[0], b = g.t[1], f = g.t[2];
    uint64_t j = after_tick(c);
    g.j_arm = j;
    g.del_ret[0] = del_timer(c, tc, a); /* never armed: 0 */
    g.ret[0] = mod_timer(c, tc, a, j + 100);
    g.del_ret[1] = del_timer(c, tc, a); /* pending: 1 */
    g.del_ret[2] = del_timer(c, tc, a); /* deleted: 0 */
    add_timer(c, tc, a, j + 100);       /* not pending: no BUG */
    g.ret[1] = g.bugs;
    add_timer(c, tc, a, j + 200); /* pending: BUG, then queued anyway */
    g.pending_after_bug = timer_is_pending_now(tc, a);
    g.expires_after_bug = mem_peek(g.mem, a + TIMER_EXPIRES);
    g.del_ret[3] = del_timer(c, tc, a); /* 1 */
    mod_timer(c, tc, b, j + 2);
    while (after_tick(c) < j + 3)
        ;
    g.del_ret[4] = del_timer(c, tc, b); /* it ran at j + 2: 0 */
    g.uaf_initial = mem_freed_writes(g.mem);
    timer_free(c, tc, f);
    g.uaf_before = mem_freed_writes(g.mem);
    mod_timer(c, tc, f, j + 1000);
    g.uaf_after = mem_freed_writes(g.mem);
    machine_stop(cpu_machine(c));
}

static void api_setup(machine_t *m, void *arg)
{
    (void)arg;
    int fn = core_setup(m, log_run);
    tcore_set_observer(g.tc, observe, NULL, g.obs_events ? g.obs_events : TEV_ALL);
    for (int i = 0; i < 3; i++)
        g.t[i] = timer_alloc(g.tc, 0, fn, (uint64_t)i);
    machine_set_program(m, 1, api_prog, NULL);
}

START_TEST(api_returns_bug_and_uaf)
{
    memset(&g, 0, sizeof g);
    g.design = kDesigns[_i];
    run_machine("smp4", api_setup, NULL);
    ck_assert_int_eq(g.del_ret[0], 0);
    ck_assert_int_eq(g.ret[0], 0);
    ck_assert_int_eq(g.del_ret[1], 1);
    ck_assert_int_eq(g.del_ret[2], 0);
    ck_assert_int_eq(g.ret[1], 0);
    ck_assert_int_eq(g.bugs, 1);
    ck_assert_int_eq(g.bug_cpu, 1);
    ck_assert_uint_eq(g.bug_timer, g.t[0]);
    ck_assert_int_eq(g.pending_after_bug, 1);
    ck_assert_uint_eq(g.expires_after_bug, g.j_arm + 200);
    ck_assert_int_eq(g.del_ret[3], 1);
    ck_assert_int_eq(g.nlog, 1);
    ck_assert_int_eq(g.log[0].id, 1);
    ck_assert_uint_eq(g.log[0].jiffy, g.j_arm + 2);
    ck_assert_int_eq(g.del_ret[4], 0);
    ck_assert_int_eq(g.freed_events, 1);
    ck_assert_uint_eq(g.uaf_initial, 0);
    ck_assert_uint_eq(g.uaf_before, 0); /* freeing writes nothing */
    /* mod_timer from CPU 1 on the freed, idle timer writes into it:
     * classic: timer lock (xchg), expires, entry.next, entry.prev, base,
     *   timer unlock = 6;
     * tracking: the timer names CPU 0's base (init_timer in node 0), so it
     *   moves: base = NULL, base = CPU 1's, expires, entry.next, entry.prev
     *   = 5. */
    ck_assert_uint_eq(g.uaf_after - g.uaf_before, (_i == 0 ? 6u : 5u));
}
END_TEST

/* The observer hears the events of its mask only, the others cost nothing
 * (what the oracle relies on natively); the program is the same. */
START_TEST(observer_hears_its_events_only)
{
    memset(&g, 0, sizeof g);
    g.design = kDesigns[_i % 2];
    int masked = _i / 2;
    if (masked)
        g.obs_events = TEV_BIT(TEV_BUG) | TEV_BIT(TEV_QUEUED);
    run_machine("smp4", api_setup, NULL);
    ck_assert_int_eq(g.heard[TEV_DEQUEUED], masked ? 0 : 2); /* the two del_timer that return 1 */
    ck_assert_int_eq(g.heard[TEV_FREED], masked ? 0 : 1);
    ck_assert_int_eq(g.heard[TEV_FN_START], masked ? 0 : 1); /* timer b's run */
    ck_assert_int_eq(g.heard[TEV_FN_END], masked ? 0 : 1);
    ck_assert_int_eq(g.heard[TEV_BUG], 1);
    ck_assert_int_gt(g.heard[TEV_QUEUED], 0);
    ck_assert_int_eq(g.del_ret[1], 1);
    ck_assert_int_eq(g.del_ret[3], 1);
    ck_assert_int_eq(g.nlog, 1);
}
END_TEST

/* --- 7. the strategy table --- */

START_TEST(strategy_table_expansions_agree)
{
    ck_assert_int_eq(KCODE_TICK61, KCODE_DTS_SCAN + STRAT_COUNT); /* 6.1's units after all */
    ck_assert_int_eq(KCODE_N, KCODE_TICK61 + 5);
    ck_assert_str_eq(tcore_code_name(KCODE_TRY_TO_DEL_TIMER_SYNC61), "try_to_del_timer_sync61");
    ck_assert_str_eq(tcore_code_name(KCODE_DTS_SCAN), "del_timer_sync_scan");
    ck_assert_str_eq(tcore_code_name(KCODE_DTS_SINGLESHOT), "del_singleshot_timer_sync");
    ck_assert_str_eq(tcore_code_name(KCODE_DTS_SHORTCUT), "del_timer_sync_shortcut");
    for (int i = 0; i < STRAT_COUNT; i++) {
        const strategy_t *st = &strategies[i];
        ck_assert_str_eq(strategy_name((strategy_id_t)i), st->name);
        ck_assert_ptr_eq(strategy_names[i], st->name);
        ck_assert_ptr_nonnull(st->fn);
        ck_assert(st->origin[0] && st->promise[0]);
        ck_assert_int_eq(strategy_design((strategy_id_t)i), st->design);
        ck_assert(!st->last_running || st->design == TIMER_CLASSIC);
        /* the 2.6 rows first, the 6.1 rows appended after them */
        ck_assert((i < STRAT_TIMER_DELETE_SYNC) == (st->design <= TIMER_TRACKING));
        ck_assert_str_eq(tcore_code_name((kcode_t)(KCODE_DTS_SCAN + i)),
                         i < STRAT_TIMER_DELETE_SYNC
                             ? tcore_code_name((kcode_t)(KCODE_DTS_SCAN + i))
                             : st->name);
        ck_assert(strncmp(tcore_code_name((kcode_t)(KCODE_DTS_SCAN + i)),
                          i < STRAT_TIMER_DELETE_SYNC ? "del_" : "timer_", 4) == 0);
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(strategies[j].name, st->name);
    }
    ck_assert_int_eq(strategy_design(STRAT_BASE_TRACKING), TIMER_TRACKING);
    ck_assert_int_eq(strategy_last_running(STRAT_LAST_RUNNING), 1);
    ck_assert_int_eq(strategy_last_running(STRAT_SCAN), 0);
    ck_assert_str_eq(strategy_name(STRAT_COUNT), "?");
}
END_TEST

static Suite *timer_suite(void)
{
    Suite *s = suite_create("timer");
    TCase *t = tcase_create("timer");
    tcase_add_loop_test(t, moved_timer_runs_once_on_new_cpu, 0, 2);
    tcase_add_loop_test(t, rearming_timer_is_periodic, 0, 2);
    tcase_add_test(t, ticks_one_second_numa32);
    tcase_add_loop_test(t, api_returns_bug_and_uaf, 0, 2);
    tcase_add_loop_test(t, observer_hears_its_events_only, 0, 4);
    tcase_add_test(t, strategy_table_expansions_agree);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(timer_suite());
}
