/* test_tlb: the TLBs (tlb.c) alone and under the memory model (coherence.c): set
 * index and LRU order, the second level filling the first and not
 * inclusive, the code side apart from the data side, the footprints'
 * pages, and what a translation costs an access: nothing in the first
 * level, the second level's cycles, or a walk that reads its page-table
 * line through the data caches.
 *
 * The platforms are built by hand (no file): 2 CPUs on one node, 64-byte
 * lines, 128-byte pages (two lines a page), tiny TLBs.
 */
#include "mem.h"
#include "platform.h"
#include "testutil.h"
#include "tlb.h"

#include <check.h>
#include <stdlib.h>

enum { NCPU = 2, LINE = 64, PAGE = 128 };

static int g_node[NCPU] = {0, 0};
static uint32_t g_lat[1] = {0};

/* dtlb1: 2 sets x 2 ways; dtlb2: 2 sets x 4 ways (3 cycles); itlb1 2 ways
 * (fully associative); walk 30 cycles. Caches: l1d 4 sets x 2 ways (1
 * cycle), l2 8 sets x 4 ways (6 cycles); memory 100. */
static platform_t *tiny(void)
{
    platform_t *p = tu_bare_platform(NCPU, 1, g_node, g_lat, LINE);
    p->cache[CACHE_L1D] = (platform_cache_t){4 * 2 * LINE, 2, 1, SCOPE_CPU};
    p->cache[CACHE_L2] = (platform_cache_t){8 * 4 * LINE, 4, 6, SCOPE_CPU};
    p->ncache_levels = 2;
    p->tlb[TLB_DTLB1] = (platform_tlb_t){4, 2, 0};
    p->tlb[TLB_DTLB2] = (platform_tlb_t){8, 4, 3};
    p->tlb[TLB_ITLB1] = (platform_tlb_t){2, 2, 0};
    p->page_bytes = PAGE;
    p->footprint_lines_per_page = PAGE / LINE;
    p->walk_cycles = 30;
    return p;
}

START_TEST(set_index_and_lru)
{
    platform_t *p = tiny();
    p->tlb[TLB_DTLB2].entries = 0;
    tlb_t *t = tlb_create(p);
    ck_assert_ptr_nonnull(t);
    /* dtlb1 sets: page % 2; pages 2, 4, 6 share set 0, page 3 is set 1 */
    ck_assert_int_eq(tlb_translate(t, 0, 2, 0), -1);
    ck_assert_int_eq(tlb_translate(t, 0, 4, 0), -1);
    ck_assert_int_eq(tlb_translate(t, 0, 3, 0), -1); /* other set */
    ck_assert(tlb_first_mru(t, 0, 3, 0) && tlb_first_mru(t, 0, 4, 0) && !tlb_first_mru(t, 0, 2, 0));
    ck_assert_int_eq(tlb_translate(t, 0, 2, 0), 0);  /* 2 most recent now */
    ck_assert_int_eq(tlb_translate(t, 0, 6, 0), -1); /* evicts 4, the LRU */
    ck_assert(tlb_holds(t, 0, 0, 2, 0) && tlb_holds(t, 0, 0, 6, 0) && !tlb_holds(t, 0, 0, 4, 0));
    ck_assert(!tlb_holds(t, 1, 0, 2, 0)); /* per CPU */
    ck_assert(!tlb_holds(t, 0, 0, 2, 1)); /* the code side is apart */
    tlb_destroy(t);
    free(p);
}
END_TEST

START_TEST(second_level_fills_first_not_inclusive)
{
    platform_t *p = tiny();
    tlb_t *t = tlb_create(p);
    /* pages 2, 4, 6 in dtlb1's set 0 (2 ways) and dtlb2's set 0 (4 ways) */
    tlb_translate(t, 0, 2, 0);
    tlb_translate(t, 0, 4, 0);
    tlb_translate(t, 0, 6, 0);                      /* 2 leaves dtlb1 */
    ck_assert_int_eq(tlb_translate(t, 0, 2, 0), 1); /* found in dtlb2 */
    ck_assert(tlb_first_mru(t, 0, 2, 0));           /* and filled into dtlb1 */
    /* four more pages of set 0 push 2 out of dtlb2 (LRU: 2 was used last
     * but these four are newer); dtlb1 keeps the last two of them */
    for (uint64_t pg = 8; pg <= 14; pg += 2)
        ck_assert_int_eq(tlb_translate(t, 0, pg, 0), -1);
    ck_assert(!tlb_holds(t, 0, 1, 2, 0));
    ck_assert_int_eq(tlb_translate(t, 0, 2, 0), -1); /* a walk */
    /* not inclusive: page 14 in dtlb1, then pushed out of dtlb2 only */
    ck_assert(tlb_holds(t, 0, 0, 14, 0));
    tlb_translate(t, 0, 1, 0); /* set 1 of dtlb1 (leaves 14 alone) ... */
    for (uint64_t pg = 16; pg <= 22; pg += 2) {
        ck_assert(tlb_holds(t, 0, 0, 14, 0) || pg > 16);
        tlb_translate(t, 0, pg, 0);
    }
    ck_assert(!tlb_holds(t, 0, 1, 14, 0));
    tlb_destroy(t);
    free(p);
}
END_TEST

