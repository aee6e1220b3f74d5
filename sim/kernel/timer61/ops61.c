/* ops61: the 6.1 timer API on a 6.1 core: __mod_timer (mod_timer,
 * add_timer), __timer_delete (del_timer, timer_shutdown),
 * __try_to_del_timer_sync, __timer_delete_sync with PREEMPT_RT's
 * del_timer_wait_running, and get_nohz_timer_target. Theory of operation.
 *
 * __mod_timer: a pending timer re-armed at its own expiry returns at once;
 * a pending one whose new expiry falls in the bucket it is in only gets
 * the new expiry (calc_wheel_index on the forwarded base clock). Otherwise
 * the timer is detached (pprev kept), and moved to the target base: this
 * CPU's, or with timers_migration and not TIMER_PINNED the base of
 * get_nohz_timer_target's CPU; never while its function runs on the old
 * base, so that try_to_del_timer_sync finds it there. The move sets
 * TIMER_MIGRATING, drops the old lock, takes the new one and writes the
 * new CPU into the flags (lock_timer_base waits meanwhile). A timer whose
 * function is NULL (shut down) is left alone. As in Linux, the same-bucket
 * test does not look again whether the timer is still pending once the
 * base is locked: a timer that expired between the lockless look and the
 * lock, re-armed into the bucket of the same index, only gets its expiry
 * written and stays unqueued.
 *
 * get_nohz_timer_target: this CPU when it is not idle; else the first busy
 * CPU of its sched domains, innermost first: here two levels, the CPUs of
 * its node in id order, then every other CPU in id order (one domain for
 * the machine: the NUMA levels by distance are left out); CPUs already
 * looked at are not read again. No busy CPU: this CPU. idle_cpu() is one
 * paid read of the CPU's idle word (tcore_set_idle).
 *
 * __timer_delete_sync: try_to_del_timer_sync until the function is not
 * running, with cpu_relax between tries; on RT, del_timer_wait_running
 * first: unless the timer migrates or is IRQSAFE, count this waiter in the
 * base's timer_waiters, sleep on its expiry_lock (held by the run around
 * the function, see base61.c), drop it and try again. With shutdown, the
 * function becomes NULL under the base lock when the timer is not running
 * (the 6.1.y backport): later arms are ignored.
 *
 * Follows 6.1's kernel/time/timer.c: get_target_base 934-943, __mod_timer
 * 1012-1137 (mod_timer's and add_timer's options only: no
 * MOD_TIMER_REDUCE, no PENDING_ONLY), mod_timer 1188-1191, add_timer
 * 1240-1245, __timer_delete 1315-1343 (timer_delete 1359-1362,
 * timer_shutdown 1380-1383), __try_to_del_timer_sync 1406-1425
 * (try_to_del_timer_sync 1443-1446), del_timer_wait_running 1492-1513,
 * __timer_delete_sync 1544-1583 (timer_delete_sync 1627-1630,
 * timer_shutdown_sync 1669-1672); and kernel/sched/core.c's
 * get_nohz_timer_target 1078-1111 (every CPU a housekeeping CPU). Left
 * out: debug objects, lockdep, the WARN on a hard-irq caller.
 */
#include "core61.h"

#include <limits.h>

static uint64_t jiffies(cpu_t *c, tcore_t *tc)
{
    return cpu_read(c, tc->jiffies);
}

static int idle_cpu(cpu_t *c, const core61_t *v, int cpu)
{
    return cpu_read(c, v->idle[cpu]) != 0;
}

static int nohz_timer_target(cpu_t *c, tcore_t *tc)
{
    const core61_t *v = tc->v61;
    const platform_t *p = machine_platform(tc->m);
    int self = cpu_id(c), node = p->cpu_node[self];
    if (!idle_cpu(c, v, self))
        return self;
    for (int pass = 0; pass < 2; pass++) /* the node, then the machine */
        for (int i = 0; i < tc->ncpus; i++)
            if (i != self && (p->cpu_node[i] == node) == (pass == 0) && !idle_cpu(c, v, i))
                return i;
    return self;
}

