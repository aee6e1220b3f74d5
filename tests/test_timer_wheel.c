/* test_timer_wheel: the cascading wheel of sim/kernel/timer against a plain
 * reference model written from the specification (timer-algorithms.md 1-2).
 *
 * The reference knows nothing of list heads: for every timer it keeps where
 * it is queued (CPU), its expiry and, computed once at insertion from the
 * placement rule, its whole path through the wheel: the level and slot it is
 * put in, each later cascade (the jiffy A at which its slot is cascaded, and
 * the level and slot it lands in), and the jiffy it must run at.
 *
 *   placement, idx = expires - timer_jiffies (signed):
 *     idx < 0 -> tv1[tj & 255] (due at tj); < 2^8 -> tv1[expires & 255];
 *     < 2^14, 2^20, 2^26 -> tv2, tv3, tv4 [(expires >> s) & 63], s = 8, 14, 20;
 *     otherwise tv5 [(e >> 26) & 63], e = expires, or tj + 0xffffffff when
 *     idx > 0xffffffff (the clamp only picks the slot: expires is kept, so
 *     the timer lands in tv5 again at that cascade until idx fits).
 *   a slot of tv(L) (shift s) is cascaded when the run loop processes the
 *   jiffy A = e & ~(2^s - 1) (e as above): the first multiple of 2^s at or
 *   after tj whose slot bits match; it is re-placed with tj = A.
 *
 * What is asserted, exactly:
 *   - every return value (mod_timer / del_timer: was it pending; timer_pending)
 *     and, after every operation, timer_is_pending_now against the model;
 *   - each timer function runs on the CPU the model says, at the jiffy it
 *     says (tcore_jiffies_now), and in the exact order the model predicts
 *     among the timers due at that jiffy on that CPU. The order of one tv1
 *     slot is FIFO over its history: a direct insertion (op with
 *     timer_jiffies tj, global sequence number) comes before a cascade done
 *     while processing jiffy A iff tj <= A; the batch of one cascade keeps
 *     the order of its source slot, the tv2 batch before the tv3 one etc.
 *     So the key of a timer is, outermost first, (A, 1, source level) for
 *     each cascade it went through, then (tj, 0, seq) of its insertion,
 *     compared lexicographically;
 *   - nothing runs that the model does not expect, and nothing expected is
 *     missed (a pending timer whose jiffy has been processed is a failure);
 *   - at every period, the list each pending timer is linked into (found by
 *     following entry.next to a list head inside a base, every link checked
 *     for prev/next consistency) is the model's (CPU, level, slot): this
 *     checks every cascade at the jiffy it happens, at the index it uses;
 *   - the core reports no BUG, and every base is empty after each drain.
 *
 * How time passes. Every CPU runs a driver: after its own tick it performs
 * its operations in its window (until just before the next CPU's tick), so
 * no operation ever races with a tick handler and the model needs no
 * timing: an operation on CPU i sees jiffies J, and timer_jiffies J + 1 on
 * its own base (asserted). To reach expiries up to 2^27 jiffies ahead (and
 * 2^40 in the boundary test) without simulating every tick, the last CPU
 * of a period may jump: with all bases at timer_jiffies J + 1, it computes
 * from the model the first jiffy T at which anything happens to any pending
 * timer (a cascade of its slot or its run) and writes jiffies = T - 1 and
 * every base's timer_jiffies = T (mem_poke). The skipped jiffies would
 * only have run empty tv1 slots and cascaded empty slots, which changes
 * nothing: the wheel sees time only through those two words. The next
 * period then processes T with the real run loop, so every cascade and run
 * happens for real, at its own jiffy.
 *
 * Test 1 (random): smp4, 1024 timers, 100,000 add/mod/del operations (0-4
 * per CPU per period, plus timer_pending queries) from all four CPUs on any
 * timer (so timers move between bases), with expiries past due, due now,
 * up to 2^27 ahead, on the level boundaries and on a few shared jiffies
 * (so that direct and cascaded timers meet in one slot), fixed xorshift
 * seed; a jump in one period of eight; four rounds, each ending with a
 * drain (jumps until nothing is pending); both designs. It also asserts
 * lower bounds on what it exercised (runs after 0..4 cascades, overdue
 * runs, same-jiffy runs, fast paths, jumps) and prints the figures. Test 2 (boundaries): timers
 * 2^8, 2^14, 2^20, 2^26 jiffies ahead and one before and after each, further ones up to 2^40
 * (clamped), from three starting jiffies, both designs: each must run exactly once, at exactly its
 * expiry, on its CPU.
 */
