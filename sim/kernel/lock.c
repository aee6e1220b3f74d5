/* lock: the interface of lock.h, its name table, the test-and-test-and-set
 * kind (spinlock.c's, unchanged) and the ticket lock.
 *
 * The ticket lock follows x86's from 2.6.25 (arch/x86/include/asm/spinlock.h
 * of that time): one word, the next ticket in its high half and the
 * owner's ticket in its low half. Taking it is one fetch-and-add on the next
 * half (xadd; here acquire: the RMW reads the owner half that the last
 * release wrote), then, unless the ticket drawn is already the owner's, a
 * spin on the whole word (every waiter reads the one line, and each release
 * invalidates every waiter's copy) until the owner half equals the ticket.
 * Releasing adds one to the owner half with release order.
 *
 * Word granularity: x86 adds to the owner byte or half-word alone, which
 * cannot carry into the next half; the machine API has 8-byte words only,
 * so the release is an add to the whole word that takes the carry back out
 * when the owner half wraps (2^32 acquisitions). The holder knows the owner
 * half (its own ticket), kept in CPU-private host memory (klock_state.h's
 * kcpu_t, shared by the locks of a machine). trylock is
 * Linux's: read the word, and only if it is free, cmpxchg a ticket.
 */
#include "klock_state.h"
#include "spinlock.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[LOCK_NKINDS] = {"tas", "ticket", "qspinlock"};

const char *lock_kind_name(lock_kind_t kind)
{
    return (unsigned)kind < LOCK_NKINDS ? kind_names[kind] : "?";
}

int lock_kind_parse(const char *s)
{
    for (int k = 0; s && k < LOCK_NKINDS; k++)
        if (strcmp(s, kind_names[k]) == 0)
            return k;
    return -1;
}

static int line_bytes(machine_t *m)
{
    const platform_t *p = machine_platform(m);
    return p->line_bytes > 64 ? p->line_bytes : 64; /* the 4 x 16 bytes of a CPU's MCS nodes */
}

klock_nodes_t *klock_nodes_create(machine_t *m)
{
    const platform_t *p = machine_platform(m);
    klock_nodes_t *n = xcalloc(1, sizeof *n);
    n->m = m;
    n->ncpus = machine_ncpus(m);
    n->line = line_bytes(m);
    n->qnodes = xcalloc((size_t)n->ncpus, sizeof *n->qnodes);
    for (int i = 0; i < n->ncpus; i++)
        n->qnodes[i] = machine_alloc(m, p->cpu_node[i], (size_t)n->line);
    /* 128-aligned blocks: no two CPUs' bookkeeping on one host line */
    n->cpu = xcheck(aligned_alloc(128, (size_t)n->ncpus * sizeof *n->cpu));
    memset(n->cpu, 0, (size_t)n->ncpus * sizeof *n->cpu);
    return n;
}

void klock_nodes_destroy(klock_nodes_t *n)
{
    if (!n)
        return;
    free(n->qnodes);
    free(n->cpu);
    free(n);
}

klock_t *klock_create_at(machine_t *m, lock_kind_t kind, maddr_t word, klock_nodes_t *nodes)
{
    if ((unsigned)kind >= LOCK_NKINDS)
        return NULL;
    klock_t *l = xcalloc(1, sizeof *l);
    l->kind = kind;
    l->m = m;
    l->word = word;
    l->nodes = nodes;
    if (!nodes) {
        l->nodes = klock_nodes_create(m);
        l->own_nodes = 1;
    }
    return l;
}

klock_t *klock_create(machine_t *m, lock_kind_t kind, int home, klock_nodes_t *nodes)
{
    if ((unsigned)kind >= LOCK_NKINDS)
        return NULL;
    return klock_create_at(m, kind, machine_alloc(m, home, (size_t)line_bytes(m)), nodes);
}

void klock_destroy(klock_t *l)
{
    if (!l)
        return;
    if (l->own_nodes)
        klock_nodes_destroy(l->nodes);
    free(l);
}

lock_kind_t klock_kind(const klock_t *l)
{
    return l->kind;
}

maddr_t klock_word(const klock_t *l)
{
    return l->word;
}

maddr_t klock_qnodes(const klock_t *l, int cpu)
{
    const klock_nodes_t *n = l->nodes;
    return l->kind == LOCK_QSPIN && cpu >= 0 && cpu < n->ncpus ? n->qnodes[cpu] : 0;
}

