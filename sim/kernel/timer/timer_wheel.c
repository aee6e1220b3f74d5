/* timer_wheel: the cascading timer wheel and the run loop. Theory of operation.
 *
 * A base holds five vectors of FIFO lists. A timer due `idx` jiffies after
 * the base's timer_jiffies goes to:
 *
 *   idx < 2^8            tv1[expires & 255]
 *   idx < 2^14           tv2[(expires >> 8) & 63]
 *   idx < 2^20           tv3[(expires >> 14) & 63]
 *   idx < 2^26           tv4[(expires >> 20) & 63]
 *   idx < 0 (overdue)    tv1[timer_jiffies & 255]
 *   otherwise            tv5[(expires >> 26) & 63], idx clamped to 2^32 - 1
 *
 * Each jiffy the run loop takes tv1[timer_jiffies & 255]; when that index is
 * 0 it first cascades the next slot of tv2 down (and tv3 when tv2 wrapped,
 * and so on), re-inserting each of its timers by the rule above.
 *
 * Every read and write below is an access to simulated memory, paid through
 * the coherence model: the list heads live in the base, the links in timers.
 */
#include "timer_wheel.h"

#include "timer_list.h"

static maddr_t tv_head(maddr_t base, int level, uint64_t slot)
{
    if (level == 1)
        return base + BASE_TV1 + slot * 16;
    return base + BASE_TV2 + (uint64_t)(level - 2) * TVN_SIZE * 16 + slot * 16;
}

void wheel_add(cpu_t *c, tcore_t *tc, maddr_t base, maddr_t t)
{
    (void)tc;
    uint64_t expires = cpu_read(c, t + TIMER_EXPIRES);
    uint64_t tj = cpu_read(c, base + BASE_TIMER_JIFFIES);
    uint64_t idx = expires - tj;
    maddr_t vec;
    if (idx < TVR_SIZE) {
        vec = tv_head(base, 1, expires & TVR_MASK);
    } else if (idx < 1ull << (TVR_BITS + TVN_BITS)) {
        vec = tv_head(base, 2, (expires >> TVR_BITS) & TVN_MASK);
    } else if (idx < 1ull << (TVR_BITS + 2 * TVN_BITS)) {
        vec = tv_head(base, 3, (expires >> (TVR_BITS + TVN_BITS)) & TVN_MASK);
    } else if (idx < 1ull << (TVR_BITS + 3 * TVN_BITS)) {
        vec = tv_head(base, 4, (expires >> (TVR_BITS + 2 * TVN_BITS)) & TVN_MASK);
    } else if ((int64_t)idx < 0) {
        vec = tv_head(base, 1, tj & TVR_MASK); /* overdue: run at the next jiffy */
    } else {
        if (idx > 0xffffffffull) {
            idx = 0xffffffffull;
            expires = idx + tj;
        }
        vec = tv_head(base, 5, (expires >> (TVR_BITS + 3 * TVN_BITS)) & TVN_MASK);
    }
    tlist_add_tail(c, t, vec);
}

/* Re-inserts every timer of one slot of level `level`; returns the index,
 * so that the caller goes on to the next level only when it is 0. */
static uint64_t cascade(cpu_t *c, tcore_t *tc, maddr_t base, int level, uint64_t index)
{
    maddr_t head = tv_head(base, level, index);
    maddr_t cur = cpu_read(c, head);
    while (cur != head) {
        maddr_t next = cpu_read(c, cur); /* before re-linking cur */
        if (cpu_read(c, cur + TIMER_BASE) != base)
            tcore_emit(tc, TEV_BUG, c, cur); /* a timer of another base */
        wheel_add(c, tc, base, cur);
        cur = next;
    }
    cpu_write(c, head, head);
    cpu_write(c, head + 8, head);
    return index;
}

/* Moves the whole list at head onto the (empty) list at work. */
static void splice_init(cpu_t *c, maddr_t head, maddr_t work)
{
    maddr_t first = cpu_read(c, head);
    if (first == head) {
        cpu_write(c, work, work);
        cpu_write(c, work + 8, work);
        return;
    }
    maddr_t last = cpu_read(c, head + 8);
    cpu_write(c, first + 8, work);
    cpu_write(c, work, first);
    cpu_write(c, last, work);
    cpu_write(c, work + 8, last);
    cpu_write(c, head, head);
    cpu_write(c, head + 8, head);
}

static int time_after_eq(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b) >= 0;
}

/* Runs the expired timers of base, which belongs to c.
 * Locking: takes base->lock with interrupts off; drops both around each
 * timer function, which may take any lock (and re-arm its own timer). */
void wheel_run(cpu_t *c, tcore_t *tc, maddr_t base)
{
    maddr_t work = tc->stack[cpu_id(c)]; /* work_list lives on the stack */
    tlock_irq(c, base + BASE_LOCK);
    for (;;) {
        uint64_t tj = cpu_read(c, base + BASE_TIMER_JIFFIES);
        if (!time_after_eq(cpu_read(c, tc->jiffies), tj))
            break;
        uint64_t index = tj & TVR_MASK;
        if (!index && !cascade(c, tc, base, 2, (tj >> TVR_BITS) & TVN_MASK) &&
            !cascade(c, tc, base, 3, (tj >> (TVR_BITS + TVN_BITS)) & TVN_MASK) &&
            !cascade(c, tc, base, 4, (tj >> (TVR_BITS + 2 * TVN_BITS)) & TVN_MASK))
            cascade(c, tc, base, 5, (tj >> (TVR_BITS + 3 * TVN_BITS)) & TVN_MASK);
        cpu_write(c, base + BASE_TIMER_JIFFIES, tj + 1);
        splice_init(c, tv_head(base, 1, index), work);
        for (;;) {
            maddr_t t = cpu_read(c, work);
            if (t == work)
                break;
            uint64_t fn = cpu_read(c, t + TIMER_FUNCTION);
            uint64_t data = cpu_read(c, t + TIMER_DATA);
            /* From here the function will run: the oracle counts it running. */
            tcore_emit(tc, TEV_FN_START, c, t);
            if (tc->design == TIMER_CLASSIC) {
                tlist_unlink(c, t);
                cpu_write(c, t, LIST_POISON1);
                cpu_write(c, t + 8, LIST_POISON2);
                cpu_write(c, base + BASE_RUNNING_TIMER, t);
                if (!(tc->omit & TBAR_RUN_WMB))
                    cpu_wmb(c); /* running_timer is visible before base goes NULL */
                cpu_write(c, t + TIMER_BASE, 0);
                if (tc->last_running)
                    cpu_write(c, t + TIMER_LAST_RUNNING, base);
            } else {
                cpu_write(c, base + BASE_RUNNING_TIMER, t);
                detach_tracking(c, t, 1);
            }
            tunlock_irq(c, base + BASE_LOCK);
            tcore_call_fn(c, tc, t, fn, data);
            tlock_irq(c, base + BASE_LOCK);
        }
    }
    cpu_write(c, base + BASE_RUNNING_TIMER, 0);
    tunlock_irq(c, base + BASE_LOCK);
}
