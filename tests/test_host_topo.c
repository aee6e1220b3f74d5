/* test_host_topo: what `platform --from-host` reads below the writer.
 *
 * The ELF symbol reader (host_topo_symbol_sizes, host_topo_symbol_ranges for
 * the addresses) on this very test binary: three functions of known size
 * written in assembly below (a global one, its ".cold" part, and a longer
 * name that starts with the same letters), a static function found by its
 * file and not by another file, a kernel function linked from numasim,
 * absent names, and the errors (no file, not ELF, a stripped copy). The
 * cache levels (host_topo_read) of the synthetic topologies in tests/hwloc/:
 * sizes, ways (known, fully associative, unknown), and the scope from the
 * cpuset (SMT pair, a CCX inside a node, a whole node).
 */
#include "host_topo.h"
#include "timer/timer.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* Functions of known sizes: 37 bytes, a 5-byte cold part, and 11 bytes for a
 * name that only starts like the first (it must not be counted with it). */
__asm__(".text\n"
        ".globl tu_elf_probe\n.type tu_elf_probe, STT_FUNC\ntu_elf_probe:\n"
        ".skip 37, 0\n.size tu_elf_probe, 37\n"
        ".type tu_elf_probe.cold, STT_FUNC\ntu_elf_probe.cold:\n"
        ".skip 5, 0\n.size tu_elf_probe.cold, 5\n"
        ".globl tu_elf_probe_longer\n.type tu_elf_probe_longer, STT_FUNC\ntu_elf_probe_longer:\n"
        ".skip 11, 0\n.size tu_elf_probe_longer, 11\n");

/* A static function of this file, kept out of line. */
static __attribute__((noinline, used)) int tu_local_fn(int x)
{
    return x * 3 + 1;
}

/* Keeps the kernel's timer operations in the test binary. */
void *volatile g_keep[2];

static unsigned long long size_of(const char *name)
{
    unsigned long long s = 0;
    err_t e = {{0}};
    ck_assert_msg(host_topo_symbol_sizes("/proc/self/exe", &name, 1, &s, &e) == 0, "%s", e.msg);
    return s;
}

START_TEST(symbols_known_sizes)
{
    g_keep[0] = (void *)del_timer;
    g_keep[1] = (void *)tu_local_fn;
    ck_assert_uint_eq(size_of("tu_elf_probe"), 37 + 5);
    ck_assert_uint_eq(size_of("tu_elf_probe_longer"), 11);
    ck_assert_uint_eq(size_of("tu_elf_prob"), 0);
    ck_assert_uint_gt(size_of("test_host_topo.c:tu_local_fn"), 0);
    ck_assert_uint_eq(size_of("test_host_topo.c:tu_local_fn"), size_of("tu_local_fn"));
    ck_assert_uint_eq(size_of("timer_core.c:tu_local_fn"), 0);
    ck_assert_uint_gt(size_of("del_timer"), 0);
    /* del_timer_sync_* are other functions, not parts of del_timer */
    const char *names[] = {"del_timer", "del_timer_sync_scan", "no_such_function_here",
                           "timer_ops.c:del_timer"};
    unsigned long long s[4];
    err_t e = {{0}};
    ck_assert_int_eq(host_topo_symbol_sizes("/proc/self/exe", names, 4, s, &e), 0);
    ck_assert_uint_eq(s[0], size_of("del_timer"));
    ck_assert_uint_eq(s[2], 0);
    ck_assert_uint_eq(s[3], 0); /* del_timer is global: no file qualifies it */
}
END_TEST

/* The same symbols one by one, with their addresses: the cold part follows
 * its function in the assembly above; a name matches nothing when absent. */
START_TEST(symbols_ranges)
{
    const char *names[] = {"no_such_function_here", "tu_elf_probe", "tu_elf_probe_longer"};
    host_symbol_t *s;
    int ns = -1;
    err_t e = {{0}};
    ck_assert_msg(host_topo_symbol_ranges("/proc/self/exe", names, 3, &s, &ns, &e) == 0, "%s",
                  e.msg);
    ck_assert_int_eq(ns, 3);
    unsigned long long addr[3] = {0}, size[3] = {0};
    for (int k = 0; k < ns; k++) {
        ck_assert_int_gt(s[k].name, 0);
        ck_assert_uint_gt(s[k].addr, 0);
        int slot = s[k].name == 2 ? 2 : s[k].size == 37 ? 0 : 1;
        ck_assert_uint_eq(size[slot], 0);
        addr[slot] = s[k].addr;
        size[slot] = s[k].size;
    }
    free(s);
    ck_assert_uint_eq(size[0], 37);
    ck_assert_uint_eq(size[1], 5);
    ck_assert_uint_eq(size[2], 11);
    ck_assert_uint_eq(addr[1], addr[0] + 37);
    ck_assert_uint_eq(addr[2], addr[1] + 5);
    s = (host_symbol_t *)names; /* must come back NULL */
    ck_assert_int_eq(host_topo_symbol_ranges(tu_tmp_path("nosuch2"), names, 3, &s, &ns, &e), -1);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(ns, 0);
}
END_TEST