void tcore_set_idle(cpu_t *c, tcore_t *tc, int idle)
{
    if (tcore_is_v61(tc))
        cpu_write(c, tc->v61->idle[cpu_id(c)], idle != 0);
}

static base61_t *target_base(cpu_t *c, tcore_t *tc, uint64_t tf)
{
    int cpu = tc->v61->migration && !(tf & W61_TIMER_PINNED) ? nohz_timer_target(c, tc) : cpu_id(c);
    return base61_at(tc, cpu, tf);
}

static void forward(cpu_t *c, tcore_t *tc, base61_t *b)
{
    wheel61_forward(c, b->w, jiffies(c, tc));
}

int mod61(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires, int notpending, int *queued)
{
    cpu_exec(c, tc->code[KCODE_MOD_TIMER61]);
    int depth = tc->v61->depth, ret = 0;
    uint64_t clk = 0, bucket_expiry = 0;
    unsigned idx = UINT_MAX;
    base61_t *b;
    *queued = 0;
    if (!notpending && wheel61_timer_pending(c, t)) {
        if (cpu_read(c, t + W61_TIMER_EXPIRES) == expires)
            return 1;
        b = base61_lock_timer(c, tc, t);
        if (!cpu_read(c, t + W61_TIMER_FUNCTION))
            goto out_unlock; /* shut down meanwhile */
        forward(c, tc, b);
        clk = cpu_read(c, b->w->base + W61_BASE_CLK);
        idx = wheel61_calc_index(depth, expires, clk, &bucket_expiry);
        uint64_t tf = cpu_read(c, t + W61_TIMER_FLAGS);
        if (idx == (unsigned)((tf & W61_TIMER_ARRAYMASK) >> W61_TIMER_ARRAYSHIFT)) {
            /* the same bucket: only the expiry changes (not re-checked
             * under the lock, as in Linux: see the top of this file) */
            cpu_write(c, t + W61_TIMER_EXPIRES, expires);
            *queued = 1;
            ret = 1;
            goto out_unlock;
        }
    } else {
        b = base61_lock_timer(c, tc, t);
        if (!cpu_read(c, t + W61_TIMER_FUNCTION))
            goto out_unlock;
        forward(c, tc, b);
    }

    ret = wheel61_detach_if_pending(c, b->w, t, 0);
    uint64_t tf = cpu_read(c, t + W61_TIMER_FLAGS);
    base61_t *nb = target_base(c, tc, tf);
    /* Not while its function runs here: delete_sync looks for it here. */
    if (nb != b && cpu_read(c, b->w->base + W61_BASE_RUNNING_TIMER) != t) {
        cpu_write(c, t + W61_TIMER_FLAGS, tf | W61_TIMER_MIGRATING);
        klock_unlock(c, b->lock); /* interrupts stay off */
        b = nb;
        klock_lock(c, b->lock);
        uint64_t cpu = cpu_read(c, b->w->base + W61_BASE_CPU);
        cpu_write(c, t + W61_TIMER_FLAGS, (tf & ~W61_TIMER_BASEMASK) | cpu);
        forward(c, tc, b);
    }
    cpu_write(c, t + W61_TIMER_EXPIRES, expires);
    /* the index computed above holds while the base clock has not moved */
    uint64_t now_clk = cpu_read(c, b->w->base + W61_BASE_CLK);
    if (idx == UINT_MAX || clk != now_clk)
        idx = wheel61_calc_index(depth, expires, now_clk, &bucket_expiry);
    wheel61_enqueue(c, b->w, t, idx, bucket_expiry);
    *queued = 1;
out_unlock:
    base61_unlock(c, b);
    return ret;
}

/* add_timer_on (timer.c 1280-1310): the timer moves to cpu's base with
 * its old base locked and TIMER_MIGRATING set, as __mod_timer's switch
 * does; Linux's BUG_ON(pending) is the caller's (timer_ops.c). */
