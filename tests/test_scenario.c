/* Scenario files: parsing, defaults, overrides and every class of error. */
#include "scenario.h"
#include "testutil.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes TMP/rel (making its directories) and puts its path in out. */
static void wfile(char *out, size_t n, const char *rel, const char *content)
{
    snprintf(out, n, "%s", tu_tmp_write(rel, content));
}

/* A scenario file in TMP with a platform file p.xml next to it; header is put
 * first, then "[scenario]\nplatforms = p.xml\n", then body. */
static void scen(char *out, size_t n, const char *header, const char *body)
{
    char p[512], text[4096];
    wfile(p, sizeof p, "p.xml", "<platform/>\n");
    snprintf(text, sizeof text, "%s[scenario]\nplatforms = p.xml\n%s", header, body);
    wfile(out, n, "s.ini", text);
}

static const char *resolved(const scenario_t *s, const char *key, const char **origin)
{
    for (int i = 0; i < s->nresolved; i++)
        if (!strcmp(s->resolved[i].key, key)) {
            if (origin)
                *origin = s->resolved[i].origin;
            return s->resolved[i].value;
        }
    ck_abort_msg("no resolved key %s", key);
    return NULL;
}

/* Loads path and expects an error "PREFIX..." on one line containing part. */
static void expect_err(const char *path, const char *const *sets, int nsets, const char *prefix,
                       const char *part)
{
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, sets, nsets, &e);
    ck_assert_msg(s == NULL, "loaded, expected an error '%s...%s'", prefix, part);
    tu_assert_err(e.msg, prefix, part);
}

/* Writes a scenario (platforms on line 2) with body from line 3 and expects
 * an error at line; prefix "FILE:LINE: ". */
static void expect_line_err(const char *body, int line, const char *part)
{
    char path[512], prefix[600];
    scen(path, sizeof path, "", body);
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    expect_err(path, NULL, 0, prefix, part);
}

