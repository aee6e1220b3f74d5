/* base_tracking: del_timer_sync as merged in 2.6.13. timer->base names the
 * base the timer is queued on or last ran on, and mod_timer keeps a running
 * timer on that base, so one locked look at that base's running_timer is
 * enough: O(1) and correct. As in 2.6.13, the loop retries at once, with no
 * cpu_relax (later kernels added one); no barrier either: the base lock
 * orders everything it reads. */
#include "strategy.h"

int del_timer_sync_base_tracking(cpu_t *c, tcore_t *tc, maddr_t t)
{
    for (;;) {
        int ret = try_to_del_timer_sync(c, tc, t);
        if (ret >= 0)
            return ret;
    }
}
