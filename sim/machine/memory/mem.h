/* mem: simulated shared memory and its cache-coherence costs.
 *
 * Memory is a flat space of 64-bit words, carved into lines (line_bytes of
 * the platform, 128 on both 2004 machines). Every line has a home node and a
 * MESI-like state across all CPUs' caches: held exclusive by one CPU (E, or M
 * when dirty) or shared (S) by a set of CPUs. With the platform's cache
 * levels (cache.h), a line also leaves a CPU by capacity (LRU) and a hit
 * costs the level that has it; without levels, caches are infinite: a line
 * leaves a cache only when another CPU writes it or the cache is flushed.
 * With TLBs (tlb.h), an access pays its translation first.
 *
 * mem_hit() (the common hit) and mem_access() (everything else) are the way
 * simulated code touches memory: they update the state and return what the
 * access costs, in cycles, from the platform's figures and its node-to-node
 * route latencies. Nothing here knows SimGrid; the caller
 * (simgrid/simulated.c) charges the time. memory_internal.h says which file
 * does what.
 */
#ifndef NUMASIM_MEM_H
#define NUMASIM_MEM_H

#include "cpu.h"
#include "platform.h"

#include <stddef.h>
#include <stdint.h>

typedef struct mem mem_t;

typedef enum { MEM_READ, MEM_WRITE, MEM_RMW } mem_op_t;

/* Creates the memory of platform p, whose node_lat must be filled. The
 * platform must outlive the memory. Free with mem_destroy(). */
mem_t *mem_create(const platform_t *p);
void mem_destroy(mem_t *m);

/* Addresses below this are never allocated, as Linux leaves the first
 * 64 KiB of a process unmapped (vm.mmap_min_addr's default): a loaded value
 * below it is a number, never an address (the out-of-order core's test of
 * a dependence, simgrid/core.c). */
#define MEM_NULL_GUARD_BYTES 65536

/* Allocates bytes of zeroed memory homed on node, line-aligned so that an
 * object starts a line; returns its address (never below
 * MEM_NULL_GUARD_BYTES). */
maddr_t mem_alloc(mem_t *m, int node, size_t bytes);

/* Marks [a, a+bytes) freed: later writes are counted by mem_freed_writes(). */
void mem_release(mem_t *m, maddr_t a, size_t bytes);
int mem_is_freed(const mem_t *m, maddr_t a);

/* Cost-free views of the value of the 8-byte word at a, for the simulator's
 * own bookkeeping and tests. */
uint64_t mem_peek(const mem_t *m, maddr_t a);
/* mem_peek and mem_poke without the check that a was ever allocated, for
 * an a that an access has just reached (mem_hit or mem_access checked it).
 * No access changes a word: the value is the one at the access's start. */
uint64_t mem_word(const mem_t *m, maddr_t a);
void mem_set_word(mem_t *m, maddr_t a, uint64_t v);
void mem_poke(mem_t *m, maddr_t a, uint64_t v);
/* mem_poke of v[0..n) to the n words from a. */
void mem_poke_words(mem_t *m, maddr_t a, const uint64_t *v, size_t n);

/* CPU cpu performs op on the line holding a. Updates the coherence state and
 * returns the cost in cycles; *kind (if not NULL) gets what was found. */
uint32_t mem_access(mem_t *m, int cpu, maddr_t a, mem_op_t op, access_kind_t *kind);

/* mem_access for an access that starts at cycle now (the caller's clock,
 * never behind an earlier call's). A read's cost is the same plus the wait
 * for another CPU's write or RMW of that line whose transaction has not
 * ended: the line's directory or bus serves the reader after it. Writers
 * do not wait for each other (racing stores keep the order of their
 * completions). A write or RMW that is no hit marks the line until now +
 * cost. */
uint32_t mem_access_at(mem_t *m, int cpu, maddr_t a, mem_op_t op, uint64_t now,
                       access_kind_t *kind);
/* Accesses that waited in mem_access_at, and the cycles they waited. */
void mem_busy_counts(const mem_t *m, uint64_t *waits, uint64_t *cycles);

/* The common access, taken apart: a read of a line cpu holds, or a write or
 * RMW of a line it owns, found in the first level of its data side (or with
 * infinite caches) changes nothing but that set's LRU order, the line's
 * dirty bit and the counters. Then does what mem_access would (a hit), sets
 * *cost and returns 1; else changes nothing and returns 0. */
int mem_hit(mem_t *m, int cpu, maddr_t a, mem_op_t op, uint32_t *cost);