#include "cpu.h"
#include "simulated.h"
#include "host.h"
#include "native.h"
#include "testutil.h"
#include "timer/timer.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    NCPU = 4,      /* at most; g.ncpu run */
    NT = 1024,     /* timers */
    MAXSTEP = 320, /* insertion + cascades (a 2^40 timer needs ~260) */
    OPS_PER_ROUND = 25000,
    ROUNDS = 4,
    MAX_OPS_PER_WINDOW = 4,
    HZ = 1024,
};

/* The model of one timer. Step 0 is its insertion (at = tj then), step k > 0
 * the k-th cascade (at = the jiffy whose processing moved it); level/slot:
 * where it is after that step. */
typedef struct {
    int pending, cpu, n;
    uint64_t expires, fire, seq;
    uint64_t at[MAXSTEP];
    int level[MAXSTEP], slot[MAXSTEP];
} ref_t;

typedef struct {
    tcore_t *tc;
    machine_t *m;
    int ncpu;   /* 4 simulated (smp4), 2 native */
    int native; /* CPUs take turns (g.turn) instead of timed windows */
    int turn;   /* atomic: whose turn it is */
    timer_design_t design;
    uint64_t period, guard, start, rng, seq;
    maddr_t t[NT];
    ref_t ref[NT];
    int nt, round, draining, done;
    uint64_t ops, queries, fires, jumps, bugs, fastpath, overdue, same_jiffy, cascaded_pairs;
    uint64_t fires_by_steps[6]; /* fires after 0..4 and 5+ cascades */
    uint64_t last_fire_jiffy[NCPU];
    int last_fire_id[NCPU];
    /* test 2 */
    int boundary;
    uint64_t nfired[NT], fired_at[NT];
    int fired_cpu[NT], want_cpu[NT];
    uint64_t want_at[NT];
    int nfail;
    char msg[1024];
} world_t;

static world_t g;

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
    if (g.nfail++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g.msg, sizeof g.msg, fmt, ap);
    va_end(ap);
}

static uint64_t rnd(void) /* xorshift64, fixed seed */
{
    g.rng ^= g.rng << 13;
    g.rng ^= g.rng >> 7;
    g.rng ^= g.rng << 17;
    return g.rng;
}

/* --- the reference model --- */

/* The placement rule of the specification; returns the level (1..5). */
static int place(uint64_t e, uint64_t tj, int *slot, int *clamped)
{
    int64_t d = (int64_t)(e - tj);
    *clamped = 0;
    if (d < 0) {
        *slot = (int)(tj & 255);
        return 1;
    }
    if (d < 1 << 8) {
        *slot = (int)(e & 255);
        return 1;
    }
    for (int level = 2; level <= 4; level++) {
        int s = 8 + 6 * (level - 2);
        if (d < (int64_t)1 << (s + 6)) {
            *slot = (int)(e >> s & 63);
            return level;
        }
    }
    if ((uint64_t)d > 0xffffffffull) {
        e = tj + 0xffffffffull;
        *clamped = 1;
    }
    *slot = (int)(e >> 26 & 63);
    return 5;
}

static void ref_insert(int id, int cpu, uint64_t e, uint64_t tj)
{
    ref_t *r = &g.ref[id];
    int slot, clamped, level = place(e, tj, &slot, &clamped);
    r->pending = 1;
    r->cpu = cpu;
    r->expires = e;
    r->seq = ++g.seq;
    r->fire = (int64_t)(e - tj) < 0 ? tj : e;
    r->n = 1;
    r->at[0] = tj;
    r->level[0] = level;
    r->slot[0] = slot;
    while (level > 1) {
        int s = 8 + 6 * (level - 2);
        uint64_t a = (clamped ? tj + 0xffffffffull : e) >> s << s;
        if (r->n == MAXSTEP) {
            bad("timer %d: more than %d cascades", id, MAXSTEP);
            return;
        }
        level = place(e, a, &slot, &clamped);
        r->at[r->n] = a;
        r->level[r->n] = level;
        r->slot[r->n] = slot;
        r->n++;
        tj = a;
    }
}

