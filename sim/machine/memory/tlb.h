/* tlb: the translation look-aside buffers of every CPU, set-associative
 * and LRU, one first level per side (data, code) and an optional second.
 *
 * A translation looks in the side's first level, then its second; a page
 * found in neither is walked (coherence.c pays the walk) and filled into both.
 * The levels are not inclusive: a page leaving the second level stays in
 * the first. Nothing here is shared between CPUs: a TLB is per CPU, and
 * the model has no shootdowns (the timer core never unmaps). Pages are
 * named by their number (address / page_bytes); 0 is never a page here
 * (tlb_translate adds 1), and foreign pages (footprints) have
 * TAG_FOREIGN set (tags.h).
 */
#ifndef NUMASIM_TLB_H
#define NUMASIM_TLB_H

#include "platform.h"

#include <stdint.h>

typedef struct tlb tlb_t;

/* The TLBs of platform p, or NULL when p has none (no dtlb1). p must
 * outlive them. Free with tlb_destroy(). */
tlb_t *tlb_create(const platform_t *p);
void tlb_destroy(tlb_t *t);

/* cpu translates page on side (code: 1, data: 0). Returns the level that
 * had it (0 the first, 1 the second) or -1 for a walk; the page is then
 * the most recent of its set in the side's levels that it passed. */
int tlb_translate(tlb_t *t, int cpu, uint64_t page, int code);

/* Is page the most recent of its set in cpu's first level of side? Then
 * tlb_translate would change nothing and return 0. Changes nothing. */
int tlb_first_mru(const tlb_t *t, int cpu, uint64_t page, int code);

/* Brings n foreign pages (first, first+1, ...) into cpu's data levels, and
 * with code also its code levels, by LRU, as a footprint's translations
 * would. n is capped at the largest level's entries (more change nothing). */
void tlb_fill_foreign(tlb_t *t, int cpu, uint64_t first, uint64_t n, int code);

/* The page of byte address a (its number plus one, so never 0). */
uint64_t tlb_page_of(const tlb_t *t, uint64_t a);

/* Entries of the largest level (the cap of tlb_fill_foreign). */
uint64_t tlb_max_entries(const tlb_t *t);

/* Is page in cpu's level (0 or 1) of side? (tests) */
int tlb_holds(const tlb_t *t, int cpu, int level, uint64_t page, int code);

#endif
