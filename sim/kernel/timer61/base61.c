/* base61: the bases of a 6.1 timer core, their locks, timer->flags and
 * lock_timer_base, timer allocation, and the tick with __run_timers.
 * Theory of operation.
 *
 * Each CPU has two bases (BASE_STD, and BASE_DEF for deferrable timers, as
 * under NO_HZ_COMMON), each a wheel61 base in the CPU's node whose first
 * word is its lock, a klock of the configured kind; all the locks share one
 * set of per-CPU MCS nodes. On PREEMPT_RT each base also has expiry_lock,
 * a klock whose word is on a line of its own in the base's node, with
 * timer_waiters in the next word of that line (they are adjacent in
 * struct timer_base).
 *
 * A timer is a wheel61 timer: timer->flags holds its base's CPU, the
 * TIMER_* flags and its bucket; function holds the registered id + 1, 0
 * being NULL (a shut-down timer). lock_timer_base reads the flags, waits
 * with cpu_relax while TIMER_MIGRATING is set, locks the base they name and
 * keeps it only if the flags are unchanged.
 *
 * The tick keeps the 2.6 core's structure (timer_core.c): jiffies on the
 * timekeeper, then run_local_timers raises the softirq only when a base is
 * due (jiffies >= next_expiry); the softirq, with interrupts on and not
 * nested, runs __run_timers on the standard then the deferrable base, and
 * goes round again when a tick came meanwhile (at most 10 restarts).
 * __run_timers is wheel61_run under the base lock; the lock is dropped
 * around each function, and interrupts enabled unless the timer is
 * TIMER_IRQSAFE. On RT, expiry_lock is held across the whole run and, after
 * each function, dropped and re-taken when timer_waiters is not zero
 * (timer_sync_wait_running), so that a deleter waiting for the function can
 * get it.
 *
 * expiry_lock is a sleeping lock on RT (an rtmutex). A waiter does not
 * spin: it tries the lock, and when it is held sleeps, looking again every
 * rt_wake cycles (cpu_idle_until: idle, not relax cycles), which stands for
 * the owner's wake-up (the wake-up costs up to rt_wake cycles of latency
 * and one trylock per look). An owner that drops and re-takes the lock at
 * once gets it again before a sleeper looks: rtlock's lateral steal for
 * tasks of equal, normal priority.
 *
 * Follows 6.1's kernel/time/timer.c: struct timer_base 199-214,
 * get_timer_cpu_base and get_timer_base 903-932, lock_timer_base 982-1006,
 * timer_base_lock_expiry / timer_sync_wait_running 1455-1480, expire_timers
 * 1719-1758, __run_timers 1996-2027, run_timer_softirq 2032-2039,
 * run_local_timers 2044-2059, init_timer_cpu 2285-2298, do_init_timer
 * 840-851 (flags: the initialising CPU). Left out: hrtimers, the tick's
 * other work, NOHZ tick stopping (every CPU ticks; base->is_idle stays 0,
 * so no trigger_dyntick_cpu IPI), call_timer_fn's tracing and preempt
 * count check, CPU hotplug.
 */
#include "core61.h"

#include "xalloc.h"

#include <stdlib.h>

_Static_assert(TIMER_F_DEFERRABLE == W61_TIMER_DEFERRABLE, "flags as Linux's");
_Static_assert(TIMER_F_PINNED == W61_TIMER_PINNED, "flags as Linux's");
_Static_assert(TIMER_F_IRQSAFE == W61_TIMER_IRQSAFE, "flags as Linux's");

static int time_before(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b) < 0;
}

base61_t *base61_at(const tcore_t *tc, int cpu, uint64_t tf)
{
    int k = tf & W61_TIMER_DEFERRABLE ? BASE61_DEF : BASE61_STD;
    return &tc->v61->b[(size_t)cpu * BASE61_N + (size_t)k];
}

base61_t *base61_lock_timer(cpu_t *c, tcore_t *tc, maddr_t t)
{
    for (;;) {
        uint64_t tf = cpu_read(c, t + W61_TIMER_FLAGS);
        if (!(tf & W61_TIMER_MIGRATING)) {
            base61_t *b = base61_at(tc, (int)(tf & W61_TIMER_CPUMASK), tf);
            cpu_irq_disable(c);
            klock_lock(c, b->lock);
            if (cpu_read(c, t + W61_TIMER_FLAGS) == tf)
                return b;
            klock_unlock(c, b->lock);
            cpu_irq_enable(c);
        }
        cpu_relax(c); /* t is between two bases */
    }
}

