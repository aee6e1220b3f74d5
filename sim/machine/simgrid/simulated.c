/* simulated: the machine API on simulated CPUs, SimGrid actors. Theory of operation.
 *
 * One simulated second is one cycle. Each CPU has a local cycle counter; a
 * step (a memory access) happens at the CPU's current cycle and advances it
 * by the step's cost. Steps of all CPUs must happen in the order of
 * key = cycle * 2^k + id (2^k >= ncpus): ties in cycles are broken by id,
 * which keeps runs deterministic whatever SimGrid does with equal dates.
 *
 * The reference way: every step is a SimGrid sleep until its key (a double,
 * exact while cycle * 2^k < 2^53), and SimGrid's clock runs the CPUs in key
 * order. sim_set_always_yield() selects it; it costs a SimGrid timed
 * action per step.
 *
 * The default way gives the same order at a fraction of the cost. A min-heap
 * holds every CPU's next key, and one CPU at a time holds the baton. Before
 * a step the CPU updates its key; if it is still the smallest, no other CPU
 * can act before it, so it goes on at once. Otherwise it hands the baton to
 * the CPU with the smallest key and waits. The CPUs are coroutines (coro.c)
 * of one SimGrid actor, so handing the baton on is a jump between stacks,
 * and SimGrid's clock is not used. Plain work (cpu_work) touches no shared
 * state, so it never needs to yield. A test runs both ways and compares
 * every step.
 *
 * This file is the backend of machine_backend.h: the CPU actors, their
 * steps, ticks and scheduler, and the ops table. simulated_state.c holds
 * the operations that take no step (what a CPU or the machine is, memory
 * for setup code, the tick's and code units' set-up); simulated_run.c the
 * functions of simulated.h (creating the machine, booting it, running
 * SimGrid).
 */
#include "simulated_internal.h"

#include "paje.h"

#include <simgrid/actor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(numasim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(numasim_cpu, numasim, "simulated CPUs and their scheduling");

static void sim_state_push(cpu_t *c, const char *name);
static void sim_state_pop(cpu_t *c);

/* --- the heap of next keys --- */

/* Sets cpu's key: sifts up when it fell (a spinner woken early), down
 * when it grew (every step). The entries on the way move one place and
 * cpu's is written once, where it stops. */
static void heap_sift(machine_t *m, int cpu, uint64_t key)
{
    heapent_t *hp = m->heap;
    int i = m->pos[cpu];
    if (key < hp[i].key) {
        while (i > 0 && hp[(i - 1) / 2].key > key) {
            int up = (i - 1) / 2;
            hp[i] = hp[up];
            m->pos[hp[i].cpu] = i;
            i = up;
        }
    } else {
        /* l + 1 may be the first sentinel (key UINT64_MAX), never chosen
         * over a real child: ties go to l */
        for (int l = 2 * i + 1; l < m->n; l = 2 * i + 1) {
            int s = hp[l + 1].key < hp[l].key ? l + 1 : l;
            if (hp[s].key >= key)
                break;
            hp[i] = hp[s];
            m->pos[hp[i].cpu] = i;
            i = s;
        }
    }
    hp[i] = (heapent_t){.key = key, .cpu = cpu};
    m->pos[cpu] = i;
}

/* heap_sift, then the bound that sync_step compares with. */
static void heap_raise(machine_t *m, int cpu, uint64_t key)
{
    heap_sift(m, cpu, key);
    heap_bound(m);
}

/* Gives the baton to the CPU with the smallest key, if any can still run,
 * and (when wait) returns once the baton comes back. A CPU that ends
 * (!wait) and finds nobody left returns to the boot actor's stack. */
static void pass_baton(machine_t *m, cpu_t *c, int wait)
{
    int next = m->heap[0].cpu;
    int can = next != c->id && m->heap[0].key != UINT64_MAX;
    m->switches++;
    if (!can && wait) {
        fprintf(stderr, "numasim: every CPU waits for another: the simulation cannot go on\n");
        abort();
    }
    coro_switch(&c->co, can ? &m->cpus[next].co : &m->boot_co);
}

