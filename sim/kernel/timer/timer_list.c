/* timer_list: list links and the base lock in simulated memory. The word
 * order is the kernel's struct list_head: next at +0, prev at +8. */
#include "timer_list.h"

#include "spinlock.h"

void tlock_irq(cpu_t *c, maddr_t lock)
{
    cpu_irq_disable(c);
    spin_lock(c, lock);
}

void tunlock_irq(cpu_t *c, maddr_t lock)
{
    spin_unlock(c, lock);
    cpu_irq_enable(c);
}

void tlist_add_tail(cpu_t *c, maddr_t node, maddr_t head)
{
    maddr_t prev = cpu_read(c, head + 8);
    cpu_write(c, node, head);
    cpu_write(c, node + 8, prev);
    cpu_write(c, prev, node);
    cpu_write(c, head + 8, node);
}

void tlist_unlink(cpu_t *c, maddr_t node)
{
    maddr_t next = cpu_read(c, node);
    maddr_t prev = cpu_read(c, node + 8);
    cpu_write(c, next + 8, prev);
    cpu_write(c, prev, next);
}

void detach_tracking(cpu_t *c, maddr_t t, int clear_pending)
{
    tlist_unlink(c, t);
    if (clear_pending)
        cpu_write(c, t, 0);
    cpu_write(c, t + 8, LIST_POISON2);
}
