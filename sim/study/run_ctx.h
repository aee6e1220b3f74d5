/* run_ctx: the state of one run that run.c and the workloads of
 * run_tick.c share; not an API. run.c calls run_tick.c, never the reverse. */
#ifndef NUMASIM_RUN_CTX_H
#define NUMASIM_RUN_CTX_H

#include "oracle.h"
#include "run.h"
#include "timer/timer.h"

#define LOAD(x)     __atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)

typedef struct {
    run_t *r;
    const scenario_t *s;
    tcore_t *tc;
    oracle_t * or ;
    int fn_id, bg_fn_id;
    maddr_t timer;   /* the measured timer */
    int timer_freed; /* its function freed it */
    int caller;
    uint64_t period;
    maddr_t **bg_timers; /* [ncpus][timers_per_cpu] */
    /* Helper requests (bookkeeping, no cost). The fields that CPUs share are
     * read and written with atomics (LOAD/STORE above): on the native machine
     * the CPUs are threads. */
    int *arm_req;       /* [ncpus]: arm the timer, with data */
    uint64_t *arm_data; /* [ncpus] */
    uint64_t fn_starts; /* runs of the measured timer's function */
    uint64_t strike_at; /* first_run: the tick that will run the timer */
    int done;
    /* workloads tick and contend (run_tick.c) */
    int measuring;     /* the caller is past its warm-up */
    maddr_t *wheel;    /* [wheel_timers] the tick workload's timers */
    uint64_t *expires; /* [wheel_timers] the jiffy each was last armed for */
    uint64_t *timeout; /* [wheel_timers] ... and how far ahead that was */
    int wheel_fn_id;
    uint64_t *ops;      /* [ncpus] contend: operations done while measuring */
    uint64_t *ops_all;  /* [ncpus] contend: operations, warm-up included */
    uint64_t *ops_snap; /* [ncpus] contend: ops_all when the caller's call began */
    uint64_t others;    /* contend: the other CPUs' operations, warm-up included */
    uint64_t starve;    /* contend: at this many of them the run ends (see contender) */
    maddr_t *own;       /* [ncpus] contend: each contender's timer */
    int *contender;     /* [ncpus] */
    int base_cpu;       /* contend: the CPU whose base they share */
} ctx_t;

/* From setup, for workload tick: allocates wheel.timers timers in the
 * caller's node and installs the caller's program, which arms them, then
 * times `calls` ticks of its CPU. */
void run_tick_setup(machine_t *m, ctx_t *x);
/* From setup, for workload contend: contend.cpus CPUs from the caller on
 * delete and re-arm a timer each on the caller's base; the caller times
 * each of its operations. */
void run_contend_setup(machine_t *m, ctx_t *x);
/* From finish: the workloads' counters into x->r->extra. */
void run_tick_finish(ctx_t *x);
/* Frees what the setups allocated. */
void run_tick_free(ctx_t *x);

#endif