/* --- ticket --- */

#define TICKET_NEXT  (UINT64_C(1) << 32) /* one ticket of the next half */
#define TICKET_OWNER UINT64_C(0xffffffff)

static uint32_t next_of(uint64_t v)
{
    return (uint32_t)(v >> 32);
}

static uint32_t owner_of(uint64_t v)
{
    return (uint32_t)(v & TICKET_OWNER);
}

/* The holder's ticket, kept in its CPU's block of the shared nodes; a CPU
 * that holds more than KCPU_HELD ticket locks at once keeps none for the
 * rest, and their unlock reads the owner half (the holder's ticket) back. */
static void keep_ticket(cpu_t *c, klock_t *l, uint32_t t)
{
    kcpu_t *k = &l->nodes->cpu[cpu_id(c)];
    if (k->nheld < KCPU_HELD) {
        k->held[k->nheld].lock = l;
        k->held[k->nheld++].ticket = t;
    }
}

static uint32_t take_ticket(cpu_t *c, klock_t *l)
{
    kcpu_t *k = &l->nodes->cpu[cpu_id(c)];
    for (uint32_t i = k->nheld; i-- > 0;)
        if (k->held[i].lock == l) {
            uint32_t t = k->held[i].ticket;
            k->held[i] = k->held[--k->nheld];
            return t;
        }
    return owner_of(cpu_read(c, l->word));
}

static void ticket_lock(cpu_t *c, klock_t *l)
{
    uint64_t v = cpu_fetch_add_order(c, l->word, TICKET_NEXT, CPU_ACQUIRE);
    uint32_t t = next_of(v);
    keep_ticket(c, l, t);
    v += TICKET_NEXT; /* the word as the xadd left it */
    while (owner_of(v) != t) {
        /* Spin on a shared copy of the word until a release (or a new
         * arrival) changes it; then look again, with acquire. */
        cpu_spin_while_eq(c, l->word, v);
        v = cpu_read_acquire(c, l->word);
    }
}

static int ticket_trylock(cpu_t *c, klock_t *l)
{
    uint64_t v = cpu_read(c, l->word);
    if (next_of(v) != owner_of(v))
        return 0;
    if (!cpu_cmpxchg_order(c, l->word, v, v + TICKET_NEXT, CPU_ACQUIRE))
        return 0;
    keep_ticket(c, l, next_of(v));
    return 1;
}

static void ticket_unlock(cpu_t *c, klock_t *l)
{
    uint64_t d = 1;
    if (take_ticket(c, l) == UINT32_MAX)
        d -= TICKET_NEXT; /* the owner half wraps: no carry into next */
    cpu_fetch_add_order(c, l->word, d, CPU_RELEASE);
}

static int ticket_is_locked(cpu_t *c, klock_t *l)
{
    uint64_t v = cpu_read(c, l->word);
    return next_of(v) != owner_of(v);
}

/* --- dispatch --- */

void klock_lock(cpu_t *c, klock_t *l)
{
    switch (l->kind) {
    case LOCK_TICKET:
        ticket_lock(c, l);
        break;
    case LOCK_QSPIN:
        qspin_lock(c, l);
        break;
    default:
        spin_lock(c, l->word);
    }
}

int klock_trylock(cpu_t *c, klock_t *l)
{
    switch (l->kind) {
    case LOCK_TICKET:
        return ticket_trylock(c, l);
    case LOCK_QSPIN:
        return qspin_trylock(c, l);
    default:
        /* spin_trylock's xchg: a taken lock is written 1 again, harmless. */
        return spin_trylock(c, l->word);
    }
}

void klock_unlock(cpu_t *c, klock_t *l)
{
    switch (l->kind) {
    case LOCK_TICKET:
        ticket_unlock(c, l);
        break;
    case LOCK_QSPIN:
        qspin_unlock(c, l);
        break;
    default:
        spin_unlock(c, l->word);
    }
}

int klock_is_locked(cpu_t *c, klock_t *l)
{
    switch (l->kind) {
    case LOCK_TICKET:
        return ticket_is_locked(c, l);
    case LOCK_QSPIN:
        return qspin_is_locked(c, l);
    default:
        return cpu_read(c, l->word) != 0;
    }
}
