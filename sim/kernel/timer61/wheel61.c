/* wheel61: Linux 6.1's timer wheel, written anew on the machine API.
 * Theory of operation.
 *
 * The wheel has LVL_DEPTH levels of LVL_SIZE buckets. Level n counts time in
 * units of LVL_GRAN(n) = 8^n jiffies. A timer is placed once, when it is
 * armed, and never moves again (no cascading): calc_wheel_index takes
 * delta = expires - base->clk and picks the first level whose range covers
 * it; the bucket is that of the expiry rounded up to the level's
 * granularity, strictly past expires (so a timer never fires early, and
 * fires late by at most its level's granularity: 1 to 8^n jiffies; at level
 * 0, the jiffy after its expiry, as a timer armed at the edge of a tick
 * must not fire at once):
 *
 *   delta < 0 (overdue)          level 0, slot clk & 63, collected at clk
 *   delta < LVL_START(n + 1)     level n, e = (expires >> 3n) + 1,
 *                                slot e & 63, collected at e << 3n
 *   delta >= WHEEL_TIMEOUT_CUTOFF  expires := clk + WHEEL_TIMEOUT_MAX, last level
 *
 * pending_map has a bit per bucket, set while the bucket is not empty.
 * base->next_expiry is never later than the first bucket to collect: an
 * enqueue lowers it; a delete that empties a bucket only marks it stale
 * (next_expiry_recalc), and __next_timer_interrupt recomputes it from
 * pending_map, level by level, from base->clk's position in each level.
 *
 * The run (__run_timers at jiffies): while jiffies has reached both clk and
 * next_expiry, base->clk jumps to next_expiry and collect_expired_timers
 * takes, level by level, the bucket at clk's slot, going up a level only
 * while clk's lower 3 bits at this level are zero (the level above turns
 * only then); clk is then one past it, next_expiry is recomputed, and the
 * collected lists are expired from the highest level down, each list from
 * its head (hlist_add_head: the last armed first). forward_timer_base moves
 * an idle base's clk up to jiffies (or to next_expiry if that is earlier),
 * so that a timer armed after a long idle gets its level from the true
 * delta.
 *
 * The constants (HZ <= 100: LVL_DEPTH 8; else 9):
 *
 *   LVL_CLK_SHIFT        3            levels are 8 times coarser each
 *   LVL_BITS, LVL_SIZE   6, 64        buckets per level (one map word)
 *   LVL_GRAN(n)          8^n          jiffies per bucket of level n
 *   LVL_START(n)         63 * 8^(n-1) first delta of level n (n >= 1)
 *   LVL_OFFS(n)          64 n         first bucket of level n
 *   WHEEL_TIMEOUT_CUTOFF LVL_START(LVL_DEPTH)   63 * 8^8 = 1056964608 (9 levels),
 *                                               63 * 8^7 = 132120576 (8 levels)
 *   WHEEL_TIMEOUT_MAX    CUTOFF - LVL_GRAN(LVL_DEPTH - 1)
 *   WHEEL_SIZE           64 LVL_DEPTH buckets (576 or 512)
 *   NEXT_TIMER_MAX_DELTA 2^30 - 1     next_expiry - clk when nothing is pending
 *
 * What each function follows (line ranges of 6.1's kernel/time/timer.c),
 * keeps and leaves out:
 *
 *   wheel61_calc_index   calc_index 516-531, calc_wheel_index 533-569: all of
 *                        it, a loop over the levels for the if-chain.
 *   wheel61_enqueue      enqueue_timer 601-626, timer_set_idx 506-510: keeps
 *                        hlist_add_head, __set_bit, the index in flags and the
 *                        next_expiry update; leaves out the tracepoint and
 *                        trigger_dyntick_cpu 571-595 (no NOHZ idle IPI).
 *   wheel61_add          internal_add_timer 628-635 (and add_timer's
 *                        BUG_ON(timer_pending)); the forwarding of __mod_timer
 *                        1012-1148 is wheel61_forward, for the caller to call.
 *   wheel61_del          detach_if_pending 886-901 with detach_timer 874-884,
 *                        clear_pending; leaves out debug objects.
 *                        wheel61_detach_if_pending: the same with
 *                        clear_pending the caller's (__mod_timer's false).
 *   wheel61_forward      forward_timer_base 945-968: all of it, jiffies given.
 *   wheel61_next_expiry  the recalc of get_next_timer_interrupt 1922-1971
 *                        (1936-1938) with __next_timer_interrupt 1808-1878 and
 *                        next_pending_bucket 1790-1802 (one map word per level);
 *                        leaves out the base forwarding, is_idle and hrtimers.
 *   wheel61_run          __run_timers 1996-2027, collect_expired_timers
 *                        1760-1783, expire_timers 1719-1758: keeps the loop
 *                        condition, running_timer, the order, the WARNs (as
 *                        w->warnings); leaves out the base lock and its drop
 *                        around the function (the caller's), timer_base_lock_expiry
 *                        and timer_sync_wait_running (PREEMPT_RT), IRQSAFE,
 *                        call_timer_fn's tracing and preempt checks, and the
 *                        deferrable base (run_timer_softirq 2032-2039). The
 *                        function is given the collection's jiffy (Linux's
 *                        baseclk, for tracing, re-reads base->clk - 1 per list,
 *                        which a function that forwarded the base has moved).
 *                        wheel61_run_hooks adds a hook before running_timer
 *                        is set (the claim, for an observer) and one after
 *                        it is cleared (where expire_timers calls
 *                        timer_sync_wait_running).
 *   wheel61_base_create  init_timer_cpu 2285-2298.
 *   wheel61_timer_alloc  do_init_timer 840-863 (flags as given).
 *
 * Locking: every function on a base runs with the base's lock held by the
 * caller (raw_spin_lock_irq(&base->lock) in Linux); wheel61_run calls the
 * timer functions where Linux drops it. Nothing here takes a lock.
 */
