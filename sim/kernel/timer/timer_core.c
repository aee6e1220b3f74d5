/* timer_core: bases, jiffies, timer allocation, the kernel text and the tick.
 *
 * Placement: CPU i's base is allocated in node(i)'s memory, line-aligned;
 * jiffies has a line of its own in the timekeeper's node; each CPU has one
 * line of "kernel stack" in its node for the run loop's local list head.
 *
 * The tick (HZ per second on every CPU, local timers out of phase): the
 * hard-interrupt part advances jiffies on the timekeeper; the softirq part
 * then runs this CPU's base when jiffies >= base->timer_jiffies, with
 * interrupts enabled and no nesting of the softirq itself. A tick that comes
 * while the softirq runs only marks it pending, and the softirq goes round
 * again when it ends (__do_softirq's restart, at most 10 times).
 *
 * A 6.1 core (TIMER_V61, TIMER_V61_RT) shares jiffies, the function table,
 * the code units and the softirq bookkeeping; its bases, locks and tick are
 * timer61/base61.c's, and each function below that touches a base or a
 * timer dispatches on the design.
 */
#include "timer61/core61.h"
#include "timer_internal.h"
#include "timer_wheel.h"

#include "xalloc.h"

#include <stdlib.h>

enum { BASE_HEADS = TVR_SIZE + 4 * TVN_SIZE };

static void init_base(machine_t *m, maddr_t b)
{
    /* Every list head points at itself; timer_jiffies = jiffies = 0. */
    uint64_t w[2 * BASE_HEADS];
    for (int i = 0; i < BASE_HEADS; i++) {
        maddr_t h = b + BASE_TV1 + (maddr_t)i * 16;
        w[2 * i] = w[2 * i + 1] = h;
    }
    machine_poke_words(m, b + BASE_TV1, w, 2 * BASE_HEADS);
}

#define CODE_NAME_OF_STRATEGY(ID, name, function, ...) #function,
static const char *const kCodeNames[KCODE_N] = {"tick",
                                                "run_timers",
                                                "mod_timer",
                                                "del_timer",
                                                "try_to_del_timer_sync",
                                                STRATEGY_TABLE(CODE_NAME_OF_STRATEGY) "tick61",
                                                "run_timers61",
                                                "mod_timer61",
                                                "del_timer61",
                                                "try_to_del_timer_sync61"};
#undef CODE_NAME_OF_STRATEGY

const char *tcore_code_name(kcode_t unit)
{
    return unit < KCODE_N ? kCodeNames[unit] : "?";
}

void tcore_exec(cpu_t *c, tcore_t *tc, kcode_t unit)
{
    cpu_exec(c, tc->code[unit]);
}

static void tick(cpu_t *c, void *arg)
{
    tcore_t *tc = arg;
    int id = cpu_id(c);
    tcore_exec(c, tc, KCODE_TICK);
    if (id == tc->timekeeper)
        cpu_fetch_add(c, tc->jiffies, 1); /* do_timer; interrupts are off */
    if (tc->in_softirq[id]) {
        /* raise_softirq: the softirq this tick interrupted runs again when
         * it ends, as __do_softirq restarts on a pending bit */
        tc->softirq_pending[id] = 1;
        return;
    }
    tc->in_softirq[id] = 1;
    cpu_irq_enable(c);
    tcore_exec(c, tc, KCODE_RUN_TIMERS);
    maddr_t b = tc->base[id];
    /* __do_softirq restarts at most MAX_SOFTIRQ_RESTART (10) times, then
     * leaves the rest to ksoftirqd: here, to this CPU's next tick. */
    for (int restart = 0; restart <= 10; restart++) {
        tc->softirq_pending[id] = 0;
        uint64_t tj = cpu_read(c, b + BASE_TIMER_JIFFIES);
        if ((int64_t)(cpu_read(c, tc->jiffies) - tj) >= 0) {
            tc->runs[id]++;
            cpu_state_push(c, "run_timers");
            wheel_run(c, tc, b);
            cpu_state_pop(c);
        }
        if (!tc->softirq_pending[id])
            break;
    }
    cpu_irq_disable(c);
    tc->in_softirq[id] = 0;
}

