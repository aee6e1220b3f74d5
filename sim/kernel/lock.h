/* lock: the kernel's spinlock as a choice of three kinds, on the machine API.
 *
 *   tas        the 2.6 ia64 test-and-test-and-set lock of spinlock.c (one
 *              word: 0 free, 1 held); unfair
 *   ticket     x86 from 2.6.25: one word, the next ticket in its high half,
 *              the owner's in its low half; FIFO
 *   qspinlock  x86 from 4.2, arm64 later: the queued lock (locked byte,
 *              pending bit, MCS tail), each queued waiter spinning on its
 *              own node's line; FIFO (see lock_qspinlock.c)
 *
 * Every access goes through cpu.h, so each handoff pays the coherence model
 * and the memory model orders it; the same code runs on the native machine.
 * Taking a lock is an acquire, releasing it a release. Interrupts are the
 * caller's business, as for spin_lock.
 *
 * A klock_t lives in host memory (the kind, the machine address of its
 * word); its word lives in machine memory. The per-CPU state of the kinds
 * (the queued lock's MCS nodes in machine memory, CPU-private bookkeeping in
 * host memory) is a klock_nodes_t that every lock of a machine shares, as
 * Linux's per-CPU qnodes[4] serve every lock: with one lock per timer base,
 * nodes per lock would be ncpus^2 lines. The 6.1 timer core's bases use
 * these locks; the 2.6 core keeps spinlock.c's.
 */
#ifndef NUMASIM_LOCK_H
#define NUMASIM_LOCK_H

#include "cpu.h"
#include "klock.h"

/* "tas", "ticket", "qspinlock" (the values of the scenario key kernel.lock
 * to come); "?" past the last. */
const char *lock_kind_name(lock_kind_t kind);
/* The kind named s, or -1 for an unknown name. */
int lock_kind_parse(const char *s);

/* From setup: the per-CPU state of machine m's locks: each CPU's
 * QSPIN_NODES (4: task, softirq, hardirq, nmi) MCS nodes on one line of
 * that CPU's node, the index of the next free one, and the tickets of the
 * ticket locks it holds. Destroy it after every lock that uses it. */
klock_nodes_t *klock_nodes_create(machine_t *m);
void klock_nodes_destroy(klock_nodes_t *n); /* see klock_destroy */

/* From setup or a CPU: a free lock of this kind whose word is on its own
 * line of node home's memory, using nodes (NULL: a set of its own, created
 * and destroyed with the lock). NULL for a kind out of range. */
klock_t *klock_create(machine_t *m, lock_kind_t kind, int home, klock_nodes_t *nodes);
/* The same on the 8-byte word at `word`, which must be 0 (free) and stay
 * the caller's (a lock inside a structure, as a timer base's is). */
klock_t *klock_create_at(machine_t *m, lock_kind_t kind, maddr_t word, klock_nodes_t *nodes);
/* Frees the host memory of a lock or a set of nodes (the lock must be
 * free and unused); their machine memory goes with the machine, so either
 * may be called after the machine's end, as tcore_destroy is. */
void klock_destroy(klock_t *l);

lock_kind_t klock_kind(const klock_t *l);
maddr_t klock_word(const klock_t *l); /* the lock word */
/* qspinlock: the line of CPU cpu's MCS nodes, shared with every lock of
 * the same klock_nodes_t (0 for the other kinds). */
maddr_t klock_qnodes(const klock_t *l, int cpu);

/* Takes the lock, spinning while it is held. */
void klock_lock(cpu_t *c, klock_t *l);
/* One attempt that never waits; 1 when the lock was taken. */
int klock_trylock(cpu_t *c, klock_t *l);
/* Releases the lock c holds. */
void klock_unlock(cpu_t *c, klock_t *l);
/* 1 when the lock is held or wanted (a plain read of its word, as Linux's
 * spin_is_locked: for the qspinlock any of locked, pending or tail). */
int klock_is_locked(cpu_t *c, klock_t *l);

#endif
