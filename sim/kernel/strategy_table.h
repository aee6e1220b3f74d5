/* strategy_table: the one description of every del_timer_sync strategy.
 *
 * STRATEGY_TABLE(X) expands X once per strategy, in the order of the ids:
 *
 *   X(ID, name, function, design, last_running, origin, promise)
 *
 *   ID            the strategy's id is STRAT_ID, its code unit KCODE_DTS_ID
 *   name          as scenario files and the CSV spell it
 *   function      its del_timer_sync, in strategy_NAME.c; also the name of
 *                 its code unit (the platform's prop code_FUNCTION_bytes)
 *   design        the timer core it needs: TIMER_CLASSIC (2.6.6),
 *                 TIMER_TRACKING (2.6.13), TIMER_V61 or TIMER_V61_RT (6.1,
 *                 without and with PREEMPT_RT)
 *   last_running  1 when the classic run loop must store timer->last_running
 *   origin        where the algorithm comes from
 *   promise       what it promises on return (the oracle checks it; the
 *                 strategy's file says why it holds or where it fails)
 *
 * Everything else is derived from it: the ids, the prototypes and the
 * strategy_t table (strategy.h, strategy.c), and the code units that the
 * timer core lays out in the kernel text (timer/timer.h, timer_core.c).
 * Data only: it includes nothing, and each use expands just the columns it
 * needs. Rows are only ever appended, so that the 2.6 code units keep their
 * place in the kernel text; shortcut and the 6.1 rows, after it, are not in
 * scenario.strategies' default.
 */
#ifndef NUMASIM_STRATEGY_TABLE_H
#define NUMASIM_STRATEGY_TABLE_H

#define STRATEGY_TABLE(X)                                                                          \
    X(SCAN, "scan", del_timer_sync_scan, TIMER_CLASSIC, 0, "Linux 2.6.6",                          \
      "not pending, and its function running on no CPU: polls every CPU's running_timer")          \
    X(LAST_RUNNING, "last_running", del_timer_sync_last_running, TIMER_CLASSIC, 1,                 \
      "Gustafson's patch of May 2004 (not merged)",                                                \
      "the same, waiting on the base the timer last ran on only")                                  \
    X(SINGLESHOT, "singleshot", del_singleshot_timer_sync, TIMER_CLASSIC, 0,                       \
      "del_singleshot_timer_sync, May 2004",                                                       \
      "the same, for a timer whose function never re-arms it (a re-armed one is a BUG)")           \
    X(NAIVE, "naive", del_timer_sync_naive, TIMER_CLASSIC, 0,                                      \
      "the shortcut that LWN called wrong, May 2004",                                              \
      "none: returns once del_timer dequeued it, while a re-arming function may run "              \
      "(a negative control)")                                                                      \
    X(BASE_TRACKING, "base_tracking", del_timer_sync_base_tracking, TIMER_TRACKING, 0,             \
      "Linux 2.6.13 (Nesterov, 2005)",                                                             \
      "not pending, and its function running on no CPU: one look at the base timer->base names")   \
    X(SHORTCUT, "shortcut", del_timer_sync_shortcut, TIMER_CLASSIC, 0,                             \
      "floated in the May 2004 thread on Gustafson's patch",                                       \
      "none: returns at once when del_timer found nothing, which is when the function may run "    \
      "(a negative control)")                                                                      \
    X(TIMER_DELETE_SYNC, "timer_delete_sync", timer_delete_sync, TIMER_V61, 0, "Linux 6.1",        \
      "not pending, and its function running on no CPU: retries try_to_del_timer_sync on the "     \
      "base timer->flags names, spinning")                                                         \
    X(TIMER_DELETE_SYNC_RT, "timer_delete_sync_rt", timer_delete_sync_rt, TIMER_V61_RT, 0,         \
      "Linux 6.1 with PREEMPT_RT",                                                                 \
      "the same, sleeping on the base's expiry_lock while the function runs")                      \
    X(TIMER_SHUTDOWN_SYNC, "timer_shutdown_sync", timer_shutdown_sync, TIMER_V61, 0,               \
      "Linux 6.1.y (the timer_shutdown backport)",                                                 \
      "the same, and the timer can never be armed again (its function is NULL)")

#endif
