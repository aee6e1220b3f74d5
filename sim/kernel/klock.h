/* klock: the types of the kernel's locks (lock.h is their API): the kinds
 * of lock, and the opaque lock object. */
#ifndef NUMASIM_KLOCK_H
#define NUMASIM_KLOCK_H

#include "cpu.h"

typedef enum { LOCK_TAS, LOCK_TICKET, LOCK_QSPIN, LOCK_NKINDS } lock_kind_t;
typedef struct klock klock_t;

#endif
