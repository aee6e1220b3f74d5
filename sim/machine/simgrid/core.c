/* core: the core that executes, on the simulated machine. Theory of
 * operation.
 *
 * An interval model (Karkhanis and Smith, ISCA 2004; Genbrugge, Eyerman
 * and Eeckhout, HPCA 2010): instructions issue at core_width a cycle, and
 * the time between is set by miss events, each of which costs what the
 * memory system says it costs, less what overlaps other work. The memory
 * system is not touched: every access is still one step performed at the
 * CPU's cycle when it issues, with the value and the cost of that moment
 * (sim_ops does it). What changes is when the CPU's counter pays the cost.
 *
 * In order (Itanium 2):
 *   a load of cpu_read_dep   is performed at issue; its value arrives
 *                            `cost` cycles later (its ready cycle); the
 *                            counter waits for it only at cpu_use, at a
 *                            load that names it as its dependence, at a
 *                            drain, or when a structure is full;
 *   any other access         issues, then waits for its own result
 *                            (cpu_read is cpu_read_dep + cpu_use);
 *   cpu_insns(n), cpu_exec   n instructions at core_width a cycle on the
 *                            counter; the front end fetches a unit's lines
 *                            core_fetch_ahead ahead of the one it consumes;
 *   drains                   fences and cpu_serialize wait for every load.
 *
 * Out of order (x86-64, ARMv8), the counter is where accesses issue and
 * the front end runs beside it:
 *   instructions             issue in the background (issue_front): the
 *                            front end has issued all it was given by its
 *                            own cycle fe, at core_width a cycle, waiting
 *                            for code lines and for room in the window;
 *   cpu_exec                 the counter waits for the unit's first line
 *                            only; the rest streams to the front end, and
 *                            an access waits for its own line (gate);
 *   a plain load             waits for nothing but the outstanding loads
 *                            its address comes from: a value that points
 *                            just below it (wait_dependences); a branch on
 *                            it is predicted (the simulation knows it);
 *   cpu_read_dep             waits for the dependence it names only;
 *   a store (tso, weak)      enters the store buffer in its issue slot;
 *   drains                   a locked RMW, a fence, cpu_serialize and the
 *                            clock (cpu_now: lfence; rdtsc) wait for every
 *                            load and for the front end; a spin's pause
 *                            waits for the loads. On tso smp_rmb and
 *                            smp_wmb are no instruction: no drain.
 *
 * Structures that fill: core_mshr misses (loads whose line the CPU's
 * caches do not hold) outstanding at once, a later miss waits for the
 * first to end; out of order, no instruction issues core_rob or more
 * instructions after the oldest load still outstanding (the window); in
 * order there is no window (the pipeline stalls only on use, as Itanium 2's
 * scoreboard). A load to a line whose miss is outstanding gets its value
 * when the miss ends.
 *
 * Time only moves forward through sim_wait_until, which takes the ticks
 * due on the way, so both schedulers see the same steps at the same
 * cycles. The anatomy keeps its rule (every cycle of the counter in one
 * term): an access's full cost still goes to its kind, issue_cycles is a
 * term of its own, and hidden_cycles, the part of the accesses' and code's
 * costs that did not reach the counter, is subtracted: a load adds its
 * cost to it, and every stall takes back what it exposes.
 */
#include "core.h"
#include "simulated_internal.h"
#include "xalloc.h"

#include <stdlib.h>

enum {
    CORE_FETCH_MAX = 64, /* core_fetch_ahead's bound (platform_caches.c) */
    SLOT_UNIT = 64,      /* an instruction in the issue slot: a width may be a fraction */
    RING_MIN = 64,       /* loads an in-order core tracks (its scoreboard) */
    CORE_DEP_SPAN = 4096 /* a field lies this close above its object's address */
};

typedef struct {
    uint64_t seq;   /* the load's token (1, 2, ...) */
    uint64_t ready; /* the cycle its value arrives */
    uint64_t insn;  /* its place in the instruction stream */
    uint64_t val;   /* its value: a later load's address may be computed from it */
} load_t;

typedef struct {
    uint64_t ready; /* the miss ends here (free before) */
    uint64_t line;
} miss_t;

