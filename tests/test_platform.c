/* test_platform: reading platform files, their errors, overrides, rewriting,
 * and the node latency matrix SimGrid's routes give.
 *
 * Bad inputs are edited copies of platforms/numa32.xml written to a fresh
 * temp dir, so each error's expected line is found in the text we wrote.
 * Tests that call sim_run rely on CK_FORK (one SimGrid engine per
 * process, and each test case runs in its own child).
 */
#include "cpu.h"
#include "simulated.h"
#include "platform.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* text with the one occurrence of `from` replaced by `to` (malloc'd). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    ck_assert_msg(at != NULL, "'%s' not in numa32.xml", from);
    ck_assert_msg(strstr(at + 1, from) == NULL, "'%s' twice in numa32.xml", from);
    size_t pre = (size_t)(at - text), nf = strlen(from), nt = strlen(to);
    char *out = malloc(strlen(text) - nf + nt + 1);
    ck_assert_ptr_nonnull(out);
    memcpy(out, text, pre);
    memcpy(out + pre, to, nt);
    strcpy(out + pre + nt, at + nf);
    return out;
}

/* 1-based line of the first occurrence of needle in text. */
static int line_of(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    ck_assert_ptr_nonnull(at);
    int line = 1;
    for (const char *s = text; s < at; s++)
        line += *s == '\n';
    return line;
}

/* The error contract: NULL, one line, "PATH:LINE: " (or "PATH: " when line
 * is 0) and the message names `what`. */
static void expect_error(platform_t *p, const err_t *e, const char *path, int line,
                         const char *what)
{
    ck_assert_ptr_null(p);
    ck_assert_msg(e->msg[0] != '\0', "empty error message");
    tu_assert_err_at(e->msg, path, line, what);
}

/* Reads an edited numa32.xml (from -> to) and expects an error at the line
 * where `to` landed (or no line when line_needle is NULL). */
static void expect_edit_error(const char *from, const char *to, const char *line_needle,
                              const char *what)
{
    char *orig = tu_slurp(tu_src_path("platforms/numa32.xml"), NULL);
    char *text = replace(orig, from, to);
    int line = line_needle ? line_of(text, line_needle) : 0;
    const char *path = tu_tmp_write("bad.xml", text);
    err_t e = {{0}};
    expect_error(platform_read(path, NULL, 0, &e), &e, path, line, what);
    free(text);
    free(orig);
}

/* Same, for the zone prop NAME set to value (removed when value is NULL);
 * the error must be on the prop's line (none when removed). */
static void expect_prop_error(const char *name, const char *value, const char *what)
{
    char *orig = tu_slurp(tu_src_path("platforms/numa32.xml"), NULL);
    char head[128], from[256], to[256];
    snprintf(head, sizeof head, "<prop id=\"%s\" value=\"", name);
    const char *at = strstr(orig, head), *end = at ? strstr(at, "/>") : NULL;
    ck_assert_msg(end && end - at < 200, "no %s in numa32.xml", head);
    snprintf(from, sizeof from, "%.*s", (int)(end + 2 - at), at);
    if (value)
        snprintf(to, sizeof to, "%s%s\"/>", head, value);
    else
        to[0] = '\0';
    free(orig);
    expect_edit_error(from, to, value ? to : NULL, what);
}

static double param_value(const platform_t *p, const char *name)
{
    const platform_param_t *q = platform_param(p, name);
    ck_assert_msg(q != NULL, "no parameter %s", name);
    return strtod(q->value, NULL);
}

/* Round trip of a route whose links add up to one_way cycles. numa32's
 * routes: node - exit - port, then brick (to the C-brick's other port) or
 * uplink - router0 [- spine - router1] - uplink, then port - exit - node. */
static uint32_t rt(double one_way)
{
    return (uint32_t)(2 * one_way + 0.5);
}

/* --- good platforms --- */

START_TEST(numa32_matrix)
{
    platform_t *p = tu_platform("numa32");
    ck_assert_int_eq(p->ncpus, 32);
    ck_assert_int_eq(p->nnodes, 16);
    ck_assert_ptr_null(p->node_lat); /* routes come from SimGrid only */
    for (int i = 0; i < 32; i++)
        ck_assert_int_eq(p->cpu_node[i], i / 2);
    tu_machine_routes(p, "test_platform");
    for (int a = 0; a < 16; a++) {
        ck_assert_uint_eq(platform_node_lat(p, a, a), 0);
        for (int b = 0; b < 16; b++)
            ck_assert_uint_eq(platform_node_lat(p, a, b), platform_node_lat(p, b, a));
    }
    uint32_t brick = platform_node_lat(p, 0, 1), router1 = platform_node_lat(p, 0, 2),
             router2 = platform_node_lat(p, 0, 8);
    ck_assert_uint_lt(0, brick);
    ck_assert_uint_lt(brick, router1);
    ck_assert_uint_lt(router1, router2);
    /* Round trip = twice the one-way sum of the links on the route. */
    double ex = param_value(p, "link.exit"), br = param_value(p, "link.brick"),
           up = param_value(p, "link.uplink"), sp = param_value(p, "link.spine");
    ck_assert_uint_eq(brick, rt(2 * ex + br));
    ck_assert_uint_eq(router1, rt(2 * ex + 2 * up));
    ck_assert_uint_eq(router2, rt(2 * ex + 2 * up + sp));
    ck_assert_uint_eq(platform_node_lat(p, 15, 7), router2);
    ck_assert_uint_eq(platform_node_lat(p, 14, 15), brick);
    platform_free(p);
}
END_TEST