#include "wheel61.h"

#include <stdlib.h>

static int time_before(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b) < 0;
}

static int time_after(uint64_t a, uint64_t b)
{
    return time_before(b, a);
}

static int time_after_eq(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b) >= 0;
}

static maddr_t vec(const wheel61_t *w, unsigned idx)
{
    return w->base + W61_BASE_VECTORS + 8 * (maddr_t)idx;
}

static maddr_t map_word(const wheel61_t *w, unsigned lvl)
{
    return w->base + W61_BASE_PENDING_MAP + 8 * (maddr_t)lvl;
}

wheel61_t *wheel61_base_create(machine_t *m, int node, int hz, int cpu, uint64_t jiffies)
{
    if (hz <= 0)
        return NULL;
    wheel61_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->m = m;
    w->hz = hz;
    w->depth = W61_DEPTH(hz);
    w->cpu = cpu;
    w->base = machine_alloc(m, node, W61_BASE_SIZE); /* zeroed: empty heads and map */
    w->heads = machine_alloc(m, node, 8 * W61_DEPTH_MAX);
    machine_poke(m, w->base + W61_BASE_CPU, (uint64_t)cpu);
    machine_poke(m, w->base + W61_BASE_CLK, jiffies);
    machine_poke(m, w->base + W61_BASE_NEXT_EXPIRY, jiffies + W61_NEXT_TIMER_MAX_DELTA);
    return w;
}

void wheel61_base_destroy(wheel61_t *w)
{
    free(w);
}

maddr_t wheel61_timer_alloc(machine_t *m, int node, uint64_t fn_id, uint64_t data, uint64_t flags)
{
    maddr_t t = machine_alloc(m, node, W61_TIMER_SIZE); /* entry.pprev = NULL */
    machine_poke(m, t + W61_TIMER_FUNCTION, fn_id);
    machine_poke(m, t + W61_TIMER_DATA, data);
    machine_poke(m, t + W61_TIMER_FLAGS, flags & ~W61_TIMER_ARRAYMASK);
    return t;
}

unsigned wheel61_calc_index(int depth, uint64_t expires, uint64_t clk, uint64_t *bucket_expiry)
{
    uint64_t delta = expires - clk;
    unsigned lvl;
    for (lvl = 0; lvl < (unsigned)depth - 1; lvl++)
        if (delta < W61_LVL_START(lvl + 1))
            break;
    if (lvl == (unsigned)depth - 1) {
        if ((int64_t)delta < 0) { /* overdue: the bucket collected at clk */
            *bucket_expiry = clk;
            return (unsigned)(clk & W61_LVL_MASK);
        }
        if (delta >= W61_TIMEOUT_CUTOFF(depth)) /* beyond the wheel: at its cap */
            expires = clk + W61_TIMEOUT_MAX(depth);
    }
    /* calc_index: round up with the level's granularity, never early */
    uint64_t e = (expires >> W61_LVL_SHIFT(lvl)) + 1;
    *bucket_expiry = e << W61_LVL_SHIFT(lvl);
    return W61_LVL_OFFS(lvl) + (unsigned)(e & W61_LVL_MASK);
}

