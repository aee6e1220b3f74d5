/* simulated: the machine of cpu.h simulated on SimGrid (simulated.c; these
 * functions: simulated_run.c).
 *
 * What only the simulated machine has: the run itself, its Paje trace, the
 * reference scheduler and its coherence model. Everything else goes through
 * the backend-neutral API of cpu.h.
 */
#ifndef NUMASIM_SIMULATED_H
#define NUMASIM_SIMULATED_H

#include "cpu.h"

typedef struct mem mem_t; /* the memory system (machine/memory/mem.h) */

/* Runs one simulation of platform p in this process (SimGrid allows one per
 * process). At cycle 0, once the routes are known and the memory exists,
 * hooks->setup runs; then every CPU starts. Returns 0 when all CPUs are done,
 * or -1 with e filled (a platform whose routes are broken). seed seeds the
 * per-CPU generators. Fills p->node_lat from SimGrid's routes unless it is
 * already filled. */
int sim_run(platform_t *p, const char *argv0, unsigned long seed, const machine_hooks_t *hooks,
            err_t *e);

/* Loads platform p into this process's SimGrid engine and fills
 * p->node_lat, running nothing: the children this process forks then run
 * sim_run(p, ...) without parsing the platform again. Returns 0, or -1
 * with e filled (broken routes). A Paje trace cannot be requested after it. */
int sim_preload(platform_t *p, const char *argv0, err_t *e);

/* Declares that this process exits once sim_run() returns: it leaves
 * the machine it ran unfreed (at 4096 CPUs, freeing the caches' sets costs
 * a tenth of a short run). */
void sim_exit_after(void);

/* Whether another sim_run() may follow one in this process: 1, unless
 * the reference scheduler is selected (NUMASIM_SCHEDULER=yield), whose
 * steps are SimGrid sleeps until absolute dates, from a clock at 0. */
int sim_run_again_ok(void);

/* Makes the next sim_run() of this process write a Paje trace into file
 * (NULL: none), covering the first `calls` measured calls (see cpu_call_begin
 * and paje.h). file must live until sim_run() returns. */
void sim_request_paje(const char *file, int calls);

/* Runs the bare SimGrid loop the benchmark compares with: one actor per CPU
 * of p, each doing sg_actor_sleep_for(1) until `sleeps` sleeps are done in
 * all. Returns the number of sleeps. Starts SimGrid (once per process). */
long sim_bare_sleeps(platform_t *p, const char *argv0, long sleeps);

/* When 1, use the reference scheduler: every step is a SimGrid sleep until
 * its key (slow; tests compare it with the default baton scheduler). Also
 * selected by NUMASIM_SCHEDULER=yield in the environment. */
void sim_set_always_yield(machine_t *m, int on);

/* The coherence model of a simulated machine (tests and the simulated
 * backend only: code above the machine layer uses machine_alloc & co). */
mem_t *sim_mem(machine_t *m);

#endif
