/* timer_list: the primitives under the wheel and the operations.
 *
 * The lists of the timer core live in simulated memory: a list head and a
 * timer's entry are both a pair {next, prev} of words, 16 bytes, so every
 * link followed or changed is a paid access. The base lock is taken with
 * interrupts off (spin_lock_irq), as the kernel does for every base.
 * Nothing here reads the state of a timer core: only the words it is given.
 */
#ifndef NUMASIM_TIMER_LIST_H
#define NUMASIM_TIMER_LIST_H

#include "timer.h"

/* What list_del writes into an unlinked entry; never read back. */
#define LIST_POISON1 0x00100100ull
#define LIST_POISON2 0x00200200ull

/* spin_lock_irq: c disables its interrupts, then takes the lock at `lock`. */
void tlock_irq(cpu_t *c, maddr_t lock);
/* spin_unlock_irq: c releases the lock at `lock`, then enables interrupts. */
void tunlock_irq(cpu_t *c, maddr_t lock);

/* Links the entry at `node` last in the list whose head is at `head`. */
void tlist_add_tail(cpu_t *c, maddr_t node, maddr_t head);
/* Links node's neighbours to each other; node's own two words are left as
 * they were, for the caller to clear or poison. */
void tlist_unlink(cpu_t *c, maddr_t node);

/* 2.6.13's detach_timer: unlinks timer t from its list and poisons its
 * prev word; with clear_pending its next word becomes 0, the tracking
 * design's "not pending" (mod_timer leaves it, as it re-links t at once). */
void detach_tracking(cpu_t *c, maddr_t t, int clear_pending);

#endif
