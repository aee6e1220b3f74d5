/* host_topo: this host's CPUs, NUMA nodes, packages, cache line, clock and
 * SLIT distances, read through hwloc, for a platform file describing the host
 * (study/hostplat.h writes it). HWLOC_XMLFILE=FILE makes hwloc read a saved
 * or synthetic topology instead of this machine.
 */
#ifndef NUMASIM_HOST_TOPO_H
#define NUMASIM_HOST_TOPO_H

#include "err.h"

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

#endif