START_TEST(smp4_one_node)
{
    platform_t *p = tu_platform("smp4");
    ck_assert_int_eq(p->ncpus, 4);
    ck_assert_int_eq(p->nnodes, 1);
    ck_assert_double_gt(p->costs.mem_local_cycles, p->costs.hit_cycles);
    tu_machine_routes(p, "test_platform");
    ck_assert_uint_eq(platform_node_lat(p, 0, 0), 0);
    platform_free(p);
}
END_TEST

/* --- bad input --- */

START_TEST(missing_file)
{
    const char *path = tu_tmp_path("no_such_platform.xml");
    err_t e = {{0}};
    expect_error(platform_read(path, NULL, 0, &e), &e, path, 0, "read");
}
END_TEST

START_TEST(unreadable_file)
{
    if (geteuid() == 0)
        return; /* root reads a mode-000 file anyway: nothing to check */
    char *text = tu_slurp(tu_src_path("platforms/numa32.xml"), NULL);
    const char *path = tu_tmp_write("locked.xml", text);
    free(text);
    ck_assert_int_eq(chmod(path, 0), 0);
    err_t e = {{0}};
    expect_error(platform_read(path, NULL, 0, &e), &e, path, 0, "read");
}
END_TEST

START_TEST(truncated_xml)
{
    /* Cut inside a host element: the parser fails at the end of the data. */
    char *text = tu_slurp(tu_src_path("platforms/numa32.xml"), NULL);
    int line = line_of(text, "<host id=\"cpu9\"");
    strstr(text, "<host id=\"cpu9\"")[10] = '\0';
    const char *path = tu_tmp_write("truncated.xml", text);
    err_t e = {{0}};
    expect_error(platform_read(path, NULL, 0, &e), &e, path, line, "XML");
    free(text);
}
END_TEST

START_TEST(mismatched_tag)
{
    expect_edit_error("<router id=\"shub3\"/>", "<router id=\"shub3\"></route>", "</route>", "XML");
}
END_TEST

START_TEST(missing_property)
{
    expect_prop_error("hit_cycles", NULL, "hit_cycles");
}
END_TEST

START_TEST(non_numeric_property)
{
    expect_prop_error("hit_cycles", "abc", "hit_cycles");
}
END_TEST

START_TEST(negative_property)
{
    expect_prop_error("mem_local_cycles", "-5", "mem_local_cycles");
}
END_TEST

START_TEST(host_without_node)
{
    expect_edit_error("<host id=\"cpu5\" speed=\"1f\"><prop id=\"numa_node\" value=\"2\"/></host>",
                      "<host id=\"cpu5\" speed=\"1f\"/>", "\"cpu5\"", "numa_node");
}
END_TEST

/* platform_dtd.c's route keys and required attributes (built by hand). */
START_TEST(route_given_twice)
{
    const char *r = "<route src=\"cpu1\" dst=\"shub0\"><link_ctn id=\"bus0\"/></route>";
    char twice[256], back[256], given[64], given_sym[160];
    char *orig = tu_slurp(tu_src_path("platforms/numa32.xml"), NULL);
    int at = line_of(orig, r); /* where numa32.xml gives the route */
    free(orig);
    snprintf(given, sizeof given, "already given at line %d", at);
    snprintf(given_sym, sizeof given_sym,
             "from 'cpu1' to 'shub0': that route is already given at line %d (routes "
             "are symmetrical",
             at);
    snprintf(twice, sizeof twice,
             "%s\n    <route dst=\"shub0\" src=\"cpu1\"><link_ctn id=\"bus0\"/></route>", r);
    expect_edit_error(r, twice, "<route dst=\"shub0\"", given);
    /* a one-way route, then the other way and back: the way back is taken */
    snprintf(back, sizeof back,
             "<route src=\"cpu1\" dst=\"shub0\" symmetrical=\"NO\"><link_ctn id=\"bus0\"/>"
             "</route>\n    <route src=\"shub0\" dst=\"cpu1\"><link_ctn id=\"bus0\"/></route>");
    expect_edit_error(r, back, "<route src=\"shub0\" dst=\"cpu1\">", given_sym);
}
END_TEST

START_TEST(router_without_id)
{
    expect_edit_error("<router id=\"shub3\"/>", "<router/>", "<router/>",
                      "<router> needs the attribute 'id'");
}
END_TEST

START_TEST(wrong_version)
{
    expect_edit_error("<platform version=\"4.1\">", "<platform version=\"3\">", "<platform ",
                      "version");
}
END_TEST

