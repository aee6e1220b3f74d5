/* test_core61: the 6.1 timer core (TIMER_V61, TIMER_V61_RT) through the API
 * of timer.h, on simulated CPUs of smp4 (numa32 for migration), and on two
 * CPUs of this host.
 *
 *   round_trips      mod/del/pending/add return what Linux's do (mod_timer
 *                    0 then 1, the same expiry 1, del 1 then 0, add_timer
 *                    of a pending timer one TEV_BUG and nothing armed);
 *                    both designs, every lock kind
 *   fires_at_bucket  timers armed 1 to 5000 jiffies ahead run once, at the
 *                    jiffy calc_wheel_index gives for the forwarded base
 *                    clock (the level's granularity), never before expires;
 *                    a deferrable one too, from the CPU's other base
 *   same_bucket      mod_timer to a later expiry in the same bucket only
 *                    writes expires: the bucket's list keeps its order
 *   base_switch      a CPU mod_timers a timer queued on another CPU's base:
 *                    its flags name the new CPU, TIMER_MIGRATING is clear,
 *                    it runs there once; three CPUs re-arming and deleting
 *                    one timer never run it on two CPUs at once, leave no
 *                    MIGRATING, no BUG; the same cycles under both schedulers
 *   delete_sync      try_to_del_timer_sync gives -1 while the function
 *                    runs; timer_delete_sync returns only after it ended:
 *                    V61 spins (relax cycles grow with the function), V61_RT
 *                    sleeps on expiry_lock (almost no relax cycles); every
 *                    lock kind
 *   shutdown         timer_shutdown_sync of a self-re-arming timer: it
 *                    never runs again, and mod_timer and add_timer leave it
 *                    not pending, until timer_setup_on initialises it anew
 *   migration        with timers_migration, a CPU that is idle arms its
 *                    timer on the first busy CPU of its node, else of the
 *                    machine; a pinned timer stays; without it, on itself
 *   native           round_trips and one timer firing on this host
 *
 * Programs never call ck_assert (they run on CPUs): they record, and the
 * test asserts after the run.
 */
#include "cpu.h"
#include "mem.h"
#include "native.h"
#include "simulated.h"
#include "strategy.h"
#include "testutil.h"
#include "timer/timer.h"
#include "timer61/wheel61.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

enum { HZ = 1000, NFIRE = 8, MAXCPU = 32, HAMMER = 150 };

typedef struct {
    int ret[16];
    int bugs, queued, dequeued, overlaps, max_running, fn_runs[4];
    int running[4];
    uint64_t fire_clk[NFIRE], fire_j[NFIRE], want_clk[NFIRE], expires[NFIRE];
    int fired[NFIRE];
    maddr_t pprev_after, want_pprev;
    uint64_t flags_after[4];
    int cpu_after[4], pending_after[4];
    uint64_t fn_end, del_return, relax, idle, fn_cycles;
    uint64_t digest;
    int target[4];
} result_t;

static struct {
    timer_design_t design;
    lock_kind_t lock;
    int migration, yield, native;
    uint64_t period;
    tcore_t *tc;
    const platform_t *p;
    maddr_t t[NFIRE];
    int fn;
    uint64_t j0;
    volatile int fn_started, stop_rearm, done;
    result_t r;
} g;

static const timer_design_t kDesigns[2] = {TIMER_V61, TIMER_V61_RT};

static int timer_index(maddr_t t)
{
    for (int i = 0; i < NFIRE; i++)
        if (g.t[i] == t)
            return i;
    return -1;
}

static void observe(tcore_t *tc, tcore_event_t ev, cpu_t *c, maddr_t t, void *ctx)
{
    (void)tc, (void)ctx;
    int i = timer_index(t);
    g.r.digest = (g.r.digest ^ (uint64_t)ev ^ ((uint64_t)cpu_id(c) << 8) ^ (cpu_now(c) << 16)) *
                 0x100000001b3ull;
    if (ev == TEV_BUG)
        g.r.bugs++;
    else if (ev == TEV_QUEUED)
        g.r.queued++;
    else if (ev == TEV_DEQUEUED)
        g.r.dequeued++;
    else if (ev == TEV_FN_START && i >= 0 && i < 4) {
        g.r.overlaps += g.r.running[i] > 0;
        g.r.running[i]++;
    } else if (ev == TEV_FN_END && i >= 0 && i < 4)
        g.r.running[i]--;
}

