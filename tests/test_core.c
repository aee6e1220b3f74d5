/* test_core: the core that executes (machine/simgrid/core.c).
 *
 * Every test runs sim_run on smp4 without its cache levels (memory 180
 * cycles, a hit 6, lines of 128 bytes), sequentially consistent, with the
 * core each test sets, in its own forked test process (tu_run_in_child for
 * the tests that need more than one run).
 */
#include "cpu.h"
#include "mem.h"
#include "simulated.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MEM = 180, HIT = 6, LINE = 128, NLINES = 4096, CODE_LINES = 16, MAXK = 16 };

typedef struct {
    platform_core_kind_t kind;
    double width; /* core_width: a fraction allowed */
    int rob, mshr, ahead;
    double serialize;
    double insn_bytes; /* 0: the code units issue no instructions */
    int irq_serialize;
    int rmw_overlap;
    int clock; /* core_clock_cycles */
    int tso;   /* memory_model tso (else sc) */
    int yield; /* the reference scheduler */
    int prog;  /* which program */
    int k;     /* chases (P_CHASES) */
} cfg_t;

typedef struct {
    uint64_t cycles[4];
    cpu_anatomy_t an;
    uint64_t log[256]; /* P_MIXED: (cycle, value) pairs */
} out_t;

enum {
    P_USE,
    P_SERIALIZE,
    P_IRQ,
    P_BARRIER,
    P_DEP,
    P_CHASES,
    P_CODE,
    P_NONE_CALLS,
    P_PLAIN,
    P_STORES,
    P_FRONT,
    P_RMW,
    P_CLOCK,
    P_GATE,
    P_MIXED
};

static cfg_t g_cfg;
static out_t g_out;
static maddr_t g_lines; /* NLINES fresh lines */
static int g_code;

static maddr_t line(int i)
{
    return g_lines + (maddr_t)i * LINE;
}

/* K chases of R loads each, interleaved, every load a fresh line; returns
 * the cycles. Chase j's i-th element is line i * K + j. */
static uint64_t chases(cpu_t *c, int k, int r)
{
    machine_t *m = cpu_machine(c);
    for (int i = 0; i + 1 < r; i++)
        for (int j = 0; j < k; j++)
            machine_poke(m, line(i * k + j), line((i + 1) * k + j));
    maddr_t p[MAXK];
    cpu_tok_t t[MAXK] = {0};
    for (int j = 0; j < k; j++)
        p[j] = line(j);
    uint64_t t0 = cpu_now(c);
    for (int i = 0; i < r; i++)
        for (int j = 0; j < k; j++)
            p[j] = cpu_read_dep(c, p[j], t[j], &t[j]);
    for (int j = 0; j < k; j++)
        cpu_use(c, t[j]);
    return cpu_now(c) - t0;
}

