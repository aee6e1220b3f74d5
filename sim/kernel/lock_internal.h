/* lock_internal: the klock_t that lock.c and lock_qspinlock.c share. */
#ifndef NUMASIM_LOCK_INTERNAL_H
#define NUMASIM_LOCK_INTERNAL_H

#include "lock.h"

struct klock {
    lock_kind_t kind;
    machine_t *m;
    maddr_t word; /* the lock word */
    int own_word; /* klock_create allocated it (on its own line) */
    int ncpus;
    int line;        /* the platform's line bytes: the size of each qnodes[] block */
    maddr_t *qnodes; /* qspinlock: [ncpus] each CPU's MCS nodes, on its node */
    /* CPU-private bookkeeping, in host memory (each slot is touched by its
     * CPU only): ticket, the ticket each holder drew (its unlock needs it);
     * qspinlock, the nesting count of each CPU's MCS nodes in use. */
    uint32_t *priv;
};

/* lock_qspinlock.c: the queued lock's operations (l->kind == LOCK_QSPIN). */
void qspin_lock(cpu_t *c, klock_t *l);
int qspin_trylock(cpu_t *c, klock_t *l);
void qspin_unlock(cpu_t *c, klock_t *l);
int qspin_is_locked(cpu_t *c, klock_t *l);

#endif