void add_on61(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires, int cpu, int *queued)
{
    cpu_exec(c, tc->code[KCODE_MOD_TIMER61]);
    *queued = 0;
    uint64_t tf = cpu_read(c, t + W61_TIMER_FLAGS);
    base61_t *nb = base61_at(tc, cpu, tf), *b = base61_lock_timer(c, tc, t);
    if (!cpu_read(c, t + W61_TIMER_FUNCTION))
        goto out_unlock; /* shut down */
    if (b != nb) {
        cpu_write(c, t + W61_TIMER_FLAGS, tf | W61_TIMER_MIGRATING);
        klock_unlock(c, b->lock); /* interrupts stay off */
        b = nb;
        klock_lock(c, b->lock);
        cpu_write(c, t + W61_TIMER_FLAGS, (tf & ~W61_TIMER_BASEMASK) | (uint64_t)cpu);
    }
    forward(c, tc, b);
    cpu_write(c, t + W61_TIMER_EXPIRES, expires);
    uint64_t bucket_expiry;
    uint64_t clk = cpu_read(c, b->w->base + W61_BASE_CLK);
    unsigned idx = wheel61_calc_index(tc->v61->depth, expires, clk, &bucket_expiry);
    wheel61_enqueue(c, b->w, t, idx, bucket_expiry);
    *queued = 1;
out_unlock:
    base61_unlock(c, b);
}

int del61(cpu_t *c, tcore_t *tc, maddr_t t, int shutdown)
{
    cpu_exec(c, tc->code[KCODE_DEL_TIMER61]);
    int ret = 0;
    /* shutdown locks even a timer that is not pending: a concurrent arm
     * must not slip between the look and the lock */
    if (wheel61_timer_pending(c, t) || shutdown) {
        base61_t *b = base61_lock_timer(c, tc, t);
        ret = wheel61_detach_if_pending(c, b->w, t, 1);
        if (shutdown)
            cpu_write(c, t + W61_TIMER_FUNCTION, 0);
        base61_unlock(c, b);
    }
    return ret;
}

int try_del61(cpu_t *c, tcore_t *tc, maddr_t t, int shutdown)
{
    cpu_exec(c, tc->code[KCODE_TRY_TO_DEL_TIMER_SYNC61]);
    int ret = -1;
    base61_t *b = base61_lock_timer(c, tc, t);
    if (cpu_read(c, b->w->base + W61_BASE_RUNNING_TIMER) != t) {
        ret = wheel61_detach_if_pending(c, b->w, t, 1);
        if (shutdown)
            cpu_write(c, t + W61_TIMER_FUNCTION, 0);
    }
    base61_unlock(c, b);
    return ret;
}

/* del_timer_wait_running (RT): sleep until the run lets go of expiry_lock. */
static void wait_running(cpu_t *c, tcore_t *tc, maddr_t t)
{
    uint64_t tf = cpu_read(c, t + W61_TIMER_FLAGS);
    if (tf & (W61_TIMER_MIGRATING | W61_TIMER_IRQSAFE))
        return;
    base61_t *b = base61_at(tc, (int)(tf & W61_TIMER_CPUMASK), tf);
    cpu_fetch_add(c, b->waiters, 1);
    base61_rt_lock(c, tc->v61, b->expiry);
    cpu_fetch_add(c, b->waiters, (uint64_t)-1);
    klock_unlock(c, b->expiry);
}

int timer61_delete_sync(cpu_t *c, tcore_t *tc, maddr_t t, int shutdown)
{
    if (!tcore_is_v61(tc))
        return 0;
    int ret;
    do {
        ret = try_del61(c, tc, t, shutdown);
        if (ret < 0) {
            if (tc->v61->rt)
                wait_running(c, tc, t);
            cpu_relax(c);
        }
    } while (ret < 0);
    if (ret)
        tcore_emit(tc, TEV_DEQUEUED, c, t);
    return ret;
}

int timer61_shutdown(cpu_t *c, tcore_t *tc, maddr_t t)
{
    if (!tcore_is_v61(tc))
        return 0;
    int ret = del61(c, tc, t, 1);
    if (ret)
        tcore_emit(tc, TEV_DEQUEUED, c, t);
    return ret;
}
