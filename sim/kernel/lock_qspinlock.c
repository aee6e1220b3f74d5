/* lock_qspinlock: the queued spinlock (Linux's qspinlock, x86 from 4.2),
 * written anew on the machine API from kernel/locking/qspinlock.c and
 * include/asm-generic/qspinlock.h of Linux 6.1.
 *
 * Theory of operation. The lock is one word:
 *
 *   bits  0-7   locked byte (1: held)
 *   bits  8-15  pending (bit 8): the first waiter, spinning on the word
 *   bits 16-17  tail index: which of the tail CPU's MCS nodes is queued
 *   bits 18-63  tail CPU + 1 (0: no queue)
 *
 * and each CPU has QSPIN_NODES MCS nodes (16 bytes each: next, locked),
 * all on one line of that CPU's node, shared by every lock of the machine
 * (klock_nodes_t), as Linux's per-CPU qnodes[4] are.
 *
 *   fast path  cmpxchg 0 -> locked (acquire). Uncontended: one RMW.
 *   pending    the first waiter, when the word holds only the locked byte,
 *              sets pending (fetch_or, acquire); if the word then shows a
 *              tail or someone else's pending it undoes its pending bit
 *              and queues; otherwise it waits (acquire) for the locked byte
 *              to clear, and turns pending into locked in one step. So a
 *              lone waiter costs no MCS node and no queue.
 *   queue      the rest take their next MCS node (the nesting index),
 *              clear it, try the lock once more, then (after a write
 *              barrier, so the node's fields are seen before the node is)
 *              swap their tail into the word, keeping locked and pending.
 *              With a predecessor, they link it (prev->next = node) and
 *              spin on their own node's `locked` word: a line of their own
 *              node that nobody else touches until the predecessor hands
 *              the queue on with one release store.
 *   head       the queue's head spins on the lock word (acquire) until
 *              both locked and pending are clear. If it is still the tail,
 *              it takes the lock and empties the queue in one cmpxchg;
 *              otherwise it sets the locked byte, waits for its successor
 *              to have linked itself, and hands the head on (release store
 *              of 1 to the successor's `locked`).
 *   unlock     the locked byte back to 0, with release order.
 *
 * Kept: the word's three fields and Linux's tail encoding (CPU + 1, so
 * that CPU 0's node 0 is not "no tail"), the pending fast path with its
 * bounded wait for a pending-to-locked handover in flight
 * (_Q_PENDING_LOOPS, the generic value 1), the undo of a pending bit set
 * over a queue, the trylock before queueing, smp_wmb before publishing the
 * tail, the MCS queue with each waiter on its own node, the head's wait for
 * locked and pending, the uncontended-tail cmpxchg, the relaxed orderings
 * where Linux relaxes and the acquire/release where it orders; a CPU whose
 * nodes are all in use (nesting beyond QSPIN_NODES) spins on trylock, as
 * Linux does.
 *
 * Left out: paravirt (pv_wait_node, pv_kick_node, the hash table) and
 * virt_spin_lock; lock events and tracepoints; prefetchw of the next node.
 * Changed by the machine API's 8-byte words: Linux writes the locked byte
 * or the locked+pending half-word with plain stores and swaps the 16-bit
 * tail with one xchg; here each is an RMW on the word that changes those
 * bits only (set_locked and clear_pending_set_locked are fetch_adds,
 * valid because only the lock's next owner may write those bits then;
 * unlock is a release fetch_add of -1; xchg_tail and fetch_or are cmpxchg
 * loops, Linux's generic fallbacks). A failed cmpxchg does not return the
 * word, so the slow path reads it once more. The tail has room for any
 * number of CPUs (Linux's 32-bit word: 14 bits, then pending shrinks).
 * As in Linux, a CPU's nodes serve every lock: a tick handler that queues
 * on a lock while its CPU waits in the queue of another takes the next
 * node (index 1), and so on. The nesting index, which Linux keeps in
 * node 0's count (a line only its CPU touches), is in host memory and
 * costs nothing.
 */
#include "klock_state.h"

#define Q_LOCKED_VAL   UINT64_C(1)
#define Q_LOCKED_MASK  UINT64_C(0xff)
#define Q_PENDING_VAL  (UINT64_C(1) << 8)
#define Q_PENDING_MASK UINT64_C(0xff00)
#define Q_LP_MASK      (Q_LOCKED_MASK | Q_PENDING_MASK)
#define Q_TAIL_IDX_OFF 16
#define Q_TAIL_CPU_OFF 18
#define Q_TAIL_MASK    (~UINT64_C(0xffff))
#define QSPIN_NODES    4  /* task, softirq, hardirq, nmi */
#define QNODE_BYTES    16 /* next at +0, locked at +8 */
#define PENDING_LOOPS  1

static uint64_t encode_tail(int cpu, int idx)
{
    return ((uint64_t)(cpu + 1) << Q_TAIL_CPU_OFF) | ((uint64_t)idx << Q_TAIL_IDX_OFF);
}

static maddr_t decode_tail(const klock_t *l, uint64_t tail)
{
    int cpu = (int)(tail >> Q_TAIL_CPU_OFF) - 1;
    int idx = (int)((tail >> Q_TAIL_IDX_OFF) & 3);
    return l->nodes->qnodes[cpu] + (maddr_t)idx * QNODE_BYTES;
}

/* Waits until (word & mask) == 0, spinning on a shared copy; returns the
 * word as an acquire read found it (smp_cond_load_acquire). */
