/* shortcut: the test floated in the May 2004 thread on Gustafson's patch,
 * "ret = del_timer(t); if (!ret) return 0;", then the scan when del_timer
 * did dequeue the timer. It is backwards: a del_timer that finds nothing may
 * mean the function is running right now, and that is exactly when it
 * returns without waiting. So it fails even for single-shot timers, which
 * singleshot and naive handle. A second negative control for the oracle. */
#include "strategy.h"

int del_timer_sync_shortcut(cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    tcore_exec(c, tc, KCODE_DTS_SHORTCUT); /* its own body; what it calls fetches its own */
    if (!del_timer(c, tc, t))
        return 0;
    return del_timer_sync_scan(c, tc, t, oops);
}
