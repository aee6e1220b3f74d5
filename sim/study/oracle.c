#include "oracle.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef enum {
    OEV_CALL = 100,
    OEV_RETURN,
    OEV_VIOLATION,
    OEV_OOPS,
    OEV_EARLY,   /* the function starts before the timer's expiry */
    OEV_REARMED, /* a shut-down timer was queued again */
} oracle_event_t;

typedef struct {
    uint64_t cycle;
    int cpu;
    int ev;
    maddr_t timer;
} trace_ent_t;

/* Watched timers: a list that only grows, published with a release store,
 * so that CPUs of the native machine may search it while one adds to it. */
typedef struct watched {
    maddr_t t;
    int running;         /* CPUs running (or about to run) its function; atomic */
    uint64_t last_end;   /* cycle of its function's last return, or NO_CYCLE */
    uint64_t last_rearm; /* cycle it was last queued while its function ran */
    int shutdown;        /* timer_shutdown_sync returned on it: never queued again */
    struct watched *next;
} watched_t;

#define NO_CYCLE UINT64_MAX

struct oracle {
    tcore_t *tc;
    watched_t *w; /* atomic head */
    uint64_t violations, oopses, bugs;
    uint64_t gap_end_start, gap_rearm_end; /* tightness, see oracle.h */
    trace_ent_t *ring;
    int ring_len, ring_n, ring_pos;
    trace_ent_t *first; /* snapshot at the first violation */
    int first_n;
};

#define RLOAD(x)     __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define RSTORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

/* Takes one off w->running unless it is 0; returns 1 when it did. */
static int running_dec(watched_t *w)
{
    int r = __atomic_load_n(&w->running, __ATOMIC_SEQ_CST);
    while (r > 0 && !__atomic_compare_exchange_n(&w->running, &r, r - 1, 0, __ATOMIC_SEQ_CST,
                                                 __ATOMIC_SEQ_CST))
        ;
    return r > 0;
}

static watched_t *find(const oracle_t *o, maddr_t t)
{
    for (watched_t *w = __atomic_load_n(&o->w, __ATOMIC_ACQUIRE); w; w = w->next)
        if (w->t == t)
            return w;
    return NULL;
}

static void record(oracle_t *o, cpu_t *c, int ev, maddr_t t)
{
    if (!o->ring_len)
        return;
    trace_ent_t *e = &o->ring[o->ring_pos];
    e->cycle = cpu_now(c);
    e->cpu = cpu_id(c);
    e->ev = ev;
    e->timer = t;
    o->ring_pos = (o->ring_pos + 1) % o->ring_len;
    if (o->ring_n < o->ring_len)
        o->ring_n++;
}

/* Counts a violation and keeps the trace up to the first one. */
static void violate(oracle_t *o, cpu_t *c, int ev, maddr_t t)
{
    record(o, c, ev, t);
    if (__atomic_fetch_add(&o->violations, 1, __ATOMIC_SEQ_CST) == 0 && o->ring_len) {
        /* Oldest first. */
        int start = (o->ring_pos - o->ring_n + o->ring_len) % o->ring_len;
        for (int i = 0; i < o->ring_n; i++)
            o->first[i] = o->ring[(start + i) % o->ring_len];
        o->first_n = o->ring_n;
    }
}

static void observe(tcore_t *tc, tcore_event_t ev, cpu_t *c, maddr_t t, void *ctx)
{
    (void)tc;
    oracle_t *o = ctx;
    if (ev == TEV_BUG)
        __atomic_fetch_add(&o->bugs, 1, __ATOMIC_RELAXED);
    watched_t *w = find(o, t);
    if (!w)
        return;
    /* Atomic: on the native machine the runs are on other threads. START
     * comes before the run loop's stores that let a caller see the timer
     * claimed, END after the function returned, so the count is never low.
     * The gaps (for numasim hunt, which simulates) are relaxed atomics. */
    uint64_t now = cpu_now(c);
    if (ev == TEV_FN_START) {
        uint64_t le = RLOAD(w->last_end);
        if (le != NO_CYCLE && now - le < RLOAD(o->gap_end_start))
            RSTORE(o->gap_end_start, now - le);
        __atomic_fetch_add(&w->running, 1, __ATOMIC_SEQ_CST);
    } else if (ev == TEV_FN_END && running_dec(w)) {
        RSTORE(w->last_end, now);
        uint64_t lr = RLOAD(w->last_rearm);
        if (lr != NO_CYCLE && now - lr < RLOAD(o->gap_rearm_end))
            RSTORE(o->gap_rearm_end, now - lr);
        RSTORE(w->last_rearm, NO_CYCLE);
    } else if (ev == TEV_QUEUED && __atomic_load_n(&w->running, __ATOMIC_SEQ_CST) > 0) {
        RSTORE(w->last_rearm, now);
    }
    record(o, c, (int)ev, t);
    /* The promises of every core: never before the expiry; a shut-down
     * timer stays down. */
    if (ev == TEV_FN_START && tcore_jiffies_now(tc) < timer_expires_now(tc, t))
        violate(o, c, OEV_EARLY, t);
    if (ev == TEV_QUEUED && RLOAD(w->shutdown))
        violate(o, c, OEV_REARMED, t);
}