struct core {
    platform_core_t k;
    uint64_t insn; /* instructions issued */
    uint64_t slot; /* of them, in the current cycle, in SLOT_UNITs (below w64) */
    uint64_t w64;  /* core_width in SLOT_UNITs */
    uint64_t seq;  /* loads issued: the last token */
    uint64_t done; /* every load up to this token has ended */
    uint64_t mask; /* ring: the last mask + 1 loads, by token */
    load_t *ring;
    miss_t *miss;        /* [mshr] */
    uint64_t drain;      /* the last ready cycle of every load issued */
    uint64_t misses_end; /* the last ready cycle of every miss issued */
    /* Out of order, the front end issues in the background: it has issued
     * every instruction given so far by cycle fe, fe_issue cycles of which
     * were issue (the rest waits for code lines or the window). */
    uint64_t fe, fe_issue;
    uint64_t acq;       /* weak order: the last acquire load, which later loads wait for */
    uint64_t clock_end; /* out of order: the last clock read ends here */
    /* Out of order (gate): the current unit (-1: none), its lines, the
     * cycle each that missed arrives (0: a hit), its accesses so far; per
     * unit, the most accesses a run of it made. */
    int unit, acc_cap;
    uint64_t unit_lines, unit_acc, lines_cap, *line_at;
    uint32_t *acc_seen;
};

static machine_ops_t g_core_ops;

/* Waits, as a stall, until cycle: what it exposes of the accesses' cost
 * leaves hidden_cycles. */
static void stall_until(cpu_t *c, uint64_t cycle)
{
    if (cycle <= c->now)
        return;
    uint64_t w = sim_wait_until(c, cycle);
    c->an.stall_cycles += w;
    c->an.hidden_cycles -= w;
}

/* The oldest load outstanding now, or NULL (the ended ones leave). */
static const load_t *oldest(const cpu_t *c, struct core *k)
{
    while (k->done < k->seq) {
        const load_t *l = &k->ring[(k->done + 1) & k->mask];
        if (l->ready > c->now)
            return l;
        k->done++;
    }
    return NULL;
}

/* The first load issued still outstanding at cycle t (ended ones may
 * remain before it), or NULL. */
static const load_t *outstanding_at(const struct core *k, uint64_t t)
{
    for (uint64_t q = k->done + 1; q <= k->seq; q++) {
        const load_t *l = &k->ring[q & k->mask];
        if (l->seq == q && l->ready > t)
            return l;
    }
    return NULL;
}

/* Out of order: the front end issues n more instructions from cycle from,
 * core_width a cycle, each within core_rob of the oldest load outstanding
 * when it issues; the counter does not wait (wait_front does). */
static void issue_front(cpu_t *c, struct core *k, uint64_t n, uint64_t from)
{
    if (k->fe < from)
        k->fe = from;
    if (k->ring)
        oldest(c, k); /* drop the loads ended by now */
    while (n) {
        uint64_t take = n;
        const load_t *l = k->ring ? outstanding_at(k, k->fe) : NULL;
        if (l) {
            uint64_t end = l->insn + (uint64_t)k->k.rob; /* first index that may not issue */
            if (k->insn >= end) {
                k->fe = l->ready; /* the window is full until the load ends */
                continue;
            }
            take = end - k->insn < n ? end - k->insn : n;
        }
        k->insn += take;
        uint64_t sum = k->slot + take * SLOT_UNIT;
        k->slot = sum % k->w64;
        k->fe += sum / k->w64;
        k->fe_issue += sum / k->w64;
        n -= take;
    }
}

/* Out of order: the counter waits until the front end has issued every
 * instruction given so far. Of the wait, up to the front end's issue
 * cycles since the last wait are issue_cycles; the rest exposed code lines
 * or a full window (a stall). */
static void wait_front(cpu_t *c, struct core *k)
{
    uint64_t iss = k->fe_issue;
    k->fe_issue = 0;
    if (k->fe <= c->now)
        return;
    uint64_t w = sim_wait_until(c, k->fe);
    if (iss > w)
        iss = w;
    c->an.issue_cycles += iss;
    c->an.stall_cycles += w - iss;
    c->an.hidden_cycles -= w - iss;
}

