/* timer_shutdown_sync: 6.1.y's timer_shutdown_sync (__timer_delete_sync with
 * shutdown). Promise: timer_delete_sync's, and the timer stays unarmed:
 * the try that finds the function not running also sets timer->function
 * to NULL under the base lock, and __mod_timer checks it under the same
 * lock, so neither a re-arming function nor another CPU can queue it again
 * (their mod_timer and add_timer do nothing). */
#include "strategy.h"

int timer_shutdown_sync(cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    tcore_exec(c, tc, KCODE_DTS_TIMER_SHUTDOWN_SYNC); /* its own body */
    (void)oops;                                       /* no BUG_ON */
    return timer61_delete_sync(c, tc, t, 1);
}
