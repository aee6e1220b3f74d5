/* start: one run of a machine of either kind, the simulated one (a
 * platform, on SimGrid) or the native one (this host's CPUs). The one place
 * of the study layer that chooses between them: run, probe, litmus and
 * bench --native start their machines here.
 */
#ifndef NUMASIM_START_H
#define NUMASIM_START_H

#include "cpu.h"
#include "err.h"
#include "host.h"
#include "native.h"
#include "platform.h"

typedef struct {
    host_t *host;         /* run natively on this host; NULL: simulate platform */
    platform_t *platform; /* the simulated machine (ignored with host) */
    const char *argv0;    /* simulated: the program's name, for SimGrid */
    unsigned long seed;   /* seeds the per-CPU generators */
    const machine_hooks_t *hooks;
    native_opts_t native; /* with host: the watchdog's timeout */
    const char *paje;     /* simulated: write a Paje trace here (NULL: none), */
    int paje_calls;       /* covering the first paje_calls measured calls */
} start_t;

/* Runs hooks on the machine s describes, in this process: setup() first,
 * then every CPU's program, then finish() (see cpu.h). A simulation is
 * one per process (SimGrid). Returns 0, or -1 with e filled. */
int start_machine(const start_t *s, err_t *e);

#endif
