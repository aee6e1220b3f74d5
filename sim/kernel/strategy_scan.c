/* scan: del_timer_sync as in 2.6.6. Cost grows with the number of CPUs: each
 * probe reads another CPU's base line, which its owner writes at every tick
 * and at every timer operation, so on NUMA most probes are remote misses. */
#include "strategy.h"

int del_timer_sync_scan(cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    tcore_exec(c, tc, KCODE_DTS_SCAN); /* its own body; what it calls fetches its own */
    (void)oops;                        /* no BUG_ON */
    int ret = 0;
    int n = machine_ncpus(tcore_machine(tc));
    cpu_read_branch(c, t + TIMER_MAGIC); /* check_timer */
    for (;;) {
        ret += del_timer(c, tc, t);
        for (int i = 0; i < n; i++) {
            maddr_t rt = tcore_base(tc, i) + BASE_RUNNING_TIMER;
            cpu_state_probe(c, i); /* for the trace only */
            /* the bases' addresses are known: the probes are independent
             * loads, and out of order the loop runs ahead of their misses */
            uint64_t running = cpu_read_branch(c, rt);
            cpu_state_pop(c);
            if (running == t) {
                cpu_spin_while_eq(c, rt, t); /* cpu_relax, reschedule check */
                break;
            }
        }
        if (!tcore_omits(tc, TBAR_SCAN_RMB))
            cpu_rmb(c);
        if (!timer_pending(c, tc, t))
            return ret;
    }
}