static void prog(cpu_t *c, void *arg)
{
    (void)arg;
    uint64_t t0 = cpu_now(c);
    cpu_tok_t t;
    cpu_anatomy_t a0, a1;
    cpu_anatomy(c, &a0);
    switch (g_cfg.prog) {
    case P_USE: /* a miss, 20 independent instructions, the use */
        cpu_read_dep(c, line(0), 0, &t);
        cpu_insns(c, 20);
        g_out.cycles[1] = cpu_now(c) - t0;
        cpu_use(c, t);
        break;
    case P_SERIALIZE:
        cpu_read_dep(c, line(0), 0, &t);
        cpu_serialize(c);
        break;
    case P_BARRIER:
        cpu_read_dep(c, line(0), 0, &t);
        cpu_mb(c);
        break;
    case P_IRQ: /* local_irq_save, a miss not used, nested, local_irq_restore */
        cpu_irq_disable(c);
        cpu_read_dep(c, line(0), 0, &t);
        cpu_irq_disable(c);
        cpu_irq_enable(c);
        g_out.cycles[1] = cpu_now(c) - t0; /* the inner restore: interrupts stay off */
        cpu_irq_enable(c);
        break;
    case P_DEP: /* one chase of 8 */
        g_out.cycles[1] = chases(c, 1, 8);
        break;
    case P_CHASES:
        g_out.cycles[1] = chases(c, g_cfg.k, NLINES / MAXK);
        break;
    case P_CODE:
        cpu_flush_cache(c, 1);
        t0 = cpu_now(c);
        cpu_exec(c, g_code);
        break;
    case P_PLAIN: /* 4 plain loads of numbers, then a chase of 4 through pointers */
        for (int i = 0; i < 4; i++)
            cpu_read(c, line(i));
        g_out.cycles[1] = cpu_now(c) - t0;
        uint64_t t2 = cpu_now(c);
        maddr_t a = line(10);
        for (int i = 0; i < 4; i++)
            a = cpu_read(c, a);
        g_out.cycles[2] = cpu_now(c) - t2;
        break;
    case P_STORES: /* 8 stores to lines not held */
        for (int i = 0; i < 8; i++)
            cpu_write(c, line(20 + i), 1);
        break;
    case P_FRONT: /* 400 instructions beside a miss, then 400 before an RMW */
        cpu_insns(c, 400);
        cpu_read(c, line(30));
        g_out.cycles[1] = cpu_now(c) - t0;
        uint64_t t1 = cpu_now(c);
        cpu_insns(c, 400);
        cpu_fetch_add(c, line(31), 1);
        g_out.cycles[2] = cpu_now(c) - t1;
        break;
    case P_RMW: /* a cold RMW, then a cold load; then a load, an RMW, a load */
        cpu_fetch_add(c, line(40), 1);
        cpu_read(c, line(41));
        cpu_now(c); /* the clock waits for both */
        g_out.cycles[1] = cpu_now(c) - t0;
        t1 = cpu_now(c);
        cpu_read(c, line(42));
        cpu_fetch_add(c, line(43), 1);
        cpu_read(c, line(44));
        cpu_now(c);
        g_out.cycles[2] = cpu_now(c) - t1;
        break;
    case P_CLOCK: /* an empty timing, then 10 and 200 instructions timed */
        t1 = cpu_now(c);
        g_out.cycles[1] = cpu_now(c) - t1;
        t1 = cpu_now(c);
        cpu_insns(c, 10);
        g_out.cycles[2] = cpu_now(c) - t1;
        t1 = cpu_now(c);
        cpu_insns(c, 200);
        g_out.cycles[3] = cpu_now(c) - t1;
        break;
    case P_GATE: /* the unit with a load per line; again, its code and data cold */
        for (int run = 0; run < 2; run++) {
            cpu_flush_cache(c, 1);
            uint64_t s = cpu_now(c);
            cpu_exec(c, g_code);
            for (int i = 0; i < CODE_LINES; i++)
                cpu_read(c, line(50 + i));
            g_out.cycles[1 + run] = cpu_now(c) - s;
        }
        break;
    case P_NONE_CALLS: /* core none: the core's calls cost nothing more */
        cpu_insns(c, 1000);
        cpu_read_dep(c, line(0), 0, &t);
        g_out.cycles[1] = cpu_now(c) - t0;
        cpu_use(c, t);
        cpu_serialize(c);
        break;
    default: /* P_MIXED: a bit of everything, logged */
        for (int i = 0; i < 64; i++) {
            uint64_t v = cpu_read_dep(c, line(i % 8 + 8 * cpu_id(c)), 0, &t);
            cpu_insns(c, (uint64_t)i % 7);
            if (i % 5 == 0)
                cpu_write(c, line(100 + i % 3), v + 1);
            if (i % 9 == 0)
                cpu_fetch_add(c, line(200), 1);
            cpu_use(c, t);
            if (cpu_id(c) == 0) {
                g_out.log[2 * i] = cpu_now(c);
                g_out.log[2 * i + 1] = cpu_read(c, line(200));
            }
        }
        break;
    }
    g_out.cycles[0] = cpu_now(c) - t0;
    cpu_anatomy(c, &a1);
    memset(&g_out.an, 0, sizeof g_out.an);
    cpu_anatomy_accumulate(&g_out.an, &a0, &a1);
}

static void setup(machine_t *m, void *arg)
{
    (void)arg;
    g_lines = mem_alloc(sim_mem(m), 0, (size_t)NLINES * LINE);
    for (int i = 10; i < 14; i++) /* P_PLAIN's chase: line i holds line i + 1's address */
        machine_poke(m, line(i), line(i + 1));
    g_code = machine_code(m, "run_timers");
    sim_set_always_yield(m, g_cfg.yield);
    machine_set_program(m, 0, prog, NULL);
    if (g_cfg.prog == P_MIXED)
        for (int i = 1; i < 4; i++)
            machine_set_program(m, i, prog, NULL);
}

