/* test_wheel61: the 6.1 timer wheel of sim/kernel/timer61 against a sorted
 * reference.
 *
 * The reference is plain C: for every timer, whether it is armed, and,
 * computed once when it is armed from its expiry, the base's clk at that
 * moment and the specification alone (not the code under test): its level
 * (the first n with delta < 63 * 8^n, overdue at level 0, beyond the wheel
 * at the last level with its expiry capped at clk + WHEEL_TIMEOUT_MAX), its
 * bucket, and the jiffy that bucket is collected at (the expiry rounded up
 * to a multiple of 8^n strictly above it; clk when overdue). The armed
 * timers are kept in an array sorted by the order Linux runs them in: that
 * jiffy, then the higher level first, then the last armed first (buckets
 * are hlists, filled at the head).
 *
 * Each CPU drives a world of its own (its base, NT timers) with a fixed
 * xorshift seed: it advances its jiffies one by one, running the wheel at
 * each, and performing 0-3 random operations after each run: arm (after
 * forwarding the base, or not, one time in ten), delete, query. Timeouts are
 * drawn from a mix: overdue, short (< 64), medium (< 4096), long (< 2^20),
 * up to the cutoff, beyond the cutoff (capped), and on the level
 * boundaries LVL_START(n) +- 1. When the next expected bucket is far, the
 * jiffies jump just before it (exact jumps), and every 1500 jiffies they
 * jump blind (up to 2 * 8^(LVL_DEPTH - 1) ahead), with operations before
 * the run that then forward the base from a next_expiry in the past. Timer
 * functions re-arm themselves one time in four and delete another timer one
 * time in sixteen (maybe one collected with them). A final jump past the
 * cutoff drains the wheel.
 *
 * What is asserted:
 *   - each timer function runs for a timer the reference has armed, and it
 *     is the reference's first (so in Linux's order, and never twice), for
 *     the bucket collected at the reference's jiffy (its baseclk), never
 *     before its expiry, and never later than its level's granularity (or
 *     the cap) allows; its flags still hold the bucket it was armed in;
 *   - after each run at jiffy J nothing armed is due by J (nothing missed);
 *   - no timer ever moves between buckets: every 128 jiffies each armed
 *     timer's hlist is followed back to its head, which must be the bucket
 *     it was armed in (moves counted: 0), links checked, and pending_map
 *     must have exactly the non-empty buckets;
 *   - base->next_expiry (as stored, even stale, and as wheel61_next_expiry
 *     recomputes it) is never later than the first armed bucket's jiffy;
 *   - return values of del and timer_pending; no WARN; the wheel is empty
 *     after the drain.
 * calc_wheel_index alone is also checked against the reference's placement
 * (level boundaries, a million random pairs). For HZ 100, 250 and 1000,
 * under the baton scheduler and the reference (always-yield) one, with
 * identical results (the firing log, cycles included); and the same
 * operations on one CPU of this host (the native machine) give the same
 * firing log as the simulation.
 */
#include "cpu.h"
#include "host.h"
#include "native.h"
#include "simulated.h"
#include "testutil.h"
#include "timer61/wheel61.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    NW = 2,    /* worlds (CPUs) simulated; 1 natively */
    NT = 2048, /* timers per world */
    ROUNDS = 24,
    STEPS = 1500, /* jiffies stepped between blind jumps */
    SCAN_EVERY = 128,
    FN_ID = 7,
};

typedef struct {
    int pending, level, capped, overdue;
    unsigned idx;
    uint64_t expires, bucket, seq;
} ref_t;

typedef struct {
    wheel61_t *w;
    maddr_t t[NT];
    ref_t ref[NT];
    int ord[NT], n; /* armed timers, in the order they will run */
    uint64_t rng, J, seq;
    uint64_t collected; /* in_fn: the jiffy of the buckets being expired */
    int draining, in_fn;
} world_t;

typedef struct {
    int nfail;
    char msg[512];
    uint64_t digest[NW], cdigest[NW]; /* the firing log, without and with cycles */
    uint64_t arms, dels, fires, exact, late, overdue, capped, rearms, fn_dels, moves, scans,
        next_eq, next_lt, exact_jumps, blind_jumps, warnings, boundary;
    uint64_t fires_lvl[W61_DEPTH_MAX];
} result_t;

