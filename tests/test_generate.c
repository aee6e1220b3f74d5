/* test_generate: the fat-tree generator (sim/machine/platform/generate.c)
 * and the platform XML writer it uses (platform_emit.c).
 *
 * The topology functions (node counts, brick pairing, routers crossed as a
 * function of the node numbers), the argument checks, and the generated
 * files themselves: read back by platform_read and routed by SimGrid, their
 * latency matrix must be gen_round_trip() for every pair, fat32's must be
 * numa32's, and fat32 must carry numa32's parameters. Tests that start
 * SimGrid rely on CK_FORK (one engine per process; each test, and each
 * iteration of a loop test, runs in its own child).
 */
#include "cpu.h"
#include "simulated.h"
#include "generate.h"
#include "platform.h"
#include "platform_emit.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static gen_tree_t tree_ok(int ncpus, int per_node)
{
    gen_tree_t t;
    err_t e = {{0}};
    ck_assert_msg(gen_tree_init(&t, ncpus, per_node, &e) == 0, "gen_tree_init(%d, %d): %s", ncpus,
                  per_node, e.msg);
    return t;
}

/* Writes the generated platform to TMP/fat.xml and reads it back. */
static platform_t *generate(int ncpus, int per_node)
{
    gen_tree_t t = tree_ok(ncpus, per_node);
    const char *path = tu_tmp_path("fat.xml");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(gen_write(f, &t, "numasim platform --generate (test)"), 0);
    ck_assert_int_eq(fclose(f), 0);
    err_t e = {{0}};
    platform_t *p = platform_read(path, NULL, 0, &e);
    ck_assert_msg(p != NULL, "platform_read(generated %d/%d): %s", ncpus, per_node, e.msg);
    return p;
}

/* --- topology functions --- */

START_TEST(tree_counts)
{
    static const struct {
        int ncpus, per_node, nodes, bricks, leaves, levels, nzones;
    } c[] = {
        {2, 2, 1, 1, 1, 1, 1},   /* fat2: one node, like smp4 */
        {4, 2, 2, 1, 1, 1, 1},   /* fat4: one brick */
        {6, 2, 3, 2, 1, 1, 1},   /* odd node count: last brick half full */
        {16, 2, 8, 4, 1, 1, 1},  /* one full leaf router */
        {32, 2, 16, 8, 2, 2, 2}, /* numa32's shape */
        {64, 2, 32, 16, 4, 3, 4},
        {4096, 2, 2048, 1024, 256, 9, 32},
        {4096, 1, 4096, 2048, 512, 10, 64},
        {4096, 64, 64, 32, 8, 4, 8},
        {2, 1, 2, 1, 1, 1, 1},
        {4095, 5, 819, 410, 103, 8, 26},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        gen_tree_t t = tree_ok(c[i].ncpus, c[i].per_node);
        ck_assert_int_eq(t.nnodes, c[i].nodes);
        ck_assert_int_eq(t.nbricks, c[i].bricks);
        ck_assert_int_eq(t.nleaves, c[i].leaves);
        ck_assert_int_eq(t.nlevels, c[i].levels);
        ck_assert_int_eq(t.nzones, c[i].nzones);
        ck_assert_int_eq(gen_groups_at(&t, 1), t.nleaves);
        ck_assert_int_eq(gen_groups_at(&t, t.nlevels), 1);
        if (t.nzones > 1) /* zones of >= sqrt(nodes) nodes */
            ck_assert_int_ge(64 << (2 * (t.zone_level - 1)), t.nnodes);
    }
    gen_tree_t t = tree_ok(4096, 2);
    ck_assert_int_eq(gen_top_routers(&t), 128 + 64 + 32 + 16 + 8 + 4 + 2);
    t = tree_ok(32, 2);
    ck_assert_int_eq(gen_top_routers(&t), 0); /* numa32: two routers, no top */
}
END_TEST