/* Issues n instructions in program order: in order on the counter,
 * core_width a cycle; out of order in the background (issue_front). */
static inline void issue(cpu_t *c, struct core *k, uint64_t n)
{
    if (k->k.kind == CORE_OOO) {
        issue_front(c, k, n, c->now);
        return;
    }
    k->insn += n;
    k->slot += n * SLOT_UNIT;
    if (k->slot < k->w64) /* most loads and stores: the cycle is not full */
        return;
    uint64_t cycles = k->slot / k->w64;
    k->slot -= cycles * k->w64;
    c->an.issue_cycles += sim_wait_until(c, c->now + cycles);
}

/* Waits until every load issued has ended. */
static void drain(cpu_t *c)
{
    stall_until(c, c->core->drain);
}

/* Out of order, everything before: every load and the front end (a locked
 * RMW, a fence, a serialising instruction, the clock read behind lfence). */
static void drain_all(cpu_t *c)
{
    drain(c);
    if (c->core->k.kind != CORE_OOO)
        return;
    wait_front(c, c->core);
    /* the clock read is an instruction before too: what it keeps the
     * counter past the rest is a cost of no access, and exposes none */
    if (c->core->clock_end > c->now)
        c->an.hidden_cycles -= sim_wait_until(c, c->core->clock_end);
}

/* Out of order, a load waits for the outstanding loads it depends on: the
 * last acquire load (weak order), and, by_value (a plain load, whose
 * dependences nobody named), any load whose value, read as an address,
 * points less than CORE_DEP_SPAN bytes below a: the address was computed
 * from it (a pointer and a field's offset). A value below
 * MEM_NULL_GUARD_BYTES is a number, not an address. */
static void wait_dependences(cpu_t *c, struct core *k, maddr_t a, int by_value)
{
    if (k->acq) {
        const load_t *l = &k->ring[k->acq & k->mask];
        if (l->seq == k->acq)
            stall_until(c, l->ready);
        k->acq = 0;
    }
    uint64_t until = 0;
    for (uint64_t q = k->done + 1; by_value && q <= k->seq; q++) {
        const load_t *l = &k->ring[q & k->mask];
        if (l->seq == q && l->ready > c->now && l->val >= MEM_NULL_GUARD_BYTES && a >= l->val &&
            a - l->val < CORE_DEP_SPAN && l->ready > until)
            until = l->ready;
    }
    stall_until(c, until);
}

/* Out of order, an access of the current unit waits for the code line
 * that holds it: the core cannot issue an instruction it has not fetched.
 * Where a unit's accesses lie in its code is not known, so they are spread
 * evenly over its lines, in order, as many as the most any run of it made
 * (a shorter run, an early return, stays in the first lines; none known
 * on its first run: no wait). Only a line that missed holds one back: a
 * unit whose lines all hit (exec_known) has no gate; in order no unit is
 * ever current (the counter is the front end). */
static void gate(cpu_t *c, struct core *k)
{
    if (k->unit < 0 || !k->unit_lines)
        return;
    uint64_t seen = k->unit < k->acc_cap ? k->acc_seen[k->unit] : 0;
    uint64_t i = k->unit_acc++;
    if (!seen)
        return;
    i = i * k->unit_lines / seen;
    if (i >= k->unit_lines)
        i = k->unit_lines - 1;
    stall_until(c, k->line_at[i]);
}

/* Out of order: unit code begins (with n lines that cpu_exec fetches, 0
 * when they all hit); the unit before ends here, its accesses counted. */
static void unit_begin(cpu_t *c, struct core *k, int code, uint64_t n)
{
    int ncode = c->m->ncode;
    if (k->acc_cap < ncode) {
        k->acc_seen = xrealloc(k->acc_seen, (size_t)ncode * sizeof *k->acc_seen);
        for (int i = k->acc_cap; i < ncode; i++)
            k->acc_seen[i] = 0;
        k->acc_cap = ncode;
    }
    if (k->unit >= 0 && k->unit_acc > k->acc_seen[k->unit])
        k->acc_seen[k->unit] = (uint32_t)(k->unit_acc < UINT32_MAX ? k->unit_acc : UINT32_MAX);
    if (n > k->lines_cap) {
        k->line_at = xrealloc(k->line_at, (size_t)n * sizeof *k->line_at);
        k->lines_cap = n;
    }
    k->unit = code;
    k->unit_lines = n;
    k->unit_acc = 0;
}

