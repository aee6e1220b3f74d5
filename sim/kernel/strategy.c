#include "strategy.h"

const char *const strategy_names[STRAT_COUNT] = {"scan",  "last_running",  "singleshot",
                                                 "naive", "base_tracking", "shortcut"};

const char *strategy_name(strategy_id_t id)
{
    return (int)id >= 0 && id < STRAT_COUNT ? strategy_names[id] : "?";
}

int strategy_del_timer_sync(strategy_id_t id, cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    switch (id) {
    case STRAT_SCAN:
        return del_timer_sync_scan(c, tc, t);
    case STRAT_LAST_RUNNING:
        return del_timer_sync_last_running(c, tc, t);
    case STRAT_SINGLESHOT:
        return del_singleshot_timer_sync(c, tc, t, oops);
    case STRAT_NAIVE:
        return del_timer_sync_naive(c, tc, t);
    case STRAT_BASE_TRACKING:
        return del_timer_sync_base_tracking(c, tc, t);
    case STRAT_SHORTCUT:
        return del_timer_sync_shortcut(c, tc, t);
    default:
        return 0;
    }
}

timer_design_t strategy_design(strategy_id_t id)
{
    return id == STRAT_BASE_TRACKING ? TIMER_TRACKING : TIMER_CLASSIC;
}

int strategy_last_running(strategy_id_t id)
{
    return id == STRAT_LAST_RUNNING;
}
