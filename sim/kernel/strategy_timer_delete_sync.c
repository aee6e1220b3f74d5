/* timer_delete_sync: Linux 6.1's del_timer_sync (__timer_delete_sync without
 * PREEMPT_RT). Promise: on return the timer is not pending and its function
 * runs on no CPU. Why it holds: try_to_del_timer_sync locks the base that
 * timer->flags names (lock_timer_base waits out a migration) and detaches
 * only when that base's running_timer is not the timer; __mod_timer never
 * moves a timer off the base that runs it, so a running function is always
 * found there. While it runs, the caller retries with cpu_relax: a spin
 * whose cost is the function's remaining time in relax cycles. */
#include "strategy.h"

int timer_delete_sync(cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    tcore_exec(c, tc,
               KCODE_DTS_TIMER_DELETE_SYNC); /* its own body; what it calls fetches its own */
    (void)oops;                              /* no BUG_ON */
    return timer61_delete_sync(c, tc, t, 0);
}
