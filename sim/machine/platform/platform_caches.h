/* platform_caches: the optional cache, TLB, code and footprint properties
 * of a platform (platform_caches.c). */
#ifndef NUMASIM_PLATFORM_CACHES_H
#define NUMASIM_PLATFORM_CACHES_H

#include "err.h"
#include "platform.h"

/* Reads and checks the optional cache, code and footprint properties into
 * p (platform_caches.c), after the required ones and the CPUs. Returns 0,
 * or -1 with e. */
int platform_check_caches(platform_t *p, err_t *e);

#endif