/* Element i (outermost first) of a timer's order key, as three numbers. */
static void key_step(const ref_t *r, int k, uint64_t out[3])
{
    if (k == 0) {
        out[0] = r->at[0], out[1] = 0, out[2] = r->seq;
    } else {
        out[0] = r->at[k], out[1] = 1, out[2] = (uint64_t)r->level[k - 1];
    }
}

/* <0 when a runs before b (both due at the same jiffy on the same CPU). */
static int key_cmp(const ref_t *a, const ref_t *b)
{
    for (int i = a->n - 1, j = b->n - 1; i >= 0 && j >= 0; i--, j--) {
        uint64_t x[3], y[3];
        key_step(a, i, x);
        key_step(b, j, y);
        for (int f = 0; f < 3; f++)
            if (x[f] != y[f])
                return x[f] < y[f] ? -1 : 1;
    }
    bad("two timers with equal order keys");
    return 0;
}

/* The timer the model expects to run next on cpu, or -1. */
static int ref_head(int cpu)
{
    int best = -1;
    for (int i = 0; i < g.nt; i++) {
        const ref_t *r = &g.ref[i];
        if (!r->pending || r->cpu != cpu)
            continue;
        if (best < 0 || r->fire < g.ref[best].fire ||
            (r->fire == g.ref[best].fire && key_cmp(r, &g.ref[best]) < 0))
            best = i;
    }
    return best;
}

/* The first jiffy > J at which something happens to r (cascade or run). */
static uint64_t next_event(const ref_t *r, uint64_t J)
{
    for (int k = 1; k < r->n; k++)
        if (r->at[k] > J)
            return r->at[k];
    return r->fire;
}

/* --- the system under test --- */

static void log_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *ctx)
{
    (void)t, (void)ctx;
    cpu_sync(c);
    int cpu = cpu_id(c), id = (int)data;
    uint64_t j = tcore_jiffies_now(tc);
    g.fires++;
    g.nfired[id]++;
    g.fired_at[id] = j;
    g.fired_cpu[id] = cpu;
    int h = ref_head(cpu);
    if (h != id || g.ref[id].fire != j)
        bad("cpu %d, jiffy %llu: timer %d ran (model: pending %d on cpu %d due %llu); the model "
            "expected timer %d due at %llu",
            cpu, (unsigned long long)j, id, g.ref[id].pending, g.ref[id].cpu,
            (unsigned long long)g.ref[id].fire, h,
            h >= 0 ? (unsigned long long)g.ref[h].fire : 0ull);
    /* statistics of what the run exercised */
    int steps = g.ref[id].n - 1;
    g.fires_by_steps[steps < 5 ? steps : 5]++;
    g.overdue += (int64_t)(g.ref[id].expires - g.ref[id].at[0]) < 0;
    if (g.last_fire_jiffy[cpu] == j && g.last_fire_id[cpu] >= 0) {
        g.same_jiffy++;
        g.cascaded_pairs += g.ref[g.last_fire_id[cpu]].n > 1 || steps > 0;
    }
    g.last_fire_jiffy[cpu] = j;
    g.last_fire_id[cpu] = id;
    g.ref[id].pending = 0;
}

static void observe(tcore_t *tc, tcore_event_t ev, cpu_t *c, maddr_t t, void *ctx)
{
    (void)tc, (void)c, (void)t, (void)ctx;
    g.bugs += ev == TEV_BUG;
}

/* Which list head a timer's list leads to: cpu, level (1..5) and slot; the
 * links are checked on the way. Returns 0 when no head was found. */
static int locate(maddr_t t, int *cpu, int *level, int *slot)
{
    maddr_t a = t;
    for (int n = 0; n <= NT + 1; n++) {
        maddr_t next = machine_peek(g.m, a + TIMER_ENTRY_NEXT);
        if (machine_peek(g.m, next + TIMER_ENTRY_PREV) != a)
            return 0;
        for (int i = 0; i < g.ncpu; i++) {
            maddr_t b = tcore_base(g.tc, i);
            if (next >= b + BASE_TV1 && next < b + BASE_SIZE) {
                uint64_t off = next - b - BASE_TV1;
                *cpu = i;
                if (off < TVR_SIZE * 16) {
                    *level = 1, *slot = (int)(off / 16);
                } else {
                    off -= TVR_SIZE * 16;
                    *level = 2 + (int)(off / (TVN_SIZE * 16));
                    *slot = (int)(off % (TVN_SIZE * 16) / 16);
                }
                return 1;
            }
        }
        a = next;
    }
    return 0;
}