/* A free miss register (waiting for the first to end when all are busy);
 * counts the miss as overlapped when another is outstanding. */
static miss_t *mshr(cpu_t *c, struct core *k)
{
    if (k->misses_end <= c->now) /* none outstanding: the scan below would pick the first */
        return &k->miss[0];
    for (;;) {
        miss_t *free_one = NULL, *first = NULL;
        int busy = 0;
        for (int i = 0; i < k->k.mshr; i++) {
            miss_t *r = &k->miss[i];
            if (r->ready <= c->now)
                free_one = free_one ? free_one : r;
            else
                busy++;
            if (!first || r->ready < first->ready)
                first = r;
        }
        if (free_one) {
            c->an.overlapped += busy > 0;
            return free_one;
        }
        stall_until(c, first->ready);
    }
}

/* An RMW that issues as a load (core_rmw_overlap): what it does. */
typedef enum { RMW_XCHG, RMW_CMPXCHG, RMW_ADD } rmw_op_t;
typedef struct {
    rmw_op_t op;
    uint64_t x, y; /* xchg: x; cmpxchg: old x, new y; fetch_add: x */
    cpu_order_t o;
} rmw_t;

static uint64_t perform(cpu_t *c, maddr_t a, int acquire, const rmw_t *w)
{
    if (!w)
        return acquire ? sim_ops.read_acquire(c, a) : sim_ops.read(c, a);
    switch (w->op) {
    case RMW_XCHG:
        return sim_ops.xchg(c, a, w->x, w->o);
    case RMW_CMPXCHG:
        return (uint64_t)sim_ops.cmpxchg(c, a, w->x, w->y, w->o);
    default:
        return sim_ops.fetch_add(c, a, w->x, w->o);
    }
}

/* A load performed now; acquire: an acquire load; undeclared: a plain
 * load, whose dependences the caller did not name (cpu_read_dep names
 * them); w: an RMW instead of a load (its result in *v). Returns its
 * token. */
static cpu_tok_t load(cpu_t *c, maddr_t a, int acquire, int undeclared, const rmw_t *w, uint64_t *v)
{
    struct core *k = c->core;
    machine_t *m = c->m;
    if (!k->ring) { /* on first use: thousands of idle CPUs need none */
        uint64_t n = RING_MIN;
        while (k->k.kind == CORE_OOO && n < 2 * (uint64_t)k->k.rob)
            n *= 2;
        k->ring = xcalloc(n, sizeof *k->ring);
        k->mask = n - 1;
    }
    if (k->k.kind == CORE_OOO) {
        gate(c, k);
        wait_dependences(c, k, a, undeclared);
    }
    uint64_t s;
    load_t *l;
    miss_t *r;
    do { /* a tick taken while waiting may issue loads: then again */
        s = k->seq + 1;
        const load_t *o;
        while (k->k.kind == CORE_OOO && (o = oldest(c, k)) &&
               k->insn >= o->insn + (uint64_t)k->k.rob)
            stall_until(c, o->ready); /* room in the window for the load itself */
        l = &k->ring[s & k->mask];
        stall_until(c, l->ready); /* its slot's previous load ends first */
        if (l->seq > k->done)
            k->done = l->seq; /* and every load before it had ended at its own turn */
        r = mem_holds(m->mem, c->id, a) ? NULL : mshr(c, k);
        sim_poll_irq(c); /* the ticks due now come before the load (later: no harm) */
    } while (k->seq + 1 != s);
    uint64_t t0 = c->now;
    *v = perform(c, a, acquire, w);
    uint64_t ready = c->now;
    c->now = t0; /* the CPU goes on; the value arrives at ready */
    c->an.hidden_cycles += ready - t0;
    uint64_t line = mem_line_of(m->mem, a);
    if (r) {
        *r = (miss_t){.ready = ready, .line = line};
        if (ready > k->misses_end)
            k->misses_end = ready;
    } else if (k->misses_end > t0) { /* some miss is still on its way */
        for (int i = 0; i < k->k.mshr; i++)
            if (k->miss[i].line == line && k->miss[i].ready > ready)
                ready = k->miss[i].ready; /* its line is still on the way */
    }
    *l = (load_t){.seq = s, .ready = ready, .insn = k->insn, .val = *v};
    k->seq = s;
    if (ready > k->drain)
        k->drain = ready;
    issue(c, k, 1);
    return s;
}

