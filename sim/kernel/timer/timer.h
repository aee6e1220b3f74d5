/* timer: the Linux 2.6 and 6.1 timer cores, written anew, on simulated CPUs.
 *
 * Two designs share the 2.6 cascading wheel:
 *   TIMER_CLASSIC   2.6.6: a per-timer lock, timer->base NULL when not
 *                   pending; optionally the May 2004 patch's last_running.
 *   TIMER_TRACKING  2.6.13: timer->base always names a base (the one it is
 *                   queued on or last ran on), pending = entry.next != NULL,
 *                   no per-timer lock.
 * Two run on 6.1's wheel (../timer61/, whose README says what it keeps):
 *   TIMER_V61       6.1: timer->flags names the base's CPU, lock_timer_base,
 *                   a standard and a deferrable base per CPU, the bases'
 *                   lock a klock of the configured kind.
 *   TIMER_V61_RT    the same with CONFIG_PREEMPT_RT: timer_delete_sync
 *                   sleeps on the base's expiry_lock while the function runs.
 * The API below dispatches on the design; 2.6 callers see no change.
 * Every field of a base, a timer and jiffies lives in simulated memory and is
 * touched only through cpu_read/cpu_write/..., so every access is paid for.
 * The timer core knows nothing of SimGrid.
 *
 * Its files, each calling only those listed after it:
 *   timer_ops.c    the kernel API on timers: add/mod/del_timer, timer_pending,
 *                  try_to_del_timer_sync
 *   timer_core.c   bases, jiffies, timer allocation, the kernel text, the tick
 *   timer_wheel.c  the cascading wheel and the run loop (timer_wheel.h)
 *   timer_list.c   list links in simulated memory, spin_lock_irq (timer_list.h)
 * timer_internal.h holds the state of a timer core that they share. The
 * 6.1 core's files (../timer61/, core61.h says which calls which) are
 * called from timer_ops.c (ops61.c) and timer_core.c (base61.c) only.
 */
#ifndef NUMASIM_TIMER_H
#define NUMASIM_TIMER_H

#include "cpu.h"
#include "klock.h"
#include "strategy_table.h"

#include <stdint.h>

/* Wheel constants (as in 2.6). */
#define TVR_BITS 8
#define TVN_BITS 6
#define TVR_SIZE (1 << TVR_BITS)
#define TVN_SIZE (1 << TVN_BITS)
#define TVR_MASK (TVR_SIZE - 1)
#define TVN_MASK (TVN_SIZE - 1)

/* Layout of a base (bytes from its start; the base is line-aligned). lock,
 * timer_jiffies and running_timer share the first line with the first list
 * heads of tv1, as in the kernel's tvec_t_base_s. */
enum {
    BASE_LOCK = 0,
    BASE_TIMER_JIFFIES = 8,
    BASE_RUNNING_TIMER = 16,
    BASE_TV1 = 24,                       /* 256 list heads of 16 bytes */
    BASE_TV2 = BASE_TV1 + TVR_SIZE * 16, /* then tv2..tv5, 64 heads each */
    BASE_SIZE = BASE_TV2 + 4 * TVN_SIZE * 16,
};

/* Layout of a timer_list (72 bytes: one 128-byte line). */
enum {
    TIMER_ENTRY_NEXT = 0,
    TIMER_ENTRY_PREV = 8,
    TIMER_EXPIRES = 16,
    TIMER_LOCK = 24, /* classic only */
    TIMER_MAGIC = 32,
    TIMER_FUNCTION = 40,
    TIMER_DATA = 48,
    TIMER_BASE = 56,
    TIMER_LAST_RUNNING = 64, /* the patch's field */
    TIMER_SIZE = 72,
};

#define TIMER_MAGIC_VALUE 0x4b87ad6eu

typedef enum { TIMER_CLASSIC, TIMER_TRACKING, TIMER_V61, TIMER_V61_RT } timer_design_t;

/* The 6.1 timer's flags that init may give (include/linux/timer.h): a
 * deferrable timer goes to the CPU's deferrable base, a pinned one never
 * migrates, an irqsafe one runs with interrupts off (and is waited for by
 * spinning, even on RT). Ignored by the 2.6 designs. */
enum {
    TIMER_F_DEFERRABLE = 0x00080000,
    TIMER_F_PINNED = 0x00100000,
    TIMER_F_IRQSAFE = 0x00200000,
};

typedef struct tcore tcore_t;

/* A timer function: runs on cpu c in softirq context with the base unlocked.
 * It receives the timer's address and data (copied before the call). */
typedef void (*timer_fn_t)(cpu_t *c, tcore_t *tc, maddr_t timer, uint64_t data, void *ctx);

/* What the core reports to an observer (the safety oracle). Simulated an
 * event is free; natively it is a fence and whatever the observer does,
 * inside the code being timed, so an observer asks only for the events its
 * checks read (tcore_set_observer's mask). */
