/* test_part: slices and part files without simulations - every combination
 * in exactly one slice for N from 1 to more slices than combinations, the
 * --slice syntax, the round trip of part files through part_merge (same
 * rows as the whole), and every merge error: missing, duplicated,
 * truncated, foreign, other version, other slice count, not a part.
 */
#include "part.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(every_combination_in_one_slice)
{
    for (int ncombos = 1; ncombos <= 25; ncombos += 3)
        for (int n = 1; n <= ncombos + 5; n++) {
            int *hits = calloc((size_t)ncombos, sizeof *hits);
            int total = 0;
            for (int s = 0; s < n; s++) {
                int count = 0;
                for (int k = 0; k < ncombos; k++)
                    if (part_slice_of(k, n) == s) {
                        hits[k]++;
                        count++;
                    }
                /* balanced: slice sizes differ by at most one */
                ck_assert_int_ge(count, ncombos / n);
                ck_assert_int_le(count, ncombos / n + 1);
                total += count;
            }
            ck_assert_int_eq(total, ncombos);
            for (int k = 0; k < ncombos; k++)
                ck_assert_int_eq(hits[k], 1);
            free(hits);
        }
}
END_TEST

START_TEST(slice_syntax)
{
    int i, n;
    err_t e;
    ck_assert_int_eq(part_parse_slice("0/1", &i, &n, &e), 0);
    ck_assert_int_eq(i, 0);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(part_parse_slice("3/4", &i, &n, &e), 0);
    ck_assert_int_eq(i, 3);
    const char *bad[] = {"4/4", "-1/2", "1", "a/b", "0/0", "1/", "/3", "1/2x", ""};
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
        ck_assert_int_eq(part_parse_slice(bad[b], &i, &n, &e), -1);
        ck_assert_ptr_nonnull(strstr(e.msg, "--slice"));
        ck_assert_ptr_null(strchr(e.msg, '\n'));
    }
}
END_TEST

/* A made-up run: 2 groups of 3 and 4 combinations (seeds), 5 calls each. */
static part_t *make_whole(void)
{
    part_t *p = calloc(1, sizeof *p);
    snprintf(p->version, sizeof p->version, "%s", NUMASIM_VERSION);
    snprintf(p->scenario, sizeof p->scenario, "demo");
    snprintf(p->sweep_key, sizeof p->sweep_key, "background.ops_per_tick");
    p->ncombos = 7;
    p->ngroups = 2;
    p->groups = calloc(2, sizeof *p->groups);
    p->groups[0] = (part_group_t){0, 3, "numa32", 32, 16, "scan", "warm", 1, "0.5"};
    p->groups[1] = (part_group_t){3, 4, "smp4", 4, 1, "naive", "cold", 1, "2"};
    p->combos = calloc(7, sizeof *p->combos);
    for (int k = 0; k < 7; k++) {
        part_combo_t *c = &p->combos[k];
        c->ncalls = 5;
        c->cycles = malloc(5 * sizeof *c->cycles);
        for (int i = 0; i < 5; i++)
            c->cycles[i] = (uint64_t)(1000 * k + 37 * i * i + 1);
        c->violations = (uint64_t)(k % 3 == 0);
        c->oopses = (uint64_t)k;
        c->accesses = (uint64_t)(100000 + k);
        c->sim_cycles = (uint64_t)(900000 + k);
    }
    p->command = strdup("-q --set measure.calls=5 demo.ini");
    p->head = strdup("; numasim " NUMASIM_VERSION ": resolved configuration of scenario 'demo'");
    p->body = strdup("; platform paths\n\n[scenario]\nname = demo ; demo.ini:2\n");
    p->hash = 0x0123456789abcdefULL;
    return p;
}

