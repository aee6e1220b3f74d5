/* wheel61: the data structure of Linux 6.1's timer wheel (no cascading), on
 * the machine API. The theory of operation, the constants and which lines of
 * 6.1's kernel/time/timer.c each function follows are at the top of
 * wheel61.c.
 *
 * A base and its timers live in machine memory (machine_alloc) and are read
 * and written only through cpu_read/cpu_write, so every access pays the
 * simulated coherence model and the same code runs on the native machine.
 * The C-side handle (wheel61_t) holds only what Linux compiles in: HZ and
 * the level count it gives, and the addresses.
 *
 * Locking is the caller's: every function that takes a base expects the
 * caller to hold that base's lock (the word at W61_BASE_LOCK, which this
 * file never touches), as Linux's callers of these functions do.
 */
#ifndef NUMASIM_WHEEL61_H
#define NUMASIM_WHEEL61_H

#include "cpu.h"

#include <stdint.h>

/* The wheel's constants (kernel/time/timer.c 153-187; HZ picks LVL_DEPTH). */
#define W61_LVL_CLK_SHIFT     3
#define W61_LVL_CLK_DIV       (1u << W61_LVL_CLK_SHIFT)
#define W61_LVL_CLK_MASK      (W61_LVL_CLK_DIV - 1)
#define W61_LVL_SHIFT(n)      ((n)*W61_LVL_CLK_SHIFT)
#define W61_LVL_GRAN(n)       (1ull << W61_LVL_SHIFT(n))
#define W61_LVL_START(n)      ((uint64_t)(W61_LVL_SIZE - 1) << (((n)-1) * W61_LVL_CLK_SHIFT))
#define W61_LVL_BITS          6
#define W61_LVL_SIZE          (1u << W61_LVL_BITS)
#define W61_LVL_MASK          (W61_LVL_SIZE - 1)
#define W61_LVL_OFFS(n)       ((n)*W61_LVL_SIZE)
#define W61_DEPTH(hz)         ((hz) > 100 ? 9 : 8)
#define W61_DEPTH_MAX         9
#define W61_TIMEOUT_CUTOFF(d) W61_LVL_START(d)
#define W61_TIMEOUT_MAX(d)    (W61_TIMEOUT_CUTOFF(d) - W61_LVL_GRAN((d)-1))
#define W61_WHEEL_SIZE(d)     (W61_LVL_SIZE * (d))
/* include/linux/timer.h 180: next_expiry of a base with nothing pending is
 * clk + this. */
#define W61_NEXT_TIMER_MAX_DELTA ((1ull << 30) - 1)

/* timer->flags (include/linux/timer.h 64-72): the base's CPU in the low
 * bits, the bucket index in the upper ten. */
#define W61_TIMER_CPUMASK    0x0003FFFFull
#define W61_TIMER_MIGRATING  0x00040000ull
#define W61_TIMER_BASEMASK   (W61_TIMER_CPUMASK | W61_TIMER_MIGRATING)
#define W61_TIMER_DEFERRABLE 0x00080000ull
#define W61_TIMER_PINNED     0x00100000ull
#define W61_TIMER_IRQSAFE    0x00200000ull
#define W61_TIMER_ARRAYSHIFT 22
#define W61_TIMER_ARRAYMASK  0xFFC00000ull

/* What detach_timer leaves in entry.next (include/linux/poison.h, without POISON_POINTER_DELTA). */
#define W61_LIST_POISON2 0x122ull

/* Layout of a base (bytes; line-aligned), struct timer_base of timer.c
 * 199-214, one 8-byte word per field. pending_map has one word per level
 * (LVL_SIZE = 64 bits): bit b of word L is bucket L * 64 + b. vectors are
 * hlist heads (one word: first). Sized for 9 levels whatever HZ is. */
enum {
    W61_BASE_LOCK = 0, /* the caller's (raw_spinlock_t lock) */
    W61_BASE_RUNNING_TIMER = 8,
    W61_BASE_CLK = 16,
    W61_BASE_NEXT_EXPIRY = 24,
    W61_BASE_CPU = 32,
    W61_BASE_NEXT_EXPIRY_RECALC = 40,
    W61_BASE_IS_IDLE = 48,
    W61_BASE_TIMERS_PENDING = 56,
    W61_BASE_PENDING_MAP = 64,
    W61_BASE_VECTORS = W61_BASE_PENDING_MAP + 8 * W61_DEPTH_MAX,
    W61_BASE_SIZE = W61_BASE_VECTORS + 8 * W61_LVL_SIZE * W61_DEPTH_MAX,
};

/* Layout of a timer (struct timer_list of include/linux/timer.h 11-24:
 * entry is an hlist_node {next, pprev}; pending = pprev != 0). function is
 * an id of the caller's, 0 being NULL; data is numasim's (6.1 passes the
 * timer and uses from_timer). */
enum {
    W61_TIMER_NEXT = 0,
    W61_TIMER_PPREV = 8,
    W61_TIMER_EXPIRES = 16,
    W61_TIMER_FUNCTION = 24,
    W61_TIMER_FLAGS = 32,
    W61_TIMER_DATA = 40,
    W61_TIMER_SIZE = 48,
};

