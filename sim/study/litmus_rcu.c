/* litmus_rcu: RCU on the machine API. Theory of operation.
 *
 * Why the barriers suffice (the grace-period guarantee: a read-side
 * critical section that began before synchronize_rcu began ends before it
 * returns, or sees nothing the updater wrote before it):
 *   - if the updater's read of a slot sees no critical section, the
 *     reader's increment is later in coherence than what the updater read;
 *     the updater's smp_mb orders its earlier stores before that read and
 *     the reader's smp_mb orders its increment before the section's
 *     accesses (SB with smp_mb on both sides): the section sees the
 *     updater's earlier stores;
 *   - if it sees one, the updater waits for the exit count to move; the
 *     reader's smp_mb before the exit orders the section's accesses before
 *     it, the updater's smp_mb after the wait its later accesses after (MP
 *     with smp_mb on both sides): the section saw none of them.
 * The cost is the platform's: each slot read is a miss whenever its CPU
 * wrote it since, and the two smp_mb drain the store buffer.
 */
#include "litmus_rcu.h"

#include "xalloc.h"

#include <stdlib.h>

enum { NEST_BITS = 16 };
#define NEST_MASK ((UINT64_C(1) << NEST_BITS) - 1)

void lit_rcu_init(lit_rcu_t *r, machine_t *m, int n, const int *node)
{
    r->n = n;
    r->ctr = xcalloc((size_t)(n > 0 ? n : 1), sizeof *r->ctr);
    for (int i = 0; i < n; i++)
        r->ctr[i] = machine_alloc(m, node[i], 64);
}

void lit_rcu_reset(const lit_rcu_t *r, machine_t *m)
{
    for (int i = 0; i < r->n; i++)
        machine_poke(m, r->ctr[i], 0);
}

void lit_rcu_free(lit_rcu_t *r)
{
    free(r->ctr);
    r->ctr = NULL;
    r->n = 0;
}

void lit_rcu_read_lock(cpu_t *c, const lit_rcu_t *r, int self)
{
    uint64_t v = cpu_read(c, r->ctr[self]);
    cpu_write(c, r->ctr[self], v + 1);
    if ((v & NEST_MASK) == 0)
        cpu_mb(c); /* the increment is visible before the section's accesses */
}

void lit_rcu_read_unlock(cpu_t *c, const lit_rcu_t *r, int self)
{
    uint64_t v = cpu_read(c, r->ctr[self]);
    if ((v & NEST_MASK) == 0)
        return; /* unbalanced: nothing open */
    if ((v & NEST_MASK) == 1) {
        cpu_mb(c); /* the section's accesses are done before the exit shows */
        cpu_write(c, r->ctr[self], v - 1 + (UINT64_C(1) << NEST_BITS));
    } else {
        cpu_write(c, r->ctr[self], v - 1);
    }
}

void lit_rcu_synchronize(cpu_t *c, const lit_rcu_t *r, int self)
{
    cpu_mb(c);
    for (int i = 0; i < r->n; i++) {
        if (i == self)
            continue;
        uint64_t s = cpu_read(c, r->ctr[i]);
        while (s & NEST_MASK) {
            uint64_t v = cpu_spin_while_eq(c, r->ctr[i], s);
            if (v >> NEST_BITS != s >> NEST_BITS)
                break; /* the section open at the start has ended */
            s = v;     /* nested sections of the same one */
        }
    }
    cpu_mb(c);
}
