/* test_tune: the core of `numasim tune` without simulations - the target
 * file parser and its FILE:LINE errors, the choice of the fitted cells,
 * reading a `numasim run` CSV, --params, the default output name, the
 * objective, and the Nelder-Mead fit on
 * analytic models (recovery of known values, the evaluation cache, the
 * --max-evals budget, an evaluation that fails).
 */
#include "testutil.h"
#include "tune.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes text as TMP/target.csv; returns its path (tu_tmp_path's buffer). */
static const char *write_file(const char *text)
{
    return tu_tmp_write("target.csv", text);
}

/* Reads text as a target file; expects an error "FILE:LINE: ...WHAT...". */
static void expect_error(const char *text, int line, const char *what)
{
    const char *path = write_file(text);
    tune_cell_t *c = (tune_cell_t *)1;
    int n = -1;
    err_t e = {{0}};
    ck_assert_int_eq(tune_read_target(path, &c, &n, &e), -1);
    ck_assert_ptr_null(c);
    ck_assert_int_eq(n, 0);
    tu_assert_err_at(e.msg, path, line, what);
}

START_TEST(reads_reference_format)
{
    const char *path = write_file("# comment\n"
                                  "   # indented comment\n"
                                  "\n"
                                  "platform,strategy,cache,cycles\n"
                                  "numa32,scan,warm,29000\n"
                                  "\n"
                                  "# between rows\n"
                                  "numa32, scan ,cold,3.78e4\r\n"
                                  "smp4,scan,warm,505\n");
    tune_cell_t *c = NULL;
    int n = 0;
    err_t e = {{0}};
    ck_assert_int_eq(tune_read_target(path, &c, &n, &e), 0);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(c[0].platform, "numa32");
    ck_assert_str_eq(c[0].strategy, "scan");
    ck_assert_str_eq(c[0].cache, "warm");
    ck_assert_double_eq(c[0].cycles, 29000);
    ck_assert_int_eq(c[0].line, 5);
    ck_assert_str_eq(c[1].strategy, "scan");
    ck_assert_str_eq(c[1].cache, "cold");
    ck_assert_double_eq(c[1].cycles, 37800);
    ck_assert_int_eq(c[1].line, 8);
    ck_assert_str_eq(c[2].platform, "smp4");
    free(c);
}
END_TEST

START_TEST(columns_any_order_and_extra)
{
    const char *path = write_file("cycles,note,cache,platform,strategy\n"
                                  "1220,from the paper,cold,smp4,scan\n");
    tune_cell_t *c = NULL;
    int n = 0;
    err_t e = {{0}};
    ck_assert_int_eq(tune_read_target(path, &c, &n, &e), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(c[0].platform, "smp4");
    ck_assert_str_eq(c[0].strategy, "scan");
    ck_assert_str_eq(c[0].cache, "cold");
    ck_assert_double_eq(c[0].cycles, 1220);
    free(c);
}
END_TEST

START_TEST(errors_have_file_and_line)
{
    expect_error("# c\nplatform,strategy,cache,cycles\nsmp4,scan,warm,abc\n", 3,
                 "cycles must be a number > 0, not 'abc'");
    expect_error("platform,strategy,cache,cycles\nsmp4,scan,warm,\n", 2, "cycles must be");
    expect_error("platform,strategy,cache,cycles\nsmp4,scan,warm,0\n", 2, "> 0");
    expect_error("platform,strategy,cache,cycles\nsmp4,scan,warm,-3\n", 2, "> 0");
    expect_error("platform,strategy,cache,cycles\nsmp4,scan,warm,12x\n", 2, "'12x'");
    expect_error("platform,strategy,cache,cycles\nsmp4,scan,warm,nan\n", 2, "cycles must be");
    expect_error("# c\n\nplatform,strategy,cycles\nsmp4,scan,5\n", 3, "no column 'cache'");
    expect_error("platform,strategy,cache,cycle\n", 1, "no column 'cycles'");
    expect_error("platform,strategy,cache,cycles\nsmp4,scan,warm\n", 2, "3 fields");
    expect_error("platform,strategy,cache,cycles\nsmp4,scan,warm,5,6\n", 2, "5 fields");
    expect_error("platform,strategy,cache,cycles\n,scan,warm,5\n", 2, "empty platform");
    expect_error("platform,strategy,cache,cycles\nsmp4,scan,warm,5\nsmp4,scan,cold,6\n"
                 "smp4,scan,warm,7\n",
                 4, "given twice (first at line 2)");
    expect_error("# only comments\n\n", 0, "no header line");
    expect_error("", 0, "no header line");
    expect_error("platform,strategy,cache,cycles\n# nothing\n", 0, "no data rows");
}
END_TEST

START_TEST(missing_file)
{
    tune_cell_t *c = NULL;
    int n = 0;
    err_t e = {{0}};
    const char *path = tu_tmp_path("no_such.csv");
    ck_assert_int_eq(tune_read_target(path, &c, &n, &e), -1);
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "%s: cannot read target file", path);
    tu_assert_err(e.msg, prefix, "");
}
END_TEST

