/* klock_state: the lock object (struct klock) and the per-CPU state its
 * locks share (struct klock_nodes), which lock.c and lock_qspinlock.c
 * share, and the queued lock's operations, which lock.c dispatches to. Not
 * an API: lock.h is. */
#ifndef NUMASIM_KLOCK_STATE_H
#define NUMASIM_KLOCK_STATE_H

#include "klock.h"

#include <stdint.h>

#define KCPU_HELD 6 /* ticket locks a CPU holds at once with its ticket at hand */

/* CPU-private bookkeeping, in host memory, one 128-byte block per CPU (on
 * the native machine the host's CPUs must not share a line for it). */
typedef struct {
    _Alignas(128) uint32_t nest; /* qspinlock: the CPU's MCS nodes in use */
    uint32_t nheld;              /* ticket: entries of held[] */
    struct {
        const klock_t *lock;
        uint32_t ticket; /* the ticket the holder drew (its unlock needs it) */
    } held[KCPU_HELD];
} kcpu_t;

struct klock_nodes {
    machine_t *m;
    int ncpus;
    int line;        /* the bytes of each qnodes[] block: a line, 64 at least */
    maddr_t *qnodes; /* [ncpus] each CPU's MCS nodes, on a line of its node */
    kcpu_t *cpu;     /* [ncpus] */
};

struct klock {
    lock_kind_t kind;
    machine_t *m;
    maddr_t word;         /* the lock word */
    klock_nodes_t *nodes; /* the machine's per-CPU state */
    int own_nodes;        /* created with the lock (nodes NULL at creation) */
};

/* lock_qspinlock.c: the queued lock's operations (l->kind == LOCK_QSPIN). */
void qspin_lock(cpu_t *c, klock_t *l);
int qspin_trylock(cpu_t *c, klock_t *l);
void qspin_unlock(cpu_t *c, klock_t *l);
int qspin_is_locked(cpu_t *c, klock_t *l);

#endif