static void setup_core(machine_t *m)
{
    g.p = machine_platform(m);
    if (!g.native)
        sim_set_always_yield(m, g.yield);
    g.period = (uint64_t)(g.p->clock_mhz * 1e6 / HZ + 0.5);
    tcore_config_t cfg = {.design = g.design,
                          .period_cycles = g.period,
                          .timekeeper_cpu = 0,
                          .hz = HZ,
                          .lock = g.lock,
                          .timers_migration = g.migration};
    g.tc = tcore_create_config(m, &cfg);
    tcore_set_observer(g.tc, observe, NULL, TEV_ALL);
}

/* Takes c's next tick; returns jiffies as seen right after it. */
static uint64_t after_tick(cpu_t *c)
{
    cpu_idle_until(c, cpu_next_tick(c) + 1);
    cpu_sync(c);
    return tcore_jiffies_now(g.tc);
}

static void run_sim(const char *platform, machine_setup_fn setup)
{
    platform_t *p = tu_platform_flat(platform);
    tu_machine_run(p, "test_core61", 1, setup, NULL, NULL);
    platform_free(p);
    tcore_destroy(g.tc);
}

static void reset(timer_design_t d, lock_kind_t k)
{
    memset(&g, 0, sizeof g);
    g.design = d;
    g.lock = k;
    g.r.digest = 0xcbf29ce484222325ull;
}

static void count_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *ctx)
{
    (void)ctx, (void)t;
    cpu_sync(c);
    if (data < NFIRE) {
        g.r.fired[data]++;
        g.r.fire_clk[data] = tcore_last_fire_clk(tc, cpu_id(c));
        g.r.fire_j[data] = tcore_jiffies_now(tc);
    }
}

/* --- round trips --- */

static void trips_prog(cpu_t *c, void *arg)
{
    (void)arg;
    tcore_t *tc = g.tc;
    maddr_t t = g.t[0];
    int *r = g.r.ret;
    uint64_t j = after_tick(c);
    r[0] = mod_timer(c, tc, t, j + 50);  /* 0 */
    r[1] = timer_pending(c, tc, t);      /* 1 */
    r[2] = mod_timer(c, tc, t, j + 50);  /* 1: the same expiry */
    r[3] = mod_timer(c, tc, t, j + 900); /* 1 */
    r[4] = del_timer(c, tc, t);          /* 1 */
    r[5] = timer_pending(c, tc, t);      /* 0 */
    r[6] = del_timer(c, tc, t);          /* 0 */
    add_timer(c, tc, t, j + 30);
    r[7] = timer_pending(c, tc, t); /* 1 */
    add_timer(c, tc, t, j + 40);    /* WARN: nothing changes */
    r[8] = timer_expires_now(tc, t) == j + 30;
    r[9] = try_to_del_timer_sync(c, tc, t);  /* 1 */
    r[10] = try_to_del_timer_sync(c, tc, t); /* 0 */
    r[11] = timer_is_pending_now(tc, t);     /* 0 */
    r[12] = mod_timer(c, tc, t, j + 2);      /* 0 */
    while (after_tick(c) < j + 6)
        ;
    r[13] = timer_pending(c, tc, t); /* 0: it ran */
    machine_stop(cpu_machine(c));
}

static void trips_setup(machine_t *m, void *arg)
{
    (void)arg;
    setup_core(m);
    g.fn = tcore_register_fn(g.tc, count_fn, NULL);
    g.t[0] = timer_alloc(g.tc, 0, g.fn, 0);
    machine_set_program(m, 1, trips_prog, NULL);
}

static void check_trips(const result_t *r)
{
    static const int want[14] = {0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0};
    for (int i = 0; i < 14; i++)
        ck_assert_msg(r->ret[i] == want[i], "step %d gave %d, not %d", i, r->ret[i], want[i]);
    ck_assert_int_eq(r->bugs, 1);
    ck_assert_int_eq(r->fired[0], 1);
    ck_assert_int_eq(r->dequeued, 1); /* del_timer's; try_to_del reports none, as 2.6 */
}

START_TEST(round_trips)
{
    reset(kDesigns[_i % 2], (lock_kind_t)(_i / 2));
    run_sim("smp4", trips_setup);
    check_trips(&g.r);
}
END_TEST

/* --- firing at the bucket --- */