static int read_cells(const char *text, tune_cell_t **c)
{
    int n = 0;
    err_t e = {{0}};
    ck_assert_int_eq(tune_read_target(write_file(text), c, &n, &e), 0);
    return n;
}

static const char *const kStrats[] = {"scan", "naive"};
static const char *const kCaches[] = {"warm", "cold"};

START_TEST(select_platform_rows)
{
    tune_cell_t *c = NULL;
    int n = read_cells("platform,strategy,cache,cycles\n"
                       "smp4,scan,warm,505\n"
                       "numa32,scan,warm,29000\n"
                       "smp4,bogus,warm,1\n" /* another platform: not checked */
                       "numa32,naive,cold,37800\n",
                       &c);
    ck_assert_int_eq(n, 4);
    err_t e = {{0}};
    int nother = -1;
    int k =
        tune_select(tu_tmp_path("target.csv"), c, n, "numa32", kStrats, 2, kCaches, 2, &nother, &e);
    ck_assert_int_eq(k, 2);
    ck_assert_int_eq(nother, 2);
    ck_assert_str_eq(c[0].platform, "numa32");
    ck_assert_int_eq(c[0].line, 3);
    ck_assert_str_eq(c[1].strategy, "naive");
    ck_assert_int_eq(c[1].line, 5);
    free(c);
}
END_TEST

START_TEST(select_unknown_cell)
{
    tune_cell_t *c = NULL;
    int n = read_cells("platform,strategy,cache,cycles\n"
                       "smp4,scan,warm,505\n"
                       "smp4,last_running,warm,505\n",
                       &c);
    const char *path = tu_tmp_path("target.csv");
    err_t e = {{0}};
    int nother = 0;
    ck_assert_int_eq(tune_select(path, c, n, "smp4", kStrats, 2, kCaches, 2, &nother, &e), -1);
    tu_assert_err_at(e.msg, path, 3, "does not produce strategy 'last_running'");
    /* a cache state the scenario does not run */
    ck_assert_int_eq(tune_select(path, c, 1, "smp4", kStrats, 2, kCaches + 1, 1, &nother, &e), -1);
    tu_assert_err_at(e.msg, path, 2, "cache 'warm'");
    /* no row of the tuned platform */
    ck_assert_int_eq(tune_select(path, c, n, "numa32", kStrats, 2, kCaches, 2, &nother, &e), -1);
    ck_assert_msg(strstr(e.msg, "no row for platform 'numa32'") != NULL, "got '%s'", e.msg);
    free(c);
}
END_TEST

START_TEST(read_run_csv)
{
    tune_cell_t cells[2] = {{"smp4", "scan", "cold", 1000, 2}, {"smp4", "scan", "warm", 500, 3}};
    const char *path =
        write_file("scenario,platform,cpus,nodes,strategy,cache,calls,mean_cycles,median_cycles\n"
                   "t,smp4,4,1,scan,warm,100,512.5,500.0\n"
                   "t,smp4,4,1,scan,cold,100,1890.0,1880.0\n");
    double sim[2] = {0, 0};
    err_t e = {{0}};
    ck_assert_int_eq(tune_read_run_csv(path, cells, 2, sim, &e), 0);
    ck_assert_double_eq(sim[0], 1890.0);
    ck_assert_double_eq(sim[1], 512.5);
    tune_cell_t other = {"smp4", "naive", "warm", 1, 4};
    ck_assert_int_eq(tune_read_run_csv(path, &other, 1, sim, &e), -1);
    ck_assert_msg(strstr(e.msg, "no row for cell smp4,naive,warm") != NULL, "got '%s'", e.msg);
    write_file("scenario,platform,strategy,cache\nt,smp4,scan,warm\n");
    ck_assert_int_eq(tune_read_run_csv(path, cells, 2, sim, &e), -1);
    ck_assert_msg(strstr(e.msg, "no column 'mean_cycles'") != NULL, "got '%s'", e.msg);
}
END_TEST