/* With every base at timer_jiffies J + 1: each timer is where the model says. */
static void check_state(uint64_t J)
{
    for (int i = 0; i < g.nt; i++) {
        const ref_t *r = &g.ref[i];
        if (timer_is_pending_now(g.tc, g.t[i]) != r->pending) {
            bad("jiffy %llu: timer %d pending %d, model %d", (unsigned long long)J, i,
                timer_is_pending_now(g.tc, g.t[i]), r->pending);
            continue;
        }
        if (!r->pending)
            continue;
        if (next_event(r, J) <= J)
            bad("jiffy %llu: timer %d due at %llu is still pending", (unsigned long long)J, i,
                (unsigned long long)next_event(r, J));
        int k = 0, cpu, level, slot;
        while (k + 1 < r->n && r->at[k + 1] <= J)
            k++;
        if (!locate(g.t[i], &cpu, &level, &slot))
            bad("jiffy %llu: timer %d is on no list, or its links are broken",
                (unsigned long long)J, i);
        else if (cpu != r->cpu || level != r->level[k] || slot != r->slot[k])
            bad("jiffy %llu: timer %d (expires %llu, step %d) is in cpu %d tv%d[%d], model: "
                "cpu %d tv%d[%d]",
                (unsigned long long)J, i, (unsigned long long)r->expires, k, cpu, level, slot,
                r->cpu, r->level[k], r->slot[k]);
    }
}

static void check_empty(void)
{
    for (int i = 0; i < g.ncpu; i++)
        for (int h = 0; h < TVR_SIZE + 4 * TVN_SIZE; h++) {
            maddr_t head = tcore_base(g.tc, i) + BASE_TV1 + (maddr_t)h * 16;
            if (machine_peek(g.m, head) != head || machine_peek(g.m, head + 8) != head)
                bad("base %d: list head %d not empty after a drain", i, h);
        }
}

/* Sets the wheel's time: jiffy T is the next one every base processes. */
static void set_time(uint64_t T)
{
    machine_poke(g.m, tcore_jiffies_addr(g.tc), T - 1);
    for (int i = 0; i < g.ncpu; i++)
        machine_poke(g.m, tcore_base(g.tc, i) + BASE_TIMER_JIFFIES, T);
}

/* Jumps to the first jiffy where something happens; 0 if nothing pending. */
static int jump(uint64_t J)
{
    uint64_t T = UINT64_MAX;
    for (int i = 0; i < g.nt; i++)
        if (g.ref[i].pending) {
            uint64_t e = next_event(&g.ref[i], J);
            T = e < T ? e : T;
        }
    if (T == UINT64_MAX)
        return 0;
    if (T > J + 1) {
        set_time(T);
        g.jumps++;
    }
    return 1;
}

/* --- operations --- */

static void do_mod(cpu_t *c, int id, uint64_t e, uint64_t J)
{
    ref_t *r = &g.ref[id];
    int was = r->pending, same = was && r->expires == e;
    int ret = mod_timer(c, g.tc, g.t[id], e);
    if (ret != was)
        bad("mod_timer(timer %d) returned %d, model %d", id, ret, was);
    if (same)
        g.fastpath++; /* mod_timer's fast path: the timer stays where it is */
    else
        ref_insert(id, cpu_id(c), e, J + 1);
}

static uint64_t random_expiry(uint64_t J)
{
    uint64_t tj = J + 1, u = rnd() % 100;
    if (u < 8) { /* past due, or due now (J < tj) */
        uint64_t x = rnd() % 3000;
        return J >= x ? J - x : 0;
    }
    if (u < 40)
        return tj + rnd() % 300;
    if (u < 60)
        return tj + rnd() % ((1u << 14) + 100);
    if (u < 70)
        return tj + rnd() % ((1u << 20) + 100);
    if (u < 80)
        return tj + rnd() % ((1u << 27) + 1);
    if (u < 88) { /* a few shared jiffies just after the next 2^8 or 2^14
                   * boundaries: timers queued at different times (some
                   * through a cascade) meet in one tv1 slot */
        int s = u < 85 ? 8 : 14;
        return ((J >> s) + 1 + rnd() % 2) << s | rnd() % 4;
    }
    static const int bits[4] = {8, 14, 20, 26};
    return tj + (1ull << bits[rnd() % 4]) + rnd() % 3 - 1;
}