static const uint64_t kDelta[NFIRE] = {1, 5, 62, 63, 100, 600, 4100, 5000};

static void fire_prog(cpu_t *c, void *arg)
{
    (void)arg;
    uint64_t j = after_tick(c);
    for (int i = 0; i < NFIRE; i++) {
        mod_timer(c, g.tc, g.t[i], j + kDelta[i]);
        cpu_sync(c);
        uint64_t clk = machine_peek(cpu_machine(c), tcore_base(g.tc, 1) + W61_BASE_CLK);
        g.r.expires[i] = j + kDelta[i];
        wheel61_calc_index(W61_DEPTH(HZ), j + kDelta[i], clk, &g.r.want_clk[i]);
    }
    /* timer 5 is deferrable: queued in CPU 1's other base */
    g.r.pprev_after = machine_peek(cpu_machine(c), g.t[5] + W61_TIMER_PPREV);
    g.r.want_pprev = tcore_base(g.tc, 1);
    while (after_tick(c) < j + 5000 + 600)
        ;
    machine_stop(cpu_machine(c));
}

static void fire_setup(machine_t *m, void *arg)
{
    (void)arg;
    setup_core(m);
    g.fn = tcore_register_fn(g.tc, count_fn, NULL);
    for (int i = 0; i < NFIRE; i++)
        g.t[i] = timer_alloc_flags(g.tc, 0, g.fn, (uint64_t)i, i == 5 ? TIMER_F_DEFERRABLE : 0);
    machine_set_program(m, 1, fire_prog, NULL);
}

START_TEST(fires_at_bucket)
{
    reset(kDesigns[_i], LOCK_TAS);
    run_sim("smp4", fire_setup);
    for (int i = 0; i < NFIRE; i++) {
        ck_assert_msg(g.r.fired[i] == 1, "timer %d (+%llu) ran %d times", i,
                      (unsigned long long)kDelta[i], g.r.fired[i]);
        ck_assert_uint_eq(g.r.fire_clk[i], g.r.want_clk[i]);
        ck_assert_uint_gt(g.r.fire_clk[i], g.r.expires[i]); /* never early */
        ck_assert_uint_ge(g.r.fire_j[i], g.r.fire_clk[i]);
    }
    /* the deferrable timer's bucket is not in the standard base */
    ck_assert(g.r.pprev_after < g.r.want_pprev ||
              g.r.pprev_after >= g.r.want_pprev + W61_BASE_SIZE);
    /* the levels' granularity: 1, 8, 64 jiffies late at most */
    ck_assert_uint_eq(g.r.fire_clk[0] - g.r.expires[0], 1);
    ck_assert_uint_le(g.r.fire_clk[4] - g.r.expires[4], 8);
    ck_assert_uint_eq(g.r.fire_clk[7] % 512, 0); /* level 3 */
    ck_assert_uint_le(g.r.fire_clk[7] - g.r.expires[7], 512);
}
END_TEST

/* --- the same bucket --- */

static void bucket_prog(cpu_t *c, void *arg)
{
    (void)arg;
    uint64_t j = after_tick(c);
    j -= j % 8; /* both expiries in one level-1 bucket */
    mod_timer(c, g.tc, g.t[0], j + 96);
    mod_timer(c, g.tc, g.t[1], j + 97);              /* the bucket: t1 -> t0 */
    g.r.ret[0] = mod_timer(c, g.tc, g.t[0], j + 99); /* 1, in place */
    g.r.pprev_after = machine_peek(cpu_machine(c), g.t[0] + W61_TIMER_PPREV);
    g.r.want_pprev = g.t[1] + W61_TIMER_NEXT;
    g.r.ret[1] = timer_expires_now(g.tc, g.t[0]) == j + 99;
    g.r.ret[2] = mod_timer(c, g.tc, g.t[0], j + 300); /* another bucket: moved */
    g.r.ret[3] = machine_peek(cpu_machine(c), g.t[0] + W61_TIMER_PPREV) != g.r.want_pprev;
    machine_stop(cpu_machine(c));
}

static void bucket_setup(machine_t *m, void *arg)
{
    (void)arg;
    setup_core(m);
    g.fn = tcore_register_fn(g.tc, count_fn, NULL);
    for (int i = 0; i < 2; i++)
        g.t[i] = timer_alloc(g.tc, 0, g.fn, (uint64_t)i);
    machine_set_program(m, 1, bucket_prog, NULL);
}

