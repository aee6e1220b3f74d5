/* run_tick: the workloads that time the timer core itself rather than one
 * del_timer_sync call.
 *
 *   tick     the wheel's trade: wheel.timers timers armed on the caller's
 *            base, each for a timeout drawn log-uniformly from
 *            [wheel.timeout_min_jiffies, wheel.timeout_max_jiffies] and
 *            re-armed by its own function with a new draw, so the
 *            population stays the same. One call is one tick of the
 *            caller's CPU: the cycles of its handler (the 2.6 wheel's
 *            cascades included), and every function it runs reports how
 *            late it fired (jiffies past its expiry; early is a broken
 *            promise).
 *   contend  the base lock under load: contend.cpus CPUs from the caller on
 *            (in id order, wrapping) each delete their own timer with the
 *            strategy and re-arm it on the caller's base (add_timer_on),
 *            back to back. One call is one such operation of the caller;
 *            every contender counts its operations while the caller
 *            measures, for the cycles per operation and Jain's fairness.
 *
 * Log-uniform timeouts: a kernel's timers span milliseconds (network
 * retransmits, polls) to minutes (watchdogs), with no scale preferred; a
 * log-uniform draw gives each decade the same share.
 */
#include "run_ctx.h"

#include "strategy.h"
#include "xalloc.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

/* --- tick --- */

static uint64_t draw_timeout(cpu_t *c, const scenario_t *s)
{
    double lo = log((double)s->wheel_timeout_min), hi = log((double)s->wheel_timeout_max + 1.0);
    uint64_t d = (uint64_t)exp(lo + (hi - lo) * gsl_rng_uniform(cpu_rng(c)));
    return d < (uint64_t)s->wheel_timeout_min ? (uint64_t)s->wheel_timeout_min : d;
}

/* A wheel timer fires: lateness is bookkeeping at the jiffy the softirq
 * runs it (cost-free); the re-arm is the function's own, paid. */
static void wheel_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *arg)
{
    ctx_t *x = arg;
    uint64_t now = tcore_jiffies_now(tc), due = x->expires[data], span = x->timeout[data];
    if (LOAD(x->measuring)) {
        run_extra_t *e = &x->r->extra;
        e->fired++;
        if (now < due)
            e->early++;
        else {
            uint64_t late = now - due, ppm = late * 1000000 / span;
            e->late_sum += late;
            e->late_max = late > e->late_max ? late : e->late_max;
            e->late_ppm = ppm > e->late_ppm ? ppm : e->late_ppm;
            /* The 6.1 wheel puts a timer in the first level whose range
             * holds it: a level's granularity is at most 8/63 of the
             * timeouts it holds (LVL_START(n) = 63 * 8^(n-1), granularity
             * 8^n). A jiffy more for the tick's own delay. */
            if (late * 63 > span * 8 + 63)
                e->overdue++;
        }
    }
    uint64_t d = draw_timeout(c, x->s), exp = read_jiffies(c, tc) + d;
    x->expires[data] = exp;
    x->timeout[data] = d;
    mod_timer(c, tc, t, exp);
}

static void tick_caller(cpu_t *c, void *arg)
{
    ctx_t *x = arg;
    run_t *r = x->r;
    const scenario_t *s = x->s;
    for (int i = 0; i < s->wheel_timers && !cpu_stopping(c); i++) {
        uint64_t d = draw_timeout(c, s), exp = read_jiffies(c, x->tc) + d;
        x->expires[i] = exp;
        x->timeout[i] = d;
        mod_timer(c, x->tc, x->wheel[i], exp);
    }
    int total = s->warmup_calls + s->calls;
    for (int k = 0; k < total && !cpu_stopping(c); k++) {
        if (k == s->warmup_calls)
            STORE(x->measuring, 1);
        cpu_anatomy_t a0, a1;
        cpu_anatomy(c, &a0);
        /* Idle past the next tick: the handler runs in the idle time, and
         * the idle ends after it whatever it cost. */
        cpu_idle_until(c, cpu_next_tick(c) + 1);
        cpu_anatomy(c, &a1);
        cpu_progress(c);
        if (k >= s->warmup_calls) {
            r->cycles[r->ncalls++] = a1.tick_cycles - a0.tick_cycles;
            cpu_anatomy_accumulate(&r->anatomy, &a0, &a1);
        }
    }
    r->sim_cycles = cpu_now(c);
    machine_stop(tcore_machine(x->tc));
}

void run_tick_setup(machine_t *m, ctx_t *x)
{
    const scenario_t *s = x->s;
    int node = machine_platform(m)->cpu_node[x->caller];
    size_t n = (size_t)s->wheel_timers;
    x->wheel = xcalloc(n ? n : 1, sizeof *x->wheel);
    x->expires = xcalloc(n ? n : 1, sizeof *x->expires);
    x->timeout = xcalloc(n ? n : 1, sizeof *x->timeout);
    x->wheel_fn_id = tcore_register_fn(x->tc, wheel_fn, x);
    for (size_t i = 0; i < n; i++)
        x->wheel[i] = timer_alloc(x->tc, node, x->wheel_fn_id, i);
    machine_set_program(m, x->caller, tick_caller, x);
}

