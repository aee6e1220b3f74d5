/* part: slices of a run and the partial results they write.
 *
 * A scenario's combinations (platform x strategy x cache x sweep value x
 * seed) are numbered in the order `numasim run` runs them: sweep value,
 * then platform, strategy, cache, seed, the last varying fastest. Slice I
 * of N (I from 0 to N-1) holds the combinations k with k mod N == I, so that
 * the costly combinations (big platforms, scans) spread over the slices.
 *
 * A part file is the raw result of one slice: every combination's per-call
 * cycles and counters, plus everything needed to pool them into the CSV
 * rows and the resolved configuration without the scenario's files: the
 * group table (which combinations make one CSV row, and that row's labels)
 * and the resolved configuration's text. A header carries the numasim
 * version, the slice, and a hash of the scenario file, its platform files,
 * the resolved configuration and the group table; the last line is an end
 * marker. part_merge() checks a set of parts against each other (one
 * scenario, one version, every slice exactly once, none truncated) and pools
 * them; the result is the same as the plain run's, byte for byte.
 *
 * Format (text, one record per line, fields separated by tabs):
 *   numasim-part 1
 *   version V | scenario NAME | sweep_key KEY | hash HEX | slice I/N
 *   combinations K | command ARGS | head LINE | body LINE (repeated)
 *   group FIRST N PLATFORM CPUS NODES STRATEGY CACHE SEED SWEEP_VALUE
 *   combo K NCALLS VIOLATIONS OOPSES BUGS UAF ACCESSES SIM_CYCLES C1 C2 ...
 *   end COMBOS_IN_THIS_PART
 */
#ifndef NUMASIM_PART_H
#define NUMASIM_PART_H

#include "cpu.h"
#include "err.h"
#include "results.h"

#include <stdint.h>
#include <stdio.h>

/* One combination's raw result; ncalls < 0 while it is not known. */
typedef struct {
    int ncalls;
    uint64_t *cycles; /* [ncalls], owned */
    uint64_t violations, oopses, bugs, uaf, accesses, sim_cycles;
    cpu_anatomy_t anatomy; /* the caller's counters over the measured calls */
    run_extra_t extra;
} part_combo_t;

/* One CSV row: combinations [first, first + n) pooled. */
typedef struct {
    int first, n;
    char platform[128];
    int cpus, nodes;
    char strategy[32], cache[8];
    unsigned long seed;
    char sweep_value[128];
} part_group_t;

typedef struct {
    char version[32], scenario[128], sweep_key[128];
    uint64_t hash;
    int slice, nslices; /* 0/1 for a whole run */
    int ncombos, ngroups;
    part_group_t *groups; /* [ngroups], owned */
    part_combo_t *combos; /* [ncombos], owned */
    char *command;        /* arguments of the equivalent plain run after "-o OUT", owned */
    char *head, *body;    /* resolved configuration: first line; from the third on */
    extra_cols_t cols;    /* the CSV's extra columns */
} part_t;

/* The slice (0..nslices-1) that runs combination k. */
int part_slice_of(int k, int nslices);

/* Parses "I/N" (0 <= I < N, N >= 1). Returns 0, or -1 with e. */
int part_parse_slice(const char *s, int *slice, int *nslices, err_t *e);

/* FNV-1a over n bytes, continuing from h (start with PART_HASH_INIT). */
#define PART_HASH_INIT 0xcbf29ce484222325ULL
uint64_t part_hash(uint64_t h, const void *data, size_t n);
/* The same over a file's bytes. Returns 0, or -1 with e. */
int part_hash_file(uint64_t *h, const char *path, err_t *e);
/* The same over the group table and combination count (the row layout). */
uint64_t part_hash_layout(uint64_t h, const part_t *p);

/* Writes p, with only the combinations of p->slice, to f. Returns 0 or -1
 * (write error: check ferror). */
int part_write(FILE *f, const part_t *p);

/* Reads a part file. Returns a part the caller frees with part_free(), or
 * NULL with e. A part without its end marker sets *truncated to 1 and
 * returns the part with its header (when the header was whole). */
part_t *part_read(const char *path, int *truncated, err_t *e);
void part_free(part_t *p);
/* Frees what p owns, not p itself (for a part on the stack). */
void part_release(part_t *p);

/* Checks parts [n] (read from paths[n], truncated[n] from part_read) and
 * pools them into one part with every combination filled, which the caller
 * frees. nslices > 0 is the expected slice count (then n may be 0), 0 takes
 * it from the parts. On error returns NULL with e (one line; for missing or
 * truncated slices it names them all). */
part_t *part_merge(part_t *const *parts, const char *const *paths, const int *truncated, int n,
                   int nslices, err_t *e);

/* Writes the CSV header and one row per group of a complete part to csv;
 * if table is not NULL, also the human-readable summary lines to it. */
void part_write_rows(const part_t *p, FILE *csv, FILE *table);

/* Writes the resolved configuration: head, "; command: numasim CMD", body. */
void part_write_resolved(const part_t *p, FILE *f, const char *cmd);

#endif