START_TEST(same_bucket)
{
    reset(TIMER_V61, LOCK_TAS);
    run_sim("smp4", bucket_setup);
    ck_assert_int_eq(g.r.ret[0], 1);
    ck_assert_uint_eq(g.r.pprev_after, g.r.want_pprev);
    ck_assert_int_eq(g.r.ret[1], 1);
    ck_assert_int_eq(g.r.ret[2], 1);
    ck_assert_int_eq(g.r.ret[3], 1);
}
END_TEST

/* --- base switch --- */

static void arm_on_1(cpu_t *c, void *arg)
{
    (void)arg;
    g.j0 = after_tick(c);
    g.r.ret[0] = mod_timer(c, g.tc, g.t[0], g.j0 + 20);
}

static void move_to_2(cpu_t *c, void *arg)
{
    (void)arg;
    uint64_t j;
    while ((j = after_tick(c)) < 4)
        ;
    g.r.ret[1] = mod_timer(c, g.tc, g.t[0], j + 10);
    cpu_sync(c);
    g.r.flags_after[0] = machine_peek(cpu_machine(c), g.t[0] + W61_TIMER_FLAGS);
    g.r.cpu_after[0] = timer_cpu_now(g.tc, g.t[0]);
    while (after_tick(c) < j + 30)
        ;
    machine_stop(cpu_machine(c));
}

static void where_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *ctx)
{
    (void)tc, (void)t, (void)ctx;
    if (data < 4)
        g.r.fn_runs[data]++;
    g.r.cpu_after[1] = cpu_id(c);
}

static void switch_setup(machine_t *m, void *arg)
{
    (void)arg;
    setup_core(m);
    g.fn = tcore_register_fn(g.tc, where_fn, NULL);
    g.t[0] = timer_alloc(g.tc, 0, g.fn, 0);
    machine_set_program(m, 1, arm_on_1, NULL);
    machine_set_program(m, 2, move_to_2, NULL);
}

START_TEST(base_switch)
{
    reset(kDesigns[_i], LOCK_QSPIN);
    run_sim("smp4", switch_setup);
    ck_assert_int_eq(g.r.ret[0], 0);
    ck_assert_int_eq(g.r.ret[1], 1);
    ck_assert_int_eq(g.r.cpu_after[0], 2);
    ck_assert_uint_eq(g.r.flags_after[0] & W61_TIMER_MIGRATING, 0);
    ck_assert_int_eq(g.r.fn_runs[0], 1);
    ck_assert_int_eq(g.r.cpu_after[1], 2);
}
END_TEST

/* Three CPUs re-arm and delete one self-re-arming timer at random. */
static void rearm_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *ctx)
{
    (void)ctx, (void)data;
    g.r.fn_runs[0]++;
    cpu_work(c, 3000);
    if (!g.stop_rearm)
        mod_timer(c, tc, t, read_jiffies(c, tc) + 1);
}

static void hammer_prog(cpu_t *c, void *arg)
{
    (void)arg;
    gsl_rng *rng = cpu_rng(c);
    for (int k = 0; k < HAMMER; k++) {
        uint64_t j = read_jiffies(c, g.tc);
        if (gsl_rng_uniform_int(rng, 8) == 0)
            del_timer(c, g.tc, g.t[0]);
        else
            mod_timer(c, g.tc, g.t[0], j + 1);
        cpu_work(c, 500 + gsl_rng_uniform_int(rng, 3 * g.period));
    }
    g.done++;
    if (cpu_id(c) == 3) {
        while (g.done < 3) {
            cpu_idle_until(c, cpu_now(c) + 1000);
            cpu_sync(c);
        }
        g.stop_rearm = 1;
        timer61_delete_sync(c, g.tc, g.t[0], 0);
        cpu_idle_until(c, cpu_now(c) + 20 * g.period);
        cpu_sync(c);
        g.r.flags_after[0] = machine_peek(cpu_machine(c), g.t[0] + W61_TIMER_FLAGS);
        g.r.pending_after[0] = timer_is_pending_now(g.tc, g.t[0]);
        machine_stop(cpu_machine(c));
    }
}

