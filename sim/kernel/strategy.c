/* strategy: the strategy_t table and the names, both expanded from
 * strategy_table.h, and the dispatch by id through them. */
#include "strategy.h"

#define STRATEGY_ROW(ID, name_, function, design_, last_running_, origin_, promise_)               \
    [STRAT_##ID] = {.name = name_,                                                                 \
                    .fn = function,                                                                \
                    .design = design_,                                                             \
                    .last_running = last_running_,                                                 \
                    .origin = origin_,                                                             \
                    .promise = promise_},
const strategy_t strategies[STRAT_COUNT] = {STRATEGY_TABLE(STRATEGY_ROW)};
#undef STRATEGY_ROW

#define STRATEGY_NAME(ID, name, ...) [STRAT_##ID] = name,
const char *const strategy_names[STRAT_COUNT] = {STRATEGY_TABLE(STRATEGY_NAME)};
#undef STRATEGY_NAME

static int valid(strategy_id_t id)
{
    return (int)id >= 0 && id < STRAT_COUNT;
}

const char *strategy_name(strategy_id_t id)
{
    return valid(id) ? strategies[id].name : "?";
}

int strategy_del_timer_sync(strategy_id_t id, cpu_t *c, tcore_t *tc, maddr_t t, int *oops)
{
    return valid(id) ? strategies[id].fn(c, tc, t, oops) : 0;
}

timer_design_t strategy_design(strategy_id_t id)
{
    return valid(id) ? strategies[id].design : TIMER_CLASSIC;
}

int strategy_last_running(strategy_id_t id)
{
    return valid(id) && strategies[id].last_running;
}
