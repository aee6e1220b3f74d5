/* timer_internal: the state of a timer core, which its files share; not an
 * API. The functions each file offers the others are in timer_list.h and
 * timer_wheel.h. */
#ifndef NUMASIM_TIMER_INTERNAL_H
#define NUMASIM_TIMER_INTERNAL_H

#include "timer.h"

typedef struct {
    timer_fn_t fn;
    void *ctx;
} tcore_fn_t;

typedef struct core61 core61_t; /* the 6.1 core's state (timer61/core61.h) */

struct tcore {
    machine_t *m;
    timer_design_t design;
    int last_running;
    unsigned omit; /* TBAR_* left out */
    int ncpus;
    int timekeeper;
    maddr_t *base;  /* [ncpus] */
    maddr_t *stack; /* [ncpus] a line of each CPU's kernel stack */
    int *in_softirq;
    int *softirq_pending; /* a tick came during the softirq: run it again */
    uint64_t *runs;
    maddr_t jiffies;
    tcore_fn_t *fns;
    int nfns;
    tcore_observer_t obs;
    void *obs_ctx;
    unsigned obs_events; /* TEV_BIT of each event obs hears */
    int code[KCODE_N];   /* machine_code handles */
    core61_t *v61;       /* TIMER_V61, TIMER_V61_RT: bases, locks, idle words */
};

static inline int tcore_is_v61(const tcore_t *tc)
{
    return tc->design == TIMER_V61 || tc->design == TIMER_V61_RT;
}

/* Events happen at c's current cycle: let every CPU catch up first, so that
 * the observer sees them in simulated-time order. An event the observer
 * did not ask for costs nothing on either machine. */
static inline void tcore_emit(tcore_t *tc, tcore_event_t ev, cpu_t *c, maddr_t t)
{
    if (tc->obs && (tc->obs_events & TEV_BIT(ev))) {
        cpu_sync(c);
        tc->obs(tc, ev, c, t, tc->obs_ctx);
    }
}

/* The run loop calls timer function fn (an id of tcore_register_fn) on t,
 * then reports its end; an id out of range is a corrupt function pointer,
 * reported as a BUG. Shared by the 2.6 and 6.1 run loops. */
static inline void tcore_call_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t fn, uint64_t data)
{
    if (fn < (uint64_t)tc->nfns) {
        cpu_state_push(c, "timer_fn");
        tc->fns[fn].fn(c, tc, t, data, tc->fns[fn].ctx);
        cpu_state_pop(c);
    } else
        tcore_emit(tc, TEV_BUG, c, t);
    tcore_emit(tc, TEV_FN_END, c, t);
}

#endif
