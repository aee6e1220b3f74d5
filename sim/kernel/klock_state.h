/* klock_state: the lock object (struct klock) that lock.c and
 * lock_qspinlock.c share, and the queued lock's operations, which lock.c
 * dispatches to. Not an API: lock.h is. */
#ifndef NUMASIM_KLOCK_STATE_H
#define NUMASIM_KLOCK_STATE_H

#include "klock.h"

#include <stdint.h>

#define PRIV_STRIDE  32 /* uint32_t: 128 bytes */
#define PRIV(l, cpu) ((l)->priv[(size_t)(cpu)*PRIV_STRIDE])

struct klock {
    lock_kind_t kind;
    machine_t *m;
    maddr_t word; /* the lock word */
    int own_word; /* klock_create allocated it (on its own line) */
    int ncpus;
    int line;        /* the bytes of each qnodes[] block and of an own word: a line, 64 at least */
    maddr_t *qnodes; /* qspinlock: [ncpus] each CPU's MCS nodes, on its node */
    /* CPU-private bookkeeping, in host memory, CPU i's at priv[i *
     * PRIV_STRIDE] (128 bytes apart: on the native machine the host's CPUs
     * must not share a line for it): ticket, the ticket the holder drew
     * (its unlock needs it); qspinlock, the nesting count of the CPU's MCS
     * nodes in use. */
    uint32_t *priv;
};

/* lock_qspinlock.c: the queued lock's operations (l->kind == LOCK_QSPIN). */
void qspin_lock(cpu_t *c, klock_t *l);
int qspin_trylock(cpu_t *c, klock_t *l);
void qspin_unlock(cpu_t *c, klock_t *l);
int qspin_is_locked(cpu_t *c, klock_t *l);

#endif
