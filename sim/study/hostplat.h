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
#include "probe.h"

#include <stdio.h>

typedef struct {
    int ncpus, nnodes, npackages;
    int *cpu_os;       /* [ncpus] OS index of each PU (for pinning) */
    int *cpu_node;     /* [ncpus] node (0..nnodes-1) of each PU */
    int *node_os;      /* [nnodes] OS index of each node */
    int *node_package; /* [nnodes] package (logical index), -1 if none */
    double *dist;      /* [nnodes*nnodes] SLIT distances, or NULL */
    int line_bytes;    /* 0 when hwloc reports no cache */
    double clock_mhz;  /* 0 when unknown */
    char clock_origin[128];
    char cpu_model[128];
    int this_system;   /* 0 when read from HWLOC_XMLFILE */
    int dropped_nodes; /* NUMA nodes without CPUs, left out */
} host_topo_t;

/* Reads the topology through hwloc. Returns 0 with t filled (free with
 * host_topo_free), or -1 with e. */
int host_topo_read(host_topo_t *t, err_t *e);
void host_topo_free(host_topo_t *t);

/* Writes the platform file of t to f, zone id `name`. probe (may be NULL)
 * supplies measured memory costs; probe_path names it in comments. command
 * is recorded in the header comment. Returns 0, or -1 when a write failed. */
int host_write_platform(FILE *f, const host_topo_t *t, const char *name,
                        const probe_result_t *probe, const char *probe_path, const char *command);

/* `numasim platform --from-host ...`: argv starts at "platform". */
int cli_from_host(int argc, char **argv);

#endif
