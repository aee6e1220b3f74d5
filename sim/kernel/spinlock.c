/* spinlock: the 2.6 ia64 spinlock's orderings. Taking the lock is an
 * acquire read-modify-write (ia64's cmpxchg4.acq / xchg, which are acquire
 * only: earlier stores may still be in flight), releasing it a release store
 * (the volatile store of 0, st4.rel). */
#include "spinlock.h"

int spin_trylock(cpu_t *c, maddr_t lock)
{
    return cpu_xchg_order(c, lock, 1, CPU_ACQUIRE) == 0;
}

void spin_lock(cpu_t *c, maddr_t lock)
{
    while (cpu_xchg_order(c, lock, 1, CPU_ACQUIRE) != 0) {
        /* Spin on a shared copy: only reads, until the holder releases. */
        cpu_spin_while_eq(c, lock, 1);
    }
}

void spin_unlock(cpu_t *c, maddr_t lock)
{
    cpu_write_release(c, lock, 0);
}
