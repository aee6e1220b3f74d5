/* native: the machine API (cpu.h) on the host's own CPUs and memory.
 *
 * Every CPU of the scenario is a POSIX thread pinned to one host CPU; memory
 * is real memory bound to the NUMA node the program asks for; cpu_read and
 * friends are real atomic loads, stores and read-modify-writes; cpu_now is
 * the host's cycle counter (cycles.h); the tick is a per-thread POSIX timer
 * signal. See native.c for the theory of operation.
 */
#ifndef NUMASIM_NATIVE_H
#define NUMASIM_NATIVE_H

#include "cpu.h"
#include "host.h"

typedef struct {
    int timeout_s; /* stop a run whose CPUs report no progress for this long */
} native_opts_t;

/* Runs hooks on host h, one thread per CPU of host_platform(h): setup() on
 * the calling thread first, then every CPU's program, then finish() once
 * every thread has ended. Returns 0, or -1 with e filled (a CPU could not
 * be pinned, memory could not be bound, or the run made no progress for
 * opts->timeout_s seconds: see cpu_progress()). seed seeds the per-CPU
 * generators. Call at most once per process at a time. */
int native_run(host_t *h, unsigned long seed, const machine_hooks_t *hooks,
               const native_opts_t *opts, err_t *e);

/* The real address behind a of a native machine (for benchmarks that
 * compare cpu_read with a bare load). */
static inline volatile uint64_t *native_ptr(maddr_t a)
{
    return (volatile uint64_t *)(uintptr_t)a;
}

#endif