static void hammer_setup(machine_t *m, void *arg)
{
    (void)arg;
    setup_core(m);
    g.fn = tcore_register_fn(g.tc, rearm_fn, NULL);
    g.t[0] = timer_alloc(g.tc, 0, g.fn, 0);
    for (int i = 1; i < 4; i++)
        machine_set_program(m, i, hammer_prog, NULL);
}

static int hammer_child(void *arg)
{
    (void)arg;
    run_sim("smp4", hammer_setup);
    return 0;
}

START_TEST(hammer_both_schedulers)
{
    result_t fast, ref;
    reset(kDesigns[_i % 2], (lock_kind_t)(_i / 2));
    tu_run_in_child(hammer_child, NULL, &g.r, &fast, sizeof fast, "baton run");
    g.yield = 1;
    tu_run_in_child(hammer_child, NULL, &g.r, &ref, sizeof ref, "yield run");
    ck_assert_int_eq(fast.overlaps, 0);
    ck_assert_int_eq(fast.bugs, 0);
    ck_assert_int_ge(fast.fn_runs[0], 3);
    ck_assert_int_gt(fast.queued, HAMMER);
    ck_assert_uint_eq(fast.flags_after[0] & W61_TIMER_MIGRATING, 0);
    ck_assert_int_eq(fast.pending_after[0], 0);
    ck_assert_uint_eq(fast.digest, ref.digest);
    ck_assert_mem_eq(&fast, &ref, sizeof fast);
}
END_TEST

/* --- try_to_del and delete_sync while the function runs --- */

enum { LONG_FN = 400000 };

static void long_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *ctx)
{
    (void)tc, (void)t, (void)data, (void)ctx;
    g.fn_started = 1;
    cpu_work(c, LONG_FN);
    cpu_sync(c);
    g.r.fn_end = cpu_now(c);
    g.r.fn_runs[0]++;
}

static void arm_long(cpu_t *c, void *arg)
{
    (void)arg;
    uint64_t j = after_tick(c);
    mod_timer(c, g.tc, g.t[0], j + 2);
}

static void deleter(cpu_t *c, void *arg)
{
    (void)arg;
    while (!g.fn_started) { /* host memory: let the others catch up first */
        cpu_idle_until(c, cpu_now(c) + 1000);
        cpu_sync(c);
    }
    g.r.ret[0] = try_to_del_timer_sync(c, g.tc, g.t[0]); /* -1 */
    cpu_anatomy_t a, b;
    cpu_anatomy(c, &a);
    int (*fn)(cpu_t *, tcore_t *, maddr_t, int *) =
        g.design == TIMER_V61_RT ? timer_delete_sync_rt : timer_delete_sync;
    g.r.ret[1] = fn(c, g.tc, g.t[0], NULL);
    cpu_sync(c);
    g.r.del_return = cpu_now(c);
    cpu_anatomy(c, &b);
    g.r.relax = b.relax_cycles - a.relax_cycles;
    g.r.idle = b.work_cycles - a.work_cycles;
    g.r.ret[2] = timer_pending(c, g.tc, g.t[0]);
    machine_stop(cpu_machine(c));
}

static void sync_setup(machine_t *m, void *arg)
{
    (void)arg;
    setup_core(m);
    g.fn = tcore_register_fn(g.tc, long_fn, NULL);
    g.t[0] = timer_alloc(g.tc, 0, g.fn, 0);
    machine_set_program(m, 1, arm_long, NULL);
    machine_set_program(m, 2, deleter, NULL);
}

START_TEST(delete_sync)
{
    reset(kDesigns[_i % 2], (lock_kind_t)(_i / 2));
    run_sim("smp4", sync_setup);
    ck_assert_int_eq(g.r.ret[0], -1);
    ck_assert_int_eq(g.r.ret[1], 0);
    ck_assert_int_eq(g.r.ret[2], 0);
    ck_assert_int_eq(g.r.fn_runs[0], 1);
    ck_assert_uint_gt(g.r.del_return, g.r.fn_end);
    if (g.design == TIMER_V61) /* spins through most of the function */
        ck_assert_uint_gt(g.r.relax, LONG_FN / 4);
    else { /* sleeps: one cpu_relax per try, idle meanwhile */
        ck_assert_uint_lt(g.r.relax, 2000);
        ck_assert_uint_gt(g.r.idle, LONG_FN / 4);
    }
}
END_TEST

/* --- shutdown --- */

