/* test_outfile: files written atomically (sim/util/outfile.c).
 *
 * A file appears under its name only once committed, whole; an aborted one
 * leaves nothing; a file synced early (outfile_sync) and written again
 * before its commit keeps what was written after the sync.
 */
#include "outfile.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes head to name in the test's directory, syncs it early when sync is
 * set, writes tail, commits it, and checks the file whole under its name
 * (and not before its commit). */
static void check_written(const char *name, const char *head, int sync, const char *tail)
{
    char path[4096], want[256];
    snprintf(path, sizeof path, "%s", tu_tmp_path(name));
    snprintf(want, sizeof want, "%s%s", head, tail);
    err_t e = {{0}};
    FILE *f = outfile_open(path, &e);
    ck_assert_ptr_nonnull(f);
    fputs(head, f);
    if (sync)
        ck_assert_int_eq(outfile_sync(f, path, &e), 0);
    fputs(tail, f);
    ck_assert_int_eq(access(path, F_OK), -1); /* not under its name yet */
    ck_assert_int_eq(outfile_commit(f, path, &e), 0);
    char *got = tu_slurp(path, NULL);
    ck_assert_str_eq(got, want);
    free(got);
    unlink(path);
}

START_TEST(commit_renames_whole)
{
    check_written("a.csv", "x,y\n1,2\n", 0, "");
}
END_TEST

START_TEST(synced_then_written_keeps_all)
{
    check_written("b.ini", "; head\n", 1, "; tail\n");
}
END_TEST

START_TEST(synced_then_committed)
{
    check_written("c.ini", "; all of it\n", 1, "");
}
END_TEST

START_TEST(synced_then_aborted_leaves_nothing)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s", tu_tmp_path("d.ini"));
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    err_t e = {{0}};
    FILE *f = outfile_open(path, &e);
    fputs("; partial\n", f);
    ck_assert_int_eq(outfile_sync(f, path, &e), 0);
    ck_assert_int_eq(access(tmp, F_OK), 0);
    outfile_abort(f, path);
    ck_assert_int_eq(access(tmp, F_OK), -1);
    ck_assert_int_eq(access(path, F_OK), -1);
}
END_TEST

START_TEST(unwritable_names_the_path)
{
    err_t e = {{0}};
    ck_assert_ptr_null(outfile_open("/nonexistent-dir/x.csv", &e));
    ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent-dir/x.csv"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("outfile");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, tu_tmp_setup, tu_tmp_teardown_checked);
    tcase_add_test(tc, commit_renames_whole);
    tcase_add_test(tc, synced_then_written_keeps_all);
    tcase_add_test(tc, synced_then_committed);
    tcase_add_test(tc, synced_then_aborted_leaves_nothing);
    tcase_add_test(tc, unwritable_names_the_path);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
