/* test_paje: Paje traces through SimGrid's tracing, and the per-CPU
 * anatomy counters.
 *
 * Each test runs sim_run on smp4 in its own forked test process (one
 * SimGrid engine per process) and reads the trace back with pajeng's
 * pj_dump, which scripts/setup installs.
 */
#include "cpu.h"
#include "mem.h"
#include "simulated.h"
#include "testutil.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs pj_dump on file; returns its output (caller frees). */
static char *dump(const char *file)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "pj_dump '%s' 2>&1", file);
    FILE *f = popen(cmd, "r");
    ck_assert_msg(f != NULL, "cannot run pj_dump");
    char *buf = tu_read_stream(f, NULL);
    ck_assert_msg(pclose(f) == 0, "pj_dump rejected %s:\n%s", file, buf);
    return buf;
}

/* --- timestamps are exact cycles far beyond 10^10 --- */

#define BIG ((uint64_t)10000000007) /* 1e10 + 7 */
static maddr_t g_line;

static void caller_prog(cpu_t *c, void *arg)
{
    (void)arg;
    cpu_idle_until(c, BIG - 1000);
    cpu_call_begin(c, 0); /* a warm-up call: outside the window */
    cpu_work(c, 10);
    cpu_call_end(c);
    cpu_idle_until(c, BIG);
    cpu_call_begin(c, 1);
    cpu_read(c, g_line); /* cold: a miss_local state */
    cpu_state_push(c, "spin");
    cpu_work(c, 3);
    cpu_state_pop(c);
    cpu_call_end(c);
    cpu_idle_until(c, BIG + 5000);
    cpu_call_begin(c, 1); /* the second measured call: not in a 1-call window */
    cpu_work(c, 10);
    cpu_call_end(c);
}

static void other_prog(cpu_t *c, void *arg)
{
    (void)arg;
    cpu_idle_until(c, BIG - 5);
    cpu_state_push(c, "background_op"); /* opened before the window */
    cpu_work(c, 100);
    cpu_state_pop(c);
}

static void big_setup(machine_t *m, void *arg)
{
    (void)arg;
    g_line = mem_alloc(sim_mem(m), 0, 8);
    machine_set_program(m, 0, caller_prog, NULL);
    machine_set_program(m, 1, other_prog, NULL);
}

START_TEST(exact_at_1e10)
{
    platform_t *p = tu_platform("smp4");
    char file[] = "/tmp/test_paje.XXXXXX";
    int fd = mkstemp(file);
    ck_assert(fd >= 0);
    close(fd);
    sim_request_paje(file, 1);
    tu_machine_run(p, "test_paje", 7, big_setup, NULL, NULL);
    char *out = dump(file);
    uint64_t miss = (uint64_t)(p->costs.mem_local_cycles + 0.5);
    char want[512];
    snprintf(want, sizeof want,
             "State, cpu0, CPU, %" PRIu64 ".000000, %" PRIu64 ".000000, %" PRIu64
             ".000000, 0.000000, del_timer_sync",
             BIG, BIG + miss + 3, miss + 3);
    ck_assert_msg(strstr(out, want), "missing '%s' in\n%s", want, out);
    snprintf(want, sizeof want,
             "State, cpu0, CPU, %" PRIu64 ".000000, %" PRIu64 ".000000, %" PRIu64
             ".000000, 1.000000, miss_local",
             BIG, BIG + miss, miss);
    ck_assert_msg(strstr(out, want), "missing '%s' in\n%s", want, out);
    snprintf(want, sizeof want,
             "State, cpu0, CPU, %" PRIu64 ".000000, %" PRIu64 ".000000, 3.000000, 1.000000, spin",
             BIG + miss, BIG + miss + 3);
    ck_assert_msg(strstr(out, want), "missing '%s' in\n%s", want, out);
    /* Opened at BIG - 5, shown from the window's first cycle. */
    snprintf(want, sizeof want,
             "State, cpu1, CPU, %" PRIu64 ".000000, %" PRIu64 ".000000, 95.000000, 0.000000, "
             "background_op",
             BIG, BIG + 95);
    ck_assert_msg(strstr(out, want), "missing '%s' in\n%s", want, out);
    /* One window of one call: no other del_timer_sync. */
    int calls = 0;
    for (const char *s = out; (s = strstr(s, "del_timer_sync")); s++)
        calls++;
    ck_assert_int_eq(calls, 1);
    free(out);
    unlink(file);
    platform_free(p);
}
END_TEST

