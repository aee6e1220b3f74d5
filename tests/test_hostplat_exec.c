/* test_hostplat_exec: the instructions a code unit executes per call, read
 * from callgrind's files (sim/study/hostplat_exec.c).
 *
 * A function's own instructions count for a unit only when its callers,
 * followed up through the unit's functions, reach the unit's entry; the
 * cost of a call (the line after calls=) is the callee's; the entry's calls
 * are counted from every caller, and apart for the measured program's
 * calls; compressed names and recursion depths read as their functions.
 */
#include "hostplat_internal.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

static const hostplat_unit_t kUnits[] = {
    {"del_timer", {"del_timer", "timer_ops.c:del_classic", "timer_ops.c:check_timer", "spin_lock"}},
    {"run_timers", {"wheel_run", "spin_lock"}},
};
enum { NUNITS = 2 };

/* Parses text as one callgrind file into all and meas (zeroed first). */
static int parse(const char *text, hostplat_count_t *all, hostplat_count_t *meas)
{
    memset(all, 0, NUNITS * sizeof *all);
    memset(meas, 0, NUNITS * sizeof *meas);
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    ck_assert_ptr_nonnull(f);
    int rc = hostplat_exec_parse(f, kUnits, NUNITS, all, meas);
    fclose(f);
    return rc;
}

START_TEST(costs_count_for_the_unit_that_called_them)
{
    static const char text[] = "version: 1\n"
                               "creator: callgrind-3.19.0\n"
                               "positions: line\n"
                               "events: Ir\n"
                               "fl=timer_ops.c\n"
                               "fn=del_timer'caller_program\n"
                               "10 50\n"
                               "cfn=cpu_read\n"
                               "calls=2 20\n"
                               "11 300\n"
                               "cfn=spin_lock'del_timer\n"
                               "calls=1 30\n"
                               "12 40\n"
                               "13 5\n"
                               "fn=spin_lock'del_timer'caller_program\n"
                               "30 12\n"
                               "cfn=cpu_xchg'spin_lock'del_timer\n"
                               "calls=1 5\n"
                               "31 100\n"
                               "fn=spin_lock'wheel_run\n"
                               "30 24\n"
                               "fn=spin_lock'other_fn'del_timer\n"
                               "30 99\n"
                               "fn=check_timer.lto_priv.0'del_classic'del_timer\n"
                               "40 7\n"
                               "fn=cpu_read'del_timer\n"
                               "20 1000\n"
                               "fn=caller_program\n"
                               "cfn=del_timer'caller_program\n"
                               "calls=3 10\n"
                               "5 800\n"
                               "cfn=wheel_run'tick\n"
                               "calls=2 10\n"
                               "6 50\n"
                               "fn=mod_timer'caller_program\n"
                               "cfn=del_timer'mod_timer'caller_program\n"
                               "calls=1 10\n"
                               "7 90\n";
    hostplat_count_t all[NUNITS], meas[NUNITS];
    ck_assert_int_eq(parse(text, all, meas), 0);
    /* del_timer 50 + 5, its spin_lock 12, check_timer 7; not spin_lock under
     * other_fn, nor the calls' inclusive costs (300, 40, 100) */
    ck_assert_uint_eq(all[0].ir, 74);
    ck_assert_uint_eq(all[0].calls, 4);
    ck_assert_uint_eq(all[1].ir, 24);
    ck_assert_uint_eq(all[1].calls, 2);
    /* the measured program's: del_timer 50 + 5 and its spin_lock 12, in 4
     * calls; check_timer's context does not reach it */
    ck_assert_uint_eq(meas[0].ir, 67);
    ck_assert_uint_eq(meas[0].calls, 4); /* 3 by caller_program, 1 by its mod_timer */
    ck_assert_uint_eq(meas[1].ir, 0);
    ck_assert_uint_eq(meas[1].calls, 0);
}
END_TEST

START_TEST(compressed_names_and_recursion)
{
    static const char text[] = "positions: instr line\n"
                               "events: Dr Ir\n"
                               "fn=(1) del_timer'2'caller_program\n"
                               "0x10 10 1 8\n"
                               "fn=(3) caller_program\n"
                               "cfn=(1)\n"
                               "calls=5 0x10 10\n"
                               "0x30 5 3 900\n"
                               "fn=(1)\n"
                               "0x11 11 0 2\n";
    hostplat_count_t all[NUNITS], meas[NUNITS];
    ck_assert_int_eq(parse(text, all, meas), 0);
    ck_assert_uint_eq(all[0].ir, 8 + 2);
    ck_assert_uint_eq(all[0].calls, 5);
    ck_assert_uint_eq(meas[0].ir, 8 + 2); /* "(1)" again: the same, measured, context */
    ck_assert_uint_eq(meas[0].calls, 5);
}
END_TEST

START_TEST(a_file_without_instruction_counts_is_refused)
{
    hostplat_count_t all[NUNITS], meas[NUNITS];
    ck_assert_int_eq(parse("events: Dr\nfn=del_timer\n1 5\n", all, meas), -1);
    ck_assert_int_eq(parse("", all, meas), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hostplat_exec");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, costs_count_for_the_unit_that_called_them);
    tcase_add_test(tc, compressed_names_and_recursion);
    tcase_add_test(tc, a_file_without_instruction_counts_is_refused);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