START_TEST(test_full_file)
{
    char path[512], p[512];
    wfile(p, sizeof p, "q.xml", "<platform/>\n");
    scen(path, sizeof path, "; a comment\n",
         "name = mine\n"
         "description = a full scenario ; trailing comment\n"
         "default = true\n"
         "strategies = naive, scan\n"
         "cache = cold\n"
         "seed = 18446744073709551615\n"
         "seeds = 7\n"
         "jitter_cycles = 40\n"
         "sweep = measure.calls\n"
         "sweep_values = 1, 10,100\n"
         "[measure]\n"
         "workload = overlap\n"
         "calls = 500\n"
         "warmup_calls = 0\n"
         "cpu = 3\n"
         "timer_node = 1\n"
         "arm_cpu = 2\n"
         "spacing_cycles = 1000000000000\n"
         "spacing_jitter_cycles = 77\n"
         "expires_jiffies = 4\n"
         "[kernel]\n"
         "hz = 250\n"
         "timekeeper_cpu = 5\n"
         "[background]\n"
         "ops_per_tick = 2.5\n"
         "timers_per_cpu = 16\n"
         "del_fraction = 0.25\n"
         "sync_fraction = 0.125\n"
         "on_caller = yes\n"
         "[function]\n"
         "   cycles = 1234\n" /* indented: not a continuation line */
         "   rearm = 1\n"
         "rearm_at = 0.75\n"
         "rearm_jiffies = 3\n"
         "free = true\n"
         "[overlap]\n"
         "first_cpu = 4\n"
         "second_cpu = 6\n"
         "first_cycles = 111\n"
         "second_cycles = 222\n");
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_str_eq(s->path, path);
    ck_assert_str_eq(s->name, "mine");
    ck_assert_str_eq(s->description, "a full scenario");
    ck_assert_int_eq(s->is_default, 1);
    ck_assert_int_eq(s->nplatforms, 1);
    snprintf(p, sizeof p, "%s/p.xml", tu_tmp());
    ck_assert_str_eq(s->platforms[0], p);
    ck_assert_int_eq(s->nstrategies, 2);
    ck_assert_int_eq(s->strategies[0], STRAT_NAIVE);
    ck_assert_int_eq(s->strategies[1], STRAT_SCAN);
    ck_assert_int_eq(s->ncaches, 1);
    ck_assert_int_eq(s->caches[0], CACHE_COLD);
    ck_assert(s->seed == 18446744073709551615ul);
    ck_assert_int_eq(s->seeds, 7);
    ck_assert_uint_eq(s->jitter_cycles, 40);
    ck_assert_str_eq(s->sweep_key, "measure.calls");
    ck_assert_int_eq(s->nsweep, 3);
    ck_assert_str_eq(s->sweep_values[0], "1");
    ck_assert_str_eq(s->sweep_values[1], "10");
    ck_assert_str_eq(s->sweep_values[2], "100");
    ck_assert_int_eq(s->workload, WORKLOAD_OVERLAP);
    ck_assert_int_eq(s->calls, 500);
    ck_assert_int_eq(s->warmup_calls, 0);
    ck_assert_int_eq(s->cpu, 3);
    ck_assert_int_eq(s->timer_node, 1);
    ck_assert_int_eq(s->arm_cpu, 2);
    ck_assert(s->spacing_cycles == 1000000000000ull);
    ck_assert(s->spacing_jitter_cycles == 77);
    ck_assert_int_eq(s->expires_jiffies, 4);
    ck_assert_int_eq(s->hz, 250);
    ck_assert_int_eq(s->timekeeper_cpu, 5);
    ck_assert_double_eq(s->ops_per_tick, 2.5);
    ck_assert_int_eq(s->timers_per_cpu, 16);
    ck_assert_double_eq(s->del_fraction, 0.25);
    ck_assert_double_eq(s->sync_fraction, 0.125);
    ck_assert_int_eq(s->on_caller, 1);
    ck_assert(s->fn_cycles == 1234);
    ck_assert_int_eq(s->fn_rearm, 1);
    ck_assert_double_eq(s->fn_rearm_at, 0.75);
    ck_assert_int_eq(s->fn_rearm_jiffies, 3);
    ck_assert_int_eq(s->fn_free, 1);
    ck_assert_int_eq(s->overlap_first_cpu, 4);
    ck_assert_int_eq(s->overlap_second_cpu, 6);
    ck_assert(s->overlap_first_cycles == 111);
    ck_assert(s->overlap_second_cycles == 222);
    ck_assert_int_eq(s->nplatform_sets, 0);
    const char *origin;
    ck_assert_str_eq(resolved(s, "background.on_caller", &origin), "true");
    ck_assert_str_eq(resolved(s, "scenario.strategies", NULL), "naive,scan");
    ck_assert_str_eq(resolved(s, "scenario.seed", NULL), "18446744073709551615");
    ck_assert_str_eq(resolved(s, "background.del_fraction", NULL), "0.25");
    scenario_free(s);
}
END_TEST

/* scenario.strategies' default follows kernel.core. */
START_TEST(test_default_strategies_61)
{
    const char *cores[] = {"6.1", "2.6, 6.1"};
    int n[] = {2, STRAT_SHORTCUT + 2};
    for (int k = 0; k < 2; k++) {
        char path[512], body[64];
        snprintf(body, sizeof body, "[kernel]\ncore = %s\nhz = 1000\n", cores[k]);
        scen(path, sizeof path, "", body);
        err_t e = {{0}};
        scenario_t *s = scenario_load(path, NULL, 0, &e);
        ck_assert_msg(s != NULL, "%s", e.msg);
        ck_assert_int_eq(s->nstrategies, n[k]);
        ck_assert_int_eq(s->strategies[n[k] - 2], STRAT_TIMER_DELETE_SYNC);
        ck_assert_int_eq(s->strategies[n[k] - 1], STRAT_TIMER_DELETE_SYNC_RT);
        scenario_free(s);
    }
}
END_TEST