static void __attribute__((noinline)) sync_step_slow(cpu_t *c, uint64_t key)
{
    machine_t *m = c->m;
    if (c->now >= m->limit) {
        fprintf(stderr, "numasim: simulated time passed %llu cycles, beyond exact keys\n",
                (unsigned long long)m->limit);
        abort();
    }
    heap_raise(m, c->id, key);
    if (m->always_yield) {
        m->switches++;
        sg_actor_sleep_until((double)key);
    } else if (m->heap[0].cpu != c->id) {
        pass_baton(m, c, 1);
    }
}

/* Every access starts here. Inlined: most steps end at the first test.
 * key < bound means c is still the root: c's key in the heap is at most
 * key (time only grows), and every entry but the root's is at least the
 * bound, the least of the root's children. */
static inline __attribute__((always_inline)) void sync_step(cpu_t *c)
{
    machine_t *m = c->m;
    uint64_t key = (c->now << m->kshift) | (uint64_t)c->id;
    if (c->now < m->limit && key < m->bound) {
#ifndef NDEBUG /* the argument above, checked in debug builds (the sanitizers') */
        if (m->heap[0].cpu != c->id)
            abort();
#endif
        m->heap[0].key = key; /* still the earliest */
        return;
    }
    sync_step_slow(c, key);
}

/* --- interrupts --- */

/* The handler starts with interrupts off. It may enable them (the timer
 * softirq does), and then a later tick nests inside it. */
static void __attribute__((noinline)) take_tick(cpu_t *c)
{
    machine_t *m = c->m;
    uint64_t t0 = c->now;
    c->next_tick += m->tick_period;
    c->in_irq++;
    c->irq_off++;
    c->irq_at = UINT64_MAX;
    if (m->levels)
        mem_footprint_tick(m->mem, c->id);
    sim_state_push(c, "tick");
    m->tick_fn(c, m->tick_arg);
    if (m->irq_return)
        m->irq_return(c);
    sim_state_pop(c);
    c->irq_off--;
    irq_rearm(c);
    c->in_irq--;
    c->an.ticks++;
    if (!c->in_irq)
        c->an.tick_cycles += c->now - t0; /* outermost only: a nested tick is inside */
}

static inline int tick_due(const cpu_t *c, uint64_t at)
{
    return c->irq_at <= at;
}

static inline __attribute__((always_inline)) void poll_irq(cpu_t *c)
{
    while (tick_due(c, c->now))
        take_tick(c);
}

static uint64_t key_of(const machine_t *m, uint64_t cycle, int cpu)
{
    return (cycle << m->kshift) | (uint64_t)cpu;
}

/* Writer w changed a line by an access that started at cycle start: every
 * CPU spinning on it resumes at its first read that comes after the write. */
static void wake_watchers(machine_t *m, cpu_t *w, uint64_t line, uint64_t start)
{
    uint64_t wkey = key_of(m, start, w->id);
    for (int i = 0; i < m->nwatch;) {
        cpu_t *s = &m->cpus[m->watchers[i]];
        if (s->watch_line != line || s == w) {
            i++;
            continue;
        }
        uint64_t k =
            start > s->watch_t0 ? (start - s->watch_t0 + s->watch_iter - 1) / s->watch_iter : 0;
        while (key_of(m, s->watch_t0 + k * s->watch_iter, s->id) < wkey)
            k++;
        s->resume = s->watch_t0 + k * s->watch_iter;
        s->woken = 1;
        s->watching = 0;
        m->watchers[i] = m->watchers[--m->nwatch];
        heap_raise(m, s->id, key_of(m, s->resume, s->id)); /* the baton will find it */
    }
}

/* --- steps --- */

/* A data hit's level, for the anatomy (after mem_hit or mem_access). */
static inline void count_level(cpu_t *c, const mem_t *mem)
{
    c->lvl_hits[mem_last_level(mem) + 1]++; /* -1 (no levels, a miss): slot 0 */
}

/* The translation of the last mem_access or mem_fetch_code, for the
 * anatomy (platforms with TLBs only). */
static void count_translation(cpu_t *c)
{
    uint32_t cost;
    int l = mem_last_translation(c->m->mem, &cost);
    c->an.tlb2_hits += l == 1;
    c->an.tlb_walks += l < 0;
    c->an.tlb_cycles += cost;
}

