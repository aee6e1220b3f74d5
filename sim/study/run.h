/* run: one simulation of one scenario combination (platform x strategy x
 * cache state x seed), in the calling process.
 *
 * The measured CPU repeats the scenario's workload `warmup_calls + calls`
 * times and times each del_timer_sync call in cycles (warm-up calls are not
 * kept); the other CPUs take ticks and run the background load. See
 * docs/results.md, "What one call measures".
 */
#ifndef NUMASIM_RUN_H
#define NUMASIM_RUN_H

#include "cpu.h"
#include "err.h"
#include "host.h"
#include "native.h"
#include "platform.h"
#include "results.h"
#include "scenario.h"

#include <stdint.h>

typedef struct {
    /* in */
    const scenario_t *s;
    platform_t *p;
    strategy_id_t strategy;
    cache_state_t cache;
    unsigned long seed;
    int trace;            /* print the oracle's trace of the first violation on stderr */
    host_t *host;         /* run natively on this host (p must be its platform); NULL: simulate */
    native_opts_t native; /* with host */
    const char *paje;     /* when not NULL: write a Paje trace of the first paje_calls calls here */
    int paje_calls;
    /* out */
    uint64_t *cycles; /* [ncalls] cost of each measured call; caller frees */
    int ncalls;
    uint64_t violations, oopses, bugs, uaf;
    uint64_t accesses, switches, batched, sim_cycles;
    cpu_anatomy_t anatomy;    /* the caller's counters, summed over the measured calls */
    run_extra_t extra;        /* what workloads tick and contend measure besides cycles */
    int first_bad_call;       /* index (warm-up included) of the first violation, or -1 */
    uint64_t first_bad_cycle; /* the caller's cycle at that return */
    uint64_t gap_end_start, gap_rearm_end; /* oracle_tightness() */
} run_t;

/* Checks that the scenario's CPUs and nodes exist on r->p: returns 0, or -1
 * with e naming the scenario key ("FILE:LINE: ..."). */
int run_check(const scenario_t *s, const platform_t *p, err_t *e);

/* Runs the simulation (starts SimGrid: once per process). Returns 0, or -1
 * with e. */
int run_one(run_t *r, const char *argv0, err_t *e);

#endif
