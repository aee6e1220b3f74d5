/* mem: simulated shared memory and its cache-coherence costs.
 *
 * Memory is a flat space of 64-bit words, carved into lines (line_bytes of
 * the platform, 128 on both 2004 machines). Every line has a home node and a
 * MESI-like state across all CPUs' caches: held exclusive by one CPU (E, or M
 * when dirty) or shared (S) by a set of CPUs. Caches are infinite: a line
 * leaves a cache only when another CPU writes it or the cache is flushed.
 *
 * mem_access() is the one way simulated code touches memory: it updates the
 * state and returns what the access costs, in cycles, from the platform's
 * figures and its node-to-node route latencies. Nothing here knows SimGrid;
 * the caller (simgrid/simulated.c) charges the time.
 */
#ifndef NUMASIM_MEM_H
#define NUMASIM_MEM_H

#include "platform.h"

#include <stddef.h>
#include <stdint.h>

typedef uint64_t maddr_t; /* simulated byte address; 0 is NULL */
typedef struct mem mem_t;

typedef enum { MEM_READ, MEM_WRITE, MEM_RMW } mem_op_t;

/* What an access found, in the order of the costs table in mem.c. */
typedef enum {
    MEM_HIT,         /* held by this CPU in a state that allows the op */
    MEM_UPGRADE,     /* held shared, write needs the other copies gone */
    MEM_MISS_LOCAL,  /* served by this node's memory */
    MEM_MISS_REMOTE, /* served by another node's memory */
    MEM_C2C_NODE,    /* modified in another cache on this node's bus */
    MEM_C2C_REMOTE,  /* modified in a cache of another node */
    MEM_NKINDS
} mem_kind_t;

/* Creates the memory of platform p, whose node_lat must be filled. The
 * platform must outlive the memory. Free with mem_destroy(). */
mem_t *mem_create(const platform_t *p);
void mem_destroy(mem_t *m);

/* Allocates bytes of zeroed memory homed on node, line-aligned so that an
 * object starts a line; returns its address (never 0). */
maddr_t mem_alloc(mem_t *m, int node, size_t bytes);

/* Marks [a, a+bytes) freed: later writes are counted by mem_freed_writes(). */
void mem_release(mem_t *m, maddr_t a, size_t bytes);
int mem_is_freed(const mem_t *m, maddr_t a);

/* Cost-free views of the value of the 8-byte word at a, for the simulator's
 * own bookkeeping and tests. */
uint64_t mem_peek(const mem_t *m, maddr_t a);
void mem_poke(mem_t *m, maddr_t a, uint64_t v);

/* CPU cpu performs op on the line holding a. Updates the coherence state and
 * returns the cost in cycles; *kind (if not NULL) gets what was found. */
uint32_t mem_access(mem_t *m, int cpu, maddr_t a, mem_op_t op, mem_kind_t *kind);

/* Empties cpu's cache (dirty lines are written back at no cost to anyone). */
void mem_flush(mem_t *m, int cpu);

/* Adds a uniform draw in [0, max_cycles] to every access that is not a hit;
 * the draws come from a generator seeded with seed. */
void mem_set_jitter(mem_t *m, uint32_t max_cycles, unsigned long seed);

/* The line index of a, and the home node of that line. */
uint64_t mem_line_of(const mem_t *m, maddr_t a);
int mem_home(const mem_t *m, maddr_t a);

/* Does cpu hold the line of a (any valid state)? Is it held dirty? */
int mem_holds(const mem_t *m, int cpu, maddr_t a);

/* Counters since creation. */
uint64_t mem_count(const mem_t *m, mem_kind_t kind);
uint64_t mem_freed_writes(const mem_t *m);
const char *mem_kind_name(mem_kind_t kind);

#endif