tcore_t *tcore_create(machine_t *m, timer_design_t design, int last_running, uint64_t period_cycles,
                      int timekeeper_cpu)
{
    tcore_config_t cfg = {.design = design,
                          .last_running = last_running,
                          .period_cycles = period_cycles,
                          .timekeeper_cpu = timekeeper_cpu,
                          .hz = 1000,
                          .lock = LOCK_QSPIN};
    return tcore_create_config(m, &cfg);
}

tcore_t *tcore_create_config(machine_t *m, const tcore_config_t *cfg)
{
    const platform_t *p = machine_platform(m);
    tcore_t *tc = xcalloc(1, sizeof *tc);
    tc->m = m;
    tc->design = cfg->design;
    tc->last_running = cfg->last_running && cfg->design == TIMER_CLASSIC;
    tc->ncpus = p->ncpus;
    tc->timekeeper = cfg->timekeeper_cpu;
    tc->base = xcalloc((size_t)tc->ncpus, sizeof *tc->base);
    tc->stack = xcalloc((size_t)tc->ncpus, sizeof *tc->stack);
    tc->in_softirq = xcalloc((size_t)tc->ncpus, sizeof *tc->in_softirq);
    tc->softirq_pending = xcalloc((size_t)tc->ncpus, sizeof *tc->softirq_pending);
    tc->runs = xcalloc((size_t)tc->ncpus, sizeof *tc->runs);
    for (int i = 0; i < tc->ncpus && !tcore_is_v61(tc); i++) {
        tc->base[i] = machine_alloc(tc->m, p->cpu_node[i], BASE_SIZE);
        init_base(m, tc->base[i]);
        tc->stack[i] = machine_alloc(tc->m, p->cpu_node[i], 16);
    }
    tc->jiffies = machine_alloc(tc->m, p->cpu_node[tc->timekeeper], 8);
    for (int u = 0; u < KCODE_N; u++)
        tc->code[u] = machine_code(m, kCodeNames[u]);
    if (tcore_is_v61(tc)) {
        core61_create(tc, cfg); /* its bases and its tick */
        for (int i = 0; i < tc->ncpus; i++)
            tc->base[i] = base61_at(tc, i, 0)->w->base;
    } else
        machine_set_tick(m, cfg->period_cycles, cfg->period_cycles, tick, tc);
    return tc;
}

void tcore_destroy(tcore_t *tc)
{
    if (!tc)
        return;
    core61_destroy(tc);
    free(tc->base);
    free(tc->stack);
    free(tc->in_softirq);
    free(tc->softirq_pending);
    free(tc->runs);
    free(tc->fns);
    free(tc);
}

void tcore_set_observer(tcore_t *tc, tcore_observer_t fn, void *ctx, unsigned events)
{
    tc->obs = fn;
    tc->obs_ctx = ctx;
    tc->obs_events = events;
}

void tcore_omit_barriers(tcore_t *tc, unsigned mask)
{
    tc->omit = mask;
}

int tcore_omits(const tcore_t *tc, unsigned barrier)
{
    return (tc->omit & barrier) != 0;
}

timer_design_t tcore_design(const tcore_t *tc)
{
    return tc->design;
}

machine_t *tcore_machine(tcore_t *tc)
{
    return tc->m;
}

maddr_t tcore_base(const tcore_t *tc, int cpu)
{
    return tc->base[cpu];
}

int tcore_base_cpu(const tcore_t *tc, maddr_t base)
{
    for (int i = 0; i < tc->ncpus; i++)
        if (tc->base[i] == base ||
            (tc->v61 && base61_at(tc, i, TIMER_F_DEFERRABLE)->w->base == base))
            return i;
    return -1;
}

maddr_t tcore_jiffies_addr(const tcore_t *tc)
{
    return tc->jiffies;
}

int tcore_register_fn(tcore_t *tc, timer_fn_t fn, void *ctx)
{
    tc->fns = xrealloc(tc->fns, sizeof *tc->fns * (size_t)(tc->nfns + 1));
    tc->fns[tc->nfns].fn = fn;
    tc->fns[tc->nfns].ctx = ctx;
    return tc->nfns++;
}

static maddr_t first_base_of_node(const tcore_t *tc, int node)
{
    const platform_t *p = machine_platform(tc->m);
    return tc->base[p->node_first_cpu[node]];
}

maddr_t timer_alloc(tcore_t *tc, int node, int fn_id, uint64_t data)
{
    return timer_alloc_flags(tc, node, fn_id, data, 0);
}

