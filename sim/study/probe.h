/* probe: latency microbenchmarks written as programs on the machine API.
 *
 * Every probe is a little program of one to k+1 CPUs that puts a line in a
 * known coherence state, then times ONE operation (or one ping-pong round
 * trip) with cpu_now() just before and just after it. Only the cpu_* and
 * machine_* calls of cpu.h are used, and the CPUs coordinate through flags
 * in machine memory, so the same programs run on the simulated machine (what
 * the model says) and, through a native backend of the same API, on real
 * pinned threads (what the hardware does).
 *
 * Probes (from = the CPU that times; to = the other party; nodes are theirs,
 * except for load_mem where to_node is the home node of the line):
 *   timer_overhead   cpu_now(); cpu_now(); (subtracted from every other sample)
 *   hit              a load of a line the CPU holds (per load, of 32 timed together)
 *   atomic_held      fetch-and-add on a line the CPU holds modified (per op, of 32)
 *   timer_ops        mod_timer then del_timer of a timer on the CPU's own base,
 *                    all warm (2.6.6 core; per pair, of 32): what the timer code
 *                    costs besides its misses, for the insn_cycles term
 *   load_mem         flush the cache, then load a line homed on to_node
 *   load_dirty       load a line modified in to_cpu's cache (homed on to_node)
 *   store_inval_K    store to a line the CPU shares with K other CPUs
 *                    (the next K CPUs by id; to_cpu is the last of them)
 *   pingpong_ldst    round trip: store a flag, wait (loads) for the answer
 *   pingpong_cas     round trip: compare-and-swap the flag, wait (loads)
 *   chase_S          pointer chase through a working set of S bytes (lmbench
 *                    lat_mem_rd): per load, of PROBE_CHASE_BATCH dependent loads;
 *                    S from 1 KiB in x2 steps with x1.5 midpoints up to chase_max
 *   pages_N          the same chase through N pages, one line in each (lmbench
 *                    tlb_initialize): N from 8 to 4x the largest data TLB
 *                    (at least PROBE_PAGES_FAR), where the platform has TLBs
 *   timer_ops_pause_P       the timer_ops pair timed once after P cycles of
 *                           cpu_work, interrupts off (P = 0, 10, ..., 10^7,
 *                           or the pauses asked for)
 *   timer_ops_pause_tick_P  the same with the tick at hz
 *   mlp_K            K independent pointer chases interleaved through a
 *                    working set of chase_max (per load, of
 *                    PROBE_CHASE_BATCH): the misses the core overlaps,
 *                    K = 1..16 (only with only_core; probe_core.c)
 *   code_N           a call through a code unit of N cold lines, after
 *                    cpu_flush_cache(c, 1): the front end's stream
 *                    (only with only_core; natively a generated function
 *                    of N lines of NOPs)
 * Node pairs: every ordered pair when nodes^2 <= PROBE_ALL_PAIRS_MAX, else
 * from node 0 to every node. Same-node pairs use a node's first two CPUs.
 * The chase and pause cells run on CPU 0 (probe_cache.c).
 */
#ifndef NUMASIM_PROBE_H
#define NUMASIM_PROBE_H

#include "err.h"
#include "host.h"
#include "platform.h"

#include <stdio.h>

#define PROBE_ALL_PAIRS_MAX 1024
#define PROBE_NAME_MAX      32
#define PROBE_CHASE_BATCH   512               /* dependent loads per chase sample */
#define PROBE_CHASE_CAP     ((long)64 << 20)  /* the largest chase working set */
#define PROBE_CHASE_NOLEVEL ((long)256 << 10) /* chase_max without cache levels */

typedef struct {
    int reps;               /* repetitions per probe, >= 1 */
    int hz;                 /* tick rate of the timer_ops_pause_tick rows (0: no tick) */
    long chase_max;         /* 0: 4x the largest cache level (l1d/l2/l3_bytes), at most
                               PROBE_CHASE_CAP; PROBE_CHASE_NOLEVEL without levels */
    const uint64_t *pauses; /* [npauses] the pauses P of the timer_ops_pause rows, */
    int npauses;            /* ascending; NULL: 0, 10, 100, ..., 10^7 */
    int only_cache;         /* only timer_overhead and the pause and chase rows */
    int only_core;          /* only timer_overhead and the core's rows mlp_K, code_N */
} probe_opts_t;

#define PROBE_PAUSES_MAX 256
#define PROBE_PAUSE_MAX  1000000000ull

/* Parses --pauses "P,P,..." (whole cycles, ascending, at most
 * PROBE_PAUSE_MAX each, PROBE_PAUSES_MAX of them) into out. Returns the
 * count, or -1 with e. */
int probe_parse_pauses(const char *list, uint64_t *out, err_t *e);

typedef struct {
    char probe[PROBE_NAME_MAX];
    int from_cpu, to_cpu, from_node, to_node;
    double median, p10, p90; /* cycles, empty-timing cost subtracted */
    int reps;
} probe_row_t;

typedef struct {
    int nrows;
    probe_row_t *rows;
} probe_result_t;

/* The CSV header (no trailing newline). */
extern const char *const probe_csv_header;

/* Runs every probe, o->reps repetitions each (the pause rows fewer at long
 * pauses, see probe_cache.c), in this process: on the simulated platform p
 * (one sim_run: SimGrid allows one engine per process), or natively on
 * host when it is not NULL (p is then ignored). Returns 0 with r filled
 * (free with probe_result_free), or -1 with e. */
int probe_run(platform_t *p, host_t *host, const probe_opts_t *o, const char *argv0,
              probe_result_t *r, err_t *e);

/* The chase's largest working set on p for a requested chase_max (0: the
 * default rule of probe_opts_t). Returns bytes, or -1 with e when the
 * request is out of range or not a multiple of the line. */
long probe_chase_max(const platform_t *p, long requested, err_t *e);
/* Frees r's rows and empties it. */
void probe_result_free(probe_result_t *r);

/* Writes the rows as CSV to f (header first); platform names the platform
 * column. Returns 0, or -1 when a write failed. */
int probe_write_csv(FILE *f, const char *platform, const probe_result_t *r);

/* Reads a probe CSV (header naming at least probe, from_cpu, to_cpu,
 * from_node, to_node, median_cycles; '#' lines and blank lines skipped).
 * Returns 0 with r filled (free with probe_result_free), or -1 with e
 * ("FILE:LINE: message"). Rows naming the same cell twice are an error. */
int probe_read_csv(const char *path, probe_result_t *r, err_t *e);

/* The row of probe name between from_cpu and to_cpu (to_node: the home
 * node for load_mem), or NULL. These four identify a cell. */
const probe_row_t *probe_find(const probe_result_t *r, const char *probe, int from_cpu, int to_cpu,
                              int to_node);

#endif
