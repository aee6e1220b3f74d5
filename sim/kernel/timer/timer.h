/* timer: the Linux 2.6 timer core, written anew, on simulated CPUs.
 *
 * Two designs share the wheel:
 *   TIMER_CLASSIC   2.6.6: a per-timer lock, timer->base NULL when not
 *                   pending; optionally the May 2004 patch's last_running.
 *   TIMER_TRACKING  2.6.13: timer->base always names a base (the one it is
 *                   queued on or last ran on), pending = entry.next != NULL,
 *                   no per-timer lock.
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
 * timer_internal.h holds the state of a timer core that they share.
 */
#ifndef NUMASIM_TIMER_H
#define NUMASIM_TIMER_H

#include "cpu.h"
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

typedef enum { TIMER_CLASSIC, TIMER_TRACKING } timer_design_t;

typedef struct tcore tcore_t;

/* A timer function: runs on cpu c in softirq context with the base unlocked.
 * It receives the timer's address and data (copied before the call). */
typedef void (*timer_fn_t)(cpu_t *c, tcore_t *tc, maddr_t timer, uint64_t data, void *ctx);

/* What the core reports to an observer (the safety oracle), at no cost. */
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

void tcore_set_observer(tcore_t *tc, tcore_observer_t fn, void *ctx);
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
 * function and data) at no cost, from setup code; returns its address. */
maddr_t timer_alloc(tcore_t *tc, int node, int fn_id, uint64_t data);
/* The same, paid for by c (allocation is free, the init stores are not). */
maddr_t timer_alloc_on(cpu_t *c, tcore_t *tc, int node, int fn_id, uint64_t data);
/* Frees a timer: its memory is marked, later writes are use-after-free. */
void timer_free(cpu_t *c, tcore_t *tc, maddr_t t);

/* The kernel API, run by c. Return values as in the kernel. */
int mod_timer(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires);
void add_timer(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t expires);
int del_timer(cpu_t *c, tcore_t *tc, maddr_t t);
int timer_pending(cpu_t *c, tcore_t *tc, maddr_t t);
/* TIMER_TRACKING only: -1 while the function runs, else like del_timer. */
int try_to_del_timer_sync(cpu_t *c, tcore_t *tc, maddr_t t);
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
    KCODE_N
} kcode_t;
#undef KCODE_OF_STRATEGY

const char *tcore_code_name(kcode_t unit);
/* c runs code unit `unit` (no cost where the platform gives it no size). */
void tcore_exec(cpu_t *c, tcore_t *tc, kcode_t unit);

/* Cost-free views for the simulator and the oracle. */
int timer_is_pending_now(const tcore_t *tc, maddr_t t);
uint64_t tcore_jiffies_now(const tcore_t *tc);
uint64_t tcore_ticks_run(const tcore_t *tc, int cpu); /* run_timers entries */

#endif
