/* results: statistics of a combination's calls and the CSV row they make
 * (the files themselves are written through util/outfile.h). */
#ifndef NUMASIM_RESULTS_H
#define NUMASIM_RESULTS_H

#include "cpu.h"
#include "err.h"

#include <stdint.h>
#include <stdio.h>

/* What some workloads measure besides the calls' cycles, summed over the
 * runs of a row (late_max, late_ppm: the largest), all uint64_t (the part file writes
 * them as an array). */
typedef struct {
    uint64_t fired;      /* tick: timer functions run on the caller's base */
    uint64_t late_sum;   /* ... jiffies past their expiry, summed */
    uint64_t late_max;   /* ... the largest */
    uint64_t early;      /* ... run before their expiry (a broken promise) */
    uint64_t overdue;    /* ... run later than the 6.1 wheel's granularity allows */
    uint64_t late_ppm;   /* ... the largest lateness over its timeout, in millionths */
    uint64_t ops;        /* contend: operations all contenders completed */
    uint64_t ops_sq;     /* ... the sum over contenders of their count squared */
    uint64_t contenders; /* ... CPUs contending, summed over the runs */
    uint64_t window;     /* ... cycles the contenders ran, summed over the runs */
} run_extra_t;

/* Which extra columns a CSV has (after results_header's): none; tick:
 * p99_cycles, fired_per_tick, late_mean_jiffies, late_max_jiffies,
 * late_max_share (of the timeout), fired_early, fired_overdue; contend: p99_cycles, ops,
 * cycles_per_op (the contenders' cycles over their operations: one lock handoff and its work),
 * fairness (Jain's index of the counts of every contender of every run: 1 when all did as many, 1/n
 * when one did everything). */
typedef enum { EXTRA_NONE, EXTRA_TICK, EXTRA_CONTEND } extra_cols_t;

/* row->extra += *x (late_max: the larger). */
void results_add_extra(run_extra_t *sum, const run_extra_t *x);
/* The header line for the columns cols. */
void results_print_header(FILE *f, extra_cols_t cols);

typedef struct {
    char scenario[128], platform[128], strategy[32], cache[8];
    int cpus, nodes, calls;
    double mean, median, p95, p99, min, max;
    uint64_t violations, oopses, uaf, bugs;
    unsigned long seed;
    int seeds, seeds_violating;
    char sweep_key[128], sweep_value[128];
    uint64_t sim_cycles, accesses;
    cpu_anatomy_t anatomy; /* the caller's counters summed over the calls */
    extra_cols_t cols;
    run_extra_t extra;
} result_row_t;

/* The fixed columns, in order, then the anatomy columns: the mean per call
 * of each access kind (count, then cycles), relax_cycles, work_cycles, ticks
 * and tick_cycles (the part of the call spent in ticks, already counted);
 * then, appended with the cache levels: hits by level (hit_l1..hit_l3, in
 * hits already), code_lines, code_misses, code_remote, code_cycles,
 * evictions, footprint_evictions; then, appended with the TLBs: tlb2_hits,
 * tlb_walks and tlb_cycles (translations found in a second level, walked,
 * and their cost, in the accesses' and code's cycles already); then,
 * appended with the core: issue_cycles, stall_cycles, hidden_cycles,
 * overlapped and code_streamed (cpu_anatomy_t; 0 with core none). The six
 * kinds' cycles, relax, work, code_cycles and issue_cycles, less
 * hidden_cycles, add up to mean_cycles. */
extern const char *const results_header;

/* Fills the statistics of row from n cycle counts (sorted in place). */
void results_stats(result_row_t *row, uint64_t *cycles, size_t n);

/* Writes row r to f as one CSV line of results_header's columns. */
void results_print_row(FILE *f, const result_row_t *r);

/* row->anatomy += *a. */
void results_add_anatomy(result_row_t *row, const cpu_anatomy_t *a);

#endif
