/* run: the programs of the simulated CPUs for one combination.
 *
 * CPUs and their programs:
 *   caller (measure.cpu)   the workload loop below, timing each call;
 *   arm_cpu, overlap CPUs  helpers that arm the timer when the caller asks
 *                          (a request flag: simulator bookkeeping, no cost);
 *   every other CPU        background timer traffic, if ops_per_tick > 0;
 *   all                    the tick, HZ times a simulated second.
 *
 * What one call measures (workload schedule_timeout, the 2004 method): the
 * caller arms its timer with mod_timer (expires_jiffies ahead), does
 * spacing_cycles (+ jitter) of plain work, flushes its whole cache when the
 * cache state is cold, then calls del_timer_sync; the call's cycles are the
 * caller's cycle counter after the call minus before it, including any tick
 * that interrupts it. The mean of `calls` calls is the figure.
 */
#include "run_ctx.h"

#include "cpu.h"
#include "oracle.h"
#include "start.h"
#include "strategy.h"
#include "timer/timer.h"
#include "xalloc.h"

#include <gsl/gsl_randist.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_LEN         40
#define POLL_CYCLES       20000 /* a helper's pause between two looks at its flag */
#define BG_EXPIRES_MIN    50    /* background timers are armed 50..249 jiffies ahead */
#define BG_EXPIRES_SPAN   200
#define START_POLL_CYCLES 50 /* measure.wait_start: the caller's look at the function's start */

/* --- timer functions --- */

static void scenario_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *arg)
{
    ctx_t *x = arg;
    const scenario_t *s = x->s;
    uint64_t work = s->workload == WORKLOAD_OVERLAP ? data : s->fn_cycles;
    cpu_sync(c); /* bookkeeping below happens at this cycle */
    if (t == LOAD(x->timer))
        __atomic_fetch_add(&x->fn_starts, 1, __ATOMIC_SEQ_CST);
    if (s->fn_rearm) {
        uint64_t first = (uint64_t)((double)work * s->fn_rearm_at);
        cpu_work(c, first);
        mod_timer(c, tc, t, read_jiffies(c, tc) + (uint64_t)s->fn_rearm_jiffies);
        cpu_work(c, work - first);
    } else {
        cpu_work(c, work);
    }
    if (s->fn_free) {
        timer_free(c, tc, t);
        cpu_sync(c);
        if (t == LOAD(x->timer))
            STORE(x->timer_freed, 1);
    }
}

static void background_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *arg)
{
    (void)c, (void)tc, (void)t, (void)data, (void)arg;
}

/* --- helper programs --- */

/* mod_timer by the CPU that arms the measured timer: from idle with
 * measure.arm_idle (an interrupt on an idle CPU), which the 6.1 core's
 * get_nohz_timer_target sees. */
static void arm(cpu_t *c, ctx_t *x, maddr_t t, uint64_t expires)
{
    if (x->s->arm_idle)
        tcore_set_idle(c, x->tc, 1);
    mod_timer(c, x->tc, t, expires);
    if (x->s->arm_idle)
        tcore_set_idle(c, x->tc, 0);
}

/* A CPU with nothing to do says so to the 6.1 core (NOHZ idle), then
 * only takes its ticks. */
static void idle_program(cpu_t *c, void *arg)
{
    ctx_t *x = arg;
    tcore_set_idle(c, x->tc, 1);
}

/* One background call: del_timer (or, for sync_fraction of them, the
 * strategy's del_timer_sync, whose scan reads every CPU's base) or
 * mod_timer on one of c's own timers. */
static void background_op(cpu_t *c, ctx_t *x)
{
    const scenario_t *s = x->s;
    gsl_rng *rng = cpu_rng(c);
    maddr_t t = x->bg_timers[cpu_id(c)][gsl_rng_uniform_int(rng, (unsigned long)s->timers_per_cpu)];
    cpu_state_push(c, "background_op");
    if (gsl_rng_uniform(rng) < s->del_fraction) {
        /* No draw when sync_fraction is 0: older scenarios keep their stream. */
        if (s->sync_fraction > 0 && gsl_rng_uniform(rng) < s->sync_fraction) {
            int oops = 0; /* the oracle watches the caller's timer only */
            strategy_del_timer_sync(x->r->strategy, c, x->tc, t, &oops);
        } else
            del_timer(c, x->tc, t);
    } else
        mod_timer(c, x->tc, t,
                  read_jiffies(c, x->tc) + BG_EXPIRES_MIN +
                      gsl_rng_uniform_int(rng, BG_EXPIRES_SPAN));
    cpu_state_pop(c);
}