/* --- overrides and rewriting --- */

START_TEST(override_unknown)
{
    const char *path = tu_src_path("platforms/numa32.xml");
    platform_override_t ov[] = {{"no_such", "1"}};
    err_t e = {{0}};
    platform_t *p = platform_read(path, ov, 1, &e);
    ck_assert_ptr_null(p);
    ck_assert_msg(strchr(e.msg, '\n') == NULL, "not one line: %s", e.msg);
    ck_assert_msg(strstr(e.msg, "no_such") != NULL, "does not name the parameter: %s", e.msg);
    ck_assert_msg(strstr(e.msg, path) != NULL, "does not name the file: %s", e.msg);
}
END_TEST

START_TEST(override_link_class)
{
    platform_override_t ov[] = {{"link.uplink", "100"}};
    platform_t *p = tu_platform_read(tu_src_path("platforms/numa32.xml"), ov, 1);
    const platform_param_t *q = platform_param(p, "link.uplink");
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(q->overridden, 1);
    ck_assert_str_eq(q->value, "100");
    ck_assert_int_eq(platform_param(p, "link.exit")->overridden, 0);
    double ex = param_value(p, "link.exit"), br = param_value(p, "link.brick"),
           sp = param_value(p, "link.spine");
    tu_machine_routes(
        p, "test_platform"); /* SimGrid loads the file: the override must reach its links */
    ck_assert_uint_eq(platform_node_lat(p, 0, 2), rt(2 * ex + 100 + 100));
    ck_assert_uint_eq(platform_node_lat(p, 0, 1), rt(2 * ex + br)); /* no uplink */
    ck_assert_uint_eq(platform_node_lat(p, 0, 8), rt(2 * ex + 100 + sp + 100));
    platform_free(p);
}
END_TEST

START_TEST(write_with_values)
{
    const char *in = tu_src_path("platforms/numa32.xml");
    const char *out = tu_tmp_path("copy.xml");
    platform_t *orig = tu_platform_read(in, NULL, 0);
    const char *names[] = {"mem_local_cycles", "link.spine"};
    const double values[] = {111, 50};
    err_t e = {{0}};
    ck_assert_msg(platform_write_with(in, out, 2, names, values, " tuned copy ", &e) == 0, "%s",
                  e.msg);
    char *text = tu_slurp(out, NULL);
    ck_assert_msg(strstr(text, "<!-- tuned copy -->") != NULL, "comment missing");
    free(text);
    platform_t *p = tu_platform_read(out, NULL, 0);
    ck_assert_double_eq(p->costs.mem_local_cycles, 111);
    ck_assert_double_eq(param_value(p, "link.spine"), 50);
    /* Everything else is kept. */
    ck_assert_double_eq(p->costs.hit_cycles, orig->costs.hit_cycles);
    ck_assert_double_eq(p->costs.c2c_node_cycles, orig->costs.c2c_node_cycles);
    double ex = param_value(orig, "link.exit"), up = param_value(orig, "link.uplink");
    ck_assert_double_eq(param_value(p, "link.exit"), ex);
    ck_assert_double_eq(param_value(p, "link.uplink"), up);
    ck_assert_int_eq(p->ncpus, 32);
    ck_assert_int_eq(p->nparams, orig->nparams);
    for (int i = 0; i < p->nparams; i++)
        ck_assert_int_eq(p->params[i].tunable, platform_param(orig, p->params[i].name)->tunable);
    tu_machine_routes(p, "test_platform"); /* SimGrid reads the rewritten file too */
    ck_assert_uint_eq(platform_node_lat(p, 0, 8), rt(2 * ex + 2 * up + 50));
    platform_free(p);
    platform_free(orig);
    /* Unknown names are refused. */
    const char *bad[] = {"no_such"};
    ck_assert_int_eq(platform_write_with(in, out, 1, bad, values, NULL, &e), -1);
    ck_assert_msg(strstr(e.msg, "no_such") != NULL, "%s", e.msg);
}
END_TEST

static Suite *platform_suite(void)
{
    Suite *s = suite_create("platform");
    TCase *t = tcase_create("platform");
    /* one temp dir, made and removed by the runner: it goes even when a test fails */
    tcase_add_unchecked_fixture(t, tu_tmp_setup, tu_tmp_teardown);
    tcase_add_test(t, numa32_matrix);
    tcase_add_test(t, smp4_one_node);
    tcase_add_test(t, missing_file);
    tcase_add_test(t, unreadable_file);
    tcase_add_test(t, truncated_xml);
    tcase_add_test(t, mismatched_tag);
    tcase_add_test(t, missing_property);
    tcase_add_test(t, non_numeric_property);
    tcase_add_test(t, negative_property);
    tcase_add_test(t, host_without_node);
    tcase_add_test(t, route_given_twice);
    tcase_add_test(t, router_without_id);
    tcase_add_test(t, wrong_version);
    tcase_add_test(t, override_unknown);
    tcase_add_test(t, override_link_class);
    tcase_add_test(t, write_with_values);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(platform_suite());
}