/* cpu fetches the code line of a through the instruction side. Returns the
 * cost (0 for an L1I hit, or any hit of infinite caches); *kind gets what
 * was found (a line in any level cpu reaches is a hit), *level the level of
 * a hit (-1: none, or no levels). Code fetches are not in mem_count(). */
uint32_t mem_fetch_code(mem_t *m, int cpu, maddr_t a, access_kind_t *kind, int *level);

/* The fetch of a code line that hits cpu's own (unshared) L1I: costs
 * nothing and changes nothing another CPU can see, so the simulated machine
 * takes it without a scheduling step. Returns 1 when it was such a hit (its
 * LRU updated, as mem_fetch_code would), else 0 (nothing changed). */
int mem_fetch_code_private_hit(mem_t *m, int cpu, maddr_t a);

/* What mem_fetch_code_private_hit answers for cpu depends on nothing but
 * this number while it stays the same (its l1i's tags and their order):
 * 0 when that cannot be told (no l1i, or TLBs, whose state counts too). */
uint64_t mem_code_version(const mem_t *m, int cpu);

/* Empties cpu's cache (dirty lines are written back at no cost to anyone):
 * every data line it holds (and code line, with_code), in every level, but
 * those that a shared level keeps for another CPU. Foreign lines (page
 * tables, footprints) stay: clflush over the run's own bytes does not
 * reach them. */
void mem_flush(mem_t *m, int cpu, int with_code);

/* Marks [a, a+bytes) as code: mem_flush leaves it unless with_code. */
void mem_mark_code(mem_t *m, maddr_t a, size_t bytes);

/* Footprints (platform.h): what other code brings into cpu's caches, by
 * LRU through every data level, at no cost in cycles. tick: the tick's own
 * lines (the same each tick); work: fresh lines for `cycles` of plain work;
 * time: fresh lines for the time since the last call (other software).
 * No-ops without levels or with a footprint of 0. */
void mem_footprint_tick(mem_t *m, int cpu);
void mem_footprint_work(mem_t *m, int cpu, uint64_t cycles);
void mem_footprint_time(mem_t *m, int cpu, uint64_t now);

/* Does the platform have TLBs? What the last mem_access or mem_fetch_code
 * found its translation in (0 the first level, 1 the second, -1 a walk)
 * and what it cost (*cycles, in that access's cost already). Only
 * meaningful with TLBs, and only right after such an access. */
int mem_has_tlbs(const mem_t *m);
int mem_last_translation(const mem_t *m, uint32_t *cycles);
/* Does cpu's TLB level (0 or 1) of side (code 1, data 0) hold the page of
 * a? Changes nothing; 0 without TLBs. (tests) */
int mem_tlb_holds(const mem_t *m, int cpu, int level, maddr_t a, int code);

/* Does the platform have cache levels? The level (cache_level_t) of the last
 * mem_access's hit, -1 when it was no hit or there are no levels. */
int mem_has_levels(const mem_t *m);
int mem_last_level(const mem_t *m);

/* What one spin-loop read of a held line costs (the first level's latency,
 * or hit_cycles), and whether the spin fast-forward may skip such reads:
 * not when a shared level or the noise footprint can evict the line while
 * the CPU spins. */
uint32_t mem_spin_hit_cycles(const mem_t *m);
int mem_spin_exact(const mem_t *m);

/* Lines cpu lost by capacity since creation (footprint_only: those evicted
 * while a footprint came in); 0 without levels. */
uint64_t mem_evictions(const mem_t *m, int cpu, int footprint_only);

/* Adds a uniform draw in [0, max_cycles] to every access that is not a hit;
 * the draws come from a generator seeded with seed. */
void mem_set_jitter(mem_t *m, uint32_t max_cycles, unsigned long seed);

/* The line index of a, and the home node of that line. */
uint64_t mem_line_of(const mem_t *m, maddr_t a);
int mem_home(const mem_t *m, maddr_t a);

/* Sets in bits (words 64-bit words, zeroed first) every CPU but except
 * (-1: none) that holds the line of a: what a loop of mem_holds over the
 * CPUs gives, in O(words). sum ((words + 63) / 64 words, zeroed first) gets
 * bit w for each word w of bits that is not zero. */
void mem_holders(const mem_t *m, maddr_t a, int except, uint64_t *bits, size_t words,
                 uint64_t *sum);

/* Does cpu hold the line of a (any valid state)? Is it held dirty? */
int mem_holds(const mem_t *m, int cpu, maddr_t a);

/* Counters since creation. */
uint64_t mem_count(const mem_t *m, access_kind_t kind);
uint64_t mem_freed_writes(const mem_t *m);

#endif