START_TEST(test_defaults)
{
    char path[512], origin[600];
    scen(path, sizeof path, "", "");
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_str_eq(s->name, "s");
    ck_assert_str_eq(s->description, "");
    ck_assert_int_eq(s->is_default, 0);
    ck_assert_int_eq(s->nstrategies, STRAT_SHORTCUT); /* all but the shortcut */
    for (int i = 0; i < STRAT_SHORTCUT; i++)
        ck_assert_int_eq(s->strategies[i], i);
    ck_assert_int_eq(s->ncaches, 2);
    ck_assert_int_eq(s->caches[0], CACHE_WARM);
    ck_assert_int_eq(s->caches[1], CACHE_COLD);
    ck_assert_uint_eq(s->seed, 1);
    ck_assert_int_eq(s->seeds, 1);
    ck_assert_uint_eq(s->jitter_cycles, 0);
    ck_assert_ptr_null(s->sweep_key);
    ck_assert_int_eq(s->nsweep, 0);
    ck_assert_int_eq(s->workload, WORKLOAD_SCHEDULE_TIMEOUT);
    ck_assert_int_eq(s->calls, 1000);
    ck_assert_int_eq(s->warmup_calls, 10);
    ck_assert_int_eq(s->cpu, 0);
    ck_assert_int_eq(s->timer_node, -1);
    ck_assert_int_eq(s->arm_cpu, -1);
    ck_assert(s->spacing_cycles == 20000);
    ck_assert(s->spacing_jitter_cycles == 0);
    ck_assert_int_eq(s->expires_jiffies, 10);
    ck_assert_int_eq(s->hz, 1024);
    ck_assert_int_eq(s->timekeeper_cpu, 0);
    ck_assert_double_eq(s->ops_per_tick, 0);
    ck_assert_int_eq(s->timers_per_cpu, 8);
    ck_assert_double_eq(s->del_fraction, 0.5);
    ck_assert_double_eq(s->sync_fraction, 0);
    ck_assert_int_eq(s->on_caller, 0);
    ck_assert(s->fn_cycles == 1000);
    ck_assert_int_eq(s->fn_rearm, 0);
    ck_assert_double_eq(s->fn_rearm_at, 0.5);
    ck_assert_int_eq(s->fn_rearm_jiffies, 1);
    ck_assert_int_eq(s->fn_free, 0);
    ck_assert_int_eq(s->overlap_first_cpu, 1);
    ck_assert_int_eq(s->overlap_second_cpu, 2);
    ck_assert(s->overlap_first_cycles == 3000000);
    ck_assert(s->overlap_second_cycles == 100000);

    /* the resolved list: every key, in table order, with its origin */
    ck_assert_int_eq(s->nresolved, 50);
    ck_assert_str_eq(s->resolved[0].key, "scenario.name");
    ck_assert_str_eq(s->resolved[s->nresolved - 1].key, "contend.cpus");
    const char *o;
    ck_assert_str_eq(resolved(s, "scenario.name", &o), "s");
    ck_assert_str_eq(o, "default");
    ck_assert_str_eq(resolved(s, "measure.calls", &o), "1000");
    ck_assert_str_eq(o, "default");
    ck_assert_str_eq(resolved(s, "scenario.cache", &o), "warm,cold");
    ck_assert_str_eq(o, "default");
    ck_assert_str_eq(resolved(s, "scenario.sweep", &o), "");
    ck_assert_str_eq(resolved(s, "background.ops_per_tick", &o), "0");
    snprintf(origin, sizeof origin, "%s:2", path);
    ck_assert_str_eq(resolved(s, "scenario.platforms", &o), s->platforms[0]);
    ck_assert_str_eq(o, origin);

    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    scenario_write_resolved(s, f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(out, "measure.calls = 1000   ; default\n"));
    ck_assert_ptr_nonnull(strstr(out, origin));
    int lines = 0;
    for (char *c = out; *c; c++)
        lines += *c == '\n';
    ck_assert_int_eq(lines, 50);
    free(out);
    scenario_free(s);
}
END_TEST

START_TEST(test_file_origin)
{
    char path[512], origin[600];
    scen(path, sizeof path, "", "[measure]\n\ncalls = 5\n");
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    const char *o;
    ck_assert_str_eq(resolved(s, "measure.calls", &o), "5");
    snprintf(origin, sizeof origin, "%s:5", path);
    ck_assert_str_eq(o, origin);
    ck_assert_str_eq(resolved(s, "measure.cpu", &o), "0");
    ck_assert_str_eq(o, "default");
    scenario_free(s);
}
END_TEST

START_TEST(test_missing_platforms)
{
    char path[512], prefix[600];
    wfile(path, sizeof path, "empty.ini", "");
    snprintf(prefix, sizeof prefix, "%s: ", path);
    expect_err(path, NULL, 0, prefix, "scenario.platforms");
    wfile(path, sizeof path, "x.ini", "[scenario]\nname = x\n");
    snprintf(prefix, sizeof prefix, "%s: ", path);
    expect_err(path, NULL, 0, prefix, "scenario.platforms: required key is missing");
}
END_TEST