typedef enum {
    TEV_FN_START, /* c's run loop claimed timer: its function will run */
    TEV_FN_END,   /* ... and returned from it */
    TEV_QUEUED,   /* timer queued on c's base (add/mod) */
    TEV_DEQUEUED, /* del_timer took it off a queue */
    TEV_FREED,    /* timer_free */
    TEV_BUG,      /* the core found an impossible state (BUG_ON) */
} tcore_event_t;

typedef void (*tcore_observer_t)(tcore_t *tc, tcore_event_t ev, cpu_t *c, maddr_t timer, void *ctx);

/* Creates the timer core of machine m (from a setup hook, at cycle 0): one
 * base per CPU in its node, and jiffies in the timekeeper's node. Installs
 * the tick on every CPU at period_cycles (1/HZ). last_running: the classic
 * run loop stores timer->last_running (the May 2004 patch). Freed with the
 * machine's end by tcore_destroy(). */
tcore_t *tcore_create(machine_t *m, timer_design_t design, int last_running, uint64_t period_cycles,
                      int timekeeper_cpu);
void tcore_destroy(tcore_t *tc);

typedef struct {
    timer_design_t design;
    int last_running; /* classic only, as for tcore_create */
    uint64_t period_cycles;
    int timekeeper_cpu;
    int hz;           /* V61: LVL_DEPTH (9 above 100, else 8); 0: 1000 */
    lock_kind_t lock; /* V61: the bases' lock kind (tas, ticket, qspinlock); 2.6 keeps spinlock.c */
    int timers_migration; /* V61: mod_timer on an idle CPU moves the timer (get_nohz_timer_target)
                           */
    uint64_t rt_wake_cycles; /* V61_RT: a sleeper on expiry_lock looks again this often; 0: 2000 */
} tcore_config_t;

/* tcore_create with every setting: for the 2.6 designs the same core as
 * tcore_create; for the 6.1 ones two bases per CPU (standard and
 * deferrable) in its node, each with its lock (and, RT, its expiry_lock
 * and timer_waiters on a line of their own), one NOHZ idle word per CPU,
 * and the tick. tcore_create(m, d, lr, p, tk) is this with hz 1000, lock
 * qspinlock (6.1's on x86 and arm64), no migration. */
tcore_t *tcore_create_config(machine_t *m, const tcore_config_t *cfg);

/* c's program says it goes idle (1) or busy (0): a paid store of the word
 * get_nohz_timer_target reads (idle_cpu()). CPUs start busy. A no-op for
 * the 2.6 designs. */
void tcore_set_idle(cpu_t *c, tcore_t *tc, int idle);

/* fn hears the events of the mask `events`: TEV_BIT(ev) for each, or
 * TEV_ALL. */
#define TEV_BIT(ev) (1u << (ev))
#define TEV_ALL     0xffffffffu
void tcore_set_observer(tcore_t *tc, tcore_observer_t fn, void *ctx, unsigned events);
/* Barriers of the 2.6.6 code that can be left out, to show what each is
 * for (on a weak platform): the run loop's smp_wmb between running_timer
 * and timer->base = NULL, del_timer's smp_wmb before timer->base = NULL,
 * and the smp_rmb after the scan (last_running's after its wait). */
enum { TBAR_RUN_WMB = 1, TBAR_DEL_WMB = 2, TBAR_SCAN_RMB = 4 };
void tcore_omit_barriers(tcore_t *tc, unsigned mask);
int tcore_omits(const tcore_t *tc, unsigned barrier);
timer_design_t tcore_design(const tcore_t *tc);
machine_t *tcore_machine(tcore_t *tc);
maddr_t tcore_base(const tcore_t *tc, int cpu);
int tcore_base_cpu(const tcore_t *tc, maddr_t base); /* -1 if not a base */
maddr_t tcore_jiffies_addr(const tcore_t *tc);

/* Registers a timer function; returns the id stored in timer->function. */
int tcore_register_fn(tcore_t *tc, timer_fn_t fn, void *ctx);

/* Allocates a timer in node's memory and initialises it (init_timer plus
 * function and data) at no cost, from setup code; returns its address. The
 * 6.1 timer's flags name the first CPU of node. */
maddr_t timer_alloc(tcore_t *tc, int node, int fn_id, uint64_t data);
/* The same with TIMER_F_* flags (6.1; ignored by 2.6). */
maddr_t timer_alloc_flags(tcore_t *tc, int node, int fn_id, uint64_t data, unsigned flags);
/* The same, paid for by c (allocation is free, the init stores are not). */
maddr_t timer_alloc_on(cpu_t *c, tcore_t *tc, int node, int fn_id, uint64_t data);
/* Those init stores alone, by c on timer t, which must not be pending
 * (timer_setup): after timer_shutdown_sync, the one way to arm t again. */