static void self_rearm(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *ctx)
{
    (void)data, (void)ctx;
    g.r.fn_runs[0]++;
    if (g.r.ret[15])
        g.r.fn_runs[1]++; /* ran after shutdown returned */
    cpu_work(c, 20000);
    mod_timer(c, tc, t, read_jiffies(c, tc) + 1);
}

static void shutdown_prog(cpu_t *c, void *arg)
{
    (void)arg;
    uint64_t j = after_tick(c);
    mod_timer(c, g.tc, g.t[0], j + 1);
    while (after_tick(c) < j + 20)
        ;
    g.r.ret[0] = timer_shutdown_sync(c, g.tc, g.t[0], NULL);
    g.r.ret[15] = 1;
    g.r.ret[1] = timer_is_shutdown_now(g.tc, g.t[0]);
    g.r.ret[2] = mod_timer(c, g.tc, g.t[0], j + 30); /* ignored: 0 */
    g.r.ret[3] = timer_pending(c, g.tc, g.t[0]);
    add_timer(c, g.tc, g.t[0], j + 30);
    g.r.ret[4] = timer_pending(c, g.tc, g.t[0]);
    while (after_tick(c) < j + 60)
        ;
    timer_setup_on(c, g.tc, g.t[0], g.fn, 0); /* timer_setup: armable again */
    g.r.ret[5] = mod_timer(c, g.tc, g.t[0], j + 1000);
    g.r.ret[6] = timer_pending(c, g.tc, g.t[0]);
    machine_stop(cpu_machine(c));
}

static void shutdown_setup(machine_t *m, void *arg)
{
    (void)arg;
    setup_core(m);
    g.fn = tcore_register_fn(g.tc, self_rearm, NULL);
    g.t[0] = timer_alloc(g.tc, 0, g.fn, 0);
    machine_set_program(m, 1, shutdown_prog, NULL);
}

START_TEST(shutdown)
{
    reset(kDesigns[_i], LOCK_TICKET);
    run_sim("smp4", shutdown_setup);
    ck_assert_int_ge(g.r.fn_runs[0], 5);
    ck_assert_int_eq(g.r.fn_runs[1], 0);
    ck_assert_int_eq(g.r.ret[1], 1);
    ck_assert_int_eq(g.r.ret[2], 0);
    ck_assert_int_eq(g.r.ret[3], 0);
    ck_assert_int_eq(g.r.ret[4], 0);
    ck_assert_int_eq(g.r.ret[5], 0);
    ck_assert_int_eq(g.r.ret[6], 1);
    ck_assert_int_eq(g.r.bugs, 0);
}
END_TEST

/* --- migration, on numa32: CPU 2 idle arms timers --- */

static int g_busy[MAXCPU];

static void set_state(cpu_t *c, void *arg)
{
    (void)arg;
    tcore_set_idle(c, g.tc, !g_busy[cpu_id(c)]);
}

static void migrate_prog(cpu_t *c, void *arg)
{
    (void)arg;
    tcore_set_idle(c, g.tc, 1);
    cpu_idle_until(c, 200000); /* the others have set their state */
    uint64_t j = read_jiffies(c, g.tc);
    mod_timer(c, g.tc, g.t[0], j + 100);
    mod_timer(c, g.tc, g.t[1], j + 100); /* pinned */
    g.r.target[0] = timer_cpu_now(g.tc, g.t[0]);
    g.r.target[1] = timer_cpu_now(g.tc, g.t[1]);
    tcore_set_idle(c, g.tc, 0);
    mod_timer(c, g.tc, g.t[2], j + 100); /* busy: stays here */
    g.r.target[2] = timer_cpu_now(g.tc, g.t[2]);
    machine_stop(cpu_machine(c));
}

static void migrate_setup(machine_t *m, void *arg)
{
    (void)arg;
    setup_core(m);
    g.fn = tcore_register_fn(g.tc, count_fn, NULL);
    g.t[0] = timer_alloc(g.tc, 0, g.fn, 0);
    g.t[1] = timer_alloc_flags(g.tc, 0, g.fn, 1, TIMER_F_PINNED);
    g.t[2] = timer_alloc(g.tc, 0, g.fn, 2);
    for (int i = 0; i < g.p->ncpus && i < MAXCPU; i++)
        machine_set_program(m, i, i == 2 ? migrate_prog : set_state, NULL);
}