static uint64_t background_gap(cpu_t *c, ctx_t *x)
{
    return (uint64_t)gsl_ran_exponential(cpu_rng(c), (double)x->period / x->s->ops_per_tick);
}

static void background_program(cpu_t *c, void *arg)
{
    ctx_t *x = arg;
    while (!cpu_stopping(c)) {
        cpu_work(c, background_gap(c, x));
        if (cpu_stopping(c))
            break;
        background_op(c, x);
    }
}

/* The caller's own plain work of `cycles`; with background.on_caller, the
 * background calls that fall in it are made too (same rate as elsewhere). */
static void caller_work(cpu_t *c, ctx_t *x, uint64_t cycles)
{
    if (!x->s->on_caller || x->s->ops_per_tick <= 0) {
        cpu_work(c, cycles);
        return;
    }
    uint64_t end = cpu_now(c) + cycles;
    for (;;) {
        uint64_t gap = background_gap(c, x);
        if (cpu_now(c) + gap >= end) {
            cpu_idle_until(c, end);
            return;
        }
        cpu_work(c, gap);
        background_op(c, x);
    }
}

/* Arms the measured timer whenever the caller asks (arm_cpu, overlap CPUs).
 * In first_run, each request arms a freshly initialised timer. */
static void armer_program(cpu_t *c, void *arg)
{
    ctx_t *x = arg;
    int id = cpu_id(c);
    while (!cpu_stopping(c)) {
        cpu_sync(c);
        if (!LOAD(x->arm_req[id])) {
            cpu_work(c, POLL_CYCLES);
            continue;
        }
        uint64_t j = read_jiffies(c, x->tc);
        if (x->s->workload == WORKLOAD_FIRST_RUN || x->s->workload == WORKLOAD_HOP) {
            if (x->s->workload == WORKLOAD_FIRST_RUN) {
                maddr_t t = timer_alloc_on(c, x->tc, cpu_node(c), x->fn_id, 0);
                oracle_watch(x->or, t);
                STORE(x->timer, t);
            }
            arm(c, x, LOAD(x->timer), j); /* due at this CPU's next tick */
            STORE(x->strike_at, cpu_next_tick(c));
        } else {
            if (x->s->workload == WORKLOAD_OVERLAP)
                timer_set_data(c, x->tc, LOAD(x->timer), LOAD(x->arm_data[id]));
            arm(c, x, LOAD(x->timer), j + (uint64_t)x->s->expires_jiffies);
        }
        cpu_sync(c);
        STORE(x->arm_req[id], 0);
    }
}

/* Asks helper cpu to arm the timer and waits (polling) until it has. */
static void request_arm(cpu_t *c, ctx_t *x, int cpu, uint64_t data)
{
    cpu_sync(c);
    STORE(x->arm_data[cpu], data);
    STORE(x->arm_req[cpu], 1);
    for (;;) {
        cpu_sync(c);
        if (!LOAD(x->arm_req[cpu]))
            return;
        cpu_work(c, POLL_CYCLES);
    }
}

static void wait_fn_starts(cpu_t *c, ctx_t *x, uint64_t starts)
{
    for (;;) {
        cpu_sync(c);
        if (LOAD(x->fn_starts) >= starts || cpu_stopping(c))
            return;
        cpu_work(c, POLL_CYCLES);
    }
}

/* --- the caller --- */

static uint64_t uniform(cpu_t *c, uint64_t span)
{
    return span ? gsl_rng_uniform_int(cpu_rng(c), (unsigned long)span + 1) : 0;
}

