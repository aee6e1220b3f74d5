/* lru_set: a set of a set-associative LRU structure, as the caches
 * (cache.c) and the TLBs (tlb.c) keep them: an array of `ways` 64-bit tags
 * (tags.h), most recent first. 0 is an empty way and LRU_SET_END the end of
 * a short set's room (cache.c grows sets as lines come); every tag in use
 * comes before them. A few ways at most move on each use: loops, not
 * memmove calls.
 */
#ifndef NUMASIM_LRU_SET_H
#define NUMASIM_LRU_SET_H

#include <stdint.h>

#define LRU_SET_END UINT64_MAX

/* A tag in use: neither 0 (an empty way) nor LRU_SET_END. */
static inline int lru_live(uint64_t t)
{
    return t + 1 > 1;
}

/* The way of tag in s, or -1. */
static inline int lru_find(const uint64_t *s, uint32_t ways, uint64_t tag)
{
    for (uint32_t i = 0; i < ways && lru_live(s[i]); i++)
        if (s[i] == tag)
            return (int)i;
    return -1;
}

/* Makes the tag at way i the most recent. */
static inline void lru_to_front(uint64_t *s, int i)
{
    uint64_t t = s[i];
    for (; i > 0; i--)
        s[i] = s[i - 1];
    s[0] = t;
}

/* The tags in use in s, counted up to its last way: s[n] is then 0 (room
 * for one more), LRU_SET_END (a short set, full) or the last way's tag. */
static inline uint32_t lru_used(const uint64_t *s, uint32_t ways)
{
    uint32_t n = 0;
    while (n < ways - 1 && lru_live(s[n]))
        n++;
    return n;
}

/* Puts tag first in s, whose first n tags are in use (lru_used): s[n] is
 * 0, or the last way's tag, which falls out and is returned. */
static inline uint64_t lru_insert(uint64_t *s, uint32_t n, uint64_t tag)
{
    uint64_t victim = s[n];
    for (uint32_t i = n; i > 0; i--)
        s[i] = s[i - 1];
    s[0] = tag;
    return victim;
}

/* Removes tag from s (NULL: an absent set), closing the gap. Returns 1
 * when it was there. */
static inline int lru_remove(uint64_t *s, uint32_t ways, uint64_t tag)
{
    int i = s ? lru_find(s, ways, tag) : -1;
    if (i < 0)
        return 0;
    uint32_t k = (uint32_t)i;
    for (; k + 1 < ways && lru_live(s[k + 1]); k++)
        s[k] = s[k + 1];
    s[k] = 0;
    return 1;
}

/* Makes tag the most recent of s: moved to the front when there (returns
 * 1), else inserted there, the least recent falling out (returns 0). */
static inline int lru_use(uint64_t *s, uint32_t ways, uint64_t tag)
{
    int i = lru_find(s, ways, tag);
    if (i >= 0) {
        lru_to_front(s, i);
        return 1;
    }
    lru_insert(s, lru_used(s, ways), tag);
    return 0;
}

#endif
