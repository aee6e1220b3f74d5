/* Regression inputs of the fuzzers (tests/regress/) and their seed corpus
 * (fuzz/corpus/), fed to the parsers the way the harnesses do (fuzz/): the
 * file part of each input up to its first NUL byte, then NUL-separated
 * overrides; a scenario sits beside a valid platform p.xml. Each must give a
 * valid result, or NULL with a non-empty one-line error. */
#include "../fuzz/fuzz_common.c"

#include "platform.h"
#include "scenario.h"
#include "testutil.h"

#include <check.h>
#include <dirent.h>

static void check_error(const err_t *e, const char *input)
{
    ck_assert_msg(e->msg[0] != '\0', "%s: NULL with an empty error message", input);
    ck_assert_msg(!strchr(e->msg, '\n') && !strchr(e->msg, '\r'),
                  "%s: error message is not one line: [%s]", input, e->msg);
}

static void scenario_input(const char *input, const char *platform)
{
    size_t size, len;
    uint8_t *data = (uint8_t *)tu_slurp(input, &size);
    char *sets[FUZZ_MAX_SETS];
    int nsets = fuzz_split(data, size, &len, sets);
    const char *path = fuzz_write(".ini", data, len);
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, (const char *const *)sets, nsets, &e);
    if (!s) {
        check_error(&e, input);
    } else {
        ck_assert_msg(s->nplatforms >= 1 && s->nresolved >= 1, "%s: incomplete scenario", input);
        for (int i = 0; i < s->nplatforms; i++) {
            if (strcmp(s->platforms[i], platform) != 0)
                continue;
            err_t pe = {{0}};
            platform_t *p = platform_read(platform, s->platform_sets, s->nplatform_sets, &pe);
            if (p)
                platform_free(p);
            else
                check_error(&pe, input);
        }
        scenario_free(s);
    }
    fuzz_free_sets(sets, nsets);
    free(data);
}

static void platform_input(const char *input)
{
    size_t size, len;
    uint8_t *data = (uint8_t *)tu_slurp(input, &size);
    char *sets[FUZZ_MAX_SETS];
    platform_override_t ov[FUZZ_MAX_SETS];
    int nsets = fuzz_split(data, size, &len, sets), nov = 0;
    for (int i = 0; i < nsets; i++) {
        char *eq = strchr(sets[i], '=');
        if (eq) {
            *eq = '\0';
            ov[nov++] = (platform_override_t){sets[i], eq + 1};
        }
    }
    const char *path = fuzz_write(".xml", data, len);
    err_t e = {{0}};
    platform_t *p = platform_read(path, ov, nov, &e);
    if (!p) {
        check_error(&e, input);
    } else {
        ck_assert_msg(p->ncpus >= 1 && p->nnodes >= 1 && p->nnodes <= p->ncpus,
                      "%s: bad CPU/node counts", input);
        platform_free(p);
    }
    fuzz_free_sets(sets, nsets);
    free(data);
}

/* Feeds every file of SRC/rel to fn; returns how many. */
static int each_file(const char *rel, void (*fn)(const char *input, const char *platform),
                     const char *platform)
{
    char dir[4096], path[8192];
    snprintf(dir, sizeof dir, "%s", tu_src_path(rel));
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open directory %s", dir);
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || !strcmp(de->d_name, "README.md"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        fn(path, platform);
        n++;
    }
    closedir(d);
    return n;
}

static void platform_input2(const char *input, const char *unused)
{
    (void)unused;
    platform_input(input);
}

static char g_platform[160];

static void write_p_xml(void)
{
    snprintf(g_platform, sizeof g_platform, "%sp.xml", fuzz_dir());
    FILE *f = fopen(g_platform, "w");
    ck_assert_ptr_nonnull(f);
    fputs(fuzz_valid_platform, f);
    ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_regress_scenario)
{
    write_p_xml();
    ck_assert_int_ge(each_file("tests/regress/scenario", scenario_input, g_platform), 1);
}
END_TEST

START_TEST(test_regress_platform)
{
    ck_assert_int_ge(each_file("tests/regress/platform", platform_input2, NULL), 1);
}
END_TEST

START_TEST(test_corpus_scenario)
{
    write_p_xml();
    ck_assert_int_ge(each_file("fuzz/corpus/scenario", scenario_input, g_platform), 5);
}
END_TEST

START_TEST(test_corpus_platform)
{
    ck_assert_int_ge(each_file("fuzz/corpus/platform", platform_input2, NULL), 5);
}
END_TEST

/* The valid seeds do load. */
START_TEST(test_valid_seeds)
{
    platform_t *p = tu_platform_read(tu_src_path("fuzz/corpus/platform/numa32.xml"), NULL, 0);
    ck_assert_int_eq(p->ncpus, 32);
    platform_free(p);
    write_p_xml();
    size_t size;
    char *data = tu_slurp(tu_src_path("fuzz/corpus/scenario/small.ini"), &size);
    err_t e = {{0}};
    scenario_t *s = scenario_load(fuzz_write(".ini", (const uint8_t *)data, size), NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_int_eq(s->nsweep, 2);
    scenario_free(s);
    free(data);
}
END_TEST

/* err_set keeps a message on one line whatever its arguments hold. */
START_TEST(test_err_one_line)
{
    err_t e;
    ck_assert_int_eq(err_set(&e, "f.ini", 3, "value '%s'", "a\nb\rc\033[31md\x7f\te"), -1);
    ck_assert_str_eq(e.msg, "f.ini:3: value 'a?b?c?[31md?\te'");
    err_set(&e, "x\ny", 0, "%s", "ok");
    ck_assert_str_eq(e.msg, "x?y: ok");
}
END_TEST

int main(void)
{
    Suite *su = suite_create("regress");
    TCase *tc = tcase_create("regress");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_regress_scenario);
    tcase_add_test(tc, test_regress_platform);
    tcase_add_test(tc, test_corpus_scenario);
    tcase_add_test(tc, test_corpus_platform);
    tcase_add_test(tc, test_valid_seeds);
    tcase_add_test(tc, test_err_one_line);
    suite_add_tcase(su, tc);
    return tu_run_suite(su);
}