/* Writes slice s of n of p to dir/part-s; returns the path (static). */
static const char *write_slice(part_t *p, int s, int n)
{
    static char path[4][512];
    static int next;
    char *buf = path[next % 4];
    snprintf(buf, 512, "%s/part-%d-%d.%d", tu_tmp(), s, n, next++); /* a new file each time */
    p->slice = s;
    p->nslices = n;
    FILE *f = fopen(buf, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(part_write(f, p), 0);
    fclose(f);
    return buf;
}

/* Output of part_write_rows + part_write_resolved, for comparison. */
static char *render(const part_t *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    part_write_rows(p, f, NULL);
    part_write_resolved(p, f, "run -o out.csv -q demo.ini");
    fclose(f);
    return buf;
}

/* Reads the parts at paths and merges them; returns the merge (or NULL with
 * e). */
static part_t *merge_paths(const char **paths, int n, int nslices, err_t *e)
{
    part_t *parts[64] = {NULL};
    int trunc[64] = {0};
    for (int i = 0; i < n; i++) {
        parts[i] = part_read(paths[i], &trunc[i], e);
        ck_assert_msg(parts[i] != NULL, "%s", e->msg);
    }
    part_t *m = part_merge(parts, paths, trunc, n, nslices, e);
    for (int i = 0; i < n; i++)
        part_free(parts[i]);
    return m;
}

START_TEST(round_trip_any_slice_count)
{
    part_t *whole = make_whole();
    char *expect = render(whole);
    for (int n = 1; n <= 9; n++) {
        const char *paths[9];
        char copies[9][512];
        for (int s = n - 1; s >= 0; s--) { /* any order */
            snprintf(copies[n - 1 - s], 512, "%s", write_slice(whole, s, n));
            paths[n - 1 - s] = copies[n - 1 - s];
        }
        err_t e = {{0}};
        part_t *m = merge_paths(paths, n, 0, &e);
        ck_assert_msg(m != NULL, "%d slices: %s", n, e.msg);
        char *got = render(m);
        ck_assert_str_eq(got, expect);
        free(got);
        part_free(m);
    }
    free(expect);
    part_free(whole);
}
END_TEST

/* Asserts that merging paths fails with a one-line message containing want. */
static void expect_error(const char **paths, int n, int nslices, const char *want)
{
    err_t e = {{0}};
    part_t *m = merge_paths(paths, n, nslices, &e);
    ck_assert_ptr_null(m);
    tu_assert_err(e.msg, "", want);
}

START_TEST(merge_errors)
{
    part_t *p = make_whole();
    char s0[512], s1[512], s2[512];
    snprintf(s0, sizeof s0, "%s", write_slice(p, 0, 3));
    snprintf(s1, sizeof s1, "%s", write_slice(p, 1, 3));
    snprintf(s2, sizeof s2, "%s", write_slice(p, 2, 3));

    const char *missing[] = {s2, s0};
    expect_error(missing, 2, 0, "slices to rerun: 1 (of 0..2; missing: 1)");
    expect_error(NULL, 0, 3, "slices to rerun: 0,1,2");
    const char *dup[] = {s0, s1, s0, s2};
    expect_error(dup, 4, 0, "slice 0/3 given twice");
    expect_error(dup + 1, 2, 4, "--slices says 4");

    /* foreign: another hash */
    p->hash ^= 1;
    char foreign[512];
    snprintf(foreign, sizeof foreign, "%s", write_slice(p, 1, 3));
    p->hash ^= 1;
    const char *fo[] = {s0, foreign, s2};
    expect_error(fo, 3, 0, "another scenario or configuration");

    /* other slice count */
    char other[512];
    snprintf(other, sizeof other, "%s", write_slice(p, 1, 4));
    const char *ot[] = {s0, other, s2};
    expect_error(ot, 3, 0, "parts of two submissions");

    /* other version */
    snprintf(p->version, sizeof p->version, "0.0.0-old");
    char old[512];
    snprintf(old, sizeof old, "%s", write_slice(p, 1, 3));
    snprintf(p->version, sizeof p->version, "%s", NUMASIM_VERSION);
    const char *ol[] = {s0, old, s2};
    expect_error(ol, 3, 0, "written by numasim 0.0.0-old");

    /* truncated: every cut after the header is a truncated part, named */
    FILE *f = fopen(s1, "r");
    char whole_text[65536];
    size_t len = fread(whole_text, 1, sizeof whole_text, f);
    fclose(f);
    int header_end = 0, lines = 0;
    for (size_t i = 0; i < len && lines < 10; i++)
        if (whole_text[i] == '\n' && ++lines == 10)
            header_end = (int)i + 1;
    char cut[512];
    snprintf(cut, sizeof cut, "%s/cut", tu_tmp());
    for (size_t at = (size_t)header_end; at < len; at += 7) {
        f = fopen(cut, "w");
        fwrite(whole_text, 1, at, f);
        fclose(f);
        int trunc;
        err_t e = {{0}};
        part_t *t = part_read(cut, &trunc, &e);
        ck_assert_msg(t != NULL && trunc, "cut at %zu: %s", at, e.msg);
        part_free(t);
        const char *tr[] = {s0, cut, s2};
        expect_error(tr, 3, 0, "truncated: 1");
    }
    /* a cut inside the header, and a file that is no part at all */
    for (size_t at = 0; at < (size_t)header_end; at += 5) {
        f = fopen(cut, "w");
        fwrite(whole_text, 1, at, f);
        fclose(f);
        int trunc;
        err_t e = {{0}};
        ck_assert_ptr_null(part_read(cut, &trunc, &e));
        ck_assert_ptr_nonnull(strstr(e.msg, cut));
    }
    f = fopen(cut, "w");
    fputs("scenario,platform\n", f);
    fclose(f);
    int trunc;
    err_t e = {{0}};
    ck_assert_ptr_null(part_read(cut, &trunc, &e));
    ck_assert_ptr_nonnull(strstr(e.msg, "not a numasim part file"));
    part_free(p);
}
END_TEST

static Suite *part_suite(void)
{
    Suite *s = suite_create("part");
    TCase *tc = tcase_create("part");
    tcase_add_checked_fixture(tc, tu_tmp_setup, tu_tmp_teardown_checked);
    tcase_add_test(tc, every_combination_in_one_slice);
    tcase_add_test(tc, slice_syntax);
    tcase_add_test(tc, round_trip_any_slice_count);
    tcase_add_test(tc, merge_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(part_suite());
}
