/* hostplat_internal: the parts of this host's platform file that hostplat.c
 * writes through hostplat_caches.c and hostplat_code.c. Not an API: only
 * the hostplat*.c files include it.
 */
#ifndef NUMASIM_HOSTPLAT_INTERNAL_H
#define NUMASIM_HOSTPLAT_INTERNAL_H

#include "hostplat.h"
#include "platform_emit.h"

/* Writes the props of t's cache levels (l1i, l1d, l2, l3: bytes, ways,
 * cycles, scope, or a comment saying why a level is left out) and of its
 * TLBs (from CPUID, on this system only; from the probe's pages_N rows
 * where CPUID names none, or always with tlbs_from_rows), each with its
 * origin; probe pr (may be NULL, named ppath) gives the hit latencies and
 * TLB costs.
 * Returns 1 when a level kept is shared by a package (the CPUs then need
 * their package), else 0. */
int hostplat_write_caches(pemit_t *e, const host_topo_t *t, const probe_result_t *pr,
                          const char *ppath, int tlbs_from_rows);

/* Writes the code_UNIT_bytes props: the sizes of numasim's own functions
 * that implement each code unit, read from /proc/self/exe, each followed by
 * code_UNIT_insns: the instructions a call executes when x (may be NULL)
 * counted the unit, else as objdump counts the functions (else bytes / 4,
 * an estimate); or a comment saying why they are left out. */
void hostplat_write_code(pemit_t *e, const host_executed_t *x);

/* A code unit and the numasim functions that implement it, its entry
 * first ("file.c:fn" names a static function). */
enum { HOSTPLAT_UNIT_FNS = 20 };
typedef struct {
    const char *unit;
    const char *fns[HOSTPLAT_UNIT_FNS];
} hostplat_unit_t;

/* A unit's instructions executed and its entry's calls. */
typedef struct {
    unsigned long long ir, calls;
} hostplat_count_t;

/* Adds to all[u] the instructions callgrind file f counts for units[u] and
 * its entry's calls, and to meas[u] those of the measured program's calls
 * (hostplat_exec.c's theory of operation). Returns 0, or -1 when f holds
 * no Ir counts. */
int hostplat_exec_parse(FILE *f, const hostplat_unit_t *units, int nunits, hostplat_count_t *all,
                        hostplat_count_t *meas);
/* Runs the capture of hostplat_exec.c and sets all and meas from it.
 * Returns 0, or -1 with why (valgrind missing, a run failed). */
int hostplat_exec_count(const hostplat_unit_t *units, int nunits, hostplat_count_t *all,
                        hostplat_count_t *meas, char *why, size_t nwhy);
#endif