START_TEST(objective_is_mean_squared_log_ratio)
{
    tune_cell_t cells[2] = {{"p", "scan", "warm", 100, 1}, {"p", "scan", "cold", 200, 2}};
    double exact[2] = {100, 200}, off[2] = {100 * exp(1.0), 200};
    ck_assert_double_eq(tune_objective(exact, cells, 2), 0);
    ck_assert_double_eq_tol(tune_objective(off, cells, 2), 0.5, 1e-12);
    double zero[2] = {0, 200};
    ck_assert(isfinite(tune_objective(zero, cells, 2)));
    ck_assert_double_eq(tune_round(123.4567891), 123.457);
    ck_assert_double_eq(tune_round(0.000123456789), 0.000123457);
}
END_TEST

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

START_TEST(parse_params)
{
    err_t e = {{0}};
    platform_t *p = tu_platform("smp4");
    char **names = NULL;
    int n = 0;
    ck_assert_int_eq(tune_parse_params(" mem_local_cycles , c2c_node_cycles", p, &names, &n, &e),
                     0);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(names[0], "mem_local_cycles");
    ck_assert_str_eq(names[1], "c2c_node_cycles");
    free_names(names, n);
    static const struct {
        const char *list, *msg;
    } bad[] = {
        {"no_such", "--params: 'no_such' is not a parameter of "},
        {"tunable", "--params: 'tunable' is not a parameter"},
        {"mem_local_cycles,", "--params: item 2 of 'mem_local_cycles,' is empty"},
        {"", "--params: item 1"},
        {"hit_cycles,hit_cycles", "--params: 'hit_cycles' is listed twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(tune_parse_params(bad[i].list, p, &names, &n, &e), -1);
        ck_assert_msg(!strncmp(e.msg, bad[i].msg, strlen(bad[i].msg)), "'%s': got '%s'",
                      bad[i].list, e.msg);
        free_names(names, n);
    }
    platform_free(p);
}
END_TEST

START_TEST(default_output_and_comment)
{
    char buf[256];
    tune_default_out("platforms/numa32.xml", buf, sizeof buf);
    ck_assert_str_eq(buf, "numa32-tuned.xml");
    tune_default_out("/abs/dir/smp4", buf, sizeof buf);
    ck_assert_str_eq(buf, "smp4-tuned.xml");
    tune_default_out("numa32-tuned.xml", buf, sizeof buf);
    ck_assert_str_eq(buf, "numa32-tuned-tuned.xml");
    char c1[] = "target a--b---c.csv, x-";
    tune_comment_safe(c1);
    ck_assert_ptr_null(strstr(c1, "--"));
    ck_assert_int_ne(c1[strlen(c1) - 1], '-');
}
END_TEST

/* An analytic "simulator": warm = 2a + b, cold = a + 3b + 100, third = a*b/50. */
typedef struct {
    int calls, fail_at;
} model_t;

static int model(const double *v, double *sim, void *ctx, err_t *e)
{
    model_t *m = ctx;
    if (++m->calls == m->fail_at)
        return err_set(e, NULL, 0, "model failed");
    sim[0] = 2 * v[0] + v[1];
    sim[1] = v[0] + 3 * v[1] + 100;
    sim[2] = v[0] * v[1] / 50;
    return 0;
}

static const char *const kNames[] = {"a", "b"};
static tune_cell_t g_cells[3] = {
    {"p", "s", "warm", 0, 1}, {"p", "s", "cold", 0, 2}, {"p", "s", "x", 0, 3}};

static tune_problem_t problem(model_t *m, const double *initial, int max_evals)
{
    double truth[2] = {300, 330};
    model_t scratch = {0, 0};
    double sim[3];
    model(truth, sim, &scratch, NULL);
    for (int i = 0; i < 3; i++)
        g_cells[i].cycles = sim[i];
    return (tune_problem_t){.nparams = 2,
                            .names = kNames,
                            .initial = initial,
                            .ncells = 3,
                            .cells = g_cells,
                            .max_evals = max_evals,
                            .step = 0.2,
                            .size_tol = 1e-3,
                            .eval = model,
                            .ctx = m,
                            .log = NULL};
}

START_TEST(fit_recovers_known_values)
{
    double initial[2] = {420, 198}; /* +40%, -40% */
    model_t m = {0, 0};
    tune_problem_t pb = problem(&m, initial, 500);
    tune_result_t r;
    err_t e = {{0}};
    ck_assert_int_eq(tune_fit(&pb, &r, &e), 0);
    ck_assert_int_eq(r.converged, 1);
    ck_assert_double_eq_tol(r.fitted[0], 300, 300 * 0.005);
    ck_assert_double_eq_tol(r.fitted[1], 330, 330 * 0.005);
    ck_assert_double_lt(r.err, 0.005);
    ck_assert_double_gt(r.err0, 0.1);
    ck_assert_double_eq(r.sim0[0], 2 * 420 + 198);
    ck_assert_double_eq_tol(r.sim[0], g_cells[0].cycles, g_cells[0].cycles * 0.005);
    /* each distinct vector was evaluated once */
    ck_assert_int_eq(r.evals, m.calls);
    ck_assert_int_le(r.evals, 500);
    tune_result_free(&r);
}
END_TEST

START_TEST(fit_respects_max_evals)
{
    double initial[2] = {420, 198};
    for (int max = 1; max <= 12; max++) {
        model_t m = {0, 0};
        tune_problem_t pb = problem(&m, initial, max);
        tune_result_t r;
        err_t e = {{0}};
        ck_assert_int_eq(tune_fit(&pb, &r, &e), 0);
        ck_assert_int_eq(m.calls, r.evals);
        ck_assert_int_le(r.evals, max);
        ck_assert_int_eq(r.converged, 0);
        ck_assert_double_le(r.err, r.err0);
        if (max == 1) {
            ck_assert_double_eq(r.fitted[0], 420);
            ck_assert_double_eq(r.fitted[1], 198);
        }
        tune_result_free(&r);
    }
}
END_TEST

static int model_1d(const double *v, double *sim, void *ctx, err_t *e)
{
    (void)e;
    ((model_t *)ctx)->calls++;
    sim[0] = 3 * v[0] + 40;
    return 0;
}

START_TEST(fit_single_parameter)
{
    static const char *const name[] = {"link.exit"};
    tune_cell_t cell = {"p", "s", "cold", 3 * 75 + 40, 1};
    double initial[1] = {150};
    model_t m = {0, 0};
    tune_problem_t pb = {.nparams = 1,
                         .names = name,
                         .initial = initial,
                         .ncells = 1,
                         .cells = &cell,
                         .max_evals = 200,
                         .step = 0.2,
                         .size_tol = 1e-3,
                         .eval = model_1d,
                         .ctx = &m,
                         .log = NULL};
    tune_result_t r;
    err_t e = {{0}};
    ck_assert_int_eq(tune_fit(&pb, &r, &e), 0);
    ck_assert_int_eq(r.converged, 1);
    ck_assert_double_eq_tol(r.fitted[0], 75, 75 * 0.005);
    tune_result_free(&r);
}
END_TEST

START_TEST(fit_stops_on_failed_evaluation)
{
    double initial[2] = {420, 198};
    for (int at = 1; at <= 4; at++) {
        model_t m = {0, at};
        tune_problem_t pb = problem(&m, initial, 200);
        tune_result_t r;
        err_t e = {{0}};
        ck_assert_int_eq(tune_fit(&pb, &r, &e), -1);
        ck_assert_str_eq(e.msg, "model failed");
        ck_assert_ptr_null(r.fitted);
        ck_assert_int_eq(m.calls, at);
    }
}
END_TEST

static Suite *tune_suite(void)
{
    Suite *s = suite_create("tune");
    TCase *t = tcase_create("tune");
    tcase_add_checked_fixture(t, tu_tmp_setup, tu_tmp_teardown_checked);
    tcase_add_test(t, reads_reference_format);
    tcase_add_test(t, columns_any_order_and_extra);
    tcase_add_test(t, errors_have_file_and_line);
    tcase_add_test(t, missing_file);
    tcase_add_test(t, select_platform_rows);
    tcase_add_test(t, select_unknown_cell);
    tcase_add_test(t, read_run_csv);
    tcase_add_test(t, parse_params);
    tcase_add_test(t, default_output_and_comment);
    tcase_add_test(t, objective_is_mean_squared_log_ratio);
    tcase_add_test(t, fit_recovers_known_values);
    tcase_add_test(t, fit_respects_max_evals);
    tcase_add_test(t, fit_single_parameter);
    tcase_add_test(t, fit_stops_on_failed_evaluation);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(tune_suite());
}