static void core_use(cpu_t *c, cpu_tok_t tok)
{
    struct core *k = c->core;
    if (!tok || tok > k->seq || !k->ring)
        return;
    const load_t *l = &k->ring[tok & k->mask];
    if (l->seq == tok)
        stall_until(c, l->ready);
}

static void core_branch(cpu_t *c, cpu_tok_t tok)
{
    if (c->core->k.kind == CORE_INORDER)
        core_use(c, tok);
}

static uint64_t core_read_dep(cpu_t *c, maddr_t a, cpu_tok_t dep, cpu_tok_t *tok)
{
    core_use(c, dep); /* the address is known when dep's value is */
    uint64_t v;
    *tok = load(c, a, 0, 0, NULL, &v);
    return v;
}

/* In order, a load used at once, when nothing can make it wait before it
 * is performed (ring slot free, no miss outstanding, no tick due): what
 * load() and core_use do then, less the miss register of a miss that ends
 * before the next instruction with no tick before (nothing can find it).
 * A tick's handler runs within the wait, so its loads must then find the
 * miss as load() leaves it: in miss[0] (mshr() picks it if none is out). */
static uint64_t read_used(cpu_t *c, struct core *k, maddr_t a, load_t *l)
{
    if (l->seq > k->done)
        k->done = l->seq;
    machine_t *m = c->m;
    int held = mem_holds(m->mem, c->id, a);
    uint64_t t0 = c->now;
    uint64_t v = sim_ops.read(c, a);
    uint64_t ready = c->now;
    c->now = t0;
    c->an.hidden_cycles += ready - t0;
    /* in order, a load's insn and val are never read (the window and
     * wait_dependences are out of order's) */
    l->seq = ++k->seq;
    l->ready = ready;
    if (ready > k->drain)
        k->drain = ready;
    if (c->irq_at <= ready + 1) { /* a tick may come in the waits: take it there */
        if (!held) {
            k->miss[0] = (miss_t){.ready = ready, .line = mem_line_of(m->mem, a)};
            if (ready > k->misses_end)
                k->misses_end = ready;
        }
        issue(c, k, 1);
        stall_until(c, ready);
        return v;
    }
    k->insn++; /* issue(c, k, 1) and stall_until(c, ready), with no tick on the way */
    if ((k->slot += SLOT_UNIT) >= k->w64) { /* width >= 1: one cycle at most */
        k->slot -= k->w64;
        c->now++;
        c->an.issue_cycles++;
    }
    if (ready > c->now) {
        uint64_t w = ready - c->now;
        c->now = ready;
        c->an.stall_cycles += w;
        c->an.hidden_cycles -= w;
    }
    return v;
}

/* A plain load. In order its use is the next instruction (the caller
 * holds the value). Out of order nothing waits for it but what depends on
 * it (wait_dependences) and the drains: the simulation knows the value, so
 * branches on it are predicted right. */
static uint64_t core_read(cpu_t *c, maddr_t a)
{
    struct core *k = c->core;
    if (k->k.kind == CORE_INORDER && k->ring && k->misses_end <= c->now && c->irq_at > c->now) {
        load_t *l = &k->ring[(k->seq + 1) & k->mask];
        if (l->ready <= c->now)
            return read_used(c, k, a, l);
    }
    uint64_t v;
    cpu_tok_t t = load(c, a, 0, 1, NULL, &v);
    if (k->k.kind == CORE_INORDER)
        stall_until(c, k->ring[t & k->mask].ready); /* core_use of the load just issued */
    return v;
}