START_TEST(test_platform_paths)
{
    char path[512], p[512], abs[512], want[600];
    wfile(p, sizeof p, "plat/a.xml", "<platform/>\n");
    wfile(abs, sizeof abs, "b.xml", "<platform/>\n");
    char text[2048];
    snprintf(text, sizeof text, "[scenario]\nplatforms = ../plat/a.xml, %s\n", abs);
    wfile(path, sizeof path, "sub/deep.ini", text);
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_int_eq(s->nplatforms, 2);
    snprintf(want, sizeof want, "%s/sub/../plat/a.xml", tu_tmp());
    ck_assert_str_eq(s->platforms[0], want);
    ck_assert_str_eq(s->platforms[1], abs);
    ck_assert_str_eq(s->name, "deep");
    scenario_free(s);

    /* a path from --set is taken as given (relative to the working dir) */
    char set[600];
    snprintf(set, sizeof set, "scenario.platforms=%s", p);
    const char *sets[] = {set};
    s = scenario_load(path, sets, 1, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_str_eq(s->platforms[0], p);
    scenario_free(s);
}
END_TEST

START_TEST(test_err_missing_file)
{
    char path[512], prefix[600];
    snprintf(path, sizeof path, "%s/nope.ini", tu_tmp());
    snprintf(prefix, sizeof prefix, "%s: cannot read scenario file", path);
    expect_err(path, NULL, 0, prefix, "");
    /* a directory cannot be read either */
    snprintf(prefix, sizeof prefix, "%s: cannot read scenario file", tu_tmp());
    expect_err(tu_tmp(), NULL, 0, prefix, "");
}
END_TEST

START_TEST(test_err_malformed)
{
    expect_line_err("[measure]\ncalls = 3\nthis line has no equals\n", 5, "malformed line");
    expect_line_err("[measure\n", 3, "malformed line");
}
END_TEST

START_TEST(test_err_unknown_section)
{
    expect_line_err("\n[measures]\ncalls = 3\n", 4, "unknown section [measures]");
    expect_line_err("[nothing]\n", 3, "unknown section [nothing]");
    char path[512], prefix[600];
    wfile(path, sizeof path, "top.ini", "; comment\nx = 1\n");
    snprintf(prefix, sizeof prefix, "%s:2: ", path);
    expect_err(path, NULL, 0, prefix, "outside any [section]");
}
END_TEST

START_TEST(test_err_unknown_key)
{
    expect_line_err("[measure]\ncalls = 3\ncals = 4\n", 5,
                    "unknown key 'cals' in section [measure]");
    /* a key of another section */
    expect_line_err("[kernel]\ncalls = 4\n", 4, "unknown key 'calls' in section [kernel]");
}
END_TEST

START_TEST(test_err_twice)
{
    expect_line_err("[measure]\ncalls = 3\n\ncalls = 4\n", 6,
                    "measure.calls: given twice (first at line 4)");
    /* also across two headers of the same section */
    expect_line_err("[measure]\ncpu = 1\n[kernel]\nhz = 100\n[measure]\ncpu = 2\n", 8,
                    "measure.cpu: given twice");
}
END_TEST

START_TEST(test_err_type)
{
    expect_line_err("[measure]\ncalls = 1.5\n", 4, "measure.calls: expected a whole number");
    expect_line_err("[measure]\ncalls = abc\n", 4, "expected a whole number, got 'abc'");
    expect_line_err("[measure]\ncalls =\n", 4, "expected a whole number, got ''");
    expect_line_err("[measure]\nspacing_cycles = 1e3\n", 4, "expected a whole number");
    expect_line_err("[background]\ndel_fraction = half\n", 4,
                    "background.del_fraction: expected a number, got 'half'");
    expect_line_err("[background]\non_caller = maybe\n", 4,
                    "background.on_caller: expected true or false");
    expect_line_err("[measure]\nworkload = sleep\n", 4,
                    "measure.workload: unknown value 'sleep' (expected one of schedule_timeout, "
                    "rearm, overlap, first_run, hop, tick, contend)");
    /* the 6.1 core's keys */
    expect_line_err("[kernel]\ncore = 5.4\n", 4, "kernel.core: unknown item '5.4'");
    expect_line_err("[kernel]\nlock = mcs\n", 4,
                    "kernel.lock: unknown value 'mcs' (expected one of tas, ticket, qspinlock)");
    expect_line_err("[kernel]\nhz = 500\n", 4,
                    "kernel.hz: 500 is not one of the kernel's HZ values");
    expect_line_err("[kernel]\ntimers_migration = often\n", 4,
                    "kernel.timers_migration: expected true or false");
    expect_line_err("strategies = scan, timer_delete_sync\n", 3,
                    "scenario.strategies: timer_delete_sync runs on the 6.1 timer core, which "
                    "kernel.core does not list");
    expect_line_err("strategies = scan\n[kernel]\ncore = 6.1\n", 3,
                    "scenario.strategies: scan runs on the 2.6 timer core");
    expect_line_err("sweep = kernel.core\nsweep_values = 2.6\n", 3,
                    "scenario.sweep: 'kernel.core' cannot be swept");
    expect_line_err("[wheel]\ntimeout_min_jiffies = 100\ntimeout_max_jiffies = 10\n", 4,
                    "wheel.timeout_min_jiffies: is larger than wheel.timeout_max_jiffies");
    expect_line_err("[contend]\ncpus = 0\n", 4, "contend.cpus: 0 is out of range");
    expect_line_err("sweep2 = kernel.lock\nsweep2_values = tas\n", 3,
                    "scenario.sweep2: is set but scenario.sweep is not");
    expect_line_err("sweep = kernel.lock\nsweep_values = tas\nsweep2 = kernel.lock\n"
                    "sweep2_values = ticket\n",
                    5, "scenario.sweep2: names the key scenario.sweep names");
    expect_line_err("sweep = kernel.lock\nsweep_values = tas\nsweep2 = contend.cpus\n"
                    "sweep2_values = 2, x\n",
                    6, "scenario.sweep2_values: item 2 for contend.cpus: expected a whole number");
}
END_TEST

START_TEST(test_err_range)
{
    expect_line_err("[measure]\ncalls = 0\n", 4, "measure.calls: 0 is out of range [1, 10000000]");
    expect_line_err("[measure]\ntimer_node = -2\n", 4, "-2 is out of range [-1, 65535]");
    expect_line_err("[measure]\nspacing_cycles = -1\n", 4, "out of range");
    expect_line_err("[measure]\nspacing_cycles = 1000000000001\n", 4,
                    "1000000000001 is out of range [0, 1000000000000]");
    expect_line_err("seed = 18446744073709551616\n", 3,
                    "scenario.seed: 18446744073709551616 is out");
    expect_line_err("seeds = 100001\n", 3, "scenario.seeds: 100001 is out of range");
    expect_line_err("[background]\ndel_fraction = 1.01\n", 4, "1.01 is out of range [0, 1]");
    expect_line_err("[kernel]\nhz = 99999999999999999999\n", 4, "out of range");
    expect_line_err("[kernel]\nhz = 4294967297\n", 4, "4294967297 is out of range [1, 100000]");
    expect_line_err("jitter_cycles = 1000001\n", 3, "1000001 is out of range");
}
END_TEST

START_TEST(test_err_list_item)
{
    expect_line_err(
        "strategies = scan, bogus\n", 3,
        "scenario.strategies: unknown item 'bogus' (expected scan, last_running, "
        "singleshot, naive, base_tracking, shortcut, timer_delete_sync, timer_delete_sync_rt, "
        "timer_shutdown_sync)");
    expect_line_err("strategies = scan, naive, scan\n", 3, "'scan' is listed twice");
    expect_line_err("strategies = scan,,naive\n", 3, "item 2 of the list is empty");
    expect_line_err("strategies =\n", 3, "scenario.strategies: must list at least one item");
    expect_line_err("cache = warm, tepid\n", 3, "scenario.cache: unknown item 'tepid'");
    expect_line_err("cache = warm, warm\n", 3, "listed twice");
    expect_line_err("sweep = measure.calls\nsweep_values = 1, x\n", 4,
                    "scenario.sweep_values: item 2 for measure.calls: expected a whole number");
    expect_line_err("sweep = measure.nope\n", 3, "scenario.sweep: 'measure.nope' is not a key");
    expect_line_err("sweep = scenario.seed\n", 3, "cannot be swept");
    expect_line_err("sweep = measure.calls\n", 3,
                    "scenario.sweep: is set but scenario.sweep_values is empty");
    expect_line_err("\nsweep_values = 1\n", 4, "scenario.sweep_values: is given but");
    expect_line_err("name = a/b\n", 3, "scenario.name: must be non-empty");
}
END_TEST

START_TEST(test_err_platforms)
{
    char path[512], prefix[1200];
    wfile(path, sizeof path, "s.ini", "[scenario]\n\nplatforms = missing.xml\n");
    snprintf(prefix, sizeof prefix,
             "%s:3: scenario.platforms: platform file '%s/missing.xml' "
             "does not exist",
             path, tu_tmp());
    expect_err(path, NULL, 0, prefix, "");
    wfile(path, sizeof path, "s.ini", "[scenario]\nplatforms =\n");
    snprintf(prefix, sizeof prefix, "%s:2: scenario.platforms: must list at least one item", path);
    expect_err(path, NULL, 0, prefix, "");
}
END_TEST

START_TEST(test_err_long_line)
{
    char body[600];
    memset(body, 'x', sizeof body);
    memcpy(body, "description = ", 14);
    strcpy(body + 500, "\n");
    expect_line_err(body, 3, "line longer than");
}
END_TEST

START_TEST(test_first_error_wins)
{
    /* the unknown key on line 3 comes before the malformed line 4 */
    expect_line_err("nokey = 1\nmalformed\n", 3, "unknown key 'nokey'");
    /* the malformed line 3 comes before the unknown key on line 4 */
    expect_line_err("malformed\nnokey = 1\n", 3, "malformed line");
}
END_TEST

START_TEST(test_set)
{
    char path[512];
    scen(path, sizeof path, "", "[measure]\ncalls = 5\n");
    const char *sets[] = {"measure.calls=6",       "measure.calls=7",
                          " kernel.hz = 100 ",     "platform.mem_local_cycles=250",
                          "platform.link.exit=40", "scenario.cache=both"};
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, sets, 6, &e); /* the last of two sets wins */
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_int_eq(s->calls, 7);
    ck_assert_int_eq(s->hz, 100);
    const char *o;
    ck_assert_str_eq(resolved(s, "measure.calls", &o), "7");
    ck_assert_str_eq(o, "--set");
    ck_assert_str_eq(resolved(s, "kernel.hz", &o), "100");
    ck_assert_str_eq(o, "--set");
    ck_assert_int_eq(s->nplatform_sets, 2);
    ck_assert_str_eq(s->platform_sets[0].name, "mem_local_cycles");
    ck_assert_str_eq(s->platform_sets[0].value, "250");
    ck_assert_str_eq(s->platform_sets[1].name, "link.exit");
    ck_assert_str_eq(s->platform_sets[1].value, "40");
    ck_assert_int_eq(s->ncaches, 2);
    scenario_free(s);
}
END_TEST