/* Gets the timer ready for the next measured call, per workload. */
static void prepare(cpu_t *c, ctx_t *x)
{
    const scenario_t *s = x->s;
    tcore_t *tc = x->tc;
    int arm_cpu = s->arm_cpu < 0 ? x->caller : s->arm_cpu;
    if (timer_is_shutdown_now(tc, LOAD(x->timer))) {
        /* timer_shutdown_sync's last call left it down: timer_setup, as a
         * driver does before using it again */
        timer_setup_on(c, tc, LOAD(x->timer), x->fn_id, 0);
        oracle_setup(x->or, LOAD(x->timer));
    }
    if (LOAD(x->timer_freed)) {
        maddr_t t =
            timer_alloc_on(c, tc, machine_home(tcore_machine(tc), LOAD(x->timer)), x->fn_id, 0);
        oracle_watch(x->or, t);
        STORE(x->timer, t);
        STORE(x->timer_freed, 0);
    }
    switch (s->workload) {
    case WORKLOAD_SCHEDULE_TIMEOUT:
    case WORKLOAD_REARM:
        if (arm_cpu == x->caller)
            arm(c, x, LOAD(x->timer), read_jiffies(c, tc) + (uint64_t)s->expires_jiffies);
        else
            request_arm(c, x, arm_cpu, 0);
        caller_work(c, x, s->spacing_cycles + uniform(c, s->spacing_jitter_cycles));
        break;
    case WORKLOAD_OVERLAP: {
        uint64_t n0 = LOAD(x->fn_starts);
        request_arm(c, x, s->overlap_first_cpu, s->overlap_first_cycles);
        wait_fn_starts(c, x, n0 + 1);
        request_arm(c, x, s->overlap_second_cpu, s->overlap_second_cycles);
        wait_fn_starts(c, x, n0 + 2);
        cpu_work(c, s->spacing_cycles + uniform(c, s->spacing_jitter_cycles));
        break;
    }
    case WORKLOAD_HOP: {
        /* A run on the caller's own CPU first (its tick runs it), so that
         * last_running names the caller's base; then arm_cpu re-arms it and
         * 2.6.6 moves it there: the next run is on another base. */
        uint64_t n0 = LOAD(x->fn_starts);
        mod_timer(c, tc, LOAD(x->timer), read_jiffies(c, tc));
        wait_fn_starts(c, x, n0 + 1);
    }
        /* fall through */
    case WORKLOAD_FIRST_RUN: {
        uint64_t n0 = LOAD(x->fn_starts);
        request_arm(c, x, arm_cpu, 0);
        if (s->wait_start) {
            /* the spacing counts from the function's start: the delete
             * surely finds it running (while it lasts longer) */
            for (;;) {
                cpu_sync(c);
                if (LOAD(x->fn_starts) > n0 || cpu_stopping(c))
                    break;
                cpu_idle_until(c, cpu_now(c) + START_POLL_CYCLES);
            }
            cpu_idle_until(c,
                           cpu_now(c) + s->spacing_cycles + uniform(c, s->spacing_jitter_cycles));
        } else
            cpu_idle_until(c, LOAD(x->strike_at) + s->spacing_cycles +
                                  uniform(c, s->spacing_jitter_cycles));
        break;
    }
    case WORKLOAD_TICK:
    case WORKLOAD_CONTEND: /* their own programs (run_tick.c) */
        break;
    }
}

/* What reading the counter twice costs (0 simulated; a few dozen cycles on
 * a host): the median of 101 empty timings, taken off every measured call
 * as the probes do. */
static uint64_t empty_timing(cpu_t *c)
{
    uint64_t d[101];
    for (int i = 0; i < 101; i++) {
        uint64_t t0 = cpu_now(c);
        d[i] = cpu_now(c) - t0;
    }
    for (int i = 1; i < 101; i++) /* insertion sort: 101 values */
        for (int j = i; j > 0 && d[j] < d[j - 1]; j--) {
            uint64_t t = d[j];
            d[j] = d[j - 1];
            d[j - 1] = t;
        }
    return d[50];
}

static void caller_program(cpu_t *c, void *arg)
{
    ctx_t *x = arg;
    run_t *r = x->r;
    const scenario_t *s = x->s;
    int total = s->warmup_calls + s->calls;
    uint64_t overhead = empty_timing(c);
    for (int k = 0; k < total && !cpu_stopping(c); k++) {
        prepare(c, x);
        if (r->cache == CACHE_COLD)
            cpu_flush_cache(c, s->cold_flush == COLD_FLUSH_ALL);
        maddr_t t = LOAD(x->timer);
        cpu_anatomy_t a0, a1;
        cpu_anatomy(c, &a0);
        cpu_call_begin(c, k >= s->warmup_calls);
        cpu_sync(c); /* for the oracle's trace: events in time order */
        oracle_call(x->or, c, t);
        int oops = 0;
        /* The counter around the strategy call only (simulated: the syncs
         * above and below cost nothing; native: they are fences). */
        uint64_t t0 = cpu_now(c);
        strategy_del_timer_sync(r->strategy, c, x->tc, t, &oops);
        uint64_t t1 = cpu_now(c);
        int counted = cpu_anatomy(c, &a1);
        cpu_call_end(c);
        cpu_sync(c); /* the oracle looks at the state as of the return */
        if (oracle_return(x->or, c, t, oops) && r->first_bad_call < 0) {
            r->first_bad_call = k;
            r->first_bad_cycle = t1;
        }
        cpu_progress(c);
        if (k >= s->warmup_calls) {
            r->cycles[r->ncalls++] = t1 - t0 > overhead ? t1 - t0 - overhead : 0;
            /* the empty timing taken off was the clock read, which ran
             * beside the call (core_clock_cycles): hidden, so that the
             * columns add up to the cycles reported. Natively the columns
             * are 0 and stay so. */
            if (counted)
                a1.hidden_cycles += overhead;
            cpu_anatomy_accumulate(&r->anatomy, &a0, &a1);
        }
    }
    r->sim_cycles = cpu_now(c);
    machine_stop(tcore_machine(x->tc));
}