static struct {
    int hz, depth, nworld, yield, native;
    machine_t *m;
    world_t world[NW];
    result_t r;
} g;

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
    if (g.r.nfail++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g.r.msg, sizeof g.r.msg, fmt, ap);
    va_end(ap);
}

static uint64_t rnd(world_t *wd) /* xorshift64 */
{
    wd->rng ^= wd->rng << 13;
    wd->rng ^= wd->rng >> 7;
    wd->rng ^= wd->rng << 17;
    return wd->rng;
}

static void mix(uint64_t *h, uint64_t x)
{
    *h = (*h ^ x) * 0x100000001b3ull;
}

static int before(uint64_t a, uint64_t b) /* time_before */
{
    return (int64_t)(a - b) < 0;
}

/* --- the reference --- */

/* The placement of the specification, for a timer armed at clk. */
static void ref_place(ref_t *r, uint64_t expires, uint64_t clk)
{
    uint64_t delta = expires - clk, e = expires;
    int depth = g.depth, lvl = 0;
    r->expires = expires;
    r->capped = r->overdue = 0;
    if ((int64_t)delta < 0) {
        r->overdue = 1;
        r->level = 0;
        r->bucket = clk;
        r->idx = (unsigned)(clk % 64);
        return;
    }
    uint64_t range = 63; /* level n holds delta < 63 * 8^n */
    while (lvl < depth - 1 && delta >= range)
        lvl++, range *= 8;
    if (delta >= range) { /* beyond the last level: at the wheel's capacity */
        r->capped = 1;
        e = clk + range - (range / 63);
    }
    uint64_t gran = 1;
    for (int i = 0; i < lvl; i++)
        gran *= 8;
    r->level = lvl;
    r->bucket = (e / gran + 1) * gran;
    r->idx = (unsigned)(lvl * 64 + r->bucket / gran % 64);
}

/* a runs before b */
static int key_before(const ref_t *a, const ref_t *b)
{
    if (a->bucket != b->bucket)
        return before(a->bucket, b->bucket);
    if (a->level != b->level)
        return a->level > b->level;
    return a->seq > b->seq;
}