/* Pays one access that starts at c->now, and counts it by kind. */
static inline __attribute__((always_inline)) void pay(cpu_t *c, maddr_t a, mem_op_t op)
{
    access_kind_t kind;
    mem_t *mem = c->m->mem;
    if (c->m->noise)
        mem_footprint_time(mem, c->id, c->now);
    uint32_t cost;
    if (mem_hit(mem, c->id, a, op, &cost)) {
        kind = ACCESS_HIT;
    } else {
        /* on sc a store is seen as it issues: nothing is in transit */
        cost = c->m->order ? mem_access_at(mem, c->id, a, op, c->now, &kind)
                           : mem_access(mem, c->id, a, op, &kind);
        if (c->m->tlbs)
            count_translation(c);
    }
    c->an.n[kind]++;
    c->an.cycles[kind] += cost;
    count_level(c, mem);
    if (c->m->paje)
        paje_miss(c->m->paje, c->id, c->now, kind, cost);
    c->now += cost;
}

static void step(cpu_t *c, maddr_t a, mem_op_t op)
{
    poll_irq(c);
    sync_step(c);
    uint64_t start = c->now; /* the write takes effect here, as in the slow path */
    pay(c, a, op);
    if (c->m->nwatch)
        wake_watchers(c->m, c, mem_line_of(c->m->mem, a), start);
}

static void sim_work(cpu_t *c, uint64_t cycles);

/* --- memory ordering: the tso and weak models (order.c) ---
 *
 * Only when the platform's memory_model is not sc (m->order set): each
 * access function above hands over here at its first line. A store pays
 * its coherence transaction (mem_access) when issued, as on sc, but the CPU
 * is charged a hit only; the store becomes visible cost cycles later
 * (order.c). Fences and releases wait, as plain work, until the CPU's
 * buffered stores are visible. */

static void pay_hit(cpu_t *c)
{
    uint64_t cost = c->m->spin_hit; /* l1d's latency, or hit_cycles */
    c->an.n[ACCESS_HIT]++;
    c->lvl_hits[CACHE_L1D + 1]++;
    c->an.cycles[ACCESS_HIT] += cost;
    if (c->m->paje)
        paje_miss(c->m->paje, c->id, c->now, ACCESS_HIT, (uint32_t)cost);
    c->now += cost;
}

/* Waits until c's buffered stores (whole: all; else those to a's line) are
 * visible. Ticks taken meanwhile may buffer more: they are waited for too. */
void sim_drain_stores(cpu_t *c, maddr_t a, int whole)
{
    order_t *o = c->m->order;
    for (;;) {
        poll_irq(c);
        uint64_t d = whole ? order_drained_at(o, c->id) : order_line_drained_at(o, c->id, a);
        if (d <= c->now)
            return;
        sim_work(c, d - c->now);
    }
}

/* The first cycle at which another CPU may act: c holds the baton (the
 * earliest key), so every other CPU's next step is at its key or later,
 * the least of which is m->bound (heap_bound; 0 under the reference
 * scheduler, which then applies no store early). A spinner that a store
 * wakes could come sooner: none may be watching. */
static inline uint64_t quiet_until(const machine_t *m, const cpu_t *c)
{
    /* c is the root: it has just passed sync_step, and nothing since moved
     * the heap (debug builds check it) */
#ifndef NDEBUG
    if (!m->always_yield && m->heap[0].cpu != c->id)
        abort();
#else
    (void)c;
#endif
    if (m->nwatch)
        return 0;
    uint64_t k = m->bound;
    return k == UINT64_MAX ? UINT64_MAX : k >> m->kshift;
}

static inline __attribute__((always_inline)) uint64_t ord_read(cpu_t *c, maddr_t a, int acquire)
{
    order_t *o = c->m->order;
    poll_irq(c);
    sync_step(c);
    order_settle(o, c->now);
    uint64_t v;
    if (order_load(o, c->id, a, c->now, &v) == ORDER_FROM_MEM) {
        pay(c, a, MEM_READ);
        v = mem_word(c->m->mem, a);
    } else {
        pay_hit(c);
    }
    if (acquire && order_model(o) == PLATFORM_WEAK)
        order_process_queue(o, c->id, c->now); /* ld.acq: once performed */
    return v;
}

