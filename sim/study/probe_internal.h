/* probe_internal: what the probe's files share: probe.c (the coherence
 * probes, the program, the statistics), probe_cache.c (the pointer chase
 * and the pause probes), probe_core.c (the core's probes, run in
 * probe_cache.c's section) and probe_cell.c (the cells, the barrier, the
 * timer pair). Calls go one way: probe.c -> probe_cache.c -> probe_core.c
 * -> probe_cell.c. Not an API: only these files include it. */
#ifndef NUMASIM_PROBE_INTERNAL_H
#define NUMASIM_PROBE_INTERNAL_H

#include "cpu.h"
#include "probe.h"
#include "timer/timer.h"

/* Operations per sample of the cheap probes (hit, atomic_held, timer_ops):
 * one of them alone is below the resolution of some hosts' counters (a
 * virtual machine's TSC may advance by 20 at a time). */
#define PROBE_BATCH 32

typedef enum {
    K_OVERHEAD,
    K_HIT,
    K_ATOMIC,
    K_LOAD_MEM,
    K_LOAD_DIRTY,
    K_STORE_INVAL,
    K_PP_LDST,
    K_PP_CAS,
    K_TIMER_OPS,
    K_CHASE,   /* probe_cache.c */
    K_PAUSE,   /* probe_cache.c */
    K_PAGES,   /* probe_cache.c */
    K_MLP,     /* probe_core.c */
    K_CODE,    /* probe_core.c */
    K_RMW_LOAD /* probe_core.c */
} kind_t;

typedef struct {
    kind_t kind;
    int from, to;   /* CPUs */
    int home;       /* node of the line */
    int nsharers;   /* store_inval: the next nsharers CPUs after from */
    maddr_t line;   /* the probed line (0 for the chase and pause cells) */
    int reps;       /* samples */
    int batch;      /* operations timed together in one sample */
    uint64_t bytes; /* chase: the working set; pages: the pages; mlp: K; code: N */
    uint64_t pause; /* timer_ops_pause: cycles of work before the pair */
    int ticks;      /* timer_ops_pause: with the tick (interrupts enabled) */
    double *sample; /* [reps] raw cycles */
} cell_t;

typedef struct {
    platform_t *p;
    int reps;
    int hz;          /* the tick rate of the ticks-on pause rows */
    uint64_t period; /* the tick period in cycles (0: no tick) */
    int ncells, cap;
    cell_t *cells;
    maddr_t bar_count, bar_gen;
    tcore_t *tc;        /* for timer_ops; its tick is taken only in the ticks-on pause rows */
    maddr_t timer;      /* timer_ops' timer, on CPU 0's node */
    uint64_t chase_max; /* the largest working set; its buffer is allocated by the first chase */
    maddr_t section;    /* probe_cache.c: what CPU 0 is doing, for the CPUs that wait */
    int only_cache;     /* probe_opts_t's */
    int only_core;      /* probe_opts_t's */
    int native;         /* the host's own caches (its platform lists no levels) */
    const uint64_t *pauses; /* [npauses] of the pause rows */
    int npauses;
    maddr_t chase_buf;
    int err;
} probe_ctx_t;

/* probe_cell.c: appends a cell (reps samples of batch operations); a line
 * of its own, with a spare after it, is allocated on home when with_line
 * is set. */
cell_t *probe_add_cell(probe_ctx_t *X, machine_t *m, kind_t kind, int from, int to, int home, int k,
                       int with_line);
/* probe_cell.c: all CPUs meet (a counter and a generation word in machine
 * memory). */
void probe_barrier(cpu_t *c, const probe_ctx_t *X);
/* probe_cell.c: mod_timer then del_timer of the probe's timer. */
void probe_timer_pair(cpu_t *c, const probe_ctx_t *X);

/* probe_cache.c: the most pages of a pages_N row on p (0: no row), at
 * least PROBE_PAGES_FAR where the TLBs allow, and natively (native != 0)
 * that far where p names no TLB (see probe_cache.c). */
enum { PROBE_PAGES_FAR = 16384 };
uint64_t probe_pages_max(const platform_t *p, uint64_t chase_max, int native);
/* probe_cache.c: adds the timer_ops_pause and chase_S cells (after every
 * other cell: they come last in the program). */
void probe_cache_cells(probe_ctx_t *X, machine_t *m);
/* Run by every CPU from cell `first` (the first pause or chase cell) on:
 * CPU 0 runs the cells, the others wait (see probe_cache.c). Interrupts
 * are disabled on entry and on return. */
void probe_cache_section(cpu_t *c, probe_ctx_t *X, int first);
/* The row name of a chase, pause, mlp or code cell. */
void probe_cache_name(const cell_t *k, char *buf, size_t n);

/* probe_core.c: adds the mlp_K and code_N cells. */
void probe_core_cells(probe_ctx_t *X, machine_t *m);
/* probe_core.c: runs an mlp or code cell on CPU 0 (interrupts off). */
void probe_core_run(cpu_t *c, probe_ctx_t *X, cell_t *k);
/* probe_core.c: the row name of an mlp or code cell. */
void probe_core_name(const cell_t *k, char *buf, size_t n);
/* probe_cell.c: the chase buffer of probe_cache.c and probe_core.c,
 * chase_max bytes on CPU 0's node, allocated at its first use. */
maddr_t probe_chase_buf(cpu_t *c, probe_ctx_t *X);

#endif
