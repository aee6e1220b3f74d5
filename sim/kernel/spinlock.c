#include "spinlock.h"

int spin_trylock(cpu_t *c, maddr_t lock)
{
    return cpu_xchg(c, lock, 1) == 0;
}

void spin_lock(cpu_t *c, maddr_t lock)
{
    while (cpu_xchg(c, lock, 1) != 0) {
        /* Spin on a shared copy: only reads, until the holder releases. */
        cpu_spin_while_eq(c, lock, 1);
    }
}

void spin_unlock(cpu_t *c, maddr_t lock)
{
    cpu_write(c, lock, 0);
}