START_TEST(tree_errors)
{
    static const struct {
        int ncpus, per_node;
        const char *word;
    } c[] = {
        {3, 2, "multiple"}, {16384, 2, "--cpus"},  {1, 1, "--cpus"},       {0, 2, "--cpus"},
        {-4, 2, "--cpus"},  {4096, 0, "per-node"}, {4096, 65, "per-node"}, {4096, 3, "multiple"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        gen_tree_t t;
        err_t e = {{0}};
        ck_assert_int_eq(gen_tree_init(&t, c[i].ncpus, c[i].per_node, &e), -1);
        tu_assert_err(e.msg, "", c[i].word);
    }
}
END_TEST

START_TEST(brick_and_leaf)
{
    for (int b = 0; b < 2048; b++) {
        ck_assert_int_eq(gen_node_brick(2 * b), b);
        ck_assert_int_eq(gen_node_brick(2 * b + 1), b);
        /* both nodes of a brick under one leaf router, four bricks each */
        ck_assert_int_eq(gen_node_leaf(2 * b), b / 4);
        ck_assert_int_eq(gen_node_leaf(2 * b + 1), b / 4);
    }
}
END_TEST

START_TEST(routers_crossed)
{
    /* numa32's rule: 0 in the same brick, 1 under the same router, 2 else */
    for (int a = 0; a < 16; a++)
        for (int b = 0; b < 16; b++) {
            int want = a == b ? 0 : a / 2 == b / 2 ? 0 : a / 8 == b / 8 ? 1 : 2;
            ck_assert_int_eq(gen_routers_crossed(a, b), want);
        }
    /* then each further level adds 2 */
    ck_assert_int_eq(gen_routers_crossed(0, 16), 4);  /* leaves 0 and 2 */
    ck_assert_int_eq(gen_routers_crossed(15, 31), 4); /* leaves 1 and 3 */
    ck_assert_int_eq(gen_routers_crossed(0, 32), 6);  /* leaves 0 and 4 */
    ck_assert_int_eq(gen_routers_crossed(0, 2047), 16);
    ck_assert_int_eq(gen_routers_crossed(1024, 1023), 16);
    ck_assert_int_eq(gen_routers_crossed(0, 4095), 18);
    ck_assert_int_eq(gen_group_level(0, 7), 1);
    ck_assert_int_eq(gen_group_level(0, 8), 2);
    ck_assert_int_eq(gen_group_level(8, 16), 3);
    for (int a = 0; a < 300; a++)
        for (int b = 0; b < 300; b++) {
            int c = gen_routers_crossed(a, b), k = gen_group_level(a, b);
            ck_assert_int_eq(c, gen_routers_crossed(b, a));
            ck_assert_int_eq(c == 0, a / 2 == b / 2);
            if (k >= 2)
                ck_assert_int_eq(c, 2 * k - 2);
            /* latency grows strictly with the routers crossed */
            if (a != b)
                ck_assert_double_eq_tol(gen_round_trip(a, b), gen_round_trip(0, 1) + 75.0 * c,
                                        1e-9);
        }
    ck_assert_double_eq(gen_round_trip(5, 5), 0);
}
END_TEST

/* --- generated platforms through SimGrid --- */

/* fat32 is numa32: same matrix and the same parameters (memory model, link
 * classes, tunable). Fails when numa32 is re-tuned and generate.c is not. */
START_TEST(fat32_is_numa32)
{
    platform_t *n = tu_platform("numa32");
    platform_t *p = generate(32, 2);
    ck_assert_str_eq(p->name, "fat32");
    ck_assert_int_eq(p->ncpus, 32);
    ck_assert_int_eq(p->nnodes, 16);
    ck_assert_int_eq(p->nparams, n->nparams);
    for (int i = 0; i < n->nparams; i++) {
        const platform_param_t *q = platform_param(p, n->params[i].name);
        ck_assert_msg(q != NULL, "fat32 lacks %s", n->params[i].name);
        ck_assert_msg(strtod(q->value, NULL) == strtod(n->params[i].value, NULL) ||
                          !strcmp(q->value, n->params[i].value),
                      "%s: fat32 %s, numa32 %s", q->name, q->value, n->params[i].value);
        ck_assert_int_eq(q->tunable, n->params[i].tunable);
    }
    for (int c = 0; c < 32; c++)
        ck_assert_int_eq(p->cpu_node[c], n->cpu_node[c]);
    tu_machine_routes(p, "test_generate");
    /* numa32's matrix, from the same table as numa32 gets from SimGrid */
    double ex = strtod(platform_param(n, "link.exit")->value, NULL);
    double up = strtod(platform_param(n, "link.uplink")->value, NULL);
    double sp = strtod(platform_param(n, "link.spine")->value, NULL);
    for (int a = 0; a < 16; a++)
        for (int b = 0; b < 16; b++) {
            int c = gen_routers_crossed(a, b);
            double want = a == b ? 0 : 2 * (2 * ex + (c ? 2 * up + (c - 1) * sp : 0));
            ck_assert_uint_eq(platform_node_lat(p, a, b), (uint32_t)(want + 0.5));
            ck_assert_double_eq(gen_round_trip(a, b), want);
        }
    platform_free(p);
    platform_free(n);
}
END_TEST

/* Every pair of nodes: SimGrid's routes give gen_round_trip(). */
static const int kSizes[][2] = {{2, 2},   {4, 2},    {6, 2},    {10, 1},    {64, 2},   {96, 2},
                                {200, 4}, {1000, 2}, {4095, 5}, {4096, 64}, {4096, 2}, {2048, 1}};

START_TEST(matrix_is_the_tree)
{
    int ncpus = kSizes[_i][0], per_node = kSizes[_i][1];
    platform_t *p = generate(ncpus, per_node);
    ck_assert_int_eq(p->ncpus, ncpus);
    ck_assert_int_eq(p->nnodes, ncpus / per_node);
    for (int c = 0; c < ncpus; c++)
        ck_assert_int_eq(p->cpu_node[c], c / per_node);
    tu_machine_routes(p, "test_generate");
    int n = p->nnodes;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            uint32_t want = (uint32_t)(gen_round_trip(a, b) + 0.5);
            if (platform_node_lat(p, a, b) != want)
                ck_abort_msg("%d CPUs / %d: nodes %d, %d: SimGrid %u, tree %u", ncpus, per_node, a,
                             b, platform_node_lat(p, a, b), want);
        }
    platform_free(p);
}
END_TEST

