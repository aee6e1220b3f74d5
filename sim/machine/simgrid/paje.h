/* paje: Paje traces of a simulation through SimGrid's own tracing, for ViTE
 * and pajeng.
 *
 * Per CPU (a SimGrid host container), one state type "CPU" whose values
 * nest: del_timer_sync, tick, run_timers, timer_fn, background_op, spin,
 * probe, and each paid miss as a short state named by its kind
 * (upgrade, miss_local, miss_remote, c2c_node, c2c_remote, and code_fetch for
 * a code line not in L1I). Two variables
 * per CPU: "misses" (paid misses since the window opened) and "probed_cpu"
 * (the CPU whose base the last probe read). Timestamps are exact cycles.
 *
 * The trace covers a window: from the start of the first measured call to
 * the end of the calls-th one. States open when the window opens are pushed
 * at its first cycle; states still open when it closes are popped at its
 * last. Only simulated.c and simulated_run.c call this module; the rest of numasim reaches it
 * through the SimGrid-free hooks of cpu.h.
 */
#ifndef NUMASIM_PAJE_H
#define NUMASIM_PAJE_H

#include "cpu.h"

#include <stdint.h>

typedef struct paje paje_t;

/* Asks for a trace into file (NULL: none) for the next platform_boot() of
 * this process. The string must live until paje_create(). */
void paje_request(const char *file);

/* Called by platform_boot() between simgrid_init and simgrid_load_platform:
 * switches SimGrid's tracing on when a trace was requested. */
void paje_configure(void);

/* After the platform is loaded: returns the recorder of ncpus CPUs on hosts
 * hosts[i] (the strings must outlive it), or NULL when no trace was
 * requested. calls >= 1 is the number of measured calls the window holds.
 * Free with paje_destroy(). */
paje_t *paje_create(int ncpus, char *const *hosts, int calls);
void paje_destroy(paje_t *pj);

/* Events of CPU cpu at cycle t. A CPU's events come in the order of t; the
 * CPUs' may interleave in any order (they are sorted before they are
 * written). name is a string literal among the declared state names. */
void paje_push(paje_t *pj, int cpu, uint64_t t, const char *name);
void paje_pop(paje_t *pj, int cpu, uint64_t t);
void paje_probe(paje_t *pj, int cpu, uint64_t t, int target);
void paje_miss(paje_t *pj, int cpu, uint64_t t, access_kind_t kind, uint32_t cost);
/* A code fetch that cost cycles (a state "code_fetch" of that length). */
void paje_code(paje_t *pj, int cpu, uint64_t t, uint32_t cost);
/* The caller's del_timer_sync call: opens and closes the window. */
void paje_call_begin(paje_t *pj, int cpu, uint64_t t, int measured);
void paje_call_end(paje_t *pj, int cpu, uint64_t t);

/* Writes the window through SimGrid's tracing. Must run in an actor, once
 * every other actor is done or blocked without a timeout, and while
 * SimGrid's clock is still at or before the window (the baton scheduler
 * never advances it). Aborts with a message otherwise. */
void paje_emit(paje_t *pj);

#endif
