/* timer_ops: the kernel API on timers (add/mod/del_timer, timer_pending,
 * try_to_del_timer_sync) for both designs.
 *
 * Classic (2.6.6): a timer is pending iff timer->base != NULL; mod_timer
 * serialises on the timer's own lock and moves the timer to the calling
 * CPU's base. Tracking (2.6.13): timer->base always names a base; pending
 * iff entry.next != NULL; lock_timer_base() finds and locks the base.
 * The 6.1 designs go to timer61/ops61.c before any 2.6 code unit is run.
 */
#include "timer61/core61.h"
#include "timer_internal.h"
#include "timer_list.h"
#include "timer_wheel.h"

#include "spinlock.h"

static int is_pending(cpu_t *c, tcore_t *tc, maddr_t t)
{
    if (tcore_is_v61(tc))
        return wheel61_timer_pending(c, t);
    if (tc->design == TIMER_CLASSIC)
        return cpu_read_branch(c, t + TIMER_BASE) != 0;
    return cpu_read_branch(c, t + TIMER_ENTRY_NEXT) != 0;
}

int timer_pending(cpu_t *c, tcore_t *tc, maddr_t t)
{
    return is_pending(c, tc, t);
}

uint64_t read_jiffies(cpu_t *c, tcore_t *tc)
{
    return cpu_read(c, tc->jiffies);
}

static void check_timer(cpu_t *c, tcore_t *tc, maddr_t t)
{
    if (cpu_read_branch(c, t + TIMER_MAGIC) != TIMER_MAGIC_VALUE)
        tcore_emit(tc, TEV_BUG, c, t);
}

/* --- classic (2.6.6) --- */

static void unlink_classic(cpu_t *c, maddr_t t)
{
    tlist_unlink(c, t);
    cpu_write(c, t, LIST_POISON1);
    cpu_write(c, t + 8, LIST_POISON2);
}

static int mod_classic(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires)
{
    maddr_t nb = tc->base[cpu_id(c)], ob;
    int ret = 0;
    /* Locking: the timer's own lock first, then the base lock(s), the one at
     * the higher address first; interrupts off throughout. */
    cpu_irq_disable(c);
    spin_lock(c, t + TIMER_LOCK);
    for (;;) {
        ob = cpu_read(c, t + TIMER_BASE);
        if (ob && ob != nb) {
            spin_lock(c, (ob > nb ? ob : nb) + BASE_LOCK);
            spin_lock(c, (ob > nb ? nb : ob) + BASE_LOCK);
            if (cpu_read(c, t + TIMER_BASE) == ob)
                break;
            spin_unlock(c, nb + BASE_LOCK);
            spin_unlock(c, ob + BASE_LOCK);
        } else {
            spin_lock(c, nb + BASE_LOCK);
            if (cpu_read(c, t + TIMER_BASE) == ob)
                break;
            spin_unlock(c, nb + BASE_LOCK);
        }
    }
    if (ob) {
        unlink_classic(c, t);
        ret = 1;
    }
    cpu_write(c, t + TIMER_EXPIRES, expires);
    wheel_add(c, tc, nb, t);
    cpu_write(c, t + TIMER_BASE, nb);
    if (ob && ob != nb)
        spin_unlock(c, ob + BASE_LOCK);
    spin_unlock(c, nb + BASE_LOCK);
    spin_unlock(c, t + TIMER_LOCK);
    cpu_irq_enable(c);
    return ret;
}

static int del_classic(cpu_t *c, tcore_t *tc, maddr_t t)
{
    check_timer(c, tc, t);
    for (;;) {
        maddr_t b = cpu_read(c, t + TIMER_BASE);
        if (!b)
            return 0;
        /* Locking: the base the timer seems to be on; recheck under it. */
        tlock_irq(c, b + BASE_LOCK);
        if (cpu_read(c, t + TIMER_BASE) == b) {
            unlink_classic(c, t);
            if (!(tc->omit & TBAR_DEL_WMB))
                cpu_wmb(c); /* the unlink is visible before base goes NULL */
            cpu_write(c, t + TIMER_BASE, 0);
            tunlock_irq(c, b + BASE_LOCK);
            return 1;
        }
        tunlock_irq(c, b + BASE_LOCK);
    }
}

/* --- tracking (2.6.13) --- */

/* Returns the base t is on, locked with interrupts off. */
static maddr_t lock_timer_base(cpu_t *c, maddr_t t)
{
    for (;;) {
        maddr_t b = cpu_read(c, t + TIMER_BASE);
        if (b) {
            /* Locking: lock the base t names, keep it only if t still names it. */
            tlock_irq(c, b + BASE_LOCK);
            if (cpu_read(c, t + TIMER_BASE) == b)
                return b;
            tunlock_irq(c, b + BASE_LOCK);
        }
        cpu_relax(c); /* t is between two bases (base == NULL) */
    }
}

static int mod_tracking(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires)
{
    int ret = 0;
    maddr_t b = lock_timer_base(c, t);
    if (cpu_read(c, t + TIMER_ENTRY_NEXT) != 0) {
        detach_tracking(c, t, 0);
        ret = 1;
    }
    maddr_t nb = tc->base[cpu_id(c)];
    /* Stay on the old base while its CPU runs this timer, so that
     * try_to_del_timer_sync finds the running function where base says. */
    if (b != nb && cpu_read(c, b + BASE_RUNNING_TIMER) != t) {
        cpu_write(c, t + TIMER_BASE, 0);
        spin_unlock(c, b + BASE_LOCK);
        b = nb;
        spin_lock(c, b + BASE_LOCK);
        cpu_write(c, t + TIMER_BASE, b);
    }
    cpu_write(c, t + TIMER_EXPIRES, expires);
    wheel_add(c, tc, b, t);
    tunlock_irq(c, b + BASE_LOCK);
    return ret;
}