int wheel61_timer_pending(cpu_t *c, maddr_t t)
{
    return cpu_read_branch(c, t + W61_TIMER_PPREV) != 0;
}

void wheel61_enqueue(cpu_t *c, wheel61_t *w, maddr_t t, unsigned idx, uint64_t bucket_expiry)
{
    maddr_t b = w->base, head = vec(w, idx);
    /* hlist_add_head */
    maddr_t first = cpu_read(c, head);
    cpu_write(c, t + W61_TIMER_NEXT, first);
    if (first)
        cpu_write(c, first + W61_TIMER_PPREV, t + W61_TIMER_NEXT);
    cpu_write(c, head, t);
    cpu_write(c, t + W61_TIMER_PPREV, head);
    /* __set_bit(idx, pending_map) */
    maddr_t mw = map_word(w, idx / W61_LVL_SIZE);
    cpu_write(c, mw, cpu_read(c, mw) | 1ull << (idx % W61_LVL_SIZE));
    /* timer_set_idx */
    uint64_t flags = cpu_read(c, t + W61_TIMER_FLAGS);
    cpu_write(c, t + W61_TIMER_FLAGS,
              (flags & ~W61_TIMER_ARRAYMASK) | (uint64_t)idx << W61_TIMER_ARRAYSHIFT);
    /* the bucket's expiry, not timer->expires, is the base's next event */
    if (time_before(bucket_expiry, cpu_read(c, b + W61_BASE_NEXT_EXPIRY))) {
        cpu_write(c, b + W61_BASE_NEXT_EXPIRY, bucket_expiry);
        cpu_write(c, b + W61_BASE_TIMERS_PENDING, 1);
        cpu_write(c, b + W61_BASE_NEXT_EXPIRY_RECALC, 0);
    }
}

int wheel61_add(cpu_t *c, wheel61_t *w, maddr_t t, uint64_t expires)
{
    if (wheel61_timer_pending(c, t)) {
        w->warnings++; /* add_timer's BUG_ON */
        return -1;
    }
    cpu_write(c, t + W61_TIMER_EXPIRES, expires);
    uint64_t bucket_expiry;
    unsigned idx =
        wheel61_calc_index(w->depth, expires, cpu_read(c, w->base + W61_BASE_CLK), &bucket_expiry);
    wheel61_enqueue(c, w, t, idx, bucket_expiry);
    return 0;
}

/* detach_timer: __hlist_del, then pprev = NULL (clear_pending) and
 * next = LIST_POISON2. */
static void detach_timer(cpu_t *c, maddr_t t, int clear_pending)
{
    maddr_t next = cpu_read(c, t + W61_TIMER_NEXT);
    maddr_t pprev = cpu_read(c, t + W61_TIMER_PPREV);
    cpu_write(c, pprev, next);
    if (next)
        cpu_write(c, next + W61_TIMER_PPREV, pprev);
    if (clear_pending)
        cpu_write(c, t + W61_TIMER_PPREV, 0);
    cpu_write(c, t + W61_TIMER_NEXT, W61_LIST_POISON2);
}

int wheel61_del(cpu_t *c, wheel61_t *w, maddr_t t)
{
    return wheel61_detach_if_pending(c, w, t, 1);
}

int wheel61_detach_if_pending(cpu_t *c, wheel61_t *w, maddr_t t, int clear_pending)
{
    unsigned idx = (unsigned)((cpu_read(c, t + W61_TIMER_FLAGS) & W61_TIMER_ARRAYMASK) >>
                              W61_TIMER_ARRAYSHIFT);
    maddr_t pprev = cpu_read(c, t + W61_TIMER_PPREV);
    if (!pprev)
        return 0;
    /* hlist_is_singular_node: the last timer of its bucket (not of a list
     * the run has collected) */
    if (!cpu_read(c, t + W61_TIMER_NEXT) && pprev == vec(w, idx)) {
        maddr_t mw = map_word(w, idx / W61_LVL_SIZE);
        cpu_write(c, mw, cpu_read(c, mw) & ~(1ull << (idx % W61_LVL_SIZE)));
        cpu_write(c, w->base + W61_BASE_NEXT_EXPIRY_RECALC, 1);
    }
    detach_timer(c, t, clear_pending);
    return 1;
}