/* The generated file names its platform and keeps only numa32's links. */
START_TEST(file_contents)
{
    platform_t *p = generate(4096, 4);
    ck_assert_str_eq(p->name, "fat4096-k4");
    int classes[4] = {0};
    const char *names[4] = {"exit", "brick", "uplink", "spine"};
    for (int i = 0; i < p->nlinks; i++) {
        if (!p->links[i].cls) {
            ck_assert_msg(!strncmp(p->links[i].id, "bus", 3), "link %s has no class",
                          p->links[i].id);
            continue;
        }
        int k = 0;
        while (k < 4 && strcmp(p->links[i].cls, names[k]))
            k++;
        ck_assert_msg(k < 4, "unknown class %s", p->links[i].cls);
        classes[k]++;
    }
    ck_assert_int_eq(classes[0], 1024); /* one exit per node */
    ck_assert_int_eq(classes[1], 512);  /* one brick per pair */
    ck_assert_int_eq(classes[2], 1024); /* one up-link per node */
    /* spine class: 64+32+...+1 links between halves, 128+64+...+4 trunks */
    ck_assert_int_eq(classes[3], 127 + 252);
    platform_free(p);
    p = generate(32, 2);
    ck_assert_str_eq(p->name, "fat32");
    platform_free(p);
}
END_TEST

/* --- the writer --- */

/* Every element the writer has, in numasim's layout: the indent follows the
 * open elements, a comment's further lines are indented (an empty one
 * stays empty) and its "--" become "- -". */