START_TEST(no_second_level_on_a_side_means_a_walk)
{
    platform_t *p = tiny();
    tlb_t *t = tlb_create(p);
    /* itlb1: 2 ways, no itlb2 */
    ck_assert_int_eq(tlb_translate(t, 1, 5, 1), -1);
    ck_assert_int_eq(tlb_translate(t, 1, 7, 1), -1);
    ck_assert_int_eq(tlb_translate(t, 1, 5, 1), 0);
    ck_assert_int_eq(tlb_translate(t, 1, 9, 1), -1); /* evicts 7 */
    ck_assert_int_eq(tlb_translate(t, 1, 7, 1), -1); /* walked again */
    ck_assert(!tlb_holds(t, 1, 0, 7, 0));            /* never on the data side */
    tlb_destroy(t);
    p->tlb[TLB_DTLB1].entries = 0;
    ck_assert_ptr_null(tlb_create(p)); /* no dtlb1: no TLBs */
    free(p);
}
END_TEST

START_TEST(foreign_fill_is_capped_and_evicts)
{
    platform_t *p = tiny();
    tlb_t *t = tlb_create(p);
    ck_assert_uint_eq(tlb_max_entries(t), 8);
    tlb_translate(t, 0, 2, 0);
    tlb_translate(t, 0, 3, 0);
    tlb_fill_foreign(t, 0, 100, 1000000, 0); /* capped at 8: quick */
    ck_assert(!tlb_holds(t, 0, 0, 2, 0) && !tlb_holds(t, 0, 1, 2, 0));
    ck_assert(!tlb_holds(t, 0, 0, 3, 0) && !tlb_holds(t, 0, 1, 3, 0));
    ck_assert_int_eq(tlb_translate(t, 0, 2, 0), -1);
    ck_assert_int_eq(tlb_translate(t, 1, 2, 0), -1); /* CPU 1 saw nothing either */
    tlb_destroy(t);
    free(p);
}
END_TEST

START_TEST(an_access_pays_its_translation)
{
    platform_t *p = tiny();
    mem_t *m = mem_create(p);
    maddr_t a = mem_alloc(m, 0, 32 * PAGE);
    a = (a + 8 * PAGE - 1) / (8 * PAGE) * (8 * PAGE); /* pages 0-6 from a share a page-table line */
    access_kind_t k;
    uint32_t cost;
    /* first touch: walk (30 + the page-table line from memory, 100) + the
     * line from memory (100) */
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, &k), 230);
    ck_assert_int_eq(k, ACCESS_MISS_LOCAL);
    /* the same line: the common hit, translation included */
    ck_assert(mem_hit(m, 0, a, MEM_READ, &cost));
    ck_assert_uint_eq(cost, 1);
    /* the other line of the page: translated by dtlb1, the line a miss */
    ck_assert_uint_eq(mem_access(m, 0, a + LINE, MEM_READ, NULL), 100);
    /* the next page: its page-table line is the first page's (8 entries a
     * line), now in l1d: 30 + 1, and the line 100 */
    ck_assert_uint_eq(mem_access(m, 0, a + PAGE, MEM_READ, NULL), 131);
    /* a page of the first one's dtlb1 set (page % 2), whose line is in
     * another l1d set (line % 4): a walk (31), the line 100 */
    ck_assert_uint_eq(mem_access(m, 0, a + 2 * PAGE + LINE, MEM_READ, NULL), 131);
    /* back to the first page: its line is still the most recent of its l1d
     * set, but its page is not dtlb1's most recent of its set: no common
     * hit, though the access costs what a hit does (dtlb1: free) */
    ck_assert(!mem_hit(m, 0, a, MEM_READ, &cost));
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), 1);
    ck_assert(mem_hit(m, 0, a, MEM_READ, &cost)); /* and now it is */
    mem_destroy(m);
    free(p);
}
END_TEST