/* cpu_read_branch: cpu_read_dep with no dependence, then cpu_branch on
 * it. In order the branch uses the value, as a plain load's next
 * instruction does (core_read); out of order it is predicted, and the
 * load waits for nothing it did not name. */
static uint64_t core_read_branch(cpu_t *c, maddr_t a)
{
    if (c->core->k.kind == CORE_INORDER)
        return core_read(c, a);
    uint64_t v;
    load(c, a, 0, 0, NULL, &v);
    return v;
}

/* An acquire load: out of order on weak order (ldar), later loads wait for
 * it; on tso every load is one, and it is a plain load. */
static uint64_t core_read_acquire(cpu_t *c, maddr_t a)
{
    uint64_t v;
    cpu_tok_t t = load(c, a, 1, 1, NULL, &v);
    if (c->core->k.kind == CORE_INORDER)
        core_use(c, t);
    else if (c->m->p->memory_model == PLATFORM_WEAK)
        c->core->acq = t;
    return v;
}

static void core_insns(cpu_t *c, uint64_t n)
{
    issue(c, c->core, n);
}

static void core_serialize(cpu_t *c)
{
    drain_all(c);
    c->core->slot = 0; /* nothing issues beside it */
    uint64_t cycles = (uint64_t)(c->core->k.serialize_cycles + 0.5);
    c->an.issue_cycles += sim_wait_until(c, c->now + cycles);
}

/* Stores, RMWs and fences issue, then the CPU waits for them as before
 * (a store on tso or weak only for its store buffer). */
static void core_write(cpu_t *c, maddr_t a, uint64_t v)
{
    gate(c, c->core);
    issue(c, c->core, 1);
    sim_ops.write(c, a, v);
}

static void core_write_release(cpu_t *c, maddr_t a, uint64_t v)
{
    gate(c, c->core);
    issue(c, c->core, 1);
    sim_ops.write_release(c, a, v);
}

/* Out of order, an RMW is locked: it waits for every instruction and load
 * before it, and the counter for it (a full fence). With core_rmw_overlap
 * it waits for the loads before it (a lock's address comes from one, often
 * as an index, which wait_dependences cannot see) and the stores (the store
 * buffer drains, as x86's lock and a release want), then issues as a load
 * does: its miss overlaps the loads after it, and what follows waits for
 * it only as for a load (a drain, a dependence, a full window); the branch
 * on its result is predicted, as on a loaded value. Its order stays the
 * memory model's: it is performed at its issue cycle, after every earlier
 * access. */
static uint64_t rmw(cpu_t *c, maddr_t a, rmw_op_t op, uint64_t x, uint64_t y, cpu_order_t o)
{
    struct core *k = c->core;
    rmw_t w = {op, x, y, o};
    if (k->k.kind != CORE_OOO || !k->k.rmw_overlap) {
        gate(c, k);
        if (k->k.kind == CORE_OOO)
            drain_all(c);
        issue(c, k, 1);
        return perform(c, a, 0, &w);
    }
    drain(c); /* its address may come from any load before it (an index, too) */
    if (c->m->order)
        sim_drain_stores(
            c, a, c->m->p->memory_model == PLATFORM_TSO || o == CPU_FULL || o == CPU_RELEASE);
    uint64_t v;
    cpu_tok_t t = load(c, a, 0, 0, &w, &v);
    if (c->m->p->memory_model == PLATFORM_WEAK && (o == CPU_FULL || o == CPU_ACQUIRE))
        k->acq = t; /* later loads wait for an acquire RMW, as for ldar */
    return v;
}

static uint64_t core_xchg(cpu_t *c, maddr_t a, uint64_t v, cpu_order_t o)
{
    return rmw(c, a, RMW_XCHG, v, 0, o);
}

static int core_cmpxchg(cpu_t *c, maddr_t a, uint64_t old, uint64_t nv, cpu_order_t o)
{
    return (int)rmw(c, a, RMW_CMPXCHG, old, nv, o);
}