void timer_setup_on(cpu_t *c, tcore_t *tc, maddr_t t, int fn_id, uint64_t data);
/* Frees a timer: its memory is marked, later writes are use-after-free. */
void timer_free(cpu_t *c, tcore_t *tc, maddr_t t);
/* c stores v in t's data word (a paid cpu_write), wherever the design has
 * it; timer_data_offset gives that offset (2.6: TIMER_DATA). */
void timer_set_data(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t v);
unsigned timer_data_offset(const tcore_t *tc);

/* The kernel API, run by c. Return values as in the kernel. */
int mod_timer(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires);
void add_timer(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires);
int del_timer(cpu_t *c, tcore_t *tc, maddr_t t);
/* add_timer_on: t, not pending, armed for expires on CPU cpu's base (a
 * pending t is a BUG, reported, and left alone). */
void add_timer_on(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires, int cpu);
int timer_pending(cpu_t *c, tcore_t *tc, maddr_t t);
/* TIMER_TRACKING and 6.1: -1 while the function runs, else like del_timer. */
int try_to_del_timer_sync(cpu_t *c, tcore_t *tc, maddr_t t);
/* 6.1 only (0 for the 2.6 designs). __timer_delete_sync: try_to_del until
 * the function is not running; V61 spins (cpu_relax), V61_RT sleeps on the
 * base's expiry_lock (no relax cycles). With shutdown, timer->function
 * becomes NULL under the base lock: later mod_timer/add_timer do nothing
 * (the 6.1.y backport of timer_shutdown_sync). */
int timer61_delete_sync(cpu_t *c, tcore_t *tc, maddr_t t, int shutdown);
/* 6.1 only: timer_shutdown (__timer_delete with shutdown): no wait. */
int timer61_shutdown(cpu_t *c, tcore_t *tc, maddr_t t);
uint64_t read_jiffies(cpu_t *c, tcore_t *tc);

/* Kernel code units: each is a region of kernel text whose size the
 * platform gives (prop code_NAME_bytes, NAME as in tcore_code_name); running
 * one fetches its lines through the CPU's instruction side (cpu_exec). The
 * timer core's own units come first, then one per strategy of
 * strategy_table.h, named as its function: a strategy's unit is its own
 * body; the functions it calls fetch their own. tcore_create lays all of
 * them out, in this order, whichever strategy will run. */
#define KCODE_OF_STRATEGY(ID, ...) KCODE_DTS_##ID,
typedef enum {
    KCODE_TICK,       /* tick: interrupt entry/exit, do_timer, update_process_times */
    KCODE_RUN_TIMERS, /* run_timer_softirq with __run_timers */
    KCODE_MOD_TIMER,  /* __mod_timer with internal_add_timer */
    KCODE_DEL_TIMER,
    KCODE_TRY_TO_DEL_TIMER_SYNC,
    STRATEGY_TABLE(KCODE_OF_STRATEGY) /* KCODE_DTS_SCAN, ... */
    /* The 6.1 core's units, after every 2.6 one, so that the 2.6 text
     * layout does not move. */
    KCODE_TICK61,       /* tick: interrupt entry/exit, do_timer, run_local_timers */
    KCODE_RUN_TIMERS61, /* run_timer_softirq with __run_timers and expire_timers */
    KCODE_MOD_TIMER61,  /* __mod_timer with lock_timer_base, get_target_base */
    KCODE_DEL_TIMER61,  /* __timer_delete */
    KCODE_TRY_TO_DEL_TIMER_SYNC61,
    KCODE_N
} kcode_t;
#undef KCODE_OF_STRATEGY

const char *tcore_code_name(kcode_t unit);
/* c runs code unit `unit` (no cost where the platform gives it no size). */
void tcore_exec(cpu_t *c, tcore_t *tc, kcode_t unit);

/* Cost-free views for the simulator and the oracle. */
int timer_is_pending_now(const tcore_t *tc, maddr_t t);
uint64_t timer_expires_now(const tcore_t *tc, maddr_t t);
/* 6.1: timer->function is NULL (shut down); 0 for the 2.6 designs. */
int timer_is_shutdown_now(const tcore_t *tc, maddr_t t);
/* The CPU whose base t names (6.1: its flags; tracking: timer->base), or
 * -1 (classic, not pending). */
int timer_cpu_now(const tcore_t *tc, maddr_t t);
/* 6.1: the jiffy at which the bucket of the function that runs (or last
 * ran) on cpu was collected (Linux's baseclk); tcore_jiffies_now for 2.6. */
uint64_t tcore_last_fire_clk(const tcore_t *tc, int cpu);
uint64_t tcore_jiffies_now(const tcore_t *tc);
uint64_t tcore_ticks_run(const tcore_t *tc, int cpu); /* run_timers entries */

#endif
