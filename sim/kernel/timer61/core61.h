/* core61: the state of a 6.1 timer core and what its files offer each
 * other and the 2.6 core's dispatch; not an API (timer.h is).
 *
 *   base61.c  bases and their locks, timer->flags and lock_timer_base,
 *             allocation, the tick and __run_timers (calls wheel61.c, lock.c)
 *   ops61.c   __mod_timer, __timer_delete, try_to_del_timer_sync,
 *             __timer_delete_sync, get_nohz_timer_target (calls base61.c)
 *
 * timer_core.c calls base61.c, timer_ops.c calls ops61.c; neither 6.1 file
 * calls back into them.
 */
#ifndef NUMASIM_CORE61_H
#define NUMASIM_CORE61_H

#include "lock.h"
#include "timer/timer_internal.h"
#include "wheel61.h"

enum { BASE61_STD, BASE61_DEF, BASE61_N }; /* timer_bases[NR_BASES] under NO_HZ_COMMON */

typedef struct {
    wheel61_t *w;    /* the wheel and its fields (running_timer, clk, cpu...) */
    klock_t *lock;   /* base->lock: the word at W61_BASE_LOCK */
    klock_t *expiry; /* RT: base->expiry_lock, on a line of its own */
    maddr_t waiters; /* RT: base->timer_waiters, beside expiry_lock's word */
} base61_t;

struct core61 {
    int hz, depth, rt, migration;
    uint64_t rt_wake;     /* cycles between two looks of a sleeper on expiry_lock */
    klock_nodes_t *nodes; /* the MCS nodes every lock of the core shares */
    base61_t *b;          /* [ncpus * BASE61_N] */
    maddr_t *idle;        /* [ncpus] the NOHZ idle word, in its CPU's node */
    uint64_t *fire_clk;   /* [ncpus] the running function's baseclk (bookkeeping) */
    int *irqsafe;         /* [ncpus] the running function's TIMER_IRQSAFE */
};

/* base61.c */

/* Builds tc->v61 from cfg and installs the tick (tc's 2.6 fields that the
 * designs share, jiffies included, are the caller's). */
void core61_create(tcore_t *tc, const tcore_config_t *cfg);
void core61_destroy(tcore_t *tc);
/* get_timer_cpu_base: CPU cpu's base for timer flags tf (deferrable or not). */
base61_t *base61_at(const tcore_t *tc, int cpu, uint64_t tf);
/* lock_timer_base: the base t's flags name, locked with interrupts off, the
 * flags unchanged since they were read; waits while t migrates. */
base61_t *base61_lock_timer(cpu_t *c, tcore_t *tc, maddr_t t);
/* raw_spin_unlock_irqrestore of a base's lock. */
void base61_unlock(cpu_t *c, base61_t *b);
/* spin_lock(expiry_lock) on PREEMPT_RT, a sleeping lock: see base61.c. */
void base61_rt_lock(cpu_t *c, const core61_t *v, klock_t *l);
/* The timer's function word for a registered function id (0 is NULL). */
static inline uint64_t fn61_word(int fn_id)
{
    return (uint64_t)fn_id + 1;
}
maddr_t timer61_alloc(tcore_t *tc, int node, int fn_id, uint64_t data, uint64_t flags);
/* do_init_timer run by c on t: not pending, fn_id, data, c's CPU (paid). */
void timer61_setup_on(cpu_t *c, maddr_t t, int fn_id, uint64_t data);

/* ops61.c: the operations of timer.h on a 6.1 core. mod61 returns
 * __mod_timer's value and sets *queued when t was (re-)armed. */
int mod61(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires, int notpending, int *queued);
int del61(cpu_t *c, tcore_t *tc, maddr_t t, int shutdown);
int try_del61(cpu_t *c, tcore_t *tc, maddr_t t, int shutdown);
/* add_timer_on: t (not pending) onto CPU cpu's base; *queued as mod61's. */
void add_on61(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires, int cpu, int *queued);

#endif