static int del_tracking(cpu_t *c, tcore_t *tc, maddr_t t)
{
    (void)tc;
    int ret = 0;
    if (cpu_read(c, t + TIMER_ENTRY_NEXT) == 0)
        return 0;
    maddr_t b = lock_timer_base(c, t);
    if (cpu_read(c, t + TIMER_ENTRY_NEXT) != 0) {
        detach_tracking(c, t, 1);
        ret = 1;
    }
    tunlock_irq(c, b + BASE_LOCK);
    return ret;
}

int try_to_del_timer_sync(cpu_t *c, tcore_t *tc, maddr_t t)
{
    if (tcore_is_v61(tc))
        return try_del61(c, tc, t, 0);
    tcore_exec(c, tc, KCODE_TRY_TO_DEL_TIMER_SYNC);
    int ret = -1;
    maddr_t b = lock_timer_base(c, t);
    if (cpu_read(c, b + BASE_RUNNING_TIMER) != t) {
        ret = 0;
        if (cpu_read(c, t + TIMER_ENTRY_NEXT) != 0) {
            detach_tracking(c, t, 1);
            ret = 1;
        }
    }
    tunlock_irq(c, b + BASE_LOCK);
    return ret;
}

/* --- the API --- */

int mod_timer(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires)
{
    if (tcore_is_v61(tc)) {
        int queued, ret = mod61(c, tc, t, expires, 0, &queued);
        if (queued)
            tcore_emit(tc, TEV_QUEUED, c, t);
        return ret;
    }
    tcore_exec(c, tc, KCODE_MOD_TIMER);
    if (tc->design == TIMER_CLASSIC)
        check_timer(c, tc, t);
    /* Fast path: already pending with the same expiry. */
    if (cpu_read(c, t + TIMER_EXPIRES) == expires && is_pending(c, tc, t))
        return 1;
    int ret = tc->design == TIMER_CLASSIC ? mod_classic(c, tc, t, expires)
                                          : mod_tracking(c, tc, t, expires);
    tcore_emit(tc, TEV_QUEUED, c, t);
    return ret;
}

/* add_timer is __mod_timer(t, t->expires): BUG_ON(pending), then the full
 * path, without mod_timer's same-expiry fast path. 6.1 warns and returns
 * (WARN_ON_ONCE), reported as TEV_BUG too. */
void add_timer(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires)
{
    if (tcore_is_v61(tc)) {
        int queued;
        if (wheel61_timer_pending(c, t)) {
            tcore_emit(tc, TEV_BUG, c, t);
            return;
        }
        mod61(c, tc, t, expires, 1, &queued);
        if (queued)
            tcore_emit(tc, TEV_QUEUED, c, t);
        return;
    }
    tcore_exec(c, tc, KCODE_MOD_TIMER);
    if (is_pending(c, tc, t))
        tcore_emit(tc, TEV_BUG, c, t); /* BUG_ON(timer_pending) */
    if (tc->design == TIMER_CLASSIC) {
        check_timer(c, tc, t);
        mod_classic(c, tc, t, expires);
    } else {
        mod_tracking(c, tc, t, expires);
    }
    tcore_emit(tc, TEV_QUEUED, c, t);
}

/* add_timer_on: BUG_ON(pending), then t onto cpu's base. 2.6.6 takes the
 * timer's lock and the new base's; 2.6.13 the new base's only (the timer
 * is not pending, so no other base holds it); 6.1 moves it from the base
 * its flags name (ops61.c). Code: mod_timer's unit, whose
 * internal_add_timer it shares. */
void add_timer_on(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires, int cpu)
{
    int queued = 1;
    if (tcore_is_v61(tc) ? wheel61_timer_pending(c, t) : is_pending(c, tc, t)) {
        tcore_emit(tc, TEV_BUG, c, t);
        return;
    }
    if (tcore_is_v61(tc))
        add_on61(c, tc, t, expires, cpu, &queued);
    else {
        maddr_t nb = tc->base[cpu];
        tcore_exec(c, tc, KCODE_MOD_TIMER);
        if (tc->design == TIMER_CLASSIC) {
            check_timer(c, tc, t);
            cpu_irq_disable(c);
            spin_lock(c, t + TIMER_LOCK);
            spin_lock(c, nb + BASE_LOCK);
        } else
            tlock_irq(c, nb + BASE_LOCK);
        cpu_write(c, t + TIMER_EXPIRES, expires);
        wheel_add(c, tc, nb, t);
        cpu_write(c, t + TIMER_BASE, nb);
        if (tc->design == TIMER_CLASSIC) {
            spin_unlock(c, nb + BASE_LOCK);
            spin_unlock(c, t + TIMER_LOCK);
            cpu_irq_enable(c);
        } else
            tunlock_irq(c, nb + BASE_LOCK);
    }
    if (queued)
        tcore_emit(tc, TEV_QUEUED, c, t);
}

int del_timer(cpu_t *c, tcore_t *tc, maddr_t t)
{
    int ret;
    if (tcore_is_v61(tc))
        ret = del61(c, tc, t, 0);
    else {
        tcore_exec(c, tc, KCODE_DEL_TIMER);
        ret = tc->design == TIMER_CLASSIC ? del_classic(c, tc, t) : del_tracking(c, tc, t);
    }
    if (ret)
        tcore_emit(tc, TEV_DEQUEUED, c, t);
    return ret;
}
