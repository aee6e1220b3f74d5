/* host: the machine numasim runs on, as hwloc describes it.
 *
 * host_open() reads the topology, picks the CPUs to use and describes them
 * as a platform_t (name "host"), so that code written for a simulated
 * platform (run_check, the run's programs, the results) works unchanged.
 * The native machine (native.h) runs on a host_t.
 *
 * CPU numbering: scenario CPU i is the i-th CPU of the list used (--cpus,
 * default every CPU this process may run on, in OS order). Nodes are the
 * host's NUMA nodes that hold a CPU used, renumbered from 0 in OS order.
 */
#ifndef NUMASIM_HOST_H
#define NUMASIM_HOST_H

#include "err.h"
#include "platform.h"

#include <stddef.h>
#include <stdio.h>

typedef struct host host_t;

/* Opens the host. cpus: a list of OS CPU numbers ("0,2-3"), or NULL for
 * all. Fails (NULL, e filled, "--cpus: ..." for a bad list) when a CPU is
 * not available, or when the host has no usable cycle counter. The
 * clock is measured (about 50 ms). Free with host_close(). */
host_t *host_open(const char *cpus, err_t *e);
void host_close(host_t *h);

/* The host as a platform: owned by h, valid until host_close(). */
platform_t *host_platform(host_t *h);

/* The OS number of scenario CPU i; the host's CPU model, kernel release,
 * the name of the cycle counter and its rate in MHz. */
int host_os_cpu(const host_t *h, int cpu);
const char *host_model(const host_t *h);
const char *host_kernel(const host_t *h);
const char *host_clock_name(const host_t *h);
double host_clock_mhz(const host_t *h);

/* Pins the calling thread to scenario CPU i. Returns 0, or -1 with e. */
int host_bind_thread(host_t *h, int cpu, err_t *e);

/* Binds [addr, addr+len) (page-aligned, not yet touched) to node's memory.
 * Returns 0, or -1 with e. */
int host_bind_memory(host_t *h, void *addr, size_t len, int node, err_t *e);

/* Writes "; key = value" lines describing the host (model, CPUs used,
 * nodes, clock, kernel) for a resolved configuration. */
void host_describe(const host_t *h, FILE *f);

#endif
