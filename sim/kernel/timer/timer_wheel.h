/* timer_wheel: the cascading wheel of a base and its run loop (the theory
 * of operation is at the top of timer_wheel.c). */
#ifndef NUMASIM_TIMER_WHEEL_H
#define NUMASIM_TIMER_WHEEL_H

#include "timer_internal.h"

/* internal_add_timer: links timer t into the list of base's wheel that its
 * expires field selects. The caller holds base's lock. */
void wheel_add(cpu_t *c, tcore_t *tc, maddr_t base, maddr_t t);

/* __run_timers: c runs every timer of base (c's own) that is due at the
 * current jiffies, cascading as the wheel turns. Takes base's lock itself
 * and drops it around each timer function. */
void wheel_run(cpu_t *c, tcore_t *tc, maddr_t base);

#endif