/* A cold flush is clflush over the run's own lines (cpu.h): the page-table
 * lines are not among them and stay, so a walk after it finds its line in
 * the caches, as natively; only the data line comes from memory. */
START_TEST(flush_keeps_page_table_lines)
{
    for (int with_code = 0; with_code < 2; with_code++) {
        platform_t *p = tiny();
        p->tlb[TLB_DTLB2].entries = 0;
        mem_t *m = mem_create(p);
        maddr_t a = mem_alloc(m, 0, 32 * PAGE);
        a = (a + 8 * PAGE - 1) / (8 * PAGE) * (8 * PAGE); /* one page-table line */
        ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), 30 + 100 + 100);
        /* pages a+2 and a+4 (dtlb1's set of a) push page a out of dtlb1 */
        ck_assert_uint_eq(mem_access(m, 0, a + 2 * PAGE, MEM_READ, NULL), 30 + 1 + 100);
        ck_assert_uint_eq(mem_access(m, 0, a + 4 * PAGE, MEM_READ, NULL), 30 + 1 + 100);
        mem_flush(m, 0, with_code);
        /* a walk whose page-table line is still in l1d, then the line */
        ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), 30 + 1 + 100);
        mem_destroy(m);
        free(p);
    }
}
END_TEST

START_TEST(second_level_hit_and_footprint_pages)
{
    platform_t *p = tiny();
    p->footprint.noise_per_mcycle = 0;
    p->footprint.tick_lines = 16; /* 8 pages of 2 lines: dtlb2's size */
    mem_t *m = mem_create(p);
    maddr_t a = mem_alloc(m, 0, 17 * PAGE);
    a = (a + PAGE - 1) / PAGE * PAGE;
    if (a / PAGE % 2 == 0) /* an odd page: its line in l1d set 2, as counted below */
        a += PAGE;
    mem_access(m, 0, a, MEM_READ, NULL);
    /* pages a+2, a+4 (same dtlb1 set) push page a out of dtlb1 */
    mem_access(m, 0, a + 2 * PAGE, MEM_READ, NULL);
    mem_access(m, 0, a + 4 * PAGE, MEM_READ, NULL);
    /* dtlb2 hit (3); the three lines share an l1d set (line % 4) of 2
     * ways, so a's line is in l2 (6) */
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), 3 + 6);
    /* the tick's 8 foreign pages flush both levels: a walk again, whose
     * page-table line the tick's 16 lines pushed out of l1d (4 sets x 2)
     * into l2 (6); the data line is in l2 too */
    mem_footprint_tick(m, 0);
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), 30 + 6 + 6);
    mem_destroy(m);
    free(p);
}
END_TEST

START_TEST(footprint_density_sets_its_pages)
{
    for (int dense = 0; dense < 2; dense++) {
        platform_t *p = tiny();
        p->footprint.tick_lines = 4;
        p->footprint_lines_per_page = dense ? PAGE / LINE : 1; /* 2 pages, or 4 */
        mem_t *m = mem_create(p);
        maddr_t a = mem_alloc(m, 0, 16 * PAGE);
        a = (a + PAGE - 1) / PAGE * PAGE;
        mem_access(m, 0, a, MEM_READ, NULL);
        mem_footprint_tick(m, 0);
        /* the 4 lines take one way of each l1d set: a's line stays; dense,
         * the 2 pages take one way of each dtlb1 set and a's page stays;
         * one line a page, 4 pages fill dtlb1 and a's page is in dtlb2 (3) */
        ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), dense ? 1 : 3 + 1);
        mem_destroy(m);
        free(p);
    }
}
END_TEST