static int run_cfg(void *arg)
{
    g_cfg = *(const cfg_t *)arg;
    platform_t *p = tu_platform_flat("smp4");
    p->memory_model = g_cfg.tso ? PLATFORM_TSO : PLATFORM_SC;
    for (int i = 0; i < p->nparams; i++)
        if (strcmp(p->params[i].name, "code_run_timers_bytes") == 0) {
            free(p->params[i].value);
            p->params[i].value = strdup("2048"); /* CODE_LINES lines */
        }
    p->core = (platform_core_t){g_cfg.kind,
                                g_cfg.width ? g_cfg.width : 1,
                                g_cfg.rob ? g_cfg.rob : 1,
                                g_cfg.mshr ? g_cfg.mshr : 1,
                                g_cfg.serialize,
                                g_cfg.ahead,
                                g_cfg.insn_bytes,
                                g_cfg.irq_serialize,
                                g_cfg.rmw_overlap,
                                g_cfg.clock};
    machine_hooks_t hooks = {setup, NULL, NULL};
    err_t e;
    int rc = sim_run(p, "test_core", 7, &hooks, &e);
    return rc ? 3 : 0;
}

/* One run of cfg in a child; its results in *o. */
static void run(cfg_t cfg, out_t *o)
{
    tu_run_in_child(run_cfg, &cfg, &g_out, o, sizeof *o, "core run");
}

/* The counter's rule: every cycle in one term, hidden ones taken out. */
static void check_terms(const out_t *o)
{
    const cpu_anatomy_t *a = &o->an;
    uint64_t sum = a->relax_cycles + a->work_cycles + a->code_cycles + a->issue_cycles;
    for (int k = 0; k < ACCESS_NKINDS; k++)
        sum += a->cycles[k];
    ck_assert_uint_eq(sum - a->hidden_cycles, o->cycles[0]);
}

START_TEST(stall_on_use)
{
    out_t o;
    run((cfg_t){.kind = CORE_INORDER, .prog = P_USE}, &o);
    /* the load issues (1), the 20 instructions (20), the use waits the rest */
    ck_assert_uint_eq(o.cycles[1], 21);
    ck_assert_uint_eq(o.cycles[0], MEM);
    ck_assert_uint_lt(o.cycles[0], MEM + 20);
    ck_assert_uint_eq(o.an.stall_cycles, MEM - 21);
    ck_assert_uint_eq(o.an.issue_cycles, 21);
    check_terms(&o);
    /* four a cycle: the instructions issue behind the miss; the clock is
     * read behind a fence (lfence; rdtsc), so it waits for the load */
    run((cfg_t){.kind = CORE_OOO, .width = 4, .rob = 64, .prog = P_USE}, &o);
    ck_assert_uint_eq(o.cycles[1], MEM);
    ck_assert_uint_eq(o.cycles[0], MEM);
    ck_assert_uint_eq(o.an.issue_cycles, 0); /* all hidden behind the miss */
    check_terms(&o);
}
END_TEST

START_TEST(serialisation_drains)
{
    out_t o;
    run((cfg_t){.kind = CORE_OOO, .rob = 16, .serialize = 40, .prog = P_SERIALIZE}, &o);
    ck_assert_uint_eq(o.cycles[0], MEM + 40);
    check_terms(&o);
    run((cfg_t){.kind = CORE_INORDER, .prog = P_BARRIER}, &o);
    ck_assert_uint_ge(o.cycles[0], MEM); /* the mf waits for the load, then costs its own */
    check_terms(&o);
}
END_TEST

START_TEST(dependent_chase_in_series)
{
    out_t o;
    run((cfg_t){.kind = CORE_OOO, .width = 4, .rob = 256, .mshr = 16, .prog = P_DEP}, &o);
    ck_assert_uint_ge(o.cycles[1], 8 * MEM);
    ck_assert_uint_le(o.cycles[1], 8 * (MEM + 1));
    ck_assert_uint_eq(o.an.overlapped, 0);
    check_terms(&o);
}
END_TEST