static int lower_bound(world_t *wd, const ref_t *r)
{
    int lo = 0, hi = wd->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (key_before(&wd->ref[wd->ord[mid]], r))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void ref_arm(world_t *wd, int id, uint64_t expires, uint64_t clk)
{
    ref_t *r = &wd->ref[id];
    ref_place(r, expires, clk);
    r->seq = ++wd->seq;
    r->pending = 1;
    int pos = lower_bound(wd, r);
    memmove(&wd->ord[pos + 1], &wd->ord[pos], sizeof(int) * (size_t)(wd->n - pos));
    wd->ord[pos] = id;
    wd->n++;
}

static void ref_remove(world_t *wd, int id)
{
    int pos = lower_bound(wd, &wd->ref[id]);
    if (pos >= wd->n || wd->ord[pos] != id) {
        bad("reference: timer %d not found", id);
        return;
    }
    memmove(&wd->ord[pos], &wd->ord[pos + 1], sizeof(int) * (size_t)(wd->n - pos - 1));
    wd->n--;
    wd->ref[id].pending = 0;
}

static const ref_t *ref_head(world_t *wd)
{
    return wd->n ? &wd->ref[wd->ord[0]] : NULL;
}

/* --- the operations --- */

static uint64_t peek(maddr_t a)
{
    return machine_peek(g.m, a);
}

static uint64_t random_expiry(world_t *wd)
{
    uint64_t J = wd->J, u = rnd(wd) % 100, cutoff = W61_TIMEOUT_CUTOFF(g.depth);
    if (u < 5)
        return J - rnd(wd) % 1000;
    if (u < 40)
        return J + rnd(wd) % 64;
    if (u < 60)
        return J + rnd(wd) % 4096;
    if (u < 75)
        return J + rnd(wd) % (1u << 20);
    if (u < 85)
        return J + rnd(wd) % cutoff;
    if (u < 90)
        return J + cutoff + rnd(wd) % (1ull << 40);
    g.r.boundary++;
    int lvl = 1 + (int)(rnd(wd) % (uint64_t)(g.depth - 1));
    return J + W61_LVL_START(lvl) + rnd(wd) % 3 - 1;
}

static void check_next(world_t *wd, uint64_t next, const char *what)
{
    const ref_t *h = ref_head(wd);
    /* in a timer function: the rest of the buckets being expired are
     * off the wheel already */
    for (int i = 1; h && wd->in_fn && h->bucket == wd->collected; i++)
        h = i < wd->n ? &wd->ref[wd->ord[i]] : NULL;
    if (h && before(h->bucket, next))
        bad("jiffy %llu: %s next_expiry %llu is later than the first bucket %llu (timer %d, "
            "expires %llu, level %d, clk %llu)",
            (unsigned long long)wd->J, what, (unsigned long long)next,
            (unsigned long long)h->bucket, wd->ord[0], (unsigned long long)h->expires, h->level,
            (unsigned long long)peek(wd->w->base + W61_BASE_CLK));
}

/* mod_timer's dance: delete if armed, forward (or not), add. */
static void arm(cpu_t *c, world_t *wd, int id, int forward)
{
    wheel61_t *w = wd->w;
    maddr_t t = wd->t[id];
    if (wd->ref[id].pending) {
        if (wheel61_del(c, w, t) != 1)
            bad("del of armed timer %d did not return 1", id);
        ref_remove(wd, id);
    }
    uint64_t e = random_expiry(wd);
    if (forward)
        wheel61_forward(c, w, wd->J);
    uint64_t clk = peek(w->base + W61_BASE_CLK);
    /* forwarded: up to jiffies, or to a next_expiry that is due */
    if (forward && before(clk, wd->J) && clk != peek(w->base + W61_BASE_NEXT_EXPIRY))
        bad("jiffy %llu: forwarded clk %llu behind, next_expiry %llu", (unsigned long long)wd->J,
            (unsigned long long)clk, (unsigned long long)peek(w->base + W61_BASE_NEXT_EXPIRY));
    if (wheel61_add(c, w, t, e) != 0)
        bad("add of unarmed timer %d failed", id);
    ref_arm(wd, id, e, clk);
    unsigned idx = (unsigned)(peek(t + W61_TIMER_FLAGS) >> W61_TIMER_ARRAYSHIFT);
    if (idx != wd->ref[id].idx)
        bad("timer %d (expires %llu, clk %llu) in bucket %u, reference %u", id,
            (unsigned long long)e, (unsigned long long)clk, idx, wd->ref[id].idx);
    g.r.arms++;
    check_next(wd, peek(w->base + W61_BASE_NEXT_EXPIRY), "stored");
}

static void del(cpu_t *c, world_t *wd, int id)
{
    int was = wd->ref[id].pending;
    if (wheel61_del(c, wd->w, wd->t[id]) != was)
        bad("del of timer %d: reference says pending %d", id, was);
    if (was)
        ref_remove(wd, id);
    g.r.dels++;
}

static void query(cpu_t *c, world_t *wd)
{
    int id = (int)(rnd(wd) % NT);
    if (wheel61_timer_pending(c, wd->t[id]) != wd->ref[id].pending)
        bad("timer_pending(%d) = %d, reference %d", id, !wd->ref[id].pending, wd->ref[id].pending);
    uint64_t next = wheel61_next_expiry(c, wd->w);
    check_next(wd, next, "recomputed");
    const ref_t *h = ref_head(wd);
    if (h && !wd->in_fn)
        *(next == h->bucket ? &g.r.next_eq : &g.r.next_lt) += 1;
}

static void random_op(cpu_t *c, world_t *wd)
{
    int id = (int)(rnd(wd) % NT);
    uint64_t u = rnd(wd) % 100;
    if (u < 55)
        arm(c, wd, id, rnd(wd) % 10 != 0);
    else if (u < 85)
        del(c, wd, id);
    else
        query(c, wd);
}

/* The timer function: checked against the reference's first timer. */
static void fire(cpu_t *c, wheel61_t *w, maddr_t t, uint64_t fn_id, uint64_t data, uint64_t baseclk,
                 void *ctx)
{
    world_t *wd = ctx;
    int id = (int)data;
    if (fn_id != FN_ID || id < 0 || id >= NT || wd->t[id] != t) {
        bad("a timer function for an unknown timer (fn %llu, data %llu)", (unsigned long long)fn_id,
            (unsigned long long)data);
        return;
    }
    ref_t *r = &wd->ref[id];
    uint64_t J = wd->J;
    if (!r->pending || wd->ord[0] != id) {
        const ref_t *h = ref_head(wd);
        bad("jiffy %llu: timer %d ran (armed %d, bucket %llu); the reference's first is timer %d "
            "(bucket %llu)",
            (unsigned long long)J, id, r->pending, (unsigned long long)r->bucket,
            h ? wd->ord[0] : -1, h ? (unsigned long long)h->bucket : 0ull);
        return;
    }
    if (baseclk != r->bucket || before(J, r->bucket))
        bad("jiffy %llu: timer %d collected at %llu, reference %llu", (unsigned long long)J, id,
            (unsigned long long)baseclk, (unsigned long long)r->bucket);
    uint64_t gran = W61_LVL_GRAN(r->level);
    if (!before(r->expires, baseclk) && !r->capped)
        bad("timer %d fired early: expires %llu, collected at %llu", id,
            (unsigned long long)r->expires, (unsigned long long)baseclk);
    if (!r->overdue && !r->capped && baseclk - r->expires > gran)
        bad("timer %d late by %llu, more than level %d's granularity", id,
            (unsigned long long)(baseclk - r->expires), r->level);
    if ((unsigned)(peek(t + W61_TIMER_FLAGS) >> W61_TIMER_ARRAYSHIFT) != r->idx) {
        g.r.moves++;
        bad("timer %d fired from another bucket than it was armed in", id);
    }
    if (peek(t + W61_TIMER_PPREV) != 0 || peek(w->base + W61_BASE_RUNNING_TIMER) != t)
        bad("timer %d runs still linked, or not as running_timer", id);
    int wi = (int)(wd - g.world);
    mix(&g.r.digest[wi], (uint64_t)id);
    mix(&g.r.digest[wi], J);
    mix(&g.r.digest[wi], baseclk);
    mix(&g.r.cdigest[wi], (uint64_t)id ^ J << 16);
    mix(&g.r.cdigest[wi], cpu_now(c));
    g.r.fires++;
    g.r.fires_lvl[r->level]++;
    *(J == r->bucket ? &g.r.exact : &g.r.late) += 1;
    g.r.overdue += r->overdue;
    g.r.capped += r->capped;
    ref_remove(wd, id);
    if (wd->draining)
        return;
    wd->in_fn = 1;
    wd->collected = baseclk;
    uint64_t u = rnd(wd) % 16;
    if (u < 4) {
        arm(c, wd, id, 1);
        g.r.rearms++;
    } else if (u == 4) {
        del(c, wd, (int)(rnd(wd) % NT));
        g.r.fn_dels++;
    }
    wd->in_fn = 0;
}

/* --- the checks of the whole wheel (cost-free) --- */

static void scan(world_t *wd)
{
    wheel61_t *w = wd->w;
    maddr_t vecs = w->base + W61_BASE_VECTORS;
    unsigned nb = W61_WHEEL_SIZE(g.depth);
    g.r.scans++;
    for (int id = 0; id < NT; id++) {
        maddr_t node = wd->t[id], p = peek(node + W61_TIMER_PPREV);
        if ((p != 0) != wd->ref[id].pending) {
            bad("jiffy %llu: timer %d pending %d, reference %d", (unsigned long long)wd->J, id,
                p != 0, wd->ref[id].pending);
            return;
        }
        if (!p)
            continue;
        int steps = 0;
        while (!(p >= vecs && p < vecs + 8 * nb)) {
            if (peek(p + W61_TIMER_NEXT) != node || ++steps > NT) {
                bad("timer %d: broken links", id);
                return;
            }
            node = p;
            p = peek(p + W61_TIMER_PPREV);
        }
        if (peek(p) != node)
            bad("timer %d: its bucket's head does not lead to it", id);
        unsigned idx = (unsigned)((p - vecs) / 8);
        if (idx != wd->ref[id].idx) {
            g.r.moves++;
            bad("jiffy %llu: timer %d in bucket %u, armed in %u", (unsigned long long)wd->J, id,
                idx, wd->ref[id].idx);
        }
    }
    for (unsigned i = 0; i < 64 * W61_DEPTH_MAX; i++) {
        int bit = (int)(peek(w->base + W61_BASE_PENDING_MAP + 8 * (i / 64)) >> (i % 64) & 1);
        int full = i < nb && peek(vecs + 8 * (maddr_t)i) != 0;
        if (bit != full)
            bad("jiffy %llu: bucket %u: pending bit %d, %s", (unsigned long long)wd->J, i, bit,
                full ? "not empty" : "empty");
    }
    check_next(wd, peek(w->base + W61_BASE_NEXT_EXPIRY), "stored");
}

static void run(cpu_t *c, world_t *wd)
{
    wheel61_run(c, wd->w, wd->J, fire, wd);
    const ref_t *h = ref_head(wd);
    if (h && !before(wd->J, h->bucket))
        bad("jiffy %llu: timer %d due at %llu did not run", (unsigned long long)wd->J, wd->ord[0],
            (unsigned long long)h->bucket);
    check_next(wd, peek(wd->w->base + W61_BASE_NEXT_EXPIRY), "stored");
    if (wd->w->warnings)
        bad("jiffy %llu: the wheel met a WARN condition", (unsigned long long)wd->J);
}

static void driver(cpu_t *c, void *arg)
{
    world_t *wd = arg;
    for (int round = 0; round < ROUNDS && !g.r.nfail; round++) {
        for (int k = 0; k < STEPS && !g.r.nfail; k++) {
            wd->J++;
            run(c, wd);
            for (uint64_t n = rnd(wd) % 4; n > 0; n--)
                random_op(c, wd);
            if (k % SCAN_EVERY == 0)
                scan(wd);
            const ref_t *h = ref_head(wd);
            if (h && before(wd->J + 2, h->bucket) && rnd(wd) % 4 == 0) {
                wd->J = h->bucket - 2 + rnd(wd) % 2; /* the next jiffy is due, or one before */
                g.r.exact_jumps++;
            }
            cpu_progress(c);
        }
        /* blind: over due buckets, then operations before the run */
        wd->J += 1 + rnd(wd) % (2ull << 3 * (rnd(wd) % (uint64_t)g.depth));
        g.r.blind_jumps++;
        for (uint64_t n = rnd(wd) % 4; n > 0; n--)
            random_op(c, wd);
        run(c, wd);
        scan(wd);
    }
    wd->draining = 1;
    wd->J += W61_TIMEOUT_CUTOFF(g.depth) + W61_LVL_GRAN(g.depth - 1) + 2;
    run(c, wd);
    scan(wd);
    if (wd->n)
        bad("%d timers left after the drain", wd->n);
    for (unsigned i = 0; i < W61_WHEEL_SIZE(g.depth); i++)
        if (peek(wd->w->base + W61_BASE_VECTORS + 8 * (maddr_t)i))
            bad("bucket %u not empty after the drain", i);
    g.r.warnings += wd->w->warnings;
}

static void setup(machine_t *m, void *arg)
{
    (void)arg;
    const platform_t *p = machine_platform(m);
    g.m = m;
    if (!g.native)
        sim_set_always_yield(m, g.yield);
    for (int i = 0; i < g.nworld; i++) {
        world_t *wd = &g.world[i];
        int node = p->cpu_node[i];
        /* like INITIAL_JIFFIES; the second world just before 64-bit wrap */
        wd->J = i == 0 ? (uint64_t)(uint32_t)(-300 * g.hz) : UINT64_MAX - 20000;
        wd->rng = 0x2545f4914f6cdd1dull + (uint64_t)i;
        wd->w = wheel61_base_create(m, node, g.hz, i, wd->J);
        ck_assert_ptr_nonnull(wd->w);
        for (int k = 0; k < NT; k++)
            wd->t[k] = wheel61_timer_alloc(m, node, FN_ID, (uint64_t)k, (uint64_t)i);
        machine_set_program(m, i, driver, wd);
    }
}

static void reset(int hz, int nworld, int yield, int native)
{
    memset(&g, 0, sizeof g);
    g.hz = hz;
    g.depth = W61_DEPTH(hz);
    g.nworld = nworld;
    g.yield = yield;
    g.native = native;
    for (int i = 0; i < NW; i++)
        g.r.digest[i] = g.r.cdigest[i] = 0xcbf29ce484222325ull;
}

static void free_worlds(void)
{
    for (int i = 0; i < g.nworld; i++)
        wheel61_base_destroy(g.world[i].w);
}

static int sim_child(void *arg)
{
    (void)arg;
    platform_t *p = tu_platform("smp4");
    machine_hooks_t hooks = {setup, NULL, NULL};
    err_t e = {{0}};
    int rc = sim_run(p, "test_wheel61", 1, &hooks, &e);
    free_worlds();
    platform_free(p);
    return rc == 0 ? 0 : 3;
}

static const int kHz[3] = {100, 250, 1000};

static void sim_result(int hz, int nworld, int yield, result_t *out)
{
    reset(hz, nworld, yield, 0);
    tu_run_in_child(sim_child, NULL, &g.r, out, sizeof *out, yield ? "yield run" : "baton run");
    ck_assert_msg(out->nfail == 0, "HZ %d %s: %d failures; first: %s", hz,
                  yield ? "yield" : "baton", out->nfail, out->msg);
}

START_TEST(differential)
{
    int hz = kHz[_i];
    static result_t baton, yield;
    sim_result(hz, NW, 0, &baton);
    fprintf(stderr,
            "wheel61 HZ %d: %llu arms, %llu dels, %llu fires (%llu at their bucket's jiffy, %llu "
            "after it: blind jumps, overdue arms; %llu overdue, %llu capped; by level:",
            hz, (unsigned long long)baton.arms, (unsigned long long)baton.dels,
            (unsigned long long)baton.fires, (unsigned long long)baton.exact,
            (unsigned long long)baton.late, (unsigned long long)baton.overdue,
            (unsigned long long)baton.capped);
    for (int l = 0; l < W61_DEPTH(hz); l++)
        fprintf(stderr, " %llu", (unsigned long long)baton.fires_lvl[l]);
    fprintf(stderr,
            "), %llu re-arms and %llu deletes in functions, %llu boundary expiries, %llu scans, "
            "%llu moves, next_expiry exact %llu / early %llu, %llu exact and %llu blind jumps\n",
            (unsigned long long)baton.rearms, (unsigned long long)baton.fn_dels,
            (unsigned long long)baton.boundary, (unsigned long long)baton.scans,
            (unsigned long long)baton.moves, (unsigned long long)baton.next_eq,
            (unsigned long long)baton.next_lt, (unsigned long long)baton.exact_jumps,
            (unsigned long long)baton.blind_jumps);
    ck_assert_uint_eq(baton.moves, 0);
    ck_assert_uint_eq(baton.warnings, 0);
    /* the run exercised what it claims */
    ck_assert_uint_gt(baton.fires, 10000);
    for (int l = 0; l < W61_DEPTH(hz); l++)
        ck_assert_msg(baton.fires_lvl[l] > 0, "no timer fired from level %d", l);
    ck_assert_uint_gt(baton.overdue, 100);
    ck_assert_uint_gt(baton.capped, 100);
    ck_assert_uint_gt(baton.late, 100);
    ck_assert_uint_gt(baton.exact, 1000);
    ck_assert_uint_gt(baton.rearms, 1000);
    ck_assert_uint_gt(baton.fn_dels, 100);
    /* the reference scheduler: the same firing log, cycle for cycle */
    sim_result(hz, NW, 1, &yield);
    for (int i = 0; i < NW; i++) {
        ck_assert_msg(baton.digest[i] == yield.digest[i], "HZ %d world %d: firing logs differ", hz,
                      i);
        ck_assert_msg(baton.cdigest[i] == yield.cdigest[i],
                      "HZ %d world %d: the schedulers' cycles differ", hz, i);
    }
    ck_assert_mem_eq(&baton, &yield, sizeof baton);
}
END_TEST

/* calc_wheel_index alone, a pure function, against the reference's
 * placement: the level boundaries of Linux's table (HZ 1000: 63, 504, 4032
 * jiffies ...), and a million random (expires, clk) pairs of every kind. */
START_TEST(calc_index_matches_spec)
{
    reset(kHz[_i], 1, 0, 0);
    static const struct {
        uint64_t delta;
        int level;
    } kEdge[] = {{0, 0}, {62, 0}, {63, 1}, {503, 1}, {504, 2}, {4031, 2}, {4032, 3}};
    for (unsigned k = 0; k < sizeof kEdge / sizeof kEdge[0]; k++) {
        uint64_t be;
        unsigned idx = wheel61_calc_index(g.depth, 1000000 + kEdge[k].delta, 1000000, &be);
        ck_assert_int_eq((int)(idx / 64), kEdge[k].level);
    }
    world_t *wd = &g.world[0];
    wd->rng = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 1000000; k++) {
        wd->J = k % 4 ? rnd(wd) : UINT64_MAX - rnd(wd) % 100000;
        uint64_t clk = wd->J + rnd(wd) % 3 - 1, e = random_expiry(wd), be;
        ref_t r;
        ref_place(&r, e, clk);
        unsigned idx = wheel61_calc_index(g.depth, e, clk, &be);
        ck_assert_msg(idx == r.idx && be == r.bucket,
                      "expires %llu, clk %llu: bucket %u at %llu, reference %u at %llu",
                      (unsigned long long)e, (unsigned long long)clk, idx, (unsigned long long)be,
                      r.idx, (unsigned long long)r.bucket);
    }
}
END_TEST