static void random_op(cpu_t *c, uint64_t J)
{
    int id = (int)(rnd() % NT);
    ref_t *r = &g.ref[id];
    maddr_t t = g.t[id];
    uint64_t u = rnd() % 100;
    if (u < 45) {
        do_mod(c, id, random_expiry(J), J);
    } else if (u < 55) {
        uint64_t e = random_expiry(J);
        if (r->pending) {
            do_mod(c, id, e, J);
        } else {
            add_timer(c, g.tc, t, e);
            ref_insert(id, cpu_id(c), e, J + 1);
        }
    } else if (u < 60) {
        do_mod(c, id, r->pending ? r->expires : random_expiry(J), J);
    } else if (u < 95) {
        int ret = del_timer(c, g.tc, t);
        if (ret != r->pending)
            bad("del_timer(timer %d) returned %d, model %d", id, ret, r->pending);
        r->pending = 0;
    } else {
        int p = timer_pending(c, g.tc, t);
        if (p != r->pending)
            bad("timer_pending(timer %d) = %d, model %d", id, p, r->pending);
        g.queries++;
        return;
    }
    g.ops++;
    if (timer_is_pending_now(g.tc, t) != r->pending)
        bad("after op on timer %d: pending %d, model %d", id, timer_is_pending_now(g.tc, t),
            r->pending);
}

/* The boundary test's timers: expiry = tj + delta (tj = J + 1), on CPU
 * index % 4. */
static const int64_t kDelta[] = {
    -1000,
    -1,
    0,
    1,
    255,
    (1 << 8) - 1,
    1 << 8,
    (1 << 8) + 1,
    (1 << 14) - 1,
    1 << 14,
    (1 << 14) + 1,
    (1 << 20) - 1,
    1 << 20,
    (1 << 20) + 1,
    (1 << 26) - 1,
    1 << 26,
    (1 << 26) + 1,
    (1 << 26) + 12345,
    (1ll << 27) + 7,
    1ll << 31,
    (1ll << 32) - 2,
    (1ll << 32) - 1,
    1ll << 32,
    (1ll << 32) + 1,
    (1ll << 33) + 99,
    (1ll << 40) + 3,
};
enum { NDELTA = sizeof kDelta / sizeof kDelta[0] };

static void boundary_ops(cpu_t *c, uint64_t J)
{
    for (int i = cpu_id(c); i < NDELTA; i += g.ncpu) {
        uint64_t e = J + 1 + (uint64_t)kDelta[i];
        g.want_at[i] = kDelta[i] < 0 ? J + 1 : e; /* past due: at the next jiffy */
        g.want_cpu[i] = cpu_id(c);
        if (i & 1) { /* half through add_timer, half through mod_timer */
            add_timer(c, g.tc, g.t[i], e);
            ref_insert(i, cpu_id(c), e, J + 1);
        } else {
            do_mod(c, i, e, J);
        }
    }
}

/* --- the drivers --- */

/* After CPU 3's operations: check, then maybe jump, or drain. */
static void conduct(cpu_t *c, uint64_t J)
{
    check_state(J);
    if (g.nfail) { /* the first failure is the story: stop there */
        __atomic_store_n(&g.done, 1, __ATOMIC_SEQ_CST);
        machine_stop(cpu_machine(c));
        return;
    }
    if (g.boundary) {
        if (!jump(J)) {
            __atomic_store_n(&g.done, 1, __ATOMIC_SEQ_CST);
            machine_stop(cpu_machine(c));
        }
        return;
    }
    if (!g.draining) {
        if (g.ops >= (uint64_t)OPS_PER_ROUND * (uint64_t)(g.round + 1))
            g.draining = 1;
        else if (rnd() % 8 == 0)
            jump(J);
    }
    if (g.draining && !jump(J)) {
        check_empty();
        g.draining = 0;
        if (++g.round == ROUNDS) {
            __atomic_store_n(&g.done, 1, __ATOMIC_SEQ_CST);
            machine_stop(cpu_machine(c));
        } else {
            set_time(J + 1 + rnd() % (1u << 26)); /* another alignment */
        }
    }
}

