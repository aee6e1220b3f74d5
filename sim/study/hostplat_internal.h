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
 * TLBs (from CPUID, on this system only), each with its origin; probe pr
 * (may be NULL, named ppath) gives the hit latencies and TLB costs.
 * Returns 1 when a level kept is shared by a package (the CPUs then need
 * their package), else 0. */
int hostplat_write_caches(pemit_t *e, const host_topo_t *t, const probe_result_t *pr,
                          const char *ppath);

/* Writes the code_UNIT_bytes props: the sizes of numasim's own functions
 * that implement each code unit, read from /proc/self/exe, each followed by
 * code_UNIT_insns, their instructions as objdump counts them (else bytes /
 * 4, an estimate); or a comment saying why they are left out. */
void hostplat_write_code(pemit_t *e);

#endif