static inline __attribute__((always_inline)) void ord_write(cpu_t *c, maddr_t a, uint64_t v,
                                                            int release)
{
    machine_t *m = c->m;
    int rel = release && order_model(m->order) == PLATFORM_WEAK;
    if (rel)
        sim_drain_stores(c, a, 1); /* st.rel: every earlier store first */
    poll_irq(c);
    sync_step(c);
    order_settle(m->order, c->now);
    uint64_t start = c->now;
    access_kind_t kind = ACCESS_HIT;
    uint32_t cost;
    if (mem_hit(m->mem, c->id, a, MEM_WRITE, &cost)) { /* changes nothing the order model reads */
        order_before_owned_store(m->order, c->id, a, start);
    } else {
        order_before_store(m->order, c->id, a, start);
        cost = mem_access_at(m->mem, c->id, a, MEM_WRITE, start, &kind);
    }
    order_store(m->order, c->id, a, v, start, cost, rel, quiet_until(m, c));
    uint64_t hit = m->store_entry; /* into the store buffer */
    c->an.n[kind]++;
    count_level(c, m->mem);
    c->an.cycles[kind] += hit; /* the CPU goes on; the transaction runs */
    if (m->paje)
        paje_miss(m->paje, c->id, c->now, kind, (uint32_t)hit);
    c->now += hit;
    if (m->nwatch) /* spinners look again; they do not sleep while it is buffered */
        wake_watchers(m, c, mem_line_of(m->mem, a), start);
}

/* The RMW itself happens in mem at its step, visible to all at once. On
 * tso it is locked: the store buffer drains first. On weak, a full or
 * release RMW waits for every earlier store, an acquire one only for those
 * to its line (coherence). */
static void ord_rmw(cpu_t *c, maddr_t a, cpu_order_t ord)
{
    order_t *o = c->m->order;
    int whole = order_model(o) == PLATFORM_TSO || ord == CPU_FULL || ord == CPU_RELEASE;
    sim_drain_stores(c, a, whole);
    sync_step(c);
    order_settle(o, c->now);
    order_before_store(o, c->id, a, c->now);
    order_rmw(o, c->id, a, c->now);
    uint64_t start = c->now;
    pay(c, a, MEM_RMW);
    if (c->m->nwatch)
        wake_watchers(c->m, c, mem_line_of(c->m->mem, a), start);
}

static void ord_rmw_end(cpu_t *c, cpu_order_t ord)
{
    if (order_model(c->m->order) == PLATFORM_WEAK && (ord == CPU_FULL || ord == CPU_ACQUIRE))
        order_process_queue(c->m->order, c->id, c->now);
}

/* tso: smp_mb is mfence (drains the store buffer), smp_wmb and smp_rmb
 * order nothing TSO does not. weak: all three are mf, which drains the
 * store buffer and processes the invalidate queue. */
static void ord_fence(cpu_t *c, int kind)
{
    order_t *o = c->m->order;
    if (order_model(o) == PLATFORM_TSO && kind != CPU_MB)
        return;
    sim_drain_stores(c, 0, 1);
    if (order_model(o) == PLATFORM_WEAK)
        order_process_queue(o, c->id, c->now);
}

/* --- the access functions of the ops table --- */

static uint64_t sim_read(cpu_t *c, maddr_t a)
{
    if (c->m->order)
        return ord_read(c, a, 0);
    poll_irq(c);
    sync_step(c);
    pay(c, a, MEM_READ);
    return mem_word(c->m->mem, a); /* the value at the access's start */
}

static void sim_write(cpu_t *c, maddr_t a, uint64_t v)
{
    if (c->m->order) {
        ord_write(c, a, v, 0);
        return;
    }
    step(c, a, MEM_WRITE);
    mem_set_word(c->m->mem, a, v);
}

static uint64_t sim_read_acquire(cpu_t *c, maddr_t a)
{
    if (c->m->order)
        return ord_read(c, a, 1);
    return sim_read(c, a);
}