/* --- set-up --- */

static void setup(machine_t *m, void *arg)
{
    ctx_t *x = arg;
    run_t *r = x->r;
    const scenario_t *s = x->s;
    const platform_t *p = machine_platform(m);
    int n = p->ncpus;
    x->period = (uint64_t)(p->clock_mhz * 1e6 / s->hz + 0.5);
    tcore_config_t cfg = {.design = strategy_design(r->strategy),
                          .last_running = strategy_last_running(r->strategy),
                          .period_cycles = x->period,
                          .timekeeper_cpu = s->timekeeper_cpu,
                          .hz = s->hz,
                          .lock = s->lock,
                          .timers_migration = s->timers_migration};
    x->tc = tcore_create_config(m, &cfg);
    unsigned omit = 0;
    for (int i = 0; i < s->nomit; i++)
        omit |= 1u << s->omit_barriers[i]; /* kBarriers' order is TBAR_*'s */
    tcore_omit_barriers(x->tc, omit);
    x->or = oracle_create(x->tc, r->trace ? TRACE_LEN : 0);
    x->fn_id = tcore_register_fn(x->tc, scenario_fn, x);
    x->bg_fn_id = tcore_register_fn(x->tc, background_fn, x);
    machine_set_jitter(m, s->jitter_cycles, r->seed);
    int node = s->timer_node < 0 ? p->cpu_node[x->caller] : s->timer_node;
    x->timer = timer_alloc(x->tc, node, x->fn_id, 0);
    oracle_watch(x->or, x->timer);
    if (s->workload == WORKLOAD_TICK) {
        run_tick_setup(m, x);
        return;
    }
    if (s->workload == WORKLOAD_CONTEND) {
        run_contend_setup(m, x);
        return;
    }
    x->arm_req = xcalloc((size_t)n, sizeof *x->arm_req);
    x->arm_data = xcalloc((size_t)n, sizeof *x->arm_data);
    x->bg_timers = xcalloc((size_t)n, sizeof *x->bg_timers);

    int arm_cpu = s->arm_cpu < 0 ? x->caller : s->arm_cpu;
    for (int i = 0; i < n; i++) {
        int helper = (i == arm_cpu && i != x->caller && (s->workload != WORKLOAD_OVERLAP)) ||
                     (s->workload == WORKLOAD_OVERLAP &&
                      (i == s->overlap_first_cpu || i == s->overlap_second_cpu));
        int background =
            s->ops_per_tick > 0 && !helper && (i != x->caller || s->on_caller) &&
            (!s->idle_caller_node || i == x->caller || p->cpu_node[i] != p->cpu_node[x->caller]);
        if (background) {
            x->bg_timers[i] = xcalloc((size_t)s->timers_per_cpu, sizeof(maddr_t));
            for (int k = 0; k < s->timers_per_cpu; k++)
                x->bg_timers[i][k] = timer_alloc(x->tc, p->cpu_node[i], x->bg_fn_id, 0);
        }
        if (i == x->caller)
            machine_set_program(m, i, caller_program, x);
        else if (helper)
            machine_set_program(m, i, armer_program, x);
        else if (background)
            machine_set_program(m, i, background_program, x);
        else if (s->timers_migration && strategy_core(r->strategy) == KERNEL_CORE_61)
            machine_set_program(m, i, idle_program, x);
    }
}

static void finish(machine_t *m, void *arg)
{
    ctx_t *x = arg;
    run_t *r = x->r;
    r->violations = oracle_violations(x->or);
    r->oopses = oracle_oopses(x->or);
    r->bugs = oracle_bugs(x->or);
    r->uaf = machine_freed_writes(m);
    r->accesses = machine_accesses(m);
    r->switches = machine_switches(m);
    r->batched = machine_batched_reads(m);
    oracle_tightness(x->or, &r->gap_end_start, &r->gap_rearm_end);
    run_tick_finish(x);
    if (r->trace)
        oracle_print_trace(x->or, stderr, machine_platform(m)->clock_mhz);
}

