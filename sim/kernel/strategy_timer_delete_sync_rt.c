/* timer_delete_sync_rt: 6.1's del_timer_sync under PREEMPT_RT. Promise: as
 * timer_delete_sync's, by the same locked look at the base timer->flags
 * names. What changes is the wait: when the function runs, the caller
 * counts itself in the base's timer_waiters and sleeps on its expiry_lock,
 * which the run holds around the whole expiry and drops between two
 * functions when someone waits; it then tries again. The promise does not
 * rest on the lock (the retry decides), only the cost: no relax cycles,
 * a wake-up latency instead (timer61/base61.c). */
#include "strategy.h"

int timer_delete_sync_rt(cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    tcore_exec(c, tc, KCODE_DTS_TIMER_DELETE_SYNC_RT); /* its own body */
    (void)oops;                                        /* no BUG_ON */
    return timer61_delete_sync(c, tc, t, 0);
}
