/* last_running: Gustafson's May 2004 patch. The run loop stores the base in
 * timer->last_running (never cleared) right after timer->base = NULL; the
 * caller waits on that one base only. Known faults: an older overlapping run
 * on another CPU is not waited for, and on a timer's first run a caller can
 * read base == NULL and last_running == NULL between the two stores. */
#include "strategy.h"

int del_timer_sync_last_running(cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    tcore_exec(c, tc, KCODE_DTS_LAST_RUNNING); /* its own body; what it calls fetches its own */
    (void)oops;                                /* no BUG_ON */
    int ret = 0;
    cpu_read_branch(c, t + TIMER_MAGIC); /* check_timer */
    for (;;) {
        ret += del_timer(c, tc, t);
        maddr_t b = cpu_read(c, t + TIMER_LAST_RUNNING);
        if (b)
            cpu_spin_while_eq(c, b + BASE_RUNNING_TIMER, t);
        if (!tcore_omits(tc, TBAR_SCAN_RMB))
            cpu_rmb(c);
        if (!timer_pending(c, tc, t) && cpu_read(c, t + TIMER_LAST_RUNNING) == b)
            return ret;
    }
}