START_TEST(independent_chases_overlap_to_mshr)
{
    enum { R = NLINES / MAXK };
    double per[MAXK + 1];
    for (int k = 1; k <= MAXK; k *= 2) {
        out_t o;
        run((cfg_t){.kind = CORE_OOO, .width = 4, .rob = 256, .mshr = 4, .prog = P_CHASES, .k = k},
            &o);
        per[k] = (double)o.cycles[1] / (double)(k * R);
        check_terms(&o);
        if (k > 1)
            ck_assert_uint_gt(o.an.overlapped, 0);
    }
    /* 1/K up to core_mshr (4), then flat */
    ck_assert_double_eq_tol(per[1], MEM, 2);
    ck_assert_double_eq_tol(per[2], MEM / 2.0, 2);
    ck_assert_double_eq_tol(per[4], MEM / 4.0, 2);
    ck_assert_double_eq_tol(per[8], MEM / 4.0, 2);
    ck_assert_double_eq_tol(per[16], MEM / 4.0, 2);
    /* a window of two instructions holds two of the four chases' loads */
    out_t o;
    run((cfg_t){.kind = CORE_OOO, .rob = 2, .mshr = 8, .prog = P_CHASES, .k = 4}, &o);
    ck_assert_double_eq_tol((double)o.cycles[1] / (4.0 * R), MEM / 2.0, 2);
}
END_TEST

START_TEST(code_streams)
{
    out_t o;
    run((cfg_t){.kind = CORE_NONE, .prog = P_CODE}, &o);
    ck_assert_uint_eq(o.cycles[0], CODE_LINES * MEM); /* today: in series */
    ck_assert_uint_eq(o.an.code_streamed, 0);
    run((cfg_t){.kind = CORE_OOO, .rob = 16, .ahead = 0, .prog = P_CODE}, &o);
    ck_assert_uint_eq(o.cycles[0], CODE_LINES * MEM);
    run((cfg_t){.kind = CORE_OOO, .rob = 16, .ahead = CODE_LINES, .prog = P_CODE}, &o);
    ck_assert_uint_eq(o.cycles[0], MEM); /* the first miss, the rest behind it */
    ck_assert_uint_eq(o.an.code_streamed, CODE_LINES - 1);
    ck_assert_uint_eq(o.an.code_lines, CODE_LINES);
    check_terms(&o);
    run((cfg_t){.kind = CORE_INORDER, .ahead = 4, .prog = P_CODE}, &o);
    ck_assert_uint_eq(o.cycles[0], MEM * CODE_LINES / 4); /* a miss per 4 lines */
    check_terms(&o);
}
END_TEST

/* Out of order, an access waits for the code line that holds it: a unit
 * fetched a line at a time (ahead 0) with a load per line. On its first
 * run the core knows none of its accesses: they all issue behind the first
 * line and end long before the last line comes. On the second, the last
 * load waits for the last line, and its miss comes after. */
START_TEST(access_waits_for_its_code_line)
{
    out_t o;
    run((cfg_t){.kind = CORE_OOO, .rob = 256, .mshr = CODE_LINES, .prog = P_GATE}, &o);
    ck_assert_uint_eq(o.cycles[1], CODE_LINES * MEM + CODE_LINES); /* + the loads' issue */
    ck_assert_uint_eq(o.cycles[2], (CODE_LINES + 1) * MEM);
    check_terms(&o);
}
END_TEST

/* Enabling interrupts drains where the platform says so (ia64's srlz.d),
 * and only the restore that turns them on. */
START_TEST(irq_enable_serialises)
{
    out_t o;
    run((cfg_t){.kind = CORE_INORDER, .serialize = 5, .irq_serialize = 1, .prog = P_IRQ}, &o);
    ck_assert_uint_lt(o.cycles[1], MEM);
    ck_assert_uint_eq(o.cycles[0], MEM + 5);
    check_terms(&o);
    run((cfg_t){.kind = CORE_INORDER, .serialize = 5, .prog = P_IRQ}, &o);
    ck_assert_uint_lt(o.cycles[0], MEM);
}
END_TEST

/* A unit's instructions (2048 bytes at 16 a piece: 128, 8 a line) issue
 * as their lines arrive: in series each line's 8 follow its miss; streamed
 * the misses overlap and only the issue is left behind the first. A width
 * may be a fraction (a core clocked above the counter): at 2.5 a cycle the
 * 128 take 51 whole cycles, the part of a cycle carried from line to line. */