void base61_unlock(cpu_t *c, base61_t *b)
{
    klock_unlock(c, b->lock);
    cpu_irq_enable(c);
}

void base61_rt_lock(cpu_t *c, const core61_t *v, klock_t *l)
{
    while (!klock_trylock(c, l))
        cpu_idle_until(c, cpu_now(c) + v->rt_wake); /* asleep until woken */
}

/* --- the run --- */

typedef struct {
    tcore_t *tc;
    base61_t *b;
} run61_t;

/* Before running_timer = t: from here the function will run, the oracle
 * counts it running (as the 2.6 run loop's event, before its stores). */
static void claim(cpu_t *c, wheel61_t *w, maddr_t t, uint64_t baseclk, void *ctx)
{
    (void)w;
    run61_t *r = ctx;
    r->tc->v61->fire_clk[cpu_id(c)] = baseclk; /* for the observer's lateness */
    tcore_emit(r->tc, TEV_FN_START, c, t);
}

/* expire_timers' body for one timer, from after fn = timer->function: the
 * base lock is dropped around the call (interrupts too unless IRQSAFE). */
static void call_fn(cpu_t *c, wheel61_t *w, maddr_t t, uint64_t fn_word, uint64_t data,
                    uint64_t baseclk, void *ctx)
{
    (void)w;
    run61_t *r = ctx;
    tcore_t *tc = r->tc;
    int id = cpu_id(c);
    (void)baseclk; /* claim kept it */
    int irqsafe = (cpu_read(c, t + W61_TIMER_FLAGS) & W61_TIMER_IRQSAFE) != 0;
    tc->v61->irqsafe[id] = irqsafe;
    klock_unlock(c, r->b->lock);
    if (!irqsafe)
        cpu_irq_enable(c);
    tcore_call_fn(c, tc, t, fn_word - 1, data);
    if (!irqsafe)
        cpu_irq_disable(c);
    klock_lock(c, r->b->lock);
}

/* timer_sync_wait_running: after running_timer went back to NULL, let a
 * deleter that waits on expiry_lock have it (RT, not IRQSAFE). A timer
 * whose function was NULL did not run: its claim ends here. */
static void sync_wait_running(cpu_t *c, wheel61_t *w, maddr_t t, int ran, void *ctx)
{
    (void)w;
    run61_t *r = ctx;
    core61_t *v = r->tc->v61;
    if (!ran) {
        tcore_emit(r->tc, TEV_BUG, c, t); /* WARN_ON_ONCE(!fn) */
        tcore_emit(r->tc, TEV_FN_END, c, t);
        return;
    }
    if (!v->rt || v->irqsafe[cpu_id(c)] || !cpu_read(c, r->b->waiters))
        return;
    base61_unlock(c, r->b);
    klock_unlock(c, r->b->expiry);
    base61_rt_lock(c, v, r->b->expiry);
    cpu_irq_disable(c);
    klock_lock(c, r->b->lock);
}

/* __run_timers on base b of c's own CPU. jiffies is read once: a function
 * that runs past a tick leaves the next jiffy to the restart. */
static void run_timers(cpu_t *c, tcore_t *tc, base61_t *b)
{
    core61_t *v = tc->v61;
    uint64_t j = cpu_read(c, tc->jiffies);
    if (time_before(j, cpu_read(c, b->w->base + W61_BASE_NEXT_EXPIRY)))
        return;
    if (v->rt)
        base61_rt_lock(c, v, b->expiry);
    cpu_irq_disable(c);
    klock_lock(c, b->lock);
    run61_t r = {tc, b};
    wheel61_hooks_t h = {claim, call_fn, sync_wait_running, &r};
    wheel61_run_hooks(c, b->w, j, &h);
    base61_unlock(c, b);
    if (v->rt)
        klock_unlock(c, b->expiry);
}

/* run_local_timers: is either base of cpu due at jiffies j? */
static int due(cpu_t *c, tcore_t *tc, int cpu, uint64_t j)
{
    for (int k = 0; k < BASE61_N; k++) {
        base61_t *b = &tc->v61->b[(size_t)cpu * BASE61_N + (size_t)k];
        if (!time_before(j, cpu_read(c, b->w->base + W61_BASE_NEXT_EXPIRY)))
            return 1;
    }
    return 0;
}

