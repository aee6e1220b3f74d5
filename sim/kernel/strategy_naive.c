/* naive: the shortcut the 2004 article calls wrong. If del_timer took the
 * timer off a queue, return at once; but a self-re-arming function may be
 * running right now. A negative control for the oracle. */
#include "strategy.h"

int del_timer_sync_naive(cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    tcore_exec(c, tc, KCODE_DTS_NAIVE); /* its own body; what it calls fetches its own */
    if (del_timer(c, tc, t))
        return 1;
    return del_timer_sync_scan(c, tc, t, oops);
}