maddr_t timer_alloc_flags(tcore_t *tc, int node, int fn_id, uint64_t data, unsigned flags)
{
    if (tcore_is_v61(tc))
        return timer61_alloc(tc, node, fn_id, data, flags);
    maddr_t t = machine_alloc(tc->m, node, TIMER_SIZE);
    machine_poke(tc->m, t + TIMER_MAGIC, TIMER_MAGIC_VALUE);
    machine_poke(tc->m, t + TIMER_FUNCTION, (uint64_t)fn_id);
    machine_poke(tc->m, t + TIMER_DATA, data);
    /* 2.6.13's init_timer points base at the initialising CPU's base. */
    if (tc->design == TIMER_TRACKING)
        machine_poke(tc->m, t + TIMER_BASE, first_base_of_node(tc, node));
    return t;
}

maddr_t timer_alloc_on(cpu_t *c, tcore_t *tc, int node, int fn_id, uint64_t data)
{
    maddr_t t = machine_alloc(tc->m, node, tcore_is_v61(tc) ? W61_TIMER_SIZE : TIMER_SIZE);
    timer_setup_on(c, tc, t, fn_id, data);
    return t;
}

void timer_setup_on(cpu_t *c, tcore_t *tc, maddr_t t, int fn_id, uint64_t data)
{
    if (tcore_is_v61(tc)) {
        timer61_setup_on(c, t, fn_id, data);
        return;
    }
    cpu_write(c, t + TIMER_ENTRY_NEXT, 0);
    cpu_write(c, t + TIMER_LOCK, 0);
    cpu_write(c, t + TIMER_MAGIC, TIMER_MAGIC_VALUE);
    cpu_write(c, t + TIMER_FUNCTION, (uint64_t)fn_id);
    cpu_write(c, t + TIMER_DATA, data);
    cpu_write(c, t + TIMER_BASE, tc->design == TIMER_TRACKING ? tc->base[cpu_id(c)] : 0);
    cpu_write(c, t + TIMER_LAST_RUNNING, 0);
}

void timer_free(cpu_t *c, tcore_t *tc, maddr_t t)
{
    machine_release(tc->m, t, tcore_is_v61(tc) ? W61_TIMER_SIZE : TIMER_SIZE);
    tcore_emit(tc, TEV_FREED, c, t);
}

unsigned timer_data_offset(const tcore_t *tc)
{
    return tcore_is_v61(tc) ? W61_TIMER_DATA : TIMER_DATA;
}

void timer_set_data(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t v)
{
    cpu_write(c, t + timer_data_offset(tc), v);
}

int timer_is_pending_now(const tcore_t *tc, maddr_t t)
{
    if (tcore_is_v61(tc))
        return machine_peek(tc->m, t + W61_TIMER_PPREV) != 0;
    if (tc->design == TIMER_CLASSIC)
        return machine_peek(tc->m, t + TIMER_BASE) != 0;
    return machine_peek(tc->m, t + TIMER_ENTRY_NEXT) != 0;
}

uint64_t timer_expires_now(const tcore_t *tc, maddr_t t)
{
    return machine_peek(tc->m, t + (tcore_is_v61(tc) ? W61_TIMER_EXPIRES : TIMER_EXPIRES));
}

int timer_is_shutdown_now(const tcore_t *tc, maddr_t t)
{
    return tcore_is_v61(tc) && machine_peek(tc->m, t + W61_TIMER_FUNCTION) == 0;
}

int timer_cpu_now(const tcore_t *tc, maddr_t t)
{
    if (tcore_is_v61(tc))
        return (int)(machine_peek(tc->m, t + W61_TIMER_FLAGS) & W61_TIMER_CPUMASK);
    maddr_t b = machine_peek(tc->m, t + TIMER_BASE);
    return b ? tcore_base_cpu(tc, b) : -1;
}

uint64_t tcore_last_fire_clk(const tcore_t *tc, int cpu)
{
    return tc->v61 ? tc->v61->fire_clk[cpu] : tcore_jiffies_now(tc);
}

uint64_t tcore_jiffies_now(const tcore_t *tc)
{
    return machine_peek(tc->m, tc->jiffies);
}

uint64_t tcore_ticks_run(const tcore_t *tc, int cpu)
{
    return tc->runs[cpu];
}