void wheel61_forward(cpu_t *c, wheel61_t *w, uint64_t jnow)
{
    maddr_t b = w->base;
    uint64_t clk = cpu_read(c, b + W61_BASE_CLK);
    /* close enough below jiffies, or one ahead while timers run */
    if ((int64_t)(jnow - clk) < 1)
        return;
    uint64_t next = cpu_read(c, b + W61_BASE_NEXT_EXPIRY);
    if (time_after(next, jnow)) {
        cpu_write(c, b + W61_BASE_CLK, jnow);
    } else {
        if (time_before(next, clk)) {
            w->warnings++;
            return;
        }
        cpu_write(c, b + W61_BASE_CLK, next);
    }
}

/* next_pending_bucket on level word `word`: the distance from slot clk to
 * the next set bit at or after it, wrapping round the level; -1 if none. */
static int next_pending_bucket(uint64_t word, unsigned clk)
{
    uint64_t above = word >> clk; /* clk < 64 */
    if (above)
        return __builtin_ctzll(above);
    uint64_t below = clk ? word & ((1ull << clk) - 1) : 0;
    if (below)
        return __builtin_ctzll(below) + (int)W61_LVL_SIZE - (int)clk;
    return -1;
}

/* __next_timer_interrupt: the first bucket expiry from base->clk on. */
static uint64_t next_timer_interrupt(cpu_t *c, wheel61_t *w)
{
    maddr_t b = w->base;
    uint64_t base_clk = cpu_read(c, b + W61_BASE_CLK);
    uint64_t clk = base_clk, next = base_clk + W61_NEXT_TIMER_MAX_DELTA;
    for (unsigned lvl = 0; lvl < (unsigned)w->depth; lvl++) {
        int pos =
            next_pending_bucket(cpu_read(c, map_word(w, lvl)), (unsigned)(clk & W61_LVL_MASK));
        uint64_t lvl_clk = clk & W61_LVL_CLK_MASK;
        if (pos >= 0) {
            uint64_t tmp = (clk + (uint64_t)pos) << W61_LVL_SHIFT(lvl);
            if (time_before(tmp, next))
                next = tmp;
            /* due before the next level's next bucket: look no further */
            if ((uint64_t)pos <= ((W61_LVL_CLK_DIV - lvl_clk) & W61_LVL_CLK_MASK))
                break;
        }
        /* the next level's clock: its next bucket is one on when this
         * level's lower bits are not zero */
        uint64_t adj = lvl_clk ? 1 : 0;
        clk >>= W61_LVL_CLK_SHIFT;
        clk += adj;
    }
    cpu_write(c, b + W61_BASE_NEXT_EXPIRY_RECALC, 0);
    cpu_write(c, b + W61_BASE_TIMERS_PENDING, next != base_clk + W61_NEXT_TIMER_MAX_DELTA);
    return next;
}

uint64_t wheel61_next_expiry(cpu_t *c, wheel61_t *w)
{
    maddr_t b = w->base;
    if (cpu_read(c, b + W61_BASE_NEXT_EXPIRY_RECALC))
        cpu_write(c, b + W61_BASE_NEXT_EXPIRY, next_timer_interrupt(c, w));
    return cpu_read(c, b + W61_BASE_NEXT_EXPIRY);
}

/* collect_expired_timers: clk jumps to next_expiry; the bucket at clk's
 * slot of each level whose turn it is moves to heads[levels++]. */
static int collect_expired_timers(cpu_t *c, wheel61_t *w)
{
    maddr_t b = w->base;
    uint64_t clk = cpu_read(c, b + W61_BASE_NEXT_EXPIRY);
    cpu_write(c, b + W61_BASE_CLK, clk);
    int levels = 0;
    for (unsigned i = 0; i < (unsigned)w->depth; i++) {
        unsigned idx = (unsigned)(clk & W61_LVL_MASK) + i * W61_LVL_SIZE;
        maddr_t mw = map_word(w, i);
        uint64_t word = cpu_read(c, mw), bit = 1ull << (idx % W61_LVL_SIZE);
        if (word & bit) { /* __test_and_clear_bit */
            cpu_write(c, mw, word & ~bit);
            /* hlist_move_list(vectors + idx, heads + levels) */
            maddr_t from = vec(w, idx), to = w->heads + 8 * (maddr_t)levels;
            maddr_t first = cpu_read(c, from);
            cpu_write(c, to, first);
            if (first)
                cpu_write(c, first + W61_TIMER_PPREV, to);
            cpu_write(c, from, 0);
            levels++;
        }
        if (clk & W61_LVL_CLK_MASK) /* the next level has not turned */
            break;
        clk >>= W61_LVL_CLK_SHIFT;
    }
    return levels;
}

