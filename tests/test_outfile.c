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

static char g_dir[64];

static void make_dir(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/test_outfile-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(g_dir));
}

static void remove_dir(void)
{
    rmdir(g_dir);
}

/* The whole content of path (NUL-terminated, the caller frees), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 4096);
    size_t n = fread(buf, 1, 4095, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

START_TEST(commit_renames_whole)
{
    char path[128];
    snprintf(path, sizeof path, "%s/a.csv", g_dir);
    err_t e = {{0}};
    FILE *f = outfile_open(path, &e);
    ck_assert_ptr_nonnull(f);
    fputs("x,y\n1,2\n", f);
    ck_assert_int_eq(access(path, F_OK), -1); /* not under its name yet */
    ck_assert_int_eq(outfile_commit(f, path, &e), 0);
    char *s = slurp(path);
    ck_assert_str_eq(s, "x,y\n1,2\n");
    free(s);
    unlink(path);
}
END_TEST

START_TEST(synced_then_written_keeps_all)
{
    char path[128];
    snprintf(path, sizeof path, "%s/b.ini", g_dir);
    err_t e = {{0}};
    FILE *f = outfile_open(path, &e);
    ck_assert_ptr_nonnull(f);
    fputs("; head\n", f);
    ck_assert_int_eq(outfile_sync(f, path, &e), 0);
    ck_assert_int_eq(access(path, F_OK), -1); /* synced, not committed */
    fputs("; tail\n", f);
    ck_assert_int_eq(outfile_commit(f, path, &e), 0);
    char *s = slurp(path);
    ck_assert_str_eq(s, "; head\n; tail\n");
    free(s);
    unlink(path);
}
END_TEST

START_TEST(synced_then_committed)
{
    char path[128];
    snprintf(path, sizeof path, "%s/c.ini", g_dir);
    err_t e = {{0}};
    FILE *f = outfile_open(path, &e);
    fputs("; all of it\n", f);
    ck_assert_int_eq(outfile_sync(f, path, &e), 0);
    ck_assert_int_eq(outfile_commit(f, path, &e), 0);
    char *s = slurp(path);
    ck_assert_str_eq(s, "; all of it\n");
    free(s);
    unlink(path);
}
END_TEST

START_TEST(synced_then_aborted_leaves_nothing)
{
    char path[128], tmp[160];
    snprintf(path, sizeof path, "%s/d.ini", g_dir);
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
    tcase_add_checked_fixture(tc, make_dir, remove_dir);
    tcase_add_test(tc, commit_renames_whole);
    tcase_add_test(tc, synced_then_written_keeps_all);
    tcase_add_test(tc, synced_then_committed);
    tcase_add_test(tc, synced_then_aborted_leaves_nothing);
    tcase_add_test(tc, unwritable_names_the_path);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
