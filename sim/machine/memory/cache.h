/* cache: a platform's cache hierarchy, the set-associative LRU caches of
 * every CPU, shared or not, without coherence (coherence.c keeps that).
 *
 * The hierarchy tracks where a line sits in the levels a CPU reaches, so
 * that a hit costs its level's latency and capacity evicts. It is
 * inclusive: a line leaving a level leaves the levels above it in the same
 * scope, and a line leaving the last level is lost to every CPU of that
 * level's scope, which hier_t reports through its drop callback so that the
 * coherence model forgets their copies. A platform may make the last level
 * non-inclusive: its victims stay above, and a CPU loses a line when none
 * of its levels holds it any longer (the same callback).
 *
 * Lines are named by a 64-bit tag: the coherence line index for memory
 * lines, or a foreign tag (tags.h: TAG_FOREIGN) for the lines that
 * footprints and walks bring in, which are never reported to the drop
 * callback. Tag 0 is unused.
 */
#ifndef NUMASIM_CACHE_H
#define NUMASIM_CACHE_H

#include "platform.h"

#include <stdint.h>

typedef enum { HIER_DATA, HIER_CODE } hier_side_t;

typedef struct hier hier_t;

/* Called when a line leaves the last level cpu reaches (capacity). */
typedef void (*hier_drop_fn)(void *ctx, int cpu, uint64_t tag);

/* The hierarchy of platform p, or NULL when p describes no cache level.
 * p must outlive it. Free with hier_destroy(). */
hier_t *hier_create(const platform_t *p, hier_drop_fn drop, void *ctx);
void hier_destroy(hier_t *h);

/* cpu touches tag on side: returns the level it was found in (the first on
 * the side's path: l1i or l1d, then l2, l3), or -1 when in none; either way
 * the line is then in every level of the path, most recently used. */
int hier_access(hier_t *h, int cpu, uint64_t tag, hier_side_t side);

/* hier_access of a tag that none of cpu's private levels has (the caller
 * knows: a line cpu does not hold, see cache.c), which skips looking
 * there. Debug builds check the promise (abort). */
int hier_access_unheld(hier_t *h, int cpu, uint64_t tag, hier_side_t side);

/* The way of tag in its set of the first level of side's path (0: the most
 * recent; hier_access would then change nothing), or -1 when it is not
 * there; *level gets that level. Changes nothing: the common hit's test. */
int hier_first_way(const hier_t *h, int cpu, uint64_t tag, hier_side_t side, int *level);

/* Makes tag, found at way (> 0) by hier_first_way, the most recent of its
 * set in that level: what hier_access does on that hit. */
void hier_first_promote(hier_t *h, int cpu, uint64_t tag, hier_side_t side, int way);

/* If tag is in cpu's instance of level l and that instance is cpu's alone,
 * makes it the most recent there and returns 1; else changes nothing and
 * returns 0. What it changes no other CPU can see. */
int hier_touch_private(hier_t *h, int cpu, cache_level_t l, uint64_t tag);

/* Removes tag from the levels cpu reaches, except those it shares with
 * keep (another CPU, or -1 for none): an invalidation by keep's write.
 * fetched 0 promises that tag never went through the code side (so is in
 * no l1i), which skips looking there; debug builds check it (abort). */
void hier_remove(hier_t *h, int cpu, uint64_t tag, int keep, int fetched);

/* A number that changes whenever the tags of cpu's instance of level l, or
 * their LRU order, change (0 for an absent level): equal twice, and
 * nothing in that instance moved in between. */
uint64_t hier_version(const hier_t *h, int cpu, cache_level_t l);

/* Removes tag from cpu's instance of level l only (no inclusion). */
void hier_remove_at(hier_t *h, int cpu, cache_level_t l, uint64_t tag);

/* The CPUs sharing cpu's instance of level l (n = 1 for a private one);
 * NULL when the level is absent. The array belongs to h. */
const int *hier_members(const hier_t *h, cache_level_t l, int cpu, int *n);

/* The tags of cpu's instance of the last level, and of every level above
 * when the last is non-inclusive (a tag may then come twice), foreign ones
 * left out, in *buf (grown as needed; *cap is its room, the caller frees
 * it): every line cpu holds is among them. Returns how many. */
size_t hier_held_tags(const hier_t *h, int cpu, uint64_t **buf, size_t *cap);

/* Empties cpu's private levels but for the lines for which keep(ctx, tag)
 * says 1 (keep NULL: none), which keep their order.
 * Shared levels are left to the caller (mem_flush removes the lines nobody
 * else holds). */
void hier_flush_private(hier_t *h, int cpu, int (*keep)(void *ctx, uint64_t tag), void *ctx);

/* Brings n foreign lines into every data level of cpu, by LRU: tags
 * first, first+1, ... (tags spread over the sets). Beyond the largest
 * level's size, more lines change nothing, so n is capped there. */
void hier_fill_foreign(hier_t *h, int cpu, uint64_t first, uint64_t n);

/* cpu's instance of level l when cpu shares it with other CPUs, else -1
 * (the level is absent, or that instance is cpu's alone); the number of
 * instances of l (0 when absent). */
int hier_shared_instance(const hier_t *h, cache_level_t l, int cpu);
int hier_instances(const hier_t *h, cache_level_t l);

/* Brings tag, a fresh foreign line that no level holds, by LRU into cpu's
 * instance of level l only (l >= 0, the l1i too), (l = -1) into
 * every data level whose instance is cpu's alone, or (l = -2) into those of
 * them above the last level. What it evicts leaves the levels above, as
 * with hier_access. */
void hier_fill_fresh(hier_t *h, int cpu, int l, uint64_t tag);

/* Lines of the largest level cpu reaches (the cap of hier_fill_foreign). */
uint64_t hier_max_lines(const hier_t *h);

/* Lines of the largest level that hier_fill_fresh(h, cpu, l, ...) fills:
 * past them a fresh fill evicts nothing more there. */
uint64_t hier_fill_reach(const hier_t *h, int cpu, int l);

/* Latency of a hit in level l, in cycles; the last level of the hierarchy;
 * the number of levels on the data path. */
uint32_t hier_cycles(const hier_t *h, int level);
int hier_last_level(const hier_t *h);

/* Is tag in cpu's instance of level l? (tests and consistency checks) */
int hier_holds(const hier_t *h, int cpu, cache_level_t l, uint64_t tag);

#endif
