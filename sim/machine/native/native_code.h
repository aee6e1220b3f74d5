/* native_code: the native machine's code units, and its flush of lines.
 *
 * machine_code_bytes on the native machine generates a function of the
 * unit's size, in whole lines of the host, in a mapping of its own (one
 * per unit: line-aligned, never shared with data): the host's NOPs, then a
 * return. cpu_exec calls it, so the host's front end fetches its lines as
 * it fetches any code. cpu_flush_cache(c, 1) flushes them with the data.
 * x86 (64 and 32 bits) and aarch64 only; elsewhere no unit is made (-1).
 *
 * Units are made by any CPU during the run (the probe makes its own) and
 * read by every CPU: a unit is written in full, under a lock, before the
 * count that publishes it; a call or a flush reads only published units,
 * without the lock. A machine has at most NCODE_MAX units.
 */
#ifndef NUMASIM_NATIVE_CODE_H
#define NUMASIM_NATIVE_CODE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ncode ncode_t;

/* The code units of a machine whose lines are line bytes (a power of 2). */
ncode_t *ncode_new(int line);
/* Unmaps every unit. */
void ncode_free(ncode_t *s);
/* The handle of unit `unit`, made of `bytes` rounded up to whole lines
 * the first time it is asked for; the same unit gives the same handle.
 * -1 for 0 bytes, on a host we do not generate code for, when the host
 * refuses executable memory (said once on stderr) or past NCODE_MAX. */
int ncode_get(ncode_t *s, const char *unit, uint64_t bytes);
/* Calls unit h (a no-op for a handle ncode_get did not return). */
void ncode_exec(const ncode_t *s, int h);
/* Evicts every unit's lines from every cache of the host that can hold
 * them (see native_code.c for what aarch64 cannot), before the fence. */
void ncode_flush(const ncode_t *s);
/* Evicts the lines of the len bytes from p from the data caches (clflush;
 * dc civac): the run's data (native.c) and the units' lines. */
void native_flush_lines(const void *p, size_t len, int line);
/* Waits until the flushes before it are complete (mfence; dsb ish, isb). */
void native_flush_fence(void);

#endif
