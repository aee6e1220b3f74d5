/* test_zmap: mappings handed back and reused (sim/util/zmap.c).
 *
 * A mapping comes zero, fresh or reused: the bytes a user dirtied are
 * zeroed when it is handed back; a request takes the smallest kept mapping
 * that fits; a mapping over 4 MiB is unmapped, not kept.
 */
#define _DEFAULT_SOURCE /* mincore */
#include "testutil.h"
#include "zmap.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

START_TEST(reused_zero)
{
    size_t got;
    unsigned char *p = zmap_get(64 << 10, &got, ZMAP_HUGE);
    ck_assert_uint_ge(got, 64 << 10);
    ck_assert(all_zero(p, got));
    memset(p, 0xa5, 10000); /* the first 10,000 bytes dirty */
    zmap_put(p, got, 10000);
    size_t got2;
    unsigned char *q = zmap_get(64 << 10, &got2, 0);
    ck_assert_ptr_eq(q, p); /* kept, and given back */
    ck_assert_uint_eq(got2, got);
    ck_assert_msg(all_zero(q, got2), "a reused mapping is not zero");
    zmap_put(q, got2, 0);
}
END_TEST

START_TEST(smallest_that_fits)
{
    size_t a_got, b_got, got;
    void *a = zmap_get(1 << 20, &a_got, 0);
    void *b = zmap_get(256 << 10, &b_got, 0);
    zmap_put(a, a_got, 0);
    zmap_put(b, b_got, 0);
    ck_assert_ptr_eq(zmap_get(200 << 10, &got, 0), b);
    ck_assert_uint_eq(got, b_got);
    ck_assert_ptr_eq(zmap_get(300 << 10, &got, 0), a); /* larger than asked */
    ck_assert_uint_eq(got, a_got);
    void *c = zmap_get(300 << 10, &got, 0); /* none left: a new one */
    ck_assert(c != a && c != b);
    ck_assert(all_zero(c, got));
}
END_TEST

START_TEST(large_not_kept)
{
    size_t got;
    void *p = zmap_get(8 << 20, &got, ZMAP_NORESERVE);
    zmap_put(p, got, 4096);
    unsigned char v;
    errno = 0;
    ck_assert_int_eq(mincore(p, 4096, &v), -1); /* unmapped */
    ck_assert_int_eq(errno, ENOMEM);
}
END_TEST

START_TEST(null_put)
{
    zmap_put(NULL, 4096, 4096); /* allowed, does nothing */
    size_t got;
    void *p = zmap_get(0, &got, 0);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_ge(got, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("zmap");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, reused_zero);
    tcase_add_test(tc, smallest_that_fits);
    tcase_add_test(tc, large_not_kept);
    tcase_add_test(tc, null_put);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
