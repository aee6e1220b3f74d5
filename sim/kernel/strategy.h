/* strategy: the ways to delete a timer synchronously (del_timer_sync).
 *
 * Each promises, on return, that the timer is not pending and its function
 * is not running on any CPU. The oracle checks that promise instead of
 * assuming it. One file per strategy:
 *   strategy_scan.c           2.6.6: poll every CPU's running_timer
 *   strategy_last_running.c   the May 2004 patch: poll the base it last ran on
 *   strategy_singleshot.c     del_singleshot_timer_sync (no re-arming allowed)
 *   strategy_naive.c          "if del_timer() succeeded, done" (wrong)
 *   strategy_base_tracking.c  2.6.13: timer->base tracks where it runs
 *   strategy_shortcut.c       "if del_timer() found nothing, done" (wrong)
 */
#ifndef NUMASIM_STRATEGY_H
#define NUMASIM_STRATEGY_H

#include "timer/timer.h"

typedef enum {
    STRAT_SCAN,
    STRAT_LAST_RUNNING,
    STRAT_SINGLESHOT,
    STRAT_NAIVE,
    STRAT_BASE_TRACKING,
    STRAT_SHORTCUT, /* not in the default list: a negative control */
    STRAT_COUNT
} strategy_id_t;

/* The strategies' names, as scenario files spell them, indexed by id. */
extern const char *const strategy_names[STRAT_COUNT];

/* The name of id, or "?" when out of range. */
const char *strategy_name(strategy_id_t id);

/* Runs strategy id on CPU c for timer t. Returns what del_timer_sync returns
 * (1 when the timer was pending). *oops is set to 1 when the strategy hit
 * its BUG_ON (singleshot on a re-armed timer), else left alone. */
int strategy_del_timer_sync(strategy_id_t id, cpu_t *c, tcore_t *tc, maddr_t t, int *oops);

/* The timer-core design a strategy runs on, and whether the run loop stores
 * timer->last_running. */
timer_design_t strategy_design(strategy_id_t id);
int strategy_last_running(strategy_id_t id);

/* The individual strategies. */
int del_timer_sync_scan(cpu_t *c, tcore_t *tc, maddr_t t);
int del_timer_sync_last_running(cpu_t *c, tcore_t *tc, maddr_t t);
int del_singleshot_timer_sync(cpu_t *c, tcore_t *tc, maddr_t t, int *oops);
int del_timer_sync_naive(cpu_t *c, tcore_t *tc, maddr_t t);
int del_timer_sync_base_tracking(cpu_t *c, tcore_t *tc, maddr_t t);
int del_timer_sync_shortcut(cpu_t *c, tcore_t *tc, maddr_t t);

#endif