static void sim_write_release(cpu_t *c, maddr_t a, uint64_t v)
{
    if (c->m->order)
        ord_write(c, a, v, 1);
    else
        sim_write(c, a, v);
}

static uint64_t sim_xchg(cpu_t *c, maddr_t a, uint64_t v, cpu_order_t o)
{
    if (c->m->order)
        ord_rmw(c, a, o);
    else
        step(c, a, MEM_RMW);
    uint64_t old = mem_word(c->m->mem, a);
    mem_set_word(c->m->mem, a, v);
    if (c->m->order)
        ord_rmw_end(c, o);
    return old;
}

static int sim_cmpxchg(cpu_t *c, maddr_t a, uint64_t old, uint64_t nv, cpu_order_t o)
{
    if (c->m->order)
        ord_rmw(c, a, o);
    else
        step(c, a, MEM_RMW);
    int ok = mem_word(c->m->mem, a) == old;
    if (ok)
        mem_set_word(c->m->mem, a, nv);
    if (c->m->order)
        ord_rmw_end(c, o);
    return ok;
}

static uint64_t sim_fetch_add(cpu_t *c, maddr_t a, uint64_t d, cpu_order_t o)
{
    if (c->m->order)
        ord_rmw(c, a, o);
    else
        step(c, a, MEM_RMW);
    uint64_t old = mem_word(c->m->mem, a);
    mem_set_word(c->m->mem, a, old + d);
    if (c->m->order)
        ord_rmw_end(c, o);
    return old;
}

static void sim_work(cpu_t *c, uint64_t cycles);

/* cpu_work: plain work, which brings its footprint into the caches. */
static void sim_work_api(cpu_t *c, uint64_t cycles)
{
    if (c->m->levels)
        mem_footprint_work(c->m->mem, c->id, cycles);
    sim_work(c, cycles);
}

/* One code line's fetch at c->now, counted; returns its cost, which the
 * caller charges. *private: cleared when the fetch took a step. */
static inline uint32_t fetch_line(cpu_t *c, maddr_t a, int *private)
{
    machine_t *m = c->m;
    c->an.code_lines++;
    if (mem_fetch_code_private_hit(m->mem, c->id, a)) /* free and private: no step */
        return 0;
    *private = 0;
    poll_irq(c);
    sync_step(c);
    if (m->noise)
        mem_footprint_time(m->mem, c->id, c->now);
    access_kind_t kind;
    int lv;
    uint32_t cost = mem_fetch_code(m->mem, c->id, a, &kind, &lv);
    if (m->tlbs)
        count_translation(c);
    c->an.code_misses += lv != CACHE_L1I && (lv >= 0 || kind != ACCESS_HIT);
    c->an.code_remote += kind == ACCESS_MISS_REMOTE || kind == ACCESS_C2C_REMOTE;
    c->an.code_cycles += cost;
    if (m->paje)
        paje_code(m->paje, c->id, c->now, cost);
    return cost;
}

uint32_t sim_fetch_line(cpu_t *c, maddr_t a, int *private)
{
    return fetch_line(c, a, private);
}

/* cpu_exec: every line of the unit is fetched, each a step of its own (a
 * fetch changes shared state: who holds the line, a shared level's LRU). */
static void sim_exec(cpu_t *c, int code)
{
    machine_t *m = c->m;
    uint64_t ver;
    if (code < 0 || code >= m->ncode || sim_code_known(c, code, &ver))
        return;
    maddr_t a = m->code[code].addr;
    int line = m->p->line_bytes, private = 1;
    for (uint64_t i = 0; i < m->code[code].lines; i++, a += (maddr_t)line)
        c->now += fetch_line(c, a, &private);
    sim_code_fetched(c, code, ver, private);
}

static void sim_work(cpu_t *c, uint64_t cycles)
{
    while (cycles) {
        if (tick_due(c, c->now + cycles)) {
            uint64_t d = c->next_tick > c->now ? c->next_tick - c->now : 0;
            c->now += d;
            c->an.work_cycles += d;
            cycles -= d;
            take_tick(c);
        } else {
            c->now += cycles;
            c->an.work_cycles += cycles;
            cycles = 0;
        }
    }
}