START_TEST(code_fetch_pays_its_translation)
{
    platform_t *p = tiny();
    p->cache[CACHE_L1I] = (platform_cache_t){2 * 2 * LINE, 2, 1, SCOPE_CPU};
    p->ncache_levels++;
    mem_t *m = mem_create(p);
    maddr_t a = mem_alloc(m, 0, 4 * PAGE);
    a = (a + PAGE - 1) / PAGE * PAGE;
    access_kind_t k;
    int lv;
    ck_assert_uint_eq(mem_fetch_code(m, 0, a, &k, &lv), 30 + 100 + 100);
    ck_assert(mem_fetch_code_private_hit(m, 0, a)); /* itlb1 and l1i: free */
    /* the other line of the page: itlb1 hit, the line from memory */
    ck_assert_uint_eq(mem_fetch_code(m, 0, a + LINE, &k, &lv), 100);
    /* the data side has not seen the page: a data read walks (its page-table
     * line in l1d now: 30 + 1), the line is in l2 (6) */
    ck_assert_uint_eq(mem_access(m, 0, a, MEM_READ, NULL), 31 + 6);
    mem_destroy(m);
    free(p);
}
END_TEST

/* walk_levels 2: a walk reads the upper table's line, then the entries'
 * line, each through the data caches; a page whose entries lie in another
 * line shares the upper one, which then hits l1d. */
START_TEST(walk_reads_each_level_of_the_table)
{
    platform_t *p = tiny();
    p->walk_levels = 2;
    mem_t *m = mem_create(p);
    maddr_t a = mem_alloc(m, 0, 64 * PAGE);
    a = (a + 16 * PAGE - 1) / (16 * PAGE) * (16 * PAGE); /* pages 0-7 and 8-15: two lines */
    /* the walk: 30, the upper line and the entries' line from memory, then
     * the data line (the second of its page: another l1d set than theirs) */
    ck_assert_uint_eq(mem_access(m, 0, a + LINE, MEM_READ, NULL), 30 + 100 + 100 + 100);
    /* 8 pages on: the entries' line is another, the upper line in l1d */
    ck_assert_uint_eq(mem_access(m, 0, a + 8 * PAGE + LINE, MEM_READ, NULL), 30 + 1 + 100 + 100);
    mem_destroy(m);
    free(p);
}
END_TEST

/* The noise's pages reach the TLBs however few lines its caches keep: with
 * noise_scope cpu it fills only l1d (8 lines, 4 pages), but 32 lines span
 * 16 pages, more than dtlb2 holds, and other software's code goes through
 * itlb1 too. The work footprint is the CPU's own data: no code side. */
START_TEST(noise_pages_reach_the_tlbs_past_the_caches)
{
    for (int noise = 0; noise < 2; noise++) {
        platform_t *p = tiny();
        p->footprint.noise_private = 1;
        if (noise)
            p->footprint.noise_per_mcycle = 32; /* 32 lines in 10^6 cycles */
        else
            p->footprint.work_per_mcycle = 32;
        mem_t *m = mem_create(p);
        maddr_t a = mem_alloc(m, 0, 4 * PAGE);
        a = (a + PAGE - 1) / PAGE * PAGE;
        access_kind_t k;
        int lv;
        mem_access(m, 0, a, MEM_READ, NULL);
        mem_fetch_code(m, 0, a + PAGE, &k, &lv);
        ck_assert(mem_tlb_holds(m, 0, 0, a, 0) && mem_tlb_holds(m, 0, 1, a, 0));
        ck_assert(mem_tlb_holds(m, 0, 0, a + PAGE, 1));
        if (noise)
            mem_footprint_time(m, 0, 1000000);
        else
            mem_footprint_work(m, 0, 1000000);
        ck_assert(!mem_tlb_holds(m, 0, 0, a, 0) && !mem_tlb_holds(m, 0, 1, a, 0));
        ck_assert(mem_tlb_holds(m, 0, 0, a + PAGE, 1) == !noise);
        mem_destroy(m);
        free(p);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tlb");
    TCase *t = tcase_create("tlb");
    tcase_add_test(t, set_index_and_lru);
    tcase_add_test(t, walk_reads_each_level_of_the_table);
    tcase_add_test(t, noise_pages_reach_the_tlbs_past_the_caches);
    tcase_add_test(t, second_level_fills_first_not_inclusive);
    tcase_add_test(t, no_second_level_on_a_side_means_a_walk);
    tcase_add_test(t, flush_keeps_page_table_lines);
    tcase_add_test(t, foreign_fill_is_capped_and_evicts);
    tcase_add_test(t, an_access_pays_its_translation);
    tcase_add_test(t, second_level_hit_and_footprint_pages);
    tcase_add_test(t, footprint_density_sets_its_pages);
    tcase_add_test(t, code_fetch_pays_its_translation);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
