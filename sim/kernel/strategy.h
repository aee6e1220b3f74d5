/* strategy: the ways to delete a timer synchronously (del_timer_sync).
 *
 * Each promises, on return, that the timer is not pending and its function
 * is not running on any CPU, or says how it falls short of that; the oracle
 * checks the promise instead of assuming it. strategy_table.h describes
 * every strategy once (its name, function, timer-core design, origin and
 * promise); this header and strategy.c derive the ids and the dispatch from
 * it. Each strategy's function is in strategy_NAME.c.
 */
#ifndef NUMASIM_STRATEGY_H
#define NUMASIM_STRATEGY_H

#include "strategy_table.h"
#include "timer/timer.h"

#define STRATEGY_ID(ID, ...) STRAT_##ID,
typedef enum { STRATEGY_TABLE(STRATEGY_ID) STRAT_COUNT } strategy_id_t;
#undef STRATEGY_ID

/* A strategy's del_timer_sync, run by CPU c on timer t of timer core tc.
 * Returns 1 when the timer was pending, as the kernel's does. *oops (when
 * oops is not NULL) is set to 1 when the strategy hits its BUG_ON, and is
 * left alone otherwise. */
typedef int (*strategy_fn_t)(cpu_t *c, tcore_t *tc, maddr_t t, int *oops);

#define STRATEGY_FN(ID, name, function, ...)                                                       \
    int function(cpu_t *c, tcore_t *tc, maddr_t t, int *oops);
STRATEGY_TABLE(STRATEGY_FN)
#undef STRATEGY_FN

/* One row of strategy_table.h (see there for what each field means). */
typedef struct {
    const char *name;
    strategy_fn_t fn;
    timer_design_t design;
    int last_running;
    const char *origin;
    const char *promise;
} strategy_t;

/* The table, indexed by id. */
extern const strategy_t strategies[STRAT_COUNT];

/* The strategies' names, as scenario files spell them, indexed by id (the
 * list the scenario key scenario.strategies is read against). */
extern const char *const strategy_names[STRAT_COUNT];

/* The name of id, or "?" when out of range. */
const char *strategy_name(strategy_id_t id);

/* Runs strategy id's function (strategy_fn_t); 0 when id is out of range. */
int strategy_del_timer_sync(strategy_id_t id, cpu_t *c, tcore_t *tc, maddr_t t, int *oops);

/* The timer-core design that strategy id runs on, and whether its run loop
 * stores timer->last_running: the arguments of tcore_create for it. */
timer_design_t strategy_design(strategy_id_t id);
int strategy_last_running(strategy_id_t id);

#endif