/* One CPU of this host. */
static host_t *one_host_cpu(void)
{
    err_t e = {{0}};
    host_t *h = host_open(NULL, &e);
    ck_assert_msg(h != NULL, "%s", e.msg);
    char list[32];
    snprintf(list, sizeof list, "%d", host_os_cpu(h, 0));
    host_close(h);
    h = host_open(list, &e);
    ck_assert_msg(h != NULL, "%s", e.msg);
    return h;
}

START_TEST(native_same_log)
{
    int hz = kHz[_i];
    static result_t sim;
    sim_result(hz, 1, 0, &sim);
    reset(hz, 1, 0, 1);
    host_t *h = one_host_cpu();
    machine_hooks_t hooks = {setup, NULL, NULL};
    native_opts_t o = {60};
    err_t e = {{0}};
    ck_assert_msg(native_run(h, 1, &hooks, &o, &e) == 0, "%s", e.msg);
    host_close(h);
    free_worlds();
    ck_assert_msg(g.r.nfail == 0, "HZ %d native: %d failures; first: %s", hz, g.r.nfail, g.r.msg);
    ck_assert_uint_eq(g.r.fires, sim.fires);
    ck_assert_msg(g.r.digest[0] == sim.digest[0], "HZ %d: native and simulated firing logs differ",
                  hz);
}
END_TEST

static Suite *wheel61_suite(void)
{
    Suite *s = suite_create("wheel61");
    TCase *t = tcase_create("differential");
    tcase_set_timeout(t, 600);
    tcase_add_loop_test(t, calc_index_matches_spec, 0, 3);
    tcase_add_loop_test(t, differential, 0, 3);
    suite_add_tcase(s, t);
    t = tcase_create("native");
    tcase_set_timeout(t, 300);
    tcase_add_loop_test(t, native_same_log, 0, 3);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(wheel61_suite());
}
