/* klock: the types of the kernel's locks (lock.h is their API): the kinds
 * of lock, the opaque lock object, and the per-CPU state that all the locks
 * of a machine share (the queued lock's MCS nodes, as Linux's per-CPU
 * qnodes[4]). */
#ifndef NUMASIM_KLOCK_H
#define NUMASIM_KLOCK_H

#include "cpu.h"

typedef enum { LOCK_TAS, LOCK_TICKET, LOCK_QSPIN, LOCK_NKINDS } lock_kind_t;
typedef struct klock klock_t;
typedef struct klock_nodes klock_nodes_t;

#endif
