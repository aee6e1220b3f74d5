/* order: store buffers and invalidate queues, the memory models tso and
 * weak of the simulated machine (the platform's memory_model; sc needs
 * none of this and creates no order_t).
 *
 * The simulated machine (simgrid/simulated.c) calls these from its access
 * paths, at the cycle of each access, in the global (cycle, CPU id) order of
 * its scheduler; order_settle() must run before every access, with that
 * access's cycle. Values live in mem (mem_peek/mem_poke); this module only
 * decides when a store reaches mem and what a load returns meanwhile. The
 * costs stay mem_access's: the caller pays the coherence transaction of a
 * store when it issues it and tells order_store() its cost, which is how
 * long the store takes to become visible. See order.c for the theory.
 */
#ifndef NUMASIM_ORDER_H
#define NUMASIM_ORDER_H

#include "cpu.h"
#include "mem.h"
#include "platform.h"

#include <stdint.h>

typedef struct order order_t;

/* Creates the buffers of platform p (memory_model tso or weak) over mem.
 * p->node_lat must be filled. Free with order_destroy(). */
order_t *order_create(const platform_t *p, mem_t *mem);
void order_destroy(order_t *o);
platform_model_t order_model(const order_t *o);

/* Makes every buffered store that becomes visible at or before cycle t
 * visible (in the order of their visibility), queueing the invalidations
 * that other CPUs have not processed yet. Call before every access at t. */
void order_settle(order_t *o, uint64_t t);
/* Makes every buffered store visible, at the end of a run (order_settle
 * of an access's cycle, t < UINT64_MAX, is the one to call before it). */
void order_settle_all(order_t *o);

/* Where a load of cpu at cycle t finds a's value, returned in *v: */
typedef enum {
    ORDER_FROM_MEM,    /* nowhere special: the caller reads mem as on sc */
    ORDER_FROM_BUFFER, /* cpu's own buffered store (forwarding) */
    ORDER_FROM_STALE   /* cpu's stale copy, its invalidation still queued */
} order_src_t;
order_src_t order_load(order_t *o, int cpu, maddr_t a, uint64_t t, uint64_t *v);

/* cpu processes its whole invalidate queue at cycle t (an acquire load once
 * performed, mf, a fully ordered or acquire RMW): no later load of cpu sees
 * a value older than what is visible at t. */
void order_process_queue(order_t *o, int cpu, uint64_t t);

/* The cycle at which every store cpu has buffered is visible (0 if none):
 * mf, a release and a locked RMW wait until then. */
uint64_t order_drained_at(const order_t *o, int cpu);
/* The same for cpu's stores to a's line only. */
uint64_t order_line_drained_at(const order_t *o, int cpu, maddr_t a);

/* Before cpu's store or RMW to a at cycle t changes the coherence state
 * (mem_access): notes which CPUs hold the line (their copies go stale) and
 * applies cpu's own queued invalidation of that line. */
void order_before_store(order_t *o, int cpu, maddr_t a, uint64_t t);
/* The same when cpu owns the line (mem_hit of its write said so): nobody
 * else holds it, and mem is not asked. */
void order_before_owned_store(order_t *o, int cpu, maddr_t a, uint64_t t);
/* Buffers cpu's store of v to a, issued at cycle t, whose coherence
 * transaction takes cost cycles (call it after that access: mem_hit or
 * mem_access, which checked a). release: a release store, visible to
 * every CPU at once (the caller has waited for order_drained_at first).
 * quiet_until: no other CPU acts (reads, writes, spins) before this cycle,
 * as far as the caller's scheduler knows (0: unknown); it lets a store
 * that nobody can see early be applied at once, with the same results. */
void order_store(order_t *o, int cpu, maddr_t a, uint64_t v, uint64_t t, uint32_t cost, int release,
                 uint64_t quiet_until);
/* cpu's RMW writes a's word in mem at cycle t, at once (call it before the
 * RMW changes mem, after order_before_store): the CPUs that held the line
 * keep a stale copy until they process its invalidation. */
void order_rmw(order_t *o, int cpu, maddr_t a, uint64_t t);

/* May a spinner on cpu skip reads of a's line until someone writes it? No
 * while a store to that line is buffered anywhere or cpu's copy is stale:
 * the value the spinner reads will change without a new write. */
int order_line_quiet(const order_t *o, int cpu, maddr_t a);

/* The value a will hold once every buffered store is visible (the last in
 * coherence order), for bookkeeping and the oracle. */
uint64_t order_peek(const order_t *o, maddr_t a);

/* Drops cpu's queued invalidations (its cache was flushed). */
void order_flush(order_t *o, int cpu);

/* Counters: stores buffered, loads forwarded, stale loads, stores applied
 * early (seen by nobody before their cycle). */
void order_counts(const order_t *o, uint64_t *stores, uint64_t *forwarded, uint64_t *stale,
                  uint64_t *early);

#endif
