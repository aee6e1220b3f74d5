/* litmus_rcu: RCU for the litmus tests, written on the machine API (cpu.h),
 * so that it runs on the simulated and on the native machine alike and its
 * accesses pay (and are ordered by) the platform's memory model.
 *
 * The classic quiescent-state algorithm with one word per CPU slot in
 * machine memory: its low 16 bits count the read-side critical sections
 * the slot's CPU has open (nesting), the bits above count the outermost
 * ones it has left. rcu_read_lock increments the count and, outermost,
 * runs smp_mb after it; rcu_read_unlock, outermost, runs smp_mb before
 * leaving. synchronize_rcu runs smp_mb, reads every other slot (cpu_read:
 * through the coherence model) and, for each slot in a critical section,
 * waits until its exit count moves (the section open at the start has
 * ended; newer ones are not waited for), then runs smp_mb.
 */
#ifndef NUMASIM_LITMUS_RCU_H
#define NUMASIM_LITMUS_RCU_H

#include "cpu.h"

typedef struct {
    int n;        /* slots */
    maddr_t *ctr; /* slot i's word, on a line of its own */
} lit_rcu_t;

/* Allocates n slots, slot i's word homed on node[i] (from setup). */
void lit_rcu_init(lit_rcu_t *r, machine_t *m, int n, const int *node);
/* Sets every slot to "no critical section" (cost-free, between rounds). */
void lit_rcu_reset(const lit_rcu_t *r, machine_t *m);
void lit_rcu_free(lit_rcu_t *r);

/* The operations, on CPU c as slot self. */
void lit_rcu_read_lock(cpu_t *c, const lit_rcu_t *r, int self);
void lit_rcu_read_unlock(cpu_t *c, const lit_rcu_t *r, int self);
void lit_rcu_synchronize(cpu_t *c, const lit_rcu_t *r, int self);

#endif