static uint64_t wait_clear_acquire(cpu_t *c, maddr_t a, uint64_t mask)
{
    uint64_t v = cpu_read_acquire(c, a);
    while (v & mask) {
        cpu_spin_while_eq(c, a, v);
        v = cpu_read_acquire(c, a);
    }
    return v;
}

/* atomic_fetch_or_acquire(PENDING) as a cmpxchg loop from the word's last
 * known value val; returns the word before. */
static uint64_t fetch_set_pending_acquire(cpu_t *c, maddr_t w, uint64_t val)
{
    while (!cpu_cmpxchg_order(c, w, val, val | Q_PENDING_VAL, CPU_ACQUIRE))
        val = cpu_read(c, w);
    return val;
}

/* Puts tail in the word, keeping locked and pending; returns the word
 * before (xchg_tail, relaxed). */
static uint64_t xchg_tail(cpu_t *c, maddr_t w, uint64_t tail)
{
    uint64_t old = cpu_read(c, w);
    while (!cpu_cmpxchg_order(c, w, old, (old & Q_LP_MASK) | tail, CPU_RELAXED))
        old = cpu_read(c, w);
    return old;
}

int qspin_trylock(cpu_t *c, klock_t *l)
{
    uint64_t v = cpu_read(c, l->word);
    if (v != 0)
        return 0;
    return cpu_cmpxchg_order(c, l->word, 0, Q_LOCKED_VAL, CPU_ACQUIRE);
}

int qspin_is_locked(cpu_t *c, klock_t *l)
{
    return cpu_read(c, l->word) != 0;
}

void qspin_unlock(cpu_t *c, klock_t *l)
{
    cpu_fetch_add_order(c, l->word, (uint64_t)0 - Q_LOCKED_VAL, CPU_RELEASE);
}

/* The MCS queue (qspinlock.c's "queue:" label onwards). */
static void qspin_queue(cpu_t *c, klock_t *l)
{
    maddr_t w = l->word;
    int cpu = cpu_id(c);
    uint32_t *nest = &l->nodes->cpu[cpu].nest;
    uint32_t idx = (*nest)++;
    if (idx >= QSPIN_NODES) { /* no node left: spin on trylock */
        while (!qspin_trylock(c, l))
            cpu_relax(c);
        goto release;
    }
    uint64_t tail = encode_tail(cpu, (int)idx);
    maddr_t node = l->nodes->qnodes[cpu] + (maddr_t)idx * QNODE_BYTES;
    cpu_write(c, node + 8, 0); /* locked */
    cpu_write(c, node, 0);     /* next */
    if (qspin_trylock(c, l))
        goto release;
    cpu_wmb(c); /* the node's fields before the tail that publishes it */

    uint64_t old = xchg_tail(c, w, tail);
    maddr_t next = 0;
    if (old & Q_TAIL_MASK) {
        maddr_t prev = decode_tail(l, old & Q_TAIL_MASK);
        cpu_write(c, prev, node); /* prev->next = node */
        /* Spin on our own node's line until the predecessor hands on. */
        cpu_spin_while_eq(c, node + 8, 0);
        cpu_read_acquire(c, node + 8);
        next = cpu_read(c, node);
    }

    /* The head: wait for the owner and the pending waiter to go. */
    uint64_t val = wait_clear_acquire(c, w, Q_LP_MASK);
    if ((val & Q_TAIL_MASK) == tail && cpu_cmpxchg_order(c, w, val, Q_LOCKED_VAL, CPU_RELAXED))
        goto release; /* the last in the queue: no one to hand on to */
    cpu_fetch_add_order(c, w, Q_LOCKED_VAL, CPU_RELAXED); /* set_locked */
    if (!next) {
        next = cpu_read(c, node);
        while (!next)
            next = cpu_spin_while_eq(c, node, 0);
    }
    cpu_write_release(c, next + 8, 1); /* the successor is the head now */
release:
    (*nest)--;
}

/* queued_spin_lock_slowpath from its start to the queue. */
static void qspin_slowpath(cpu_t *c, klock_t *l, uint64_t val)
{
    maddr_t w = l->word;
    if (val == Q_PENDING_VAL) { /* a pending -> locked handover in flight */
        for (int cnt = PENDING_LOOPS; val == Q_PENDING_VAL && cnt > 0; cnt--) {
            cpu_relax(c);
            val = cpu_read(c, w);
        }
    }
    if (val & ~Q_LOCKED_MASK) { /* pending or a queue already: queue */
        qspin_queue(c, l);
        return;
    }
    val = fetch_set_pending_acquire(c, w, val);
    if (val & ~Q_LOCKED_MASK) {
        /* A queue or another pending waiter came first: undo ours. */
        if (!(val & Q_PENDING_MASK))
            cpu_fetch_add_order(c, w, (uint64_t)0 - Q_PENDING_VAL, CPU_RELAXED);
        qspin_queue(c, l);
        return;
    }
    /* We are pending: wait for the owner, then pending -> locked. */
    if (val & Q_LOCKED_MASK)
        wait_clear_acquire(c, w, Q_LOCKED_MASK);
    cpu_fetch_add_order(c, w, Q_LOCKED_VAL - Q_PENDING_VAL, CPU_RELAXED);
}

void qspin_lock(cpu_t *c, klock_t *l)
{
    if (cpu_cmpxchg_order(c, l->word, 0, Q_LOCKED_VAL, CPU_ACQUIRE))
        return;
    qspin_slowpath(c, l, cpu_read(c, l->word));
}