START_TEST(test_set_errors)
{
    char path[512];
    scen(path, sizeof path, "", "");
    const char *bad_value[] = {"measure.calls=1.5"};
    expect_err(path, bad_value, 1, "--set: measure.calls: expected a whole number", "");
    const char *bad_range[] = {"kernel.hz=0"};
    expect_err(path, bad_range, 1, "--set: kernel.hz: 0 is out of range", "");
    const char *bad_key[] = {"measure.nope=1"};
    expect_err(path, bad_key, 1, "--set: measure.nope: unknown key 'nope'", "");
    const char *bad_section[] = {"nope.calls=1"};
    expect_err(path, bad_section, 1, "--set: nope.calls: unknown section [nope]", "");
    const char *no_eq[] = {"measure.calls"};
    expect_err(path, no_eq, 1, "--set: 'measure.calls': expected section.key=value", "");
    const char *no_dot[] = {"calls=3"};
    expect_err(path, no_dot, 1, "--set: 'calls=3': expected section.key=value", "");
    const char *newline[] = {"scenario.description=a\nb"};
    expect_err(path, newline, 1, "--set: scenario.description: contains a control", "");
    /* the sweep check reports where sweep came from */
    const char *sweep[] = {"scenario.sweep=kernel.hz"};
    expect_err(path, sweep, 1, "--set: scenario.sweep: is set but", "");
}
END_TEST

