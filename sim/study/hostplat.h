/* hostplat: a platform file describing this host (`numasim platform
 * --from-host`), from hwloc's topology and, optionally, a probe CSV.
 *
 * hwloc gives the CPUs (PUs, in logical order), the NUMA nodes that hold
 * CPUs, the package of each node, the cache line size and the ACPI SLIT
 * distance matrix ("NUMALatency"; relative, 10 = local) when the firmware
 * has one. HWLOC_XMLFILE=FILE makes hwloc read a saved or synthetic topology
 * instead of this machine.
 *
 * Nodes are joined by one link per node pair; links of equal distance form
 * one class "slitD" (a tunable "link.slitD"). Without a matrix, pairs in the
 * same package form class "package" and pairs across packages "xpackage",
 * both at Linux's default remote distance 20. A class's one-way latency is
 * set so that a remote clean miss costs mem_local_cycles * D / 10 (the SLIT's
 * meaning), or, with a probe, from the probe's remote load_mem rows.
 */
#ifndef NUMASIM_HOSTPLAT_H
#define NUMASIM_HOSTPLAT_H

#include "err.h"
#include "host_topo.h"
#include "probe.h"

#include <stdio.h>

/* The instructions each code unit executes per call on this host, as
 * callgrind counts them in runs of numasim itself (hostplat_exec.c). */
typedef struct host_executed host_executed_t;
/* Counts them: valgrind runs numasim natively (a few minutes). Returns the
 * counts, or NULL with e (valgrind missing, a run failed). */
host_executed_t *host_count_executed(err_t *e);
void host_executed_free(host_executed_t *x);

/* Writes the platform file of t to f, zone id `name`. probe (may be NULL)
 * supplies measured memory costs; probe_path names it in comments. x (may
 * be NULL: objdump's static counts) gives the code units' instructions.
 * The TLBs come from CPUID, or from the probe's pages_N rows where CPUID
 * names none, or with tlbs_from_rows always. command is recorded in the
 * header comment. Returns 0, or -1 when a write failed. */
int host_write_platform(FILE *f, const host_topo_t *t, const char *name,
                        const probe_result_t *probe, const char *probe_path,
                        const host_executed_t *x, int tlbs_from_rows, const char *command);

#endif