static const char *key_origin(const scenario_t *s, const char *key)
{
    for (int i = 0; i < s->nresolved; i++)
        if (!strcmp(s->resolved[i].key, key))
            return strcmp(s->resolved[i].origin, "default") ? s->resolved[i].origin : s->path;
    return s->path;
}

static int check_cpu(const scenario_t *s, const platform_t *p, const char *key, int cpu,
                     int allow_neg, err_t *e)
{
    if ((cpu < 0 && !allow_neg) || cpu >= p->ncpus)
        return err_set(e, NULL, 0, "%s: %s = %d, but platform %s has CPUs 0..%d",
                       key_origin(s, key), key, cpu, p->name, p->ncpus - 1);
    return 0;
}

int run_check(const scenario_t *s, const platform_t *p, err_t *e)
{
    if (check_cpu(s, p, "measure.cpu", s->cpu, 0, e) ||
        check_cpu(s, p, "measure.arm_cpu", s->arm_cpu, 1, e) ||
        check_cpu(s, p, "kernel.timekeeper_cpu", s->timekeeper_cpu, 0, e))
        return -1;
    if (s->timer_node >= p->nnodes)
        return err_set(e, NULL, 0, "%s: measure.timer_node = %d, but platform %s has nodes 0..%d",
                       key_origin(s, "measure.timer_node"), s->timer_node, p->name, p->nnodes - 1);
    if (s->workload == WORKLOAD_OVERLAP) {
        if (check_cpu(s, p, "overlap.first_cpu", s->overlap_first_cpu, 0, e) ||
            check_cpu(s, p, "overlap.second_cpu", s->overlap_second_cpu, 0, e))
            return -1;
        if (s->overlap_first_cpu == s->cpu || s->overlap_second_cpu == s->cpu ||
            s->overlap_first_cpu == s->overlap_second_cpu)
            return err_set(e, NULL, 0,
                           "%s: overlap.first_cpu, overlap.second_cpu and measure.cpu must be "
                           "three different CPUs",
                           key_origin(s, "overlap.first_cpu"));
    }
    if ((s->workload == WORKLOAD_REARM || s->workload == WORKLOAD_FIRST_RUN ||
         s->workload == WORKLOAD_HOP) &&
        (s->arm_cpu < 0 || s->arm_cpu == s->cpu))
        return err_set(e, NULL, 0,
                       "%s: workload %s needs measure.arm_cpu set to a CPU other than the caller",
                       key_origin(s, "measure.workload"), workload_name(s->workload));
    if (s->workload == WORKLOAD_CONTEND && s->contend_cpus > p->ncpus)
        return err_set(e, NULL, 0, "%s: contend.cpus = %d, but platform %s has %d CPUs",
                       key_origin(s, "contend.cpus"), s->contend_cpus, p->name, p->ncpus);
    for (int i = 0; i < s->ncores; i++)
        if (s->cores[i] == KERNEL_CORE_61 && s->hz == 1024)
            return err_set(e, NULL, 0,
                           "%s: kernel.hz = 1024 is ia64's 2.6 value; the 6.1 core takes 100, "
                           "250, 300 or 1000",
                           key_origin(s, "kernel.hz"));
    if (p->clock_mhz * 1e6 / s->hz < 1000)
        return err_set(e, NULL, 0, "%s: kernel.hz = %d leaves under 1000 cycles per tick",
                       key_origin(s, "kernel.hz"), s->hz);
    return 0;
}

int run_one(run_t *r, const char *argv0, err_t *e)
{
    ctx_t x;
    memset(&x, 0, sizeof x);
    x.r = r;
    x.s = r->s;
    x.caller = r->s->cpu;
    r->cycles = xcalloc((size_t)r->s->calls, sizeof *r->cycles);
    r->ncalls = 0;
    r->first_bad_call = -1;
    machine_hooks_t hooks = {setup, finish, &x};
    start_t st = {.host = r->host,
                  .platform = r->p,
                  .argv0 = argv0,
                  .seed = r->seed,
                  .hooks = &hooks,
                  .native = r->native,
                  .paje = r->paje,
                  .paje_calls = r->paje_calls};
    int rc = start_machine(&st, e);
    if (x.bg_timers)
        for (int i = 0; i < r->p->ncpus; i++)
            free(x.bg_timers[i]);
    free(x.bg_timers);
    free(x.arm_req);
    free(x.arm_data);
    run_tick_free(&x);
    oracle_destroy(x.or);
    tcore_destroy(x.tc);
    return rc;
}