START_TEST(symbols_errors)
{
    const char *name = "main";
    unsigned long long s = 99;
    err_t e = {{0}};
    const char *missing = tu_tmp_path("nosuch");
    ck_assert_int_eq(host_topo_symbol_sizes(missing, &name, 1, &s, &e), -1);
    tu_assert_err_at(e.msg, missing, 0, "cannot open");
    ck_assert_uint_eq(s, 0);
    const char *text = tu_tmp_write("text", "not an ELF file\n");
    ck_assert_int_eq(host_topo_symbol_sizes(text, &name, 1, &s, &e), -1);
    tu_assert_err_at(e.msg, text, 0, "not an ELF file");
    const char *stripped = tu_tmp_path("stripped"); /* valid: no other tu_tmp_* below */
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "strip -o '%.4096s' /proc/self/exe", stripped);
    ck_assert_msg(system(cmd) == 0, "strip (binutils) failed");
    ck_assert_int_eq(host_topo_symbol_sizes(stripped, &name, 1, &s, &e), -1);
    tu_assert_err_at(e.msg, stripped, 0, "no symbol table");
}
END_TEST

static host_topo_t read_topo(const char *rel)
{
    host_topo_t t;
    err_t e = {{0}};
    setenv("HWLOC_XMLFILE", tu_src_path(rel), 1);
    ck_assert_msg(host_topo_read(&t, &e) == 0, "%s", e.msg);
    unsetenv("HWLOC_XMLFILE");
    return t;
}

START_TEST(caches_ccx)
{
    host_topo_t t = read_topo("tests/hwloc/ccx-caches.xml");
    const host_cache_t *c = t.cache;
    ck_assert_int_eq(t.ncpus, 16);
    ck_assert(c[HOST_L1I].present && c[HOST_L1D].present && c[HOST_L2].present);
    ck_assert_uint_eq(c[HOST_L1I].bytes, 32768);
    ck_assert_int_eq(c[HOST_L1I].associativity, -1);
    ck_assert_int_eq(c[HOST_L1D].associativity, 8);
    ck_assert_int_eq(c[HOST_L1D].linesize, 64);
    /* L1 and L2 per core of 2 PUs: cpu, shared by the SMT pair */
    for (int l = HOST_L1I; l <= HOST_L2; l++) {
        ck_assert_int_eq(c[l].scope, HOST_SCOPE_CPU);
        ck_assert_int_eq(c[l].sharing, 2);
        ck_assert(c[l].exact);
    }
    ck_assert_uint_eq(c[HOST_L2].bytes, 524288);
    /* L3: 4 of the node's 8 PUs, a CCX */
    ck_assert_uint_eq(c[HOST_L3].bytes, 33554432);
    ck_assert_int_eq(c[HOST_L3].associativity, 16);
    ck_assert_int_eq(c[HOST_L3].scope, HOST_SCOPE_NODE);
    ck_assert(!c[HOST_L3].exact);
    ck_assert_int_eq(c[HOST_L3].sharing, 4);
    ck_assert_int_eq(c[HOST_L3].scope_pus, 8);
    ck_assert_int_eq(c[HOST_L3].instances, 4);
    ck_assert(c[HOST_L3].uniform);
    ck_assert_int_eq(t.cpu_package[15], 1);
    host_topo_free(&t);
}
END_TEST

START_TEST(caches_two_socket)
{
    host_topo_t t = read_topo("tests/hwloc/two-socket-slit.xml");
    const host_cache_t *c = t.cache;
    ck_assert(!c[HOST_L1I].present); /* the file has no instruction cache */
    ck_assert_int_eq(c[HOST_L1D].associativity, 0);
    ck_assert_int_eq(c[HOST_L3].scope, HOST_SCOPE_NODE);
    ck_assert(c[HOST_L3].exact);
    ck_assert_uint_eq(c[HOST_L3].bytes, 16777216);
    host_topo_free(&t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("host_topo");
    TCase *tc = tcase_create("symbols");
    tcase_add_checked_fixture(tc, tu_tmp_setup, tu_tmp_teardown);
    tcase_add_test(tc, symbols_known_sizes);
    tcase_add_test(tc, symbols_ranges);
    tcase_add_test(tc, symbols_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("caches");
    tcase_add_test(tc, caches_ccx);
    tcase_add_test(tc, caches_two_socket);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
