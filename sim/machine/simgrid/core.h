/* core: the core that executes, on the simulated machine (core.c): an
 * interval model of an in-order or out-of-order core around the memory
 * system. Only with the platform's prop core inorder or ooo; with core none
 * the CPUs keep sim_ops and nothing here runs. */
#ifndef NUMASIM_CORE_H
#define NUMASIM_CORE_H

#include "cpu.h"

/* After the CPUs are made, before they run: gives each CPU its core's
 * state and the core's operations (a copy of sim_ops with the accesses,
 * code, barriers and the cpu.h core calls wrapped), when the platform asks
 * for a core. */
void core_attach(machine_t *m);
/* Frees what core_attach gave (nothing with core none). */
void core_detach(machine_t *m);

#endif
