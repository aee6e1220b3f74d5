/* platform_simgrid: the SimGrid half of platform.h. SimGrid starts once per
 * process, so platform_boot() is called at most once per process.
 */
#ifndef NUMASIM_PLATFORM_SIMGRID_H
#define NUMASIM_PLATFORM_SIMGRID_H

#include "err.h"
#include "platform.h"

/* Initialises SimGrid (once per process) and loads p's file, applying the
 * link overrides. argv0 names the program in SimGrid's messages. */
void platform_boot(platform_t *p, const char *argv0);

/* From inside a SimGrid actor: fills p->node_lat from SimGrid's routes.
 * Returns 0, or -1 with e filled when two nodes have no route. */
int platform_routes(platform_t *p, err_t *e);

#endif