/* The spinner c holds the line of a and has just relaxed: until another CPU
 * writes that line, each iteration is a hit plus a relax and changes
 * nothing. Jump over them: hand the baton on with the key of the last
 * iteration before the next tick (or none), and let a writer lower the key
 * to the first iteration after its write. Only in the baton mode. */
static void fast_forward(cpu_t *c, maddr_t a)
{
    machine_t *m = c->m;
    uint64_t iter = mem_spin_hit_cycles(m->mem) + (uint64_t)(m->p->costs.relax_cycles + 0.5);
    if (iter == 0)
        return;
    uint64_t t0 = c->now, wake = UINT64_MAX;
    if (m->tick_fn && !m->stopping && !c->irq_off) {
        /* Stop at the last read before the tick: the loop then takes the
         * tick at its exact cycle, in the relax (or read) it falls in. */
        uint64_t nt = c->next_tick > t0 ? c->next_tick : t0;
        wake = t0 + (nt - t0) / iter * iter;
        if (wake == t0)
            return;
    }
    c->watch_line = mem_line_of(m->mem, a);
    c->watch_t0 = t0;
    c->watch_iter = iter;
    c->woken = 0;
    c->watching = 1;
    m->watchers[m->nwatch++] = c->id;
    heap_raise(m, c->id, wake == UINT64_MAX ? UINT64_MAX : key_of(m, wake, c->id));
    if (m->heap[0].cpu != c->id)
        pass_baton(m, c, 1);
    else if (wake == UINT64_MAX)
        pass_baton(m, c, 1); /* nobody else can run: pass_baton reports it */
    if (c->watching) {       /* not woken by a writer: the tick (or nobody) came first */
        for (int i = 0; i < m->nwatch; i++)
            if (m->watchers[i] == c->id) {
                m->watchers[i] = m->watchers[--m->nwatch];
                break;
            }
        c->watching = 0;
    }
    uint64_t until = c->woken ? c->resume : wake;
    if (until != UINT64_MAX && until > t0) {
        uint64_t k = (until - t0) / iter, relax = (uint64_t)(m->p->costs.relax_cycles + 0.5);
        m->batched += k;
        c->an.n[ACCESS_HIT] += k; /* the skipped iterations, as if they had run */
        if (m->levels)
            c->lvl_hits[CACHE_L1D + 1] += k; /* a spun line sits in l1d after its first read */
        c->an.cycles[ACCESS_HIT] += k * (iter - relax);
        c->an.relax_cycles += k * relax;
        c->now = until;
    }
}

static void sim_relax(cpu_t *c);

static uint64_t sim_spin_while_eq(cpu_t *c, maddr_t a, uint64_t v)
{
    sim_state_push(c, "spin");
    for (;;) {
        uint64_t x = sim_read(c, a);
        if (x != v) {
            sim_state_pop(c);
            return x;
        }
        sim_relax(c);
        if (!c->m->always_yield && c->m->spin_exact && mem_holds(c->m->mem, c->id, a) &&
            !tick_due(c, c->now) && (!c->m->order || order_line_quiet(c->m->order, c->id, a)))
            fast_forward(c, a);
    }
}

static void sim_relax(cpu_t *c)
{
    uint64_t r = (uint64_t)(c->m->p->costs.relax_cycles + 0.5);
    c->an.relax_cycles += r;
    c->an.work_cycles -= r; /* sim_work adds them back: they count as relax only */
    sim_work(c, r);
}

/* All three barriers are one mf on IA-64: barrier_cycles of plain work. */
static void sim_barrier(cpu_t *c, int kind)
{
    sim_work(c, (uint64_t)(c->m->p->costs.barrier_cycles + 0.5));
    if (c->m->order)
        ord_fence(c, kind);
}

/* Unlike cpu_work, a tick taken on the way does not push the end back. */
uint64_t sim_wait_until(cpu_t *c, uint64_t cycle)
{
    uint64_t waited = 0;
    while (c->now < cycle) {
        int tick = tick_due(c, cycle);
        uint64_t to = tick ? c->next_tick : cycle;
        if (to > c->now) {
            waited += to - c->now;
            c->now = to;
        }
        if (tick)
            take_tick(c);
    }
    return waited;
}

