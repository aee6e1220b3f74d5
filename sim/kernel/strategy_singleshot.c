/* singleshot: del_singleshot_timer_sync. A timer taken off the queue before
 * it ran cannot be running, provided its function never re-arms it; if
 * del_timer finds nothing, fall back to the scan, and a timer found pending
 * again there was re-armed: BUG (an oops, recorded, not a crash). */
#include "strategy.h"

#include <stddef.h>

int del_singleshot_timer_sync(cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    tcore_exec(c, tc, KCODE_DTS_SINGLESHOT); /* its own body; what it calls fetches its own */
    int ret = del_timer(c, tc, t);
    if (!ret) {
        ret = del_timer_sync_scan(c, tc, t, NULL);
        if (ret && oops)
            *oops = 1; /* BUG_ON(ret) */
    }
    return ret;
}