static void tick61(cpu_t *c, void *arg)
{
    tcore_t *tc = arg;
    int id = cpu_id(c);
    cpu_exec(c, tc->code[KCODE_TICK61]);
    if (id == tc->timekeeper)
        cpu_fetch_add(c, tc->jiffies, 1); /* do_timer; interrupts are off */
    if (!due(c, tc, id, cpu_read(c, tc->jiffies)))
        return; /* no softirq raised */
    if (tc->in_softirq[id]) {
        tc->softirq_pending[id] = 1; /* the running softirq goes round again */
        return;
    }
    tc->in_softirq[id] = 1;
    cpu_irq_enable(c);
    cpu_exec(c, tc->code[KCODE_RUN_TIMERS61]);
    for (int restart = 0; restart <= 10; restart++) {
        tc->softirq_pending[id] = 0;
        tc->runs[id]++;
        cpu_state_push(c, "run_timers");
        for (int k = 0; k < BASE61_N; k++)
            run_timers(c, tc, &tc->v61->b[(size_t)id * BASE61_N + (size_t)k]);
        cpu_state_pop(c);
        if (!tc->softirq_pending[id])
            break;
    }
    cpu_irq_disable(c);
    tc->in_softirq[id] = 0;
}

/* --- creation --- */

void core61_create(tcore_t *tc, const tcore_config_t *cfg)
{
    machine_t *m = tc->m;
    const platform_t *p = machine_platform(m);
    int line = p->line_bytes > 64 ? p->line_bytes : 64;
    core61_t *v = xcalloc(1, sizeof *v);
    tc->v61 = v;
    v->hz = cfg->hz > 0 ? cfg->hz : 1000;
    v->depth = W61_DEPTH(v->hz);
    v->rt = cfg->design == TIMER_V61_RT;
    v->migration = cfg->timers_migration != 0;
    v->rt_wake = cfg->rt_wake_cycles ? cfg->rt_wake_cycles : 2000;
    v->nodes = klock_nodes_create(m);
    v->b = xcalloc((size_t)tc->ncpus * BASE61_N, sizeof *v->b);
    v->idle = xcalloc((size_t)tc->ncpus, sizeof *v->idle);
    v->fire_clk = xcalloc((size_t)tc->ncpus, sizeof *v->fire_clk);
    v->irqsafe = xcalloc((size_t)tc->ncpus, sizeof *v->irqsafe);
    lock_kind_t kind = (unsigned)cfg->lock < LOCK_NKINDS ? cfg->lock : LOCK_TAS;
    for (int i = 0; i < tc->ncpus; i++) {
        int node = p->cpu_node[i];
        for (int k = 0; k < BASE61_N; k++) {
            base61_t *b = &v->b[(size_t)i * BASE61_N + (size_t)k];
            b->w = wheel61_base_create(m, node, v->hz, i, 0);
            b->lock = klock_create_at(m, kind, b->w->base + W61_BASE_LOCK, v->nodes);
            if (v->rt) {
                maddr_t x = machine_alloc(m, node, (size_t)line);
                b->expiry = klock_create_at(m, kind, x, v->nodes);
                b->waiters = x + 8;
            }
        }
        v->idle[i] = machine_alloc(m, node, 8);
    }
    machine_set_tick(m, cfg->period_cycles, cfg->period_cycles, tick61, tc);
}

void core61_destroy(tcore_t *tc)
{
    core61_t *v = tc->v61;
    if (!v)
        return;
    for (int i = 0; i < tc->ncpus * BASE61_N; i++) {
        klock_destroy(v->b[i].lock);
        klock_destroy(v->b[i].expiry);
        wheel61_base_destroy(v->b[i].w);
    }
    klock_nodes_destroy(v->nodes);
    free(v->b);
    free(v->idle);
    free(v->fire_clk);
    free(v->irqsafe);
    free(v);
    tc->v61 = NULL;
}

/* --- timers --- */

maddr_t timer61_alloc(tcore_t *tc, int node, int fn_id, uint64_t data, uint64_t flags)
{
    /* do_init_timer: the initialising CPU's base; here node's first CPU */
    int cpu = machine_platform(tc->m)->node_first_cpu[node];
    flags &= W61_TIMER_DEFERRABLE | W61_TIMER_PINNED | W61_TIMER_IRQSAFE;
    return wheel61_timer_alloc(tc->m, node, fn61_word(fn_id), data, flags | (uint64_t)cpu);
}

void timer61_setup_on(cpu_t *c, maddr_t t, int fn_id, uint64_t data)
{
    cpu_write(c, t + W61_TIMER_NEXT, 0);
    cpu_write(c, t + W61_TIMER_PPREV, 0);
    cpu_write(c, t + W61_TIMER_FUNCTION, fn61_word(fn_id));
    cpu_write(c, t + W61_TIMER_FLAGS, (uint64_t)cpu_id(c));
    cpu_write(c, t + W61_TIMER_DATA, data);
}