static uint64_t core_fetch_add(cpu_t *c, maddr_t a, uint64_t d, cpu_order_t o)
{
    return rmw(c, a, RMW_ADD, d, 0, o);
}

/* A barrier waits as the instruction it compiles to: on tso smp_rmb and
 * smp_wmb are compiler barriers only (TSO orders loads with loads and
 * stores with stores already; x86 Linux makes them barrier()), so the core
 * issues nothing for them and waits for nothing (cpu.h). */
static void core_barrier(cpu_t *c, int kind)
{
    if (c->m->p->memory_model != PLATFORM_TSO || kind == CPU_MB) {
        drain_all(c);
        issue(c, c->core, 1);
    }
    sim_ops.barrier(c, kind);
}

/* Whether a tick may come while cpu_exec runs unit u: in order, before
 * its last instruction could issue; out of order never (the front end
 * issues in the background, and the counter does not move). A tick's
 * code may evict the unit's lines that are still to be fetched, so a unit
 * a tick may cut is fetched line by line, memo or not. */
static int tick_inside(const cpu_t *c, const struct core *k, const sim_code_t *u)
{
    return k->k.kind == CORE_INORDER &&
           c->irq_at <= c->now + (k->slot + u->insns * SLOT_UNIT) / k->w64;
}

/* cpu_exec of a unit whose lines are all free private hits (no fetch
 * would take a step or cost a cycle) and that no tick cuts: what
 * core_exec does with every cost 0. In order the shares of its lines
 * together wait what each waits in turn; out of order each line's share
 * issues in turn, as there. */
static void exec_known(cpu_t *c, struct core *k, const sim_code_t *u)
{
    uint64_t n = u->lines, issued = 0;
    if (k->k.kind == CORE_INORDER) {
        issue(c, k, u->insns);
        return;
    }
    if (k->fe < c->now)
        k->fe = c->now;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t upto = u->insns * (i + 1) / n;
        issue_front(c, k, upto - issued, c->now);
        issued = upto;
    }
}

/* cpu_exec: the front end consumes line i once it has arrived and issues
 * its share of the unit's instructions; when it reaches line i, lines up
 * to i + core_fetch_ahead are on their way (each looked up now, in the
 * caches as they are now). Ahead 0 is a fetch at a time. In order the
 * counter is the front end: it waits for each line and issues. Out of
 * order the counter waits for the unit's first line only (its first
 * instructions are there); the front end asks for the later lines as it
 * reaches them and issues in the background (issue_front). */
static void core_exec(cpu_t *c, int code)
{
    machine_t *m = c->m;
    if (code < 0 || code >= m->ncode)
        return;
    const sim_code_t *u = &m->code[code];
    struct core *k = c->core;
    int ooo = k->k.kind == CORE_OOO;
    uint64_t ver = 0; /* 0: no memo (sim_code_fetched records none) */
    if (!tick_inside(c, k, u) && sim_code_known(c, code, &ver)) {
        if (ooo)
            unit_begin(c, k, code, 0);
        exec_known(c, k, u);
        return;
    }
    uint64_t n = u->lines, ahead = (uint64_t)k->k.fetch_ahead, next = 0, issued = 0;
    uint64_t ready[CORE_FETCH_MAX + 1];
    maddr_t a = u->addr, line = (maddr_t)m->p->line_bytes;
    int private = 1;
    if (ooo) {
        unit_begin(c, k, code, n);
        if (k->fe < c->now)
            k->fe = c->now;
    }
    for (uint64_t i = 0; i < n; i++) {
        for (; next < n && next <= i + ahead; next++) {
            uint32_t cost = sim_fetch_line(c, a + next * line, &private);
            uint64_t asked = ooo && next ? k->fe : c->now;
            ready[next % (ahead + 1)] = asked + cost;
            if (ooo)
                k->line_at[next] = cost ? asked + cost : 0;
            c->an.hidden_cycles += cost;
            c->an.code_streamed += next > i && cost > 0;
        }
        uint64_t at = ready[i % (ahead + 1)];
        if (!ooo || i == 0)
            stall_until(c, at);
        uint64_t upto = u->insns * (i + 1) / n; /* the instructions of lines 0..i */
        if (ooo)
            issue_front(c, k, upto - issued, at > c->now ? at : c->now);
        else
            issue(c, k, upto - issued);
        issued = upto;
    }
    sim_code_fetched(c, code, ver, private);
}

