/* scenario: scenario files (INI, read with libinih).
 *
 * A scenario says which platforms, strategies and cache states to combine,
 * how the measured CPU calls del_timer_sync, what the timer function does
 * and what load the other CPUs put on their timer bases. Every key, its unit
 * and default is in scenarios/README.md; the key table in scenario.c is the
 * single source of truth for names, types and ranges.
 *
 * Errors (unknown section or key, wrong type, value out of range, missing
 * file) are "FILE:LINE: message"; an override from --set reports as
 * "--set: message".
 */
#ifndef NUMASIM_SCENARIO_H
#define NUMASIM_SCENARIO_H

#include "err.h"
#include "platform.h"
#include "klock.h"
#include "strategy.h"

#include <stdint.h>
#include <stdio.h>

typedef enum { CACHE_WARM, CACHE_COLD } cache_state_t;
/* A cold call's flush: the data lines the caller holds, or its code too. */
typedef enum { COLD_FLUSH_DATA, COLD_FLUSH_ALL } cold_flush_t;

/* What the measured CPU and its helpers do in each call (see run.c). */
typedef enum {
    WORKLOAD_SCHEDULE_TIMEOUT, /* arm on the caller, work, delete before expiry */
    WORKLOAD_REARM,            /* a self-re-arming timer on arm_cpu, deleted while it runs */
    WORKLOAD_OVERLAP,          /* two overlapping runs on two CPUs, then delete */
    WORKLOAD_FIRST_RUN,        /* a fresh timer deleted right as it first fires */
    WORKLOAD_HOP,     /* runs on the caller's CPU, hops to arm_cpu, deleted as it fires there */
    WORKLOAD_TICK,    /* wheel.timers armed on the caller's base: the tick's cost, timed */
    WORKLOAD_CONTEND, /* contend.cpus CPUs re-arm and delete timers of one base */
} workload_t;

/* The timer cores (kernel.core): a strategy runs on one of them. */
typedef enum { KERNEL_CORE_26, KERNEL_CORE_61, KERNEL_NCORES } kernel_core_t;

typedef struct {
    char *key;    /* "section.key" */
    char *value;  /* as resolved */
    char *origin; /* "default", "FILE:LINE" or "--set" */
} scenario_kv_t;

typedef struct {
    char *path; /* the scenario file, as given */
    char *name; /* [scenario] name, default: file name without .ini */
    char *description;
    int is_default; /* run by scripts/run */

    /* [scenario] */
    int nplatforms;
    char **platforms; /* paths resolved against the scenario's directory */
    int nstrategies;
    strategy_id_t strategies[STRAT_COUNT]; /* in the order given, no repeats */
    int ncaches;
    cache_state_t caches[2];
    unsigned long seed;
    int seeds;              /* runs seed, seed+1, ..., seed+seeds-1 */
    uint32_t jitter_cycles; /* added to every miss, uniform in [0, jitter] */
    char *sweep_key;        /* "section.key" swept, or NULL */
    int nsweep;
    char **sweep_values;
    char *sweep2_key; /* a second key swept, or NULL: every pair of values runs */
    int nsweep2;
    char **sweep2_values;

    /* [measure] */
    workload_t workload;
    cold_flush_t cold_flush; /* what a cold call's flush empties */
    int calls;
    int warmup_calls;
    int cpu;                        /* the calling CPU */
    int timer_node;                 /* node holding the timer; -1: the calling CPU's node */
    int arm_cpu;                    /* CPU that arms the timer; -1: the calling CPU */
    uint64_t spacing_cycles;        /* work between arming and the call */
    uint64_t spacing_jitter_cycles; /* uniform extra spacing, from the seed */
    int expires_jiffies;            /* timer armed this far ahead */
    int arm_idle;                   /* the arming CPU is idle (NOHZ): timers may migrate */
    int wait_start;                 /* first_run: spacing counts from the function's start */

    /* [kernel] */
    int ncores;
    kernel_core_t cores[KERNEL_NCORES]; /* the timer cores the strategies may run on */
    int hz;
    int timekeeper_cpu;
    int nomit;
    int omit_barriers[STRAT_COUNT]; /* TBAR_* bit numbers: run_wmb, del_wmb, scan_rmb */
    lock_kind_t lock;               /* the 6.1 bases' lock */
    int timers_migration;           /* 6.1: get_nohz_timer_target moves idle CPUs' timers */

    /* [background] */
    double ops_per_tick; /* mod_timer/del_timer calls per tick per CPU */
    int timers_per_cpu;
    double del_fraction;  /* share of the calls that are del_timer */
    double sync_fraction; /* share of those deletions made with the strategy's del_timer_sync */
    int on_caller;        /* the calling CPU runs background ops too */
    int idle_caller_node; /* the caller's node makes no background calls (it idles) */

    /* [function] */
    uint64_t fn_cycles;
    int fn_rearm;
    double fn_rearm_at; /* fraction of fn_cycles done before re-arming */
    int fn_rearm_jiffies;
    int fn_free;

    /* [overlap] */
    int overlap_first_cpu, overlap_second_cpu;
    uint64_t overlap_first_cycles, overlap_second_cycles;

    /* [wheel] (workload tick) */
    int wheel_timers;                         /* armed on the caller's base */
    int wheel_timeout_min, wheel_timeout_max; /* jiffies, drawn log-uniformly */

    /* [contend] (workload contend) */
    int contend_cpus; /* CPUs 0..cpus-1 work on the caller's base */

    int nresolved;
    scenario_kv_t *resolved; /* every key, defaults included, in table order */
    int nplatform_sets;
    platform_override_t *platform_sets; /* --set platform.NAME=VALUE */
} scenario_t;

/* Reads a scenario file, then applies the "section.key=value" overrides in
 * sets (an override of "platform.NAME" is kept for the platform instead).
 * Returns a scenario the caller frees with scenario_free(), or NULL with e. */
scenario_t *scenario_load(const char *path, const char *const *sets, int nsets, err_t *e);
void scenario_free(scenario_t *s);

/* Writes "key = value ; origin" lines of the resolved configuration. */
void scenario_write_resolved(const scenario_t *s, FILE *f);

/* The names of the values as the files write them. */
const char *cache_state_name(cache_state_t c);
const char *workload_name(workload_t w);          /* "rearm", ...; "?" if out of range */
const char *kernel_core_name(kernel_core_t core); /* "2.6", "6.1"; "?" if out of range */
/* The core strategy id runs on. */
kernel_core_t strategy_core(strategy_id_t id);

#endif