oracle_t *oracle_create(tcore_t *tc, int trace_len)
{
    oracle_t *o = xcalloc(1, sizeof *o);
    o->tc = tc;
    o->gap_end_start = o->gap_rearm_end = NO_CYCLE;
    o->ring_len = trace_len > 0 ? trace_len : 0;
    if (o->ring_len) {
        o->ring = xcalloc((size_t)o->ring_len, sizeof *o->ring);
        o->first = xcalloc((size_t)o->ring_len, sizeof *o->first);
    }
    /* Only the events the checks read: natively an event is a fence and two
     * clock reads inside the code being timed, and del_timer's dequeue, in
     * every call of four strategies, would cost them some 60 cycles that
     * Linux does not spend (docs/native.md). */
    tcore_set_observer(tc, observe, o,
                       TEV_BIT(TEV_FN_START) | TEV_BIT(TEV_FN_END) | TEV_BIT(TEV_QUEUED) |
                           TEV_BIT(TEV_BUG));
    return o;
}

void oracle_destroy(oracle_t *o)
{
    if (!o)
        return;
    for (watched_t *w = o->w, *n; w; w = n) {
        n = w->next;
        free(w);
    }
    free(o->ring);
    free(o->first);
    free(o);
}

void oracle_watch(oracle_t *o, maddr_t t)
{
    if (find(o, t))
        return;
    watched_t *w = xcalloc(1, sizeof *w);
    w->t = t;
    w->last_end = w->last_rearm = NO_CYCLE;
    w->next = o->w;
    __atomic_store_n(&o->w, w, __ATOMIC_RELEASE);
}

void oracle_call(oracle_t *o, cpu_t *c, maddr_t t)
{
    record(o, c, OEV_CALL, t);
}

int oracle_return(oracle_t *o, cpu_t *c, maddr_t t, int oops)
{
    record(o, c, OEV_RETURN, t);
    if (oops) {
        o->oopses++;
        record(o, c, OEV_OOPS, t);
    }
    watched_t *w = find(o, t);
    if (w && timer_is_shutdown_now(o->tc, t))
        RSTORE(w->shutdown, 1);
    int bad =
        (w && __atomic_load_n(&w->running, __ATOMIC_SEQ_CST) > 0) || timer_is_pending_now(o->tc, t);
    if (!bad)
        return 0;
    violate(o, c, OEV_VIOLATION, t);
    return 1;
}

void oracle_setup(oracle_t *o, maddr_t t)
{
    watched_t *w = find(o, t);
    if (w)
        RSTORE(w->shutdown, 0);
}

uint64_t oracle_violations(const oracle_t *o)
{
    return o->violations;
}

uint64_t oracle_oopses(const oracle_t *o)
{
    return o->oopses;
}

uint64_t oracle_bugs(const oracle_t *o)
{
    return __atomic_load_n(&o->bugs, __ATOMIC_RELAXED);
}

void oracle_tightness(const oracle_t *o, uint64_t *end_start, uint64_t *rearm_end)
{
    *end_start = o->gap_end_start;
    *rearm_end = o->gap_rearm_end;
}

int oracle_running_anywhere(const oracle_t *o, maddr_t t)
{
    const watched_t *w = find(o, t);
    return w && __atomic_load_n(&w->running, __ATOMIC_SEQ_CST) > 0;
}

static const char *event_name(int ev)
{
    switch (ev) {
    case TEV_FN_START:
        return "run loop claims timer (function starts)";
    case TEV_FN_END:
        return "timer function returns";
    case TEV_QUEUED:
        return "timer queued (mod_timer)";
    case TEV_BUG:
        return "BUG in the timer core";
    case OEV_CALL:
        return "del_timer_sync called";
    case OEV_RETURN:
        return "del_timer_sync returns";
    case OEV_VIOLATION:
        return "VIOLATION: returned while the function runs or the timer is pending";
    case OEV_OOPS:
        return "OOPS: BUG_ON in del_singleshot_timer_sync (timer was re-armed)";
    case OEV_EARLY:
        return "VIOLATION: the function starts before the timer's expiry";
    case OEV_REARMED:
        return "VIOLATION: a timer shut down by timer_shutdown_sync was queued again";
    default:
        return "?";
    }
}

void oracle_print_trace(const oracle_t *o, FILE *f, double clock_mhz)
{
    if (!o->violations) {
        fprintf(f, "trace: no violation\n");
        return;
    }
    fprintf(f, "trace: the last %d events up to the first violation\n", o->first_n);
    fprintf(f, "%14s %14s %4s  %-10s %s\n", "cycle", "time_us", "cpu", "timer", "event");
    for (int i = 0; i < o->first_n; i++) {
        const trace_ent_t *e = &o->first[i];
        fprintf(f, "%14llu %14.3f %4d  %#-10llx %s\n", (unsigned long long)e->cycle,
                (double)e->cycle / clock_mhz, e->cpu, (unsigned long long)e->timer,
                event_name(e->ev));
    }
}
