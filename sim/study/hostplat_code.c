/* hostplat_code: the code sizes of this host's platform file. Theory of
 * operation.
 *
 * The units of the platform contract are mapped to numasim's own functions
 * (kCodeUnits) and their sizes read from this very binary (/proc/self/exe)
 * with libelf (host_topo_symbol_sizes); the comment of each value lists the
 * functions found and those absent (inlined by the compiler).
 */
#include "hostplat_internal.h"

#include <string.h>

/* Each code unit of the platform contract and the numasim functions that
 * implement it, on the 2.6.6 (classic) path, 2.6.13 for the tracking units.
 * A unit counts the helpers its call runs (locks, list operations: the
 * kernel inlines them) but not another unit it calls (a strategy's del_timer
 * is fetched as del_timer, the tick's run_timers as run_timers), nor the
 * machine API (cpu_*) and the oracle's hooks, which are the model, not the
 * kernel. "file.c:fn" names a static function.
 *
 * The 6.1 units (the "61" ones, then the 6.1 strategies) are timer61/'s
 * functions. What numasim picks at run time and Linux at build time is left
 * out: timer_ops.c's mod_timer and del_timer (which core) and lock.c's
 * klock_* (which lock kind). The bases' lock is counted as the queued
 * spinlock (x86's and arm64's, as modern-table runs it) without its slow
 * path (qspin_queue, Linux's queued_spin_lock_slowpath: contention only).
 * The RT strategy's wait (wait_running, inlined into timer61_delete_sync)
 * counts the sleeping lock it takes. */
#define MAX_UNIT_FNS 20
static const struct {
    const char *unit;
    const char *fns[MAX_UNIT_FNS];
} kCodeUnits[] = {
    {"tick", {"timer_core.c:tick", "native.c:on_tick", "native.c:take_tick"}},
    {"run_timers",
     {"wheel_run", "timer_wheel.c:cascade", "timer_wheel.c:splice_init", "timer_wheel.c:tv_head",
      "timer_wheel.c:time_after_eq", "wheel_add", "tlist_add_tail", "tlist_unlink", "tlock_irq",
      "tunlock_irq", "spin_lock", "spin_unlock"}},
    {"mod_timer",
     {"mod_timer", "timer_ops.c:mod_classic", "timer_ops.c:is_pending", "timer_ops.c:check_timer",
      "timer_ops.c:unlink_classic", "tlist_unlink", "wheel_add", "timer_wheel.c:tv_head",
      "tlist_add_tail", "spin_lock", "spin_unlock"}},
    {"del_timer",
     {"del_timer", "timer_ops.c:del_classic", "timer_ops.c:check_timer",
      "timer_ops.c:unlink_classic", "tlist_unlink", "tlock_irq", "tunlock_irq", "spin_lock",
      "spin_unlock"}},
    {"try_to_del_timer_sync",
     {"try_to_del_timer_sync", "timer_ops.c:lock_timer_base", "detach_tracking", "tlist_unlink",
      "tlock_irq", "tunlock_irq", "spin_lock", "spin_unlock"}},
    {"del_timer_sync_scan",
     {"del_timer_sync_scan", "timer_pending", "timer_ops.c:is_pending", "tcore_base",
      "tcore_machine"}},
    {"del_timer_sync_last_running",
     {"del_timer_sync_last_running", "timer_pending", "timer_ops.c:is_pending"}},
    {"del_singleshot_timer_sync", {"del_singleshot_timer_sync"}},
    {"del_timer_sync_naive", {"del_timer_sync_naive"}},
    {"del_timer_sync_shortcut", {"del_timer_sync_shortcut"}},
    {"del_timer_sync_base_tracking", {"del_timer_sync_base_tracking"}},
    {"tick61",
     {"base61.c:tick61", "base61.c:due", "base61_at", "native.c:on_tick", "native.c:take_tick"}},
    {"run_timers61",
     {"base61.c:run_timers", "wheel61_run_hooks", "wheel61.c:collect_expired_timers",
      "wheel61.c:expire_timers", "wheel61.c:next_timer_interrupt", "wheel61.c:next_pending_bucket",
      "wheel61.c:detach_timer", "base61.c:call_fn", "base61.c:sync_wait_running", "base61_unlock",
      "qspin_lock", "qspin_unlock"}},
    {"mod_timer61",
     {"mod61", "wheel61_timer_pending", "base61_lock_timer", "base61_at", "ops61.c:forward",
      "wheel61_forward", "wheel61_calc_index", "wheel61_detach_if_pending",
      "wheel61.c:detach_timer", "ops61.c:target_base", "ops61.c:nohz_timer_target",
      "ops61.c:idle_cpu", "wheel61_enqueue", "base61_unlock", "qspin_lock", "qspin_unlock"}},
    {"del_timer61",
     {"del61", "wheel61_timer_pending", "base61_lock_timer", "base61_at",
      "wheel61_detach_if_pending", "wheel61.c:detach_timer", "base61_unlock", "qspin_lock",
      "qspin_unlock"}},
    {"try_to_del_timer_sync61",
     {"try_del61", "base61_lock_timer", "base61_at", "wheel61_detach_if_pending",
      "wheel61.c:detach_timer", "base61_unlock", "qspin_lock", "qspin_unlock"}},
    {"timer_delete_sync", {"timer_delete_sync", "timer61_delete_sync"}},
    {"timer_delete_sync_rt",
     {"timer_delete_sync_rt", "timer61_delete_sync", "ops61.c:wait_running", "base61_at",
      "base61_rt_lock", "qspin_trylock", "qspin_unlock"}},
    {"timer_shutdown_sync", {"timer_shutdown_sync", "timer61_delete_sync"}},
};
#define NCODE_UNITS (int)(sizeof kCodeUnits / sizeof *kCodeUnits)

void hostplat_write_code(pemit_t *e)
{
    const char *names[NCODE_UNITS * MAX_UNIT_FNS];
    unsigned long long sizes[NCODE_UNITS * MAX_UNIT_FNS];
    int n = 0;
    for (int u = 0; u < NCODE_UNITS; u++)
        for (int k = 0; k < MAX_UNIT_FNS && kCodeUnits[u].fns[k]; k++)
            names[n++] = kCodeUnits[u].fns[k];
    err_t err = {{0}};
    if (host_topo_symbol_sizes("/proc/self/exe", names, n, sizes, &err) < 0) {
        pemit_comment(e, "code sizes left out (no code fetched): %s", err.msg);
        return;
    }
    n = 0;
    for (int u = 0; u < NCODE_UNITS; u++) {
        char found[1000] = "", absent[600] = "", id[80];
        unsigned long long sum = 0;
        for (int k = 0; k < MAX_UNIT_FNS && kCodeUnits[u].fns[k]; k++, n++) {
            const char *colon = strchr(names[n], ':');
            const char *fn = colon ? colon + 1 : names[n];
            char *buf = sizes[n] ? found : absent;
            size_t cap = sizes[n] ? sizeof found : sizeof absent, len = strlen(buf);
            if (len + 1 < cap)
                snprintf(buf + len, cap - len, "%s%s", len ? (sizes[n] ? "+" : ", ") : "",
                         sizes[n] ? names[n] : fn);
            sum += sizes[n];
        }
        pemit_comment(e, "numasim binary: %s (nm -S)%s%s", found[0] ? found : "nothing",
                      absent[0] ? "; absent (inlined): " : "", absent);
        snprintf(id, sizeof id, "code_%s_bytes", kCodeUnits[u].unit);
        pemit_prop(e, id, "%llu", sum);
    }
}
