/* timer_internal: what the files of the timer core share; not an API. */
#ifndef NUMASIM_TIMER_INTERNAL_H
#define NUMASIM_TIMER_INTERNAL_H

#include "timer.h"

#define LIST_POISON1 0x00100100ull /* written into unlinked entries, never read */
#define LIST_POISON2 0x00200200ull

typedef struct {
    timer_fn_t fn;
    void *ctx;
} tcore_fn_t;

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
    int code[KCODE_N]; /* machine_code handles */
};

/* Events happen at c's current cycle: let every CPU catch up first, so that
 * the observer sees them in simulated-time order. */
static inline void tcore_emit(tcore_t *tc, tcore_event_t ev, cpu_t *c, maddr_t t)
{
    if (tc->obs) {
        cpu_sync(c);
        tc->obs(tc, ev, c, t, tc->obs_ctx);
    }
}

/* Locking helpers: spin_lock_irq and friends on simulated lock words. */
void tlock_irq(cpu_t *c, maddr_t lock);
void tunlock_irq(cpu_t *c, maddr_t lock);

/* Lists of 16-byte heads {next, prev} in simulated memory. */
void tlist_add_tail(cpu_t *c, maddr_t node, maddr_t head);
void tlist_unlink(cpu_t *c, maddr_t node);

/* The wheel (timer_wheel.c); the base lock is held by the caller. */
void wheel_add(cpu_t *c, tcore_t *tc, maddr_t base, maddr_t t);
void wheel_run(cpu_t *c, tcore_t *tc, maddr_t base);

/* The classic and tracking operations (timer_ops.c). */
void detach_tracking(cpu_t *c, maddr_t t, int clear_pending);

#endif