/* Interrupts enabled again: where the platform says it serialises (ia64's
 * arch_local_irq_enable is ssm psr.i then srlz.d; Linux 6.1,
 * arch/ia64/include/asm/irqflags.h), it drains as cpu_serialize does. */
static void core_irq_enable(cpu_t *c)
{
    if (c->core->k.irq_serialize && c->irq_off == 1)
        core_serialize(c);
    sim_ops.irq_enable(c);
}

/* Out of order, the clock is read behind a fence (lfence; rdtsc on x86,
 * isb on Arm, as the native machine reads it): every instruction and load
 * before it ends first. The read itself takes core_clock_cycles, and the
 * instructions after it, which do not wait for its value, run beside it:
 * a timing of work W reads max(W, core_clock_cycles), and the empty timing
 * that callers take off reads core_clock_cycles. In order (ar.itc) it is
 * read at once. */
static uint64_t core_now(cpu_t *c)
{
    if (c->core->k.kind != CORE_OOO)
        return c->now;
    drain_all(c);
    c->core->clock_end = c->now + (uint64_t)c->core->k.clock_cycles;
    return c->now;
}

/* Out of order, a spin loop's pause: the loop's exit is a branch on the
 * load before it, which waits for its value. */
static void core_relax(cpu_t *c)
{
    if (c->core->k.kind == CORE_OOO)
        drain(c);
    sim_ops.relax(c);
}

/* Out of order, the return from an interrupt serialises (x86's iret,
 * ARMv8's eret): the handler's loads end before the interrupted code goes
 * on, and a tick's cost is what it kept the CPU. */
static void core_irq_return(cpu_t *c)
{
    drain_all(c);
}

void core_attach(machine_t *m)
{
    const platform_core_t *pc = &m->p->core;
    if (pc->kind == CORE_NONE)
        return;
    g_core_ops = sim_ops;
    g_core_ops.read = core_read;
    g_core_ops.read_acquire = core_read_acquire;
    g_core_ops.write = core_write;
    g_core_ops.write_release = core_write_release;
    g_core_ops.xchg = core_xchg;
    g_core_ops.cmpxchg = core_cmpxchg;
    g_core_ops.fetch_add = core_fetch_add;
    g_core_ops.barrier = core_barrier;
    g_core_ops.exec = core_exec;
    g_core_ops.insns = core_insns;
    g_core_ops.read_dep = core_read_dep;
    g_core_ops.use = core_use;
    g_core_ops.branch = core_branch;
    g_core_ops.read_branch = core_read_branch;
    g_core_ops.serialize = core_serialize;
    g_core_ops.irq_enable = core_irq_enable;
    g_core_ops.now = core_now;
    g_core_ops.relax = core_relax;
    m->irq_return = pc->kind == CORE_OOO ? core_irq_return : NULL;
    for (int i = 0; i < m->n; i++) {
        cpu_t *c = &m->cpus[i];
        struct core *k = xcalloc(1, sizeof *k);
        k->k = *pc;
        k->w64 = (uint64_t)(pc->width * SLOT_UNIT + 0.5);
        if (k->k.fetch_ahead > CORE_FETCH_MAX)
            k->k.fetch_ahead = CORE_FETCH_MAX;
        k->miss = xcalloc((size_t)pc->mshr, sizeof *k->miss);
        for (int j = 0; j < pc->mshr; j++)
            k->miss[j].line = UINT64_MAX;
        k->unit = -1;
        c->core = k;
        c->ops = &g_core_ops;
    }
}

void core_detach(machine_t *m)
{
    m->irq_return = NULL;
    for (int i = 0; i < m->n; i++) {
        struct core *k = m->cpus[i].core;
        if (!k)
            continue;
        free(k->ring);
        free(k->miss);
        free(k->line_at);
        free(k->acc_seen);
        free(k);
        m->cpus[i].core = NULL;
    }
}