/* The host has no timed windows: CPUs take turns, each taking its own tick
 * then making its operations, as the windows of the simulation order them. */
static int wait_turn(cpu_t *c, int id)
{
    while (__atomic_load_n(&g.turn, __ATOMIC_SEQ_CST) != id)
        if (__atomic_load_n(&g.done, __ATOMIC_SEQ_CST))
            return 0;
        else
            cpu_relax(c);
    if (__atomic_load_n(&g.done, __ATOMIC_SEQ_CST))
        return 0;
    cpu_tick_now(c);
    cpu_progress(c);
    return 1;
}

static void driver(cpu_t *c, void *arg)
{
    (void)arg;
    int id = cpu_id(c);
    for (int first = 1;; first = 0) {
        uint64_t tk = 0, end = UINT64_MAX;
        if (g.native) {
            if (!wait_turn(c, id))
                return;
        } else {
            tk = cpu_next_tick(c);
            cpu_idle_until(c, tk + 1); /* takes this CPU's tick */
            if (g.done)
                return;
            /* until the next CPU's tick, no tick handler runs anywhere */
            end = tk + g.period / (uint64_t)g.ncpu - g.guard;
        }
        cpu_sync(c);
        uint64_t J = tcore_jiffies_now(g.tc);
        uint64_t tj = machine_peek(g.m, tcore_base(g.tc, id) + BASE_TIMER_JIFFIES);
        if (tj != J + 1)
            bad("cpu %d after its tick: timer_jiffies %llu, jiffies %llu", id,
                (unsigned long long)tj, (unsigned long long)J);
        if (g.boundary) {
            if (first)
                boundary_ops(c, J);
        } else if (!g.draining) {
            uint64_t n = rnd() % (MAX_OPS_PER_WINDOW + 1);
            for (uint64_t k = 0;
                 k < n && g.ops < (uint64_t)OPS_PER_ROUND * (uint64_t)(g.round + 1) &&
                 (g.native || cpu_now(c) + g.guard < end);
                 k++)
                random_op(c, J);
        }
        if (!g.native && cpu_now(c) > end)
            bad("cpu %d: tick handler and operations overran the window (%llu > %llu)", id,
                (unsigned long long)cpu_now(c), (unsigned long long)end);
        if (id == g.ncpu - 1)
            conduct(c, J);
        if (g.native)
            __atomic_store_n(&g.turn, (id + 1) % g.ncpu, __ATOMIC_SEQ_CST);
    }
}

static void setup(machine_t *m, void *arg)
{
    (void)arg;
    const platform_t *p = machine_platform(m);
    g.m = m;
    /* natively the CPUs raise their ticks themselves: the timer never fires */
    g.period = g.native ? 1ull << 50 : (uint64_t)(p->clock_mhz * 1e6 / HZ + 0.5);
    g.guard = g.period / 16;
    g.tc = tcore_create(m, g.design, 0, g.period, 0);
    tcore_set_observer(g.tc, observe, NULL, TEV_ALL);
    int fn = tcore_register_fn(g.tc, log_fn, NULL);
    g.nt = g.boundary ? NDELTA : NT;
    for (int i = 0; i < g.nt; i++)
        g.t[i] = timer_alloc(g.tc, 0, fn, (uint64_t)i);
    for (int i = 0; i < g.ncpu; i++) {
        g.last_fire_id[i] = -1;
        machine_set_program(m, i, driver, NULL);
    }
    set_time(g.start); /* the first tick processes jiffy start */
}

static void run_world(timer_design_t design, int boundary, uint64_t start, int native)
{
    memset(&g, 0, sizeof g);
    g.design = design;
    g.boundary = boundary;
    g.start = start;
    g.native = native;
    g.rng = 0x2545f4914f6cdd1dull;
    if (native) {
        machine_hooks_t hooks = {setup, NULL, NULL};
        err_t e = {{0}};
        host_t *h = tu_two_host_cpus();
        g.ncpu = 2;
        native_opts_t o = {60};
        ck_assert_msg(native_run(h, 1, &hooks, &o, &e) == 0, "%s", e.msg);
        host_close(h);
    } else {
        platform_t *p = tu_platform("smp4");
        g.ncpu = p->ncpus;
        tu_machine_run(p, "test_timer_wheel", 1, setup, NULL, NULL);
        platform_free(p);
    }
    tcore_destroy(g.tc);
    ck_assert_msg(g.nfail == 0, "%d failures; first: %s", g.nfail, g.msg);
    ck_assert_uint_eq(g.bugs, 0);
    ck_assert_int_eq(g.done, 1);
}

