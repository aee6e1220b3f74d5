/* oracle: the safety check of every del_timer_sync variant.
 *
 * It watches chosen timers through the timer core's events (cost-free) and
 * knows, at every instant, on which CPUs each one's function is running (or
 * claimed by a run loop and about to run) and whether it is pending. At each
 * return of a del_timer_sync variant it records a violation when the function
 * still runs somewhere or the timer is pending. Two promises are checked as
 * the events come: a watched timer's function never starts before its
 * expiry (jiffies < timer->expires), and a timer that timer_shutdown_sync
 * returned on is never queued again. Oopses (singleshot's BUG_ON),
 * BUGs of the core and writes to freed timers are counted too. Violations are
 * results: the run goes on.
 */
#ifndef NUMASIM_ORACLE_H
#define NUMASIM_ORACLE_H

#include "timer/timer.h"

#include <stdint.h>
#include <stdio.h>

typedef struct oracle oracle_t;

/* Creates an oracle observing tc, keeping the last trace_len events for the
 * trace of the first violation. Free with oracle_destroy(). */
oracle_t *oracle_create(tcore_t *tc, int trace_len);
void oracle_destroy(oracle_t *o);

/* Watches timer t from now on (once: watching it again does nothing). */
void oracle_watch(oracle_t *o, maddr_t t);

/* c calls / returns from a del_timer_sync variant on t. The return check is
 * made as of c's current cycle (the caller has synced). Returns 1 when it
 * found a violation. */
void oracle_call(oracle_t *o, cpu_t *c, maddr_t t);
int oracle_return(oracle_t *o, cpu_t *c, maddr_t t, int oops);

/* The counts so far: violations found at returns, oopses reported by the
 * returns, BUGs of the timer core (on any timer). */
uint64_t oracle_violations(const oracle_t *o);
/* t was set up again (timer_setup after timer_shutdown_sync): it may be
 * queued from now on. */
void oracle_setup(oracle_t *o, maddr_t t);
uint64_t oracle_oopses(const oracle_t *o);
uint64_t oracle_bugs(const oracle_t *o);
/* Whether watched timer t's function is running (or claimed) on some CPU. */
int oracle_running_anywhere(const oracle_t *o, maddr_t t);

/* How tightly the watched timers' events packed, for the race hunter: the
 * shortest time from a function's return to the next start of the same
 * timer, and from a re-arming inside the function (queued while it ran) to
 * the function's return. UINT64_MAX when never seen. */
void oracle_tightness(const oracle_t *o, uint64_t *end_start, uint64_t *rearm_end);

/* Prints the events before the first violation (none: one line saying so):
 * cycle, time in us at clock_mhz, CPU, event, timer. */
void oracle_print_trace(const oracle_t *o, FILE *f, double clock_mhz);

#endif