START_TEST(code_issues_its_instructions)
{
    out_t o;
    run((cfg_t){.kind = CORE_INORDER, .insn_bytes = 16, .prog = P_CODE}, &o);
    ck_assert_uint_eq(o.cycles[0], CODE_LINES * (MEM + 8));
    ck_assert_uint_eq(o.an.issue_cycles, CODE_LINES * 8);
    check_terms(&o);
    run((cfg_t){.kind = CORE_INORDER, .insn_bytes = 16, .ahead = CODE_LINES, .prog = P_CODE}, &o);
    ck_assert_uint_eq(o.cycles[0], MEM + CODE_LINES * 8);
    check_terms(&o);
    run((cfg_t){.kind = CORE_OOO, .width = 4, .rob = 16, .insn_bytes = 16, .prog = P_CODE}, &o);
    ck_assert_uint_eq(o.cycles[0], CODE_LINES * (MEM + 2)); /* width 4: 2 cycles a line */
    check_terms(&o);
    run((cfg_t){.kind = CORE_INORDER,
                .width = 2.5,
                .insn_bytes = 16,
                .ahead = CODE_LINES,
                .prog = P_CODE},
        &o);
    ck_assert_uint_eq(o.cycles[0], MEM + 128 * 2 / 5);
    ck_assert_uint_eq(o.an.issue_cycles, 128 * 2 / 5);
    check_terms(&o);
    run((cfg_t){.kind = CORE_OOO, .width = 2.5, .rob = 16, .insn_bytes = 16, .prog = P_CODE}, &o);
    ck_assert_uint_eq(o.cycles[0], CODE_LINES * MEM + 128 * 2 / 5);
    check_terms(&o);
}
END_TEST

/* Out of order, plain loads wait for nothing but the loads their address
 * comes from: 4 loads of numbers overlap, a chase through pointers does
 * not. In order each waits for its value. */
START_TEST(plain_loads_overlap_unless_chased)
{
    out_t o;
    run((cfg_t){.kind = CORE_OOO, .width = 4, .rob = 64, .mshr = 4, .prog = P_PLAIN}, &o);
    ck_assert_uint_le(o.cycles[1], MEM + 1);
    ck_assert_uint_ge(o.cycles[2], 4 * MEM);
    ck_assert_uint_le(o.cycles[2], 4 * (MEM + 1));
    check_terms(&o);
    run((cfg_t){.kind = CORE_INORDER, .prog = P_PLAIN}, &o);
    ck_assert_uint_ge(o.cycles[1], 4 * MEM);
    check_terms(&o);
}
END_TEST

/* On tso, out of order, a store's entry in the store buffer is its issue
 * slot; in order and without a core it costs a hit. */
START_TEST(stores_enter_the_buffer)
{
    out_t o;
    run((cfg_t){.kind = CORE_OOO, .width = 4, .rob = 64, .tso = 1, .prog = P_STORES}, &o);
    ck_assert_uint_le(o.cycles[0], 2);
    check_terms(&o);
    run((cfg_t){.kind = CORE_INORDER, .tso = 1, .prog = P_STORES}, &o);
    ck_assert_uint_ge(o.cycles[0], 8 * HIT);
    check_terms(&o);
}
END_TEST

/* Out of order the front end issues beside a miss; a locked RMW waits for
 * every instruction before it. */
START_TEST(front_end_overlaps_and_rmw_waits)
{
    out_t o;
    run((cfg_t){.kind = CORE_OOO, .width = 4, .rob = 512, .mshr = 4, .prog = P_FRONT}, &o);
    ck_assert_uint_le(o.cycles[1], MEM + 1);   /* 100 cycles of issue behind the miss */
    ck_assert_uint_ge(o.cycles[2], 100 + MEM); /* the RMW after the 100 */
    check_terms(&o);
}
END_TEST

/* core_rmw_overlap: a locked RMW issues as a load does, so its miss
 * overlaps the loads after it (an AMD host: a cold lock add and a cold
 * load cost one miss); without it the RMW drains and the counter waits
 * for it. */
/* core_clock_cycles: the clock read (lfence; rdtsc) takes that long, and
 * the work after it runs beside it, as a host's timing does: an empty
 * timing reads the latency, work shorter than it reads the latency too,
 * and longer work reads its own length, not its length plus the read. */