/* _i: 0, CPU 2's node-mate busy and a lower CPU of another node busy;
 * 1, only that other CPU busy; 2, the same as 0 without migration. */
START_TEST(migration)
{
    reset(TIMER_V61, LOCK_QSPIN);
    platform_t *p = tu_platform_flat("numa32");
    int mate = -1, other = -1;
    for (int i = 0; i < p->ncpus; i++) {
        if (i != 2 && p->cpu_node[i] == p->cpu_node[2] && mate < 0)
            mate = i;
        if (p->cpu_node[i] != p->cpu_node[2] && other < 0)
            other = i;
    }
    platform_free(p);
    ck_assert_int_ge(mate, 0);
    ck_assert_int_lt(other, 2); /* a CPU before 2 in id order, on another node */
    memset(g_busy, 0, sizeof g_busy);
    g_busy[other] = 1;
    g_busy[mate] = _i != 1;
    g.migration = _i != 2;
    run_sim("numa32", migrate_setup);
    int want = _i == 2 ? 2 : _i == 1 ? other : mate;
    ck_assert_int_eq(g.r.target[0], want);
    ck_assert_int_eq(g.r.target[1], 2);
    ck_assert_int_eq(g.r.target[2], 2);
}
END_TEST

/* --- natively --- */

static void native_prog(cpu_t *c, void *arg)
{
    (void)arg;
    if (cpu_id(c) != 1) { /* the timekeeper ticks until the end */
        while (!cpu_stopping(c))
            cpu_idle_until(c, cpu_now(c) + g.period);
        return;
    }
    tcore_t *tc = g.tc;
    maddr_t t = g.t[0];
    int *r = g.r.ret;
    uint64_t j = read_jiffies(c, tc);
    r[0] = mod_timer(c, tc, t, j + 50);
    r[1] = timer_pending(c, tc, t);
    r[2] = mod_timer(c, tc, t, j + 50);
    r[3] = mod_timer(c, tc, t, j + 900);
    r[4] = del_timer(c, tc, t);
    r[5] = timer_pending(c, tc, t);
    r[6] = del_timer(c, tc, t);
    mod_timer(c, tc, t, read_jiffies(c, tc) + 2);
    while (timer_pending(c, tc, t))
        cpu_relax(c);
    r[7] = timer61_delete_sync(c, tc, t, 0);
    cpu_progress(c);
    machine_stop(cpu_machine(c));
}

static void native_setup(machine_t *m, void *arg)
{
    (void)arg;
    setup_core(m);
    g.fn = tcore_register_fn(g.tc, count_fn, NULL);
    g.t[0] = timer_alloc(g.tc, 0, g.fn, 0);
    machine_set_program(m, 0, native_prog, NULL);
    machine_set_program(m, 1, native_prog, NULL);
}

START_TEST(native)
{
    reset(kDesigns[_i], LOCK_QSPIN);
    g.native = 1;
    host_t *h = tu_two_host_cpus();
    machine_hooks_t hooks = {native_setup, NULL, NULL};
    native_opts_t o = {60};
    err_t e = {{0}};
    ck_assert_msg(native_run(h, 1, &hooks, &o, &e) == 0, "%s", e.msg);
    host_close(h);
    tcore_destroy(g.tc);
    static const int want[8] = {0, 1, 1, 1, 1, 0, 0, 0};
    for (int i = 0; i < 8; i++)
        ck_assert_msg(g.r.ret[i] == want[i], "step %d gave %d, not %d", i, g.r.ret[i], want[i]);
    ck_assert_int_eq(g.r.fired[0], 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("core61");
    TCase *t = tcase_create("core61");
    tcase_set_timeout(t, 300);
    tcase_add_loop_test(t, round_trips, 0, 2 * LOCK_NKINDS);
    tcase_add_loop_test(t, fires_at_bucket, 0, 2);
    tcase_add_test(t, same_bucket);
    tcase_add_loop_test(t, base_switch, 0, 2);
    tcase_add_loop_test(t, hammer_both_schedulers, 0, 2 * LOCK_NKINDS);
    tcase_add_loop_test(t, delete_sync, 0, 2 * LOCK_NKINDS);
    tcase_add_loop_test(t, shutdown, 0, 2);
    tcase_add_loop_test(t, migration, 0, 3);
    suite_add_tcase(s, t);
    t = tcase_create("native");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, native, 0, 2);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