/* --- contend --- */

/* One operation: delete the own timer with the strategy, re-arm it on the
 * shared base. */
static void contend_op(cpu_t *c, ctx_t *x, maddr_t t)
{
    int oops = 0;
    strategy_del_timer_sync(x->r->strategy, c, x->tc, t, &oops);
    add_timer_on(c, x->tc, t, read_jiffies(c, x->tc) + (uint64_t)x->s->expires_jiffies,
                 x->base_cpu);
}

/* A lock that is not fair (test-and-set) may hand itself from contender to
 * contender and never to the caller: when the others have done 8 times
 * their fair share of the caller's operations, the run ends. The caller's
 * call then completes as the others stop, and counts as measured even in
 * the warm-up (with the others' operations during it): the row has fewer
 * calls than asked for, and the last is the starved one. */
static void contender(cpu_t *c, void *arg)
{
    ctx_t *x = arg;
    int id = cpu_id(c);
    while (!cpu_stopping(c)) {
        contend_op(c, x, x->own[id]);
        if (LOAD(x->measuring))
            __atomic_fetch_add(&x->ops[id], 1, __ATOMIC_SEQ_CST);
        __atomic_fetch_add(&x->ops_all[id], 1, __ATOMIC_SEQ_CST);
        if (__atomic_add_fetch(&x->others, 1, __ATOMIC_SEQ_CST) == x->starve)
            machine_stop(cpu_machine(c));
    }
}

static void contend_caller(cpu_t *c, void *arg)
{
    ctx_t *x = arg;
    run_t *r = x->r;
    const scenario_t *s = x->s;
    int id = cpu_id(c), total = s->warmup_calls + s->calls;
    uint64_t start = 0;
    for (int k = 0; k < total && !cpu_stopping(c); k++) {
        if (k == s->warmup_calls) {
            cpu_sync(c);
            STORE(x->measuring, 1);
            start = cpu_now(c);
        }
        cpu_anatomy_t a0, a1;
        cpu_anatomy(c, &a0);
        uint64_t t0 = cpu_now(c);
        int n = machine_ncpus(cpu_machine(c));
        for (int i = 0; i < n; i++)
            x->ops_snap[i] = LOAD(x->ops_all[i]);
        contend_op(c, x, x->own[id]);
        uint64_t t1 = cpu_now(c);
        cpu_anatomy(c, &a1);
        cpu_progress(c);
        if (k < s->warmup_calls && cpu_stopping(c)) { /* starved in the warm-up */
            for (int i = 0; i < n; i++)
                if (i != id)
                    x->ops[i] = LOAD(x->ops_all[i]) - x->ops_snap[i];
            start = t0;
            k = s->warmup_calls;
        }
        if (k >= s->warmup_calls) {
            __atomic_fetch_add(&x->ops[id], 1, __ATOMIC_SEQ_CST);
            r->cycles[r->ncalls++] = t1 - t0;
            cpu_anatomy_accumulate(&r->anatomy, &a0, &a1);
        }
    }
    cpu_sync(c);
    STORE(x->measuring, 0);
    r->extra.window = (cpu_now(c) - start) * (uint64_t)s->contend_cpus;
    r->sim_cycles = cpu_now(c);
    machine_stop(tcore_machine(x->tc));
}

void run_contend_setup(machine_t *m, ctx_t *x)
{
    const platform_t *p = machine_platform(m);
    int n = p->ncpus;
    x->ops = xcalloc((size_t)n, sizeof *x->ops);
    x->ops_all = xcalloc((size_t)n, sizeof *x->ops_all);
    x->ops_snap = xcalloc((size_t)n, sizeof *x->ops_snap);
    x->own = xcalloc((size_t)n, sizeof *x->own);
    x->contender = xcalloc((size_t)n, sizeof *x->contender);
    x->base_cpu = x->caller;
    x->starve = (uint64_t)(x->s->warmup_calls + x->s->calls) *
                (uint64_t)(x->s->contend_cpus > 1 ? x->s->contend_cpus - 1 : 1) * 8;
    for (int k = 0; k < x->s->contend_cpus; k++) {
        int cpu = (x->caller + k) % n;
        x->contender[cpu] = 1;
        x->own[cpu] = timer_alloc(x->tc, p->cpu_node[cpu], x->bg_fn_id, 0);
        machine_set_program(m, cpu, cpu == x->caller ? contend_caller : contender, x);
    }
}

void run_tick_finish(ctx_t *x)
{
    if (!x->ops)
        return;
    run_extra_t *e = &x->r->extra;
    int n = machine_platform(tcore_machine(x->tc))->ncpus;
    for (int i = 0; i < n; i++)
        if (x->contender[i]) {
            e->ops += x->ops[i];
            e->ops_sq += x->ops[i] * x->ops[i];
            e->contenders++;
        }
}

void run_tick_free(ctx_t *x)
{
    free(x->wheel);
    free(x->expires);
    free(x->timeout);
    free(x->ops);
    free(x->ops_all);
    free(x->ops_snap);
    free(x->own);
    free(x->contender);
}
