/* tags: how the memory system names what its caches and TLBs hold.
 *
 * A cache holds 64-bit tags and a TLB page numbers, in LRU sets
 * (lru_set.h). A memory line's tag is its index in the coherence model's
 * line array (coherence.c), a page's number its address / page_bytes + 1, both
 * far below bit 40. Whatever is not memory that the coherence model tracks
 * (the lines and pages that footprints and page-table walks bring in) is
 * foreign, and its tag says where it came from:
 *
 *   bit  63      never set: UINT64_MAX marks a short set's end (cache.c)
 *   bit  62      TAG_FOREIGN: not a coherent line: never shared, never
 *                written back, never reported to the coherence model
 *   bit  61      TAG_TICK: the tick's own lines (the same each tick)
 *   bit  60      TAG_PTE: the page-table entries' lines of a walk
 *   bit  59      TAG_SHARED: the noise of a shared level's instance
 *   bits 40-58   the CPU whose footprint it is (TAG_CPU_SHIFT); with
 *                TAG_SHARED, bits 57-58 the level and 40-56 its instance;
 *                with TAG_PTE, the page table's level (0: the entries
 *                that map pages, 1 the table above, ...)
 *   bits  0-39   the footprint's running line or page number (TAG_INDEX)
 *
 * This header is the only place that gives a bit a meaning.
 */
#ifndef NUMASIM_TAGS_H
#define NUMASIM_TAGS_H

#include <stdint.h>

#define TAG_FOREIGN   (1ull << 62)
#define TAG_TICK      (1ull << 61)
#define TAG_PTE       (1ull << 60)
#define TAG_SHARED    (1ull << 59)
#define TAG_CPU_SHIFT 40
#define TAG_INDEX     ((1ull << TAG_CPU_SHIFT) - 1)

/* The foreign tags of cpu's footprints start here (| TAG_TICK for the
 * tick's lines; | the running number for fresh ones). */
static inline uint64_t tag_footprint(int cpu)
{
    return TAG_FOREIGN | (uint64_t)cpu << TAG_CPU_SHIFT;
}

/* The foreign tags of the noise of instance inst of shared level l start
 * here (| the running number). */
/* The line of level lv's page-table entries (tag_pte's index: the entries'
 * number, shifted to their line, under the bits above). */
static inline uint64_t tag_pte(int lv, uint64_t line)
{
    return TAG_FOREIGN | TAG_PTE | (uint64_t)lv << TAG_CPU_SHIFT | (line & TAG_INDEX);
}

static inline uint64_t tag_shared_noise(int l, int inst)
{
    return TAG_FOREIGN | TAG_SHARED | (uint64_t)l << 57 | (uint64_t)inst << TAG_CPU_SHIFT;
}

#endif
