/* base_tracking: del_timer_sync as merged in 2.6.13. timer->base names the
 * base the timer is queued on or last ran on, and mod_timer keeps a running
 * timer on that base, so one locked look at that base's running_timer is
 * enough: O(1) and correct. No barrier: the base lock orders what it reads.
 *
 * 2.6.13's loop retries at once, with no cpu_relax (later kernels added
 * one). Here it keeps the cpu_relax, a documented deviation: without it the
 * caller retakes the base lock every few cycles, and with the unfair
 * test-and-set lock of this model the run loop's CPU, whose lock attempts
 * are remote misses, can lose every time, so the simulation never ends. */
#include "strategy.h"

int del_timer_sync_base_tracking(cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    tcore_exec(c, tc, KCODE_DTS_BASE_TRACKING); /* its own body; what it calls fetches its own */
    (void)oops;                                 /* no BUG_ON */
    for (;;) {
        int ret = try_to_del_timer_sync(c, tc, t);
        if (ret >= 0)
            return ret;
        cpu_relax(c);
    }
}