START_TEST(test_cache_both)
{
    char path[512];
    scen(path, sizeof path, "", "cache = both\n");
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_int_eq(s->ncaches, 2);
    ck_assert_int_eq(s->caches[0], CACHE_WARM);
    ck_assert_int_eq(s->caches[1], CACHE_COLD);
    ck_assert_str_eq(resolved(s, "scenario.cache", NULL), "warm,cold");
    scenario_free(s);
    scen(path, sizeof path, "", "cache = cold, warm\n");
    s = scenario_load(path, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_int_eq(s->caches[0], CACHE_COLD);
    ck_assert_int_eq(s->caches[1], CACHE_WARM);
    scenario_free(s);
}
END_TEST

/* "none" is the empty list of barriers, so that a sweep can have it. */
START_TEST(test_omit_none)
{
    char path[512];
    scen(path, sizeof path, "",
         "sweep = kernel.omit_barriers\nsweep_values = none, run_wmb\n"
         "[kernel]\nomit_barriers = del_wmb, scan_rmb\n");
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_int_eq(s->nomit, 2);
    scenario_free(s);
    scen(path, sizeof path, "", "[kernel]\nomit_barriers = none\n");
    s = scenario_load(path, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_int_eq(s->nomit, 0);
    scenario_free(s);
    expect_line_err("[kernel]\nomit_barriers = none, run_wmb\n", 4,
                    "unknown item 'none' (expected run_wmb, del_wmb, scan_rmb, or none)");
    expect_line_err("cache = none\n", 3, "scenario.cache: unknown item 'none'");
}
END_TEST

START_TEST(test_platform_glob)
{
    /* A glob stands for its matches in version order; no match is an error. */
    char p[512], path[512];
    wfile(p, sizeof p, "plat/fat10.xml", "<platform/>\n");
    wfile(p, sizeof p, "plat/fat2.xml", "<platform/>\n");
    wfile(p, sizeof p, "plat/fat1.xml", "<platform/>\n");
    wfile(path, sizeof path, "s.ini", "[scenario]\nplatforms = plat/fat*.xml, plat/fat2.xml\n");
    err_t e = {{0}};
    scenario_t *s = scenario_load(path, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_int_eq(s->nplatforms, 4);
    const char *want[] = {"fat1.xml", "fat2.xml", "fat10.xml", "fat2.xml"};
    for (int i = 0; i < 4; i++) {
        const char *base = strrchr(s->platforms[i], '/');
        ck_assert_str_eq(base ? base + 1 : s->platforms[i], want[i]);
    }
    scenario_free(s);
    wfile(path, sizeof path, "t.ini", "[scenario]\nplatforms = plat/none*.xml\n");
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s:2: ", path);
    expect_err(path, NULL, 0, prefix, "no platform file matches");
}
END_TEST

START_TEST(test_names)
{
    ck_assert_str_eq(strategy_name(STRAT_SCAN), "scan");
    ck_assert_str_eq(strategy_name(STRAT_LAST_RUNNING), "last_running");
    ck_assert_str_eq(strategy_name(STRAT_SINGLESHOT), "singleshot");
    ck_assert_str_eq(strategy_name(STRAT_NAIVE), "naive");
    ck_assert_str_eq(strategy_name(STRAT_BASE_TRACKING), "base_tracking");
    ck_assert_str_eq(strategy_name(STRAT_SHORTCUT), "shortcut");
    ck_assert_str_eq(cache_state_name(CACHE_WARM), "warm");
    ck_assert_str_eq(cache_state_name(CACHE_COLD), "cold");
}
END_TEST

int main(void)
{
    Suite *su = suite_create("scenario");
    TCase *tc = tcase_create("scenario");
    tcase_add_checked_fixture(tc, tu_tmp_setup, tu_tmp_teardown_checked);
    tcase_add_test(tc, test_full_file);
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_default_strategies_61);
    tcase_add_test(tc, test_file_origin);
    tcase_add_test(tc, test_missing_platforms);
    tcase_add_test(tc, test_platform_paths);
    tcase_add_test(tc, test_err_missing_file);
    tcase_add_test(tc, test_err_malformed);
    tcase_add_test(tc, test_err_unknown_section);
    tcase_add_test(tc, test_err_unknown_key);
    tcase_add_test(tc, test_err_twice);
    tcase_add_test(tc, test_err_type);
    tcase_add_test(tc, test_err_range);
    tcase_add_test(tc, test_err_list_item);
    tcase_add_test(tc, test_err_platforms);
    tcase_add_test(tc, test_err_long_line);
    tcase_add_test(tc, test_first_error_wins);
    tcase_add_test(tc, test_set);
    tcase_add_test(tc, test_set_errors);
    tcase_add_test(tc, test_cache_both);
    tcase_add_test(tc, test_omit_none);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_platform_glob);
    suite_add_tcase(su, tc);
    return tu_run_suite(su);
}