START_TEST(emit_layout)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    pemit_t e;
    pemit_begin(&e, f);
    pemit_comment(&e, "m: made by a--b, %d CPUs\n  cmd --x\n\nlast", 2);
    pemit_platform_open(&e);
    pemit_zone_open(&e, "m", "Floyd");
    pemit_comment(&e, "a value\nover two lines");
    pemit_prop(&e, "hit_cycles", "%g", 2.5);
    pemit_zone_open(&e, "z0", "DijkstraCache");
    pemit_iprop_t props[] = {{"numa_node", 0}, {"os_index", 3}};
    pemit_cpu(&e, 0, props, 2);
    pemit_router(&e, "node0", "OS node 1");
    pemit_router(&e, "r0", NULL);
    pemit_link(&e, "bus0", "6.4GBps", 0, NULL);
    pemit_link(&e, "exit0", "3.2GBps", 18.75, "exit");
    pemit_route(&e, "cpu0", "node0", "bus0");
    pemit_zone_close(&e);
    pemit_router_zone(&e, "zt", "top");
    pemit_zone_route(&e, "z0", "zt", "r0", "top", "exit0");
    pemit_zone_close(&e);
    pemit_platform_close(&e);
    ck_assert_int_eq(pemit_end(&e), 0);
    rewind(f);
    char *got = tu_read_stream(f, NULL);
    fclose(f);
    const char *want = "<?xml version='1.0'?>\n"
                       "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                       "<!-- m: made by a- -b, 2 CPUs\n"
                       "       cmd - -x\n"
                       "\n"
                       "     last -->\n"
                       "<platform version=\"4.1\">\n"
                       "  <zone id=\"m\" routing=\"Floyd\">\n"
                       "    <!-- a value\n"
                       "         over two lines -->\n"
                       "    <prop id=\"hit_cycles\" value=\"2.5\"/>\n"
                       "    <zone id=\"z0\" routing=\"DijkstraCache\">\n"
                       "      <host id=\"cpu0\" speed=\"1f\"><prop id=\"numa_node\" value=\"0\"/>"
                       "<prop id=\"os_index\" value=\"3\"/></host>\n"
                       "      <router id=\"node0\"/> <!-- OS node 1 -->\n"
                       "      <router id=\"r0\"/>\n"
                       "      <link id=\"bus0\" bandwidth=\"6.4GBps\" latency=\"0s\"/>\n"
                       "      <link id=\"exit0\" bandwidth=\"3.2GBps\" latency=\"18.75s\">"
                       "<prop id=\"class\" value=\"exit\"/></link>\n"
                       "      <route src=\"cpu0\" dst=\"node0\"><link_ctn id=\"bus0\"/></route>\n"
                       "    </zone>\n"
                       "    <zone id=\"zt\" routing=\"Full\"><router id=\"top\"/></zone>\n"
                       "    <zoneRoute src=\"z0\" dst=\"zt\" gw_src=\"r0\" gw_dst=\"top\">"
                       "<link_ctn id=\"exit0\"/></zoneRoute>\n"
                       "  </zone>\n"
                       "</platform>\n";
    ck_assert_str_eq(got, want);
    free(got);
}
END_TEST

static Suite *generate_suite(void)
{
    Suite *s = suite_create("generate");
    TCase *t = tcase_create("generate");
    tcase_add_unchecked_fixture(t, tu_tmp_setup, tu_tmp_teardown);
    tcase_set_timeout(t, 120);
    tcase_add_test(t, tree_counts);
    tcase_add_test(t, tree_errors);
    tcase_add_test(t, brick_and_leaf);
    tcase_add_test(t, routers_crossed);
    tcase_add_test(t, fat32_is_numa32);
    tcase_add_loop_test(t, matrix_is_the_tree, 0, (int)(sizeof kSizes / sizeof kSizes[0]));
    tcase_add_test(t, file_contents);
    tcase_add_test(t, emit_layout);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(generate_suite());
}