START_TEST(clock_read_overlaps_the_work)
{
    out_t o;
    run((cfg_t){.kind = CORE_OOO, .width = 1, .rob = 64, .clock = 50, .prog = P_CLOCK}, &o);
    ck_assert_uint_eq(o.cycles[1], 50);
    ck_assert_uint_eq(o.cycles[2], 50);
    ck_assert_uint_eq(o.cycles[3], 200);
    check_terms(&o);
    /* without it the reads cost nothing */
    run((cfg_t){.kind = CORE_OOO, .width = 1, .rob = 64, .prog = P_CLOCK}, &o);
    ck_assert_uint_eq(o.cycles[1], 0);
    ck_assert_uint_eq(o.cycles[2], 10);
    ck_assert_uint_eq(o.cycles[3], 200);
    check_terms(&o);
}
END_TEST

START_TEST(rmw_overlaps_or_drains)
{
    out_t o;
    for (int tso = 0; tso < 2; tso++) {
        run((cfg_t){.kind = CORE_OOO,
                    .width = 4,
                    .rob = 64,
                    .mshr = 4,
                    .rmw_overlap = 1,
                    .tso = tso,
                    .prog = P_RMW},
            &o);
        ck_assert_uint_lt(o.cycles[1], MEM + MEM / 4); /* one miss (and the atomic) */
        /* the RMW waits for the load before it (its address may come from
         * it), the load after it overlaps it */
        ck_assert_uint_ge(o.cycles[2], 2 * MEM);
        ck_assert_uint_lt(o.cycles[2], 2 * MEM + MEM / 4);
        check_terms(&o);
        run((cfg_t){.kind = CORE_OOO, .width = 4, .rob = 64, .mshr = 4, .tso = tso, .prog = P_RMW},
            &o);
        ck_assert_uint_ge(o.cycles[1], 2 * MEM);
        ck_assert_uint_ge(o.cycles[2], 3 * MEM);
        check_terms(&o);
    }
}
END_TEST

START_TEST(core_none_is_today)
{
    out_t o;
    run((cfg_t){.kind = CORE_NONE, .prog = P_NONE_CALLS}, &o);
    ck_assert_uint_eq(o.cycles[1], MEM); /* cpu_read_dep waits, as cpu_read */
    ck_assert_uint_eq(o.cycles[0], MEM);
    ck_assert_uint_eq(o.an.issue_cycles + o.an.stall_cycles + o.an.hidden_cycles, 0);
    run((cfg_t){.kind = CORE_NONE, .prog = P_CHASES, .k = 4}, &o);
    ck_assert_uint_eq(o.cycles[1], (uint64_t)NLINES / MAXK * 4 * MEM);
    ck_assert_uint_eq(o.an.overlapped, 0);
}
END_TEST

START_TEST(schedulers_agree)
{
    static out_t fast, slow;
    for (int v = 0; v < 3; v++) { /* in order, out of order, and with core_rmw_overlap */
        cfg_t cfg = {.kind = v ? CORE_OOO : CORE_INORDER,
                     .width = 2,
                     .rob = 8,
                     .mshr = 2,
                     .rmw_overlap = v == 2,
                     .prog = P_MIXED};
        run(cfg, &fast);
        cfg.yield = 1;
        run(cfg, &slow);
        ck_assert_mem_eq(fast.log, slow.log, sizeof fast.log);
        ck_assert_uint_eq(fast.cycles[0], slow.cycles[0]);
        ck_assert_int_eq(memcmp(&fast.an, &slow.an, sizeof fast.an), 0);
        check_terms(&fast);
    }
}
END_TEST

static Suite *core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *t = tcase_create("core");
    tcase_add_test(t, stall_on_use);
    tcase_add_test(t, serialisation_drains);
    tcase_add_test(t, dependent_chase_in_series);
    tcase_add_test(t, independent_chases_overlap_to_mshr);
    tcase_add_test(t, code_streams);
    tcase_add_test(t, access_waits_for_its_code_line);
    tcase_add_test(t, code_issues_its_instructions);
    tcase_add_test(t, irq_enable_serialises);
    tcase_add_test(t, plain_loads_overlap_unless_chased);
    tcase_add_test(t, stores_enter_the_buffer);
    tcase_add_test(t, front_end_overlaps_and_rmw_waits);
    tcase_add_test(t, rmw_overlaps_or_drains);
    tcase_add_test(t, clock_read_overlaps_the_work);
    tcase_add_test(t, core_none_is_today);
    tcase_add_test(t, schedulers_agree);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(core_suite());
}
