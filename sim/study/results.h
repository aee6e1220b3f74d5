/* results: statistics of a combination's calls and the CSV row they make
 * (the files themselves are written through util/outfile.h). */
#ifndef NUMASIM_RESULTS_H
#define NUMASIM_RESULTS_H

#include "cpu.h"
#include "err.h"

#include <stdint.h>
#include <stdio.h>

typedef struct {
    char scenario[128], platform[128], strategy[32], cache[8];
    int cpus, nodes, calls;
    double mean, median, p95, min, max;
    uint64_t violations, oopses, uaf, bugs;
    unsigned long seed;
    int seeds, seeds_violating;
    char sweep_key[128], sweep_value[128];
    uint64_t sim_cycles, accesses;
    cpu_anatomy_t anatomy; /* the caller's counters summed over the calls */
} result_row_t;

/* The fixed columns, in order, then the anatomy columns: the mean per call
 * of each access kind (count, then cycles), relax_cycles, work_cycles, ticks
 * and tick_cycles (the part of the call spent in ticks, already counted);
 * then, appended with the cache levels: hits by level (hit_l1..hit_l3, in
 * hits already), code_lines, code_misses, code_remote, code_cycles,
 * evictions, footprint_evictions; then, appended with the TLBs: tlb2_hits,
 * tlb_walks and tlb_cycles (translations found in a second level, walked,
 * and their cost, in the accesses' and code's cycles already). The six
 * kinds' cycles, relax, work and code_cycles add up to mean_cycles. */
extern const char *const results_header;

/* Fills the statistics of row from n cycle counts (sorted in place). */
void results_stats(result_row_t *row, uint64_t *cycles, size_t n);

/* Writes row r to f as one CSV line of results_header's columns. */
void results_print_row(FILE *f, const result_row_t *r);

/* row->anatomy += *a. */
void results_add_anatomy(result_row_t *row, const cpu_anatomy_t *a);

#endif