/* --- anatomy: every cycle falls in exactly one counter --- */

static cpu_anatomy_t g_an[4];
static int g_counted[4];
static uint64_t g_now[4];
static maddr_t g_flag;

static void tick_fn(cpu_t *c, void *arg)
{
    (void)arg;
    cpu_fetch_add(c, g_line, 1);
    cpu_work(c, 50);
}

static void spinner(cpu_t *c, void *arg)
{
    (void)arg;
    for (int i = 0; i < 200; i++) {
        cpu_read(c, g_line);
        cpu_spin_while_eq(c, g_flag, (uint64_t)i); /* waits for the writer */
    }
    g_counted[cpu_id(c)] = cpu_anatomy(c, &g_an[cpu_id(c)]);
    g_now[cpu_id(c)] = cpu_now(c);
}

static void writer(cpu_t *c, void *arg)
{
    (void)arg;
    for (int i = 1; i <= 200; i++) {
        cpu_work(c, 3000);
        cpu_write(c, g_flag, (uint64_t)i);
    }
    machine_stop(cpu_machine(c)); /* ticks end: the CPUs can finish */
    g_counted[cpu_id(c)] = cpu_anatomy(c, &g_an[cpu_id(c)]);
    g_now[cpu_id(c)] = cpu_now(c);
}

static void anat_setup(machine_t *m, void *arg)
{
    (void)arg;
    g_line = mem_alloc(sim_mem(m), 0, 8);
    g_flag = mem_alloc(sim_mem(m), 0, 8);
    machine_set_tick(m, 7000, 100, tick_fn, NULL);
    machine_set_program(m, 0, spinner, NULL);
    machine_set_program(m, 1, writer, NULL);
    machine_set_program(m, 2, spinner, NULL);
}

START_TEST(anatomy_adds_up)
{
    platform_t *p = tu_platform("smp4");
    tu_machine_run(p, "test_paje", 7, anat_setup, NULL, NULL);
    for (int i = 0; i < 3; i++) {
        const cpu_anatomy_t *a = &g_an[i];
        uint64_t sum = a->relax_cycles + a->work_cycles + a->code_cycles + a->issue_cycles -
                       a->hidden_cycles,
                 n = 0;
        for (int k = 0; k < ACCESS_NKINDS; k++) {
            sum += a->cycles[k];
            n += a->n[k];
        }
        ck_assert_msg(sum == g_now[i], "CPU %d: counters add up to %" PRIu64 ", clock %" PRIu64, i,
                      sum, g_now[i]);
        ck_assert(n > 0);
        ck_assert_int_eq(g_counted[i], 1); /* the simulated machine counts every cycle */
        ck_assert(a->ticks > 0);
        ck_assert(a->tick_cycles > 0 && a->tick_cycles < g_now[i]);
    }
    /* The spinners waited about 3000 cycles per round: mostly relax. */
    ck_assert(g_an[0].relax_cycles > 0 && g_an[0].cycles[ACCESS_HIT] > 0);
    platform_free(p);
}
END_TEST

static Suite *paje_suite(void)
{
    Suite *s = suite_create("paje");
    TCase *t = tcase_create("core");
    tcase_add_test(t, exact_at_1e10);
    tcase_add_test(t, anatomy_adds_up);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(paje_suite());
}