/* expire_timers: runs the list at head, first to last. baseclk: the jiffy
 * it was collected at (Linux reads base->clk - 1 here, for tracing only,
 * which a function that forwarded the base has moved). */
static uint64_t expire_timers(cpu_t *c, wheel61_t *w, maddr_t head, uint64_t baseclk,
                              const wheel61_hooks_t *h)
{
    maddr_t b = w->base;
    uint64_t n = 0;
    for (;;) {
        maddr_t t = cpu_read(c, head);
        if (!t)
            break;
        if (h->claim)
            h->claim(c, w, t, baseclk, h->ctx);
        cpu_write(c, b + W61_BASE_RUNNING_TIMER, t);
        detach_timer(c, t, 1);
        uint64_t f = cpu_read(c, t + W61_TIMER_FUNCTION);
        if (!f) { /* "should never happen" */
            w->warnings++;
            cpu_write(c, b + W61_BASE_RUNNING_TIMER, 0);
            if (h->after)
                h->after(c, w, t, 0, h->ctx);
            continue;
        }
        uint64_t data = cpu_read(c, t + W61_TIMER_DATA);
        /* Linux drops the base lock here (the caller's, in numasim) */
        h->fn(c, w, t, f, data, baseclk, h->ctx);
        cpu_write(c, b + W61_BASE_RUNNING_TIMER, 0);
        if (h->after)
            h->after(c, w, t, 1, h->ctx);
        n++;
    }
    return n;
}

uint64_t wheel61_run(cpu_t *c, wheel61_t *w, uint64_t jnow, wheel61_fn_t fn, void *ctx)
{
    wheel61_hooks_t h = {NULL, fn, NULL, ctx};
    return wheel61_run_hooks(c, w, jnow, &h);
}

uint64_t wheel61_run_hooks(cpu_t *c, wheel61_t *w, uint64_t jnow, const wheel61_hooks_t *h)
{
    maddr_t b = w->base;
    uint64_t n = 0;
    if (time_before(jnow, cpu_read(c, b + W61_BASE_NEXT_EXPIRY)))
        return 0;
    while (time_after_eq(jnow, cpu_read(c, b + W61_BASE_CLK)) &&
           time_after_eq(jnow, cpu_read(c, b + W61_BASE_NEXT_EXPIRY))) {
        int levels = collect_expired_timers(c, w);
        /* nothing collected although next_expiry was fresh and a timer
         * pending: next_expiry was wrong */
        if (!levels && !cpu_read(c, b + W61_BASE_NEXT_EXPIRY_RECALC) &&
            cpu_read(c, b + W61_BASE_TIMERS_PENDING))
            w->warnings++;
        uint64_t clk = cpu_read(c, b + W61_BASE_CLK);
        cpu_write(c, b + W61_BASE_CLK, clk + 1);
        cpu_write(c, b + W61_BASE_NEXT_EXPIRY, next_timer_interrupt(c, w));
        while (levels--) /* the highest level first */
            n += expire_timers(c, w, w->heads + 8 * (maddr_t)levels, clk, h);
    }
    return n;
}

typedef struct {
    wheel61_expired_t *out;
    uint64_t max, n;
} collect_ctx_t;

static void record(cpu_t *c, wheel61_t *w, maddr_t t, uint64_t fn_id, uint64_t data,
                   uint64_t baseclk, void *ctx)
{
    (void)c, (void)w, (void)fn_id, (void)data;
    collect_ctx_t *r = ctx;
    if (r->n < r->max)
        r->out[r->n] = (wheel61_expired_t){t, baseclk};
    r->n++;
}

uint64_t wheel61_collect(cpu_t *c, wheel61_t *w, uint64_t jnow, wheel61_expired_t *out,
                         uint64_t max)
{
    collect_ctx_t r = {out, max, 0};
    wheel61_run(c, w, jnow, record, &r);
    return r.n;
}