static const timer_design_t kDesigns[2] = {TIMER_CLASSIC, TIMER_TRACKING};

START_TEST(random_ops_match_reference)
{
    run_world(kDesigns[_i % 2], 0, (1ull << 32) - 3000, _i >= 2);
    ck_assert_uint_eq(g.ops, (uint64_t)ROUNDS * OPS_PER_ROUND);
    ck_assert_int_eq(g.round, ROUNDS);
    /* The run exercised what it claims (lower bounds; the exact figures
     * are printed for the record). */
    fprintf(stderr,
            "wheel %s: %llu ops, %llu queries, %llu runs (after 0/1/2/3/4/5+ cascades: %llu %llu "
            "%llu %llu %llu %llu), %llu overdue, %llu same-jiffy pairs (%llu with a cascaded "
            "timer), %llu fast paths, %llu jumps\n",
            _i % 2 ? "tracking" : "classic", (unsigned long long)g.ops,
            (unsigned long long)g.queries, (unsigned long long)g.fires,
            (unsigned long long)g.fires_by_steps[0], (unsigned long long)g.fires_by_steps[1],
            (unsigned long long)g.fires_by_steps[2], (unsigned long long)g.fires_by_steps[3],
            (unsigned long long)g.fires_by_steps[4], (unsigned long long)g.fires_by_steps[5],
            (unsigned long long)g.overdue, (unsigned long long)g.same_jiffy,
            (unsigned long long)g.cascaded_pairs, (unsigned long long)g.fastpath,
            (unsigned long long)g.jumps);
    for (int k = 0; k <= 4; k++)
        ck_assert_uint_gt(g.fires_by_steps[k], 10);
    ck_assert_uint_gt(g.overdue, 100);
    ck_assert_uint_gt(g.same_jiffy, 100);
    ck_assert_uint_gt(g.cascaded_pairs, 10);
    ck_assert_uint_gt(g.fastpath, 100);
    ck_assert_uint_gt(g.jumps, 100);
}
END_TEST

/* Starting jiffies (the first one the wheel processes; the timers are
 * queued one jiffy later): just below 2^32, where every level cascades
 * within two jiffies; exactly on a 2^26 boundary minus one, so timers are
 * queued with timer_jiffies aligned on every level; and an arbitrary one. */
static const uint64_t kStart[3] = {(1ull << 32) - 3, 3ull << 26, 0x123456789ull};

START_TEST(cascade_boundaries)
{
    run_world(kDesigns[_i % 2], 1, kStart[_i / 2 % 3], _i >= 6);
    for (int i = 0; i < NDELTA; i++) {
        ck_assert_msg(g.nfired[i] == 1, "delta %lld: ran %llu times", (long long)kDelta[i],
                      (unsigned long long)g.nfired[i]);
        ck_assert_msg(g.fired_at[i] == g.want_at[i], "delta %lld: ran at %llu, due %llu",
                      (long long)kDelta[i], (unsigned long long)g.fired_at[i],
                      (unsigned long long)g.want_at[i]);
        ck_assert_int_eq(g.fired_cpu[i], g.want_cpu[i]);
    }
    /* the 2^40 timer went through the clamped tv5 placement again and
     * again: once per 2^32 - 2^26 jiffies, then down the levels */
    ck_assert_uint_gt(g.ref[NDELTA - 1].n, 250);
}
END_TEST

static Suite *wheel_suite(void)
{
    Suite *s = suite_create("timer_wheel");
    TCase *t = tcase_create("wheel");
    tcase_add_loop_test(t, random_ops_match_reference, 0, 2);
    tcase_add_loop_test(t, cascade_boundaries, 0, 6);
    suite_add_tcase(s, t);
    /* the same on two threads of this host (real memory and atomics) */
    t = tcase_create("native");
    tcase_set_timeout(t, 300);
    tcase_add_loop_test(t, random_ops_match_reference, 2, 4);
    tcase_add_loop_test(t, cascade_boundaries, 6, 12);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return tu_run_suite(wheel_suite());
}