typedef struct wheel61 {
    machine_t *m;
    maddr_t base;  /* W61_BASE_SIZE bytes */
    maddr_t heads; /* __run_timers' heads[LVL_DEPTH]: the expiring CPU's stack frame */
    int hz, depth, cpu;
    uint64_t warnings; /* WARN_ON_ONCE conditions met (bookkeeping, no cost) */
} wheel61_t;

/* init_timer_cpu: a base for CPU cpu in node's memory, its clk at jiffies,
 * nothing pending, at no cost (from setup code). hz > 0; LVL_DEPTH is 9
 * above 100, else 8. Free the handle with wheel61_base_destroy; the memory
 * goes with the machine. */
wheel61_t *wheel61_base_create(machine_t *m, int node, int hz, int cpu, uint64_t jiffies);
void wheel61_base_destroy(wheel61_t *w);

/* do_init_timer: a timer in node's memory, not pending, with function fn_id
 * (0: none), data and flags (the TIMER_* of init, and the CPU), at no cost. */
maddr_t wheel61_timer_alloc(machine_t *m, int node, uint64_t fn_id, uint64_t data, uint64_t flags);

/* calc_wheel_index: the bucket (level * 64 + slot) for expires on a base at
 * clk, and in *bucket_expiry the jiffy that bucket is collected at. Pure. */
unsigned wheel61_calc_index(int depth, uint64_t expires, uint64_t clk, uint64_t *bucket_expiry);

/* timer_pending: entry.pprev != NULL (one read). */
int wheel61_timer_pending(cpu_t *c, maddr_t t);

/* add_timer's body without its forwarding: timer->expires = expires, then
 * internal_add_timer (calc_wheel_index on base->clk, enqueue_timer). 0, or
 * -1 (and nothing done, w->warnings counted) when t is pending (BUG_ON). */
int wheel61_add(cpu_t *c, wheel61_t *w, maddr_t t, uint64_t expires);
/* enqueue_timer: t into bucket idx, whose expiry is bucket_expiry. */
void wheel61_enqueue(cpu_t *c, wheel61_t *w, maddr_t t, unsigned idx, uint64_t bucket_expiry);
/* detach_if_pending(t, base, clear_pending = true): 1 if t was pending. */
int wheel61_del(cpu_t *c, wheel61_t *w, maddr_t t);
/* detach_if_pending(t, base, clear_pending): 1 if t was pending; without
 * clear_pending t's pprev keeps its old value (__mod_timer's detach, which
 * re-links t at once). */
int wheel61_detach_if_pending(cpu_t *c, wheel61_t *w, maddr_t t, int clear_pending);
/* forward_timer_base with jiffies = jnow. */
void wheel61_forward(cpu_t *c, wheel61_t *w, uint64_t jnow);
/* base->next_expiry, recomputed first (__next_timer_interrupt) when a
 * delete left it stale, as get_next_timer_interrupt does. With nothing
 * pending: clk + W61_NEXT_TIMER_MAX_DELTA. */
uint64_t wheel61_next_expiry(cpu_t *c, wheel61_t *w);

/* A timer function: t has been detached (base->running_timer = t); fn_id
 * and data were read from it; baseclk is the jiffy its bucket was collected
 * at. It may add, delete and forward on w (Linux drops the base lock
 * around it; the caller's lock is the caller's business). */
typedef void (*wheel61_fn_t)(cpu_t *c, wheel61_t *w, maddr_t t, uint64_t fn_id, uint64_t data,
                             uint64_t baseclk, void *ctx);

/* __run_timers with jiffies = jnow: collects and expires, in Linux's order,
 * every bucket due by jnow; returns the number of functions called. */
uint64_t wheel61_run(cpu_t *c, wheel61_t *w, uint64_t jnow, wheel61_fn_t fn, void *ctx);

/* wheel61_run's calls for each expired timer t, in order: claim (when not
 * NULL, with fn's baseclk) before running_timer = t and the detach; fn (unless t's function
 * is 0); after (when not NULL) once running_timer is back to 0, with ran
 * 0 when fn was skipped. All get ctx. */
typedef struct {
    void (*claim)(cpu_t *c, wheel61_t *w, maddr_t t, uint64_t baseclk, void *ctx);
    wheel61_fn_t fn;
    void (*after)(cpu_t *c, wheel61_t *w, maddr_t t, int ran, void *ctx);
    void *ctx;
} wheel61_hooks_t;
uint64_t wheel61_run_hooks(cpu_t *c, wheel61_t *w, uint64_t jnow, const wheel61_hooks_t *h);

typedef struct {
    maddr_t timer;
    uint64_t clk; /* the jiffy its bucket was collected at */
} wheel61_expired_t;

/* wheel61_run whose function records the timers: out gets the first max
 * of them in the order Linux runs them; returns how many expired (more
 * than max: the rest were detached but not recorded). */
uint64_t wheel61_collect(cpu_t *c, wheel61_t *w, uint64_t jnow, wheel61_expired_t *out,
                         uint64_t max);

#endif
