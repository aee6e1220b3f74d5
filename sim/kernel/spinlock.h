/* spinlock: a simulated test-and-test-and-set lock on one word.
 *
 * The lock word lives in simulated memory, so taking it pays the coherence
 * costs: the atomic exchange needs the line exclusive, and waiters spin on a
 * shared copy (reads that hit) until the holder's release invalidates it.
 * Interrupts are the caller's business (spin_lock_irq = cpu_irq_disable +
 * spin_lock).
 */
#ifndef NUMASIM_SPINLOCK_H
#define NUMASIM_SPINLOCK_H

#include "cpu.h"

/* Takes the lock at `lock`, spinning with cpu_relax while it is held. */
void spin_lock(cpu_t *c, maddr_t lock);
/* One attempt; returns 1 when the lock was taken. */
int spin_trylock(cpu_t *c, maddr_t lock);
/* Releases it (a plain store of 0, with release ordering). */
void spin_unlock(cpu_t *c, maddr_t lock);

#endif