static void sim_idle_until(cpu_t *c, uint64_t cycle)
{
    c->an.work_cycles += sim_wait_until(c, cycle);
}

void sim_take_ticks(cpu_t *c)
{
    poll_irq(c);
}

static void sim_sync(cpu_t *c)
{
    sync_step(c);
    if (c->m->order) /* what is read next at no cost is as of now */
        order_settle(c->m->order, c->now);
}

static void sim_irq_disable(cpu_t *c)
{
    c->irq_off++;
    c->irq_at = UINT64_MAX;
}

static void sim_irq_enable(cpu_t *c)
{
    if (c->irq_off > 0)
        c->irq_off--;
    irq_rearm(c);
    poll_irq(c);
}

static void sim_state_push(cpu_t *c, const char *name)
{
    if (c->m->paje)
        paje_push(c->m->paje, c->id, c->now, name);
}

static void sim_state_pop(cpu_t *c)
{
    if (c->m->paje)
        paje_pop(c->m->paje, c->id, c->now);
}

static void sim_tick_now(cpu_t *c)
{
    if (c->m->tick_fn && !c->irq_off)
        take_tick(c);
}

const machine_ops_t sim_ops = {
    .name = "simgrid",
    .read = sim_read,
    .read_acquire = sim_read_acquire,
    .write_release = sim_write_release,
    .write = sim_write,
    .xchg = sim_xchg,
    .cmpxchg = sim_cmpxchg,
    .fetch_add = sim_fetch_add,
    .work = sim_work_api,
    .exec = sim_exec,
    .relax = sim_relax,
    .spin_while_eq = sim_spin_while_eq,
    .idle_until = sim_idle_until,
    .flush_cache = sim_flush_cache,
    .sync = sim_sync,
    .progress = sim_progress,
    .barrier = sim_barrier,
    .anatomy = sim_anatomy,
    .state_push = sim_state_push,
    .state_pop = sim_state_pop,
    .state_probe = sim_state_probe,
    .call_begin = sim_call_begin,
    .call_end = sim_call_end,
    .irq_disable = sim_irq_disable,
    .irq_enable = sim_irq_enable,
    .tick_now = sim_tick_now,
    .in_irq = sim_in_irq,
    .next_tick = sim_next_tick,
    .now = sim_now,
    .stopping = sim_stopping,
    .id = sim_id,
    .node = sim_node,
    .machine = sim_machine,
    .rng = sim_rng,
    .platform = sim_platform,
    .cpu = sim_cpu,
    .set_program = sim_set_program,
    .set_tick = sim_set_tick,
    .stop = sim_stop,
    .accesses = sim_accesses,
    .switches = sim_switches,
    .batched = sim_batched,
    .alloc = sim_alloc,
    .release = sim_release,
    .peek = sim_peek,
    .poke = sim_poke,
    .poke_words = sim_poke_words,
    .home = sim_home,
    .freed_writes = sim_freed_writes,
    .set_jitter = sim_set_jitter,
    .code = sim_code,
    .code_bytes = sim_code_bytes,
};

/* A CPU's life: its program, then ticks until the machine stops. */
static void cpu_life(cpu_t *c)
{
    machine_t *m = c->m;
    sync_step(c);
    if (c->prog)
        c->prog(c, c->arg);
    if (c->irq_off) { /* a simulator bug: the idle loop below would never take a tick */
        fprintf(stderr, "numasim: CPU %d's program returned with interrupts disabled\n", c->id);
        abort();
    }
    /* Nothing left to run: take ticks until the machine stops. */
    while (m->tick_fn && !m->stopping) {
        sim_idle_until(c, c->next_tick);
        sync_step(c);
        poll_irq(c);
    }
    heap_raise(m, c->id, UINT64_MAX);
    m->ended++;
}

void sim_cpu_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cpu_t *c = sg_actor_self_get_data();
    cpu_life(c);
    if (c->m->ended == c->m->n) /* the last actor: the others are gone */
        paje_emit(c->m->paje);
}

void sim_cpu_coro(void *arg)
{
    cpu_t *c = arg;
    cpu_life(c);
    pass_baton(c->m, c, 0); /* for good */
}
