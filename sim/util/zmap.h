/* zmap: zero-filled anonymous mappings that a process hands back to reuse.
 *
 * A worker runs simulation after simulation (cli/loader.h). Each one maps
 * its caches' sets and its memory's lines and words, and a fresh mapping
 * pays a page fault on the first touch of every page: at 32 CPUs those
 * faults were a third of a short simulation. Handed back here, a mapping
 * of up to 4 MiB stays mapped, its touched pages zeroed (memset costs a
 * fraction of a fault), and the next request it can serve gets it.
 *
 * Not thread-safe: one simulation at a time per process. */
#ifndef NUMASIM_ZMAP_H
#define NUMASIM_ZMAP_H

#include <stddef.h>

/* Flags of zmap_get: */
enum {
    ZMAP_HUGE = 1,     /* madvise(MADV_HUGEPAGE) a new mapping */
    ZMAP_NORESERVE = 2 /* a sparse mapping: no swap reserved for it */
};

/* A mapping of at least bytes bytes, every byte zero, page-aligned; *got
 * (may be NULL) receives its size, which may exceed bytes when a larger
 * one was handed back. Aborts when the system has no memory. Give it back
 * with zmap_put (or munmap it). */
void *zmap_get(size_t bytes, size_t *got, int flags);

/* Hands back a mapping of zmap_get (size its *got, or as grown by mremap):
 * its first dirty bytes may hold anything (zeroed here), the rest must
 * be zero already. Keeps it for reuse, or unmaps it (over 4 MiB, or when
 * the pool holds 256 MiB). p may be NULL. */
void zmap_put(void *p, size_t bytes, size_t dirty);

#endif
