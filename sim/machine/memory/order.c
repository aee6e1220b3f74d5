/* order: store buffers and invalidate queues. Theory of operation.
 *
 * On sc (no order_t) a store is visible to every CPU the moment it is
 * issued and the issuing CPU pays its whole coherence transaction. Here a
 * store goes into its CPU's store buffer instead: the CPU goes on, and the
 * store becomes visible (reaches mem, the coherent memory) when its
 * transaction completes, cost cycles after it was issued, cost being what
 * mem_access charged for it. Until then:
 *   - its own CPU's loads of that word take it from the buffer (forwarding:
 *     a CPU sees its own accesses in program order);
 *   - the other CPUs read the old value from mem.
 *
 * tso (x86-TSO, Owens, Sarkar and Sewell 2009): the buffer is FIFO. A store
 * becomes visible no earlier than the one before it, so stores are seen in
 * program order by everybody, and only a load may pass an earlier store
 * (SB, R). There is no invalidate queue.
 *
 * weak (Itanium-like, after McKenney 2010, "Memory Barriers: a Hardware
 * View for Software Hackers"):
 *   - the buffer is not FIFO: a store becomes visible when its own
 *     transaction completes, so a store that hits an owned line passes an
 *     older store that misses (MP, 2+2W, S). Stores to one line stay in
 *     order (coherence);
 *   - every CPU has an invalidate queue. A CPU that held the line of a
 *     store when it was issued receives the invalidation after the one-way
 *     route latency (half the platform's round trip), acknowledges it at
 *     once and applies it inval_queue_cycles later, in arrival order. If
 *     that is after the store became visible, the CPU reads its stale copy
 *     (a hit, the line as it was) until then (MP with a fence on the writer
 *     only, WRC, IRIW);
 *   - processing the queue (mf, an acquire load once performed, an
 *     acquire or full RMW) applies every invalidation that has arrived;
 *   - a release store waits for every earlier store (the caller waits for
 *     order_drained_at) and, when visible, is visible to all CPUs at once:
 *     every queued invalidation of its line is applied. An RMW reads and
 *     writes mem at once (so RMWs of one word are atomic and in one total
 *     order), but its invalidation is queued like a store's: a CPU that
 *     held the line may read its stale copy a while longer.
 * Loads are performed in program order, at their cycle: LB never shows
 * (it is allowed by both models, never required).
 *
 * Laziness. The scheduler runs accesses in (cycle, CPU id) order, so a
 * buffered store need not be applied when it completes: order_settle(t),
 * before every access at cycle t, applies those that completed at or before
 * t, in the order of completion (ties: the order they were issued). They
 * wait in a min-heap: O(log n) per store, O(1) per access while none is due.
 *
 * Early visibility. Most stores are seen by nobody before they are
 * visible. The caller knows the first cycle at which another CPU may act
 * (quiet_until: its scheduler's next key). When that is at or after the
 * store's visible cycle, no buffered store is due before it, and settling
 * it would change no invalidate queue (nobody else held the line, and no
 * queue may hold it: a count of queued invalidations by line, qlines,
 * says so), writing mem at once gives every other CPU what settling it at
 * its cycle would. Its own CPU must still see it as buffered until then
 * (forwarding costs a hit, a drain waits for it, a spinner's line is not
 * quiet), so the store leaves two notes in small direct-mapped tables of
 * its CPU: its word and its line, each with its visible cycle. A note is
 * live while its cycle is after floor. A store whose slot holds another
 * live word or line takes the buffer, as do the rest. Earlier stores of
 * the same CPU that would settle first are applied the same way
 * (settle_ahead), so a stream of stores to one line does not queue behind
 * its first miss. test_order plays random runs both ways and compares
 * every value.
 *
 * The buffers are unbounded: a store never waits for room (a documented
 * simplification; stores are rare between the barriers of the timer code).
 */
#include "order.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    maddr_t a;
    uint64_t line, v, issue, vis, seq;
    int cpu, release;
} sbe_t; /* a buffered store */

typedef struct {
    uint64_t vis, seq; /* the entry's, copied: the heap's order without a look-up */
    int id;
} hent_t;

typedef struct {
    uint64_t line, apply_at;
    int n;
    maddr_t *addr; /* the words changed since the copy went stale */
    uint64_t *val; /* their values in the stale copy */
} iqe_t;           /* a queued invalidation: a stale copy of a line */

enum { EARLY_SLOTS = 16 }; /* notes of stores applied early, per CPU (a power of 2) */

typedef struct {
    uint64_t key, vis; /* a word's address or a line's index; visible at vis */
} note_t;

/* The fields every access tests come first, in one host cache line; the
 * notes after them. */
typedef struct {
    int nsb, niq;
    uint64_t early_max; /* the latest vis of its stores applied early */
    int *sb;            /* ids of this CPU's buffered stores */
    iqe_t *iq;
    int capsb, capiq;
    uint64_t last_vis;   /* tso: when the newest buffered store is visible */
    uint64_t flushed_at; /* last processing of the whole queue */
    uint64_t iq_last;    /* when the newest queued invalidation applies */
    note_t early_word[EARLY_SLOTS], early_line[EARLY_SLOTS];
} ocpu_t;

enum { QLINE_SLOTS = 1024 };

struct order {
    platform_model_t model;
    const platform_t *p;
    mem_t *mem;
    int ncpus, hw, wpl;
    int sw;     /* words of a summary: bit w set when word w of its bitset may be non-zero */
    uint64_t q; /* inval_queue_cycles */
    sbe_t *pool;
    uint64_t *holders; /* [id * hw]: CPUs holding the line when it was issued */
    uint64_t *hsum;    /* [id * sw]: the summary of each entry's holders */
    int cap, *freel, nfree, used;
    hent_t *heap; /* by (vis, seq); empty, heap[0].vis is UINT64_MAX (never due) */
    int nheap;
    uint64_t *scratch; /* holders noted by order_before_store */
    uint64_t *ssum;    /* [sw]: scratch's summary, exact */
    uint64_t *hasq;    /* [hw]: CPUs whose invalidate queue is not empty */
    uint64_t *qsum;    /* [sw]: hasq's summary, exact */
    uint64_t floor;    /* t of the last order_settle: nothing happens before */
    ocpu_t *cpus;
    uint64_t seq;
    uint64_t nstores, nfwd, nstale, nearly;
    /* [line % QLINE_SLOTS]: queued invalidations of the lines there, in
     * every CPU's queue: 0, and no queue can hold the line (a store then
     * visits its holders only) */
    uint32_t qlines[QLINE_SLOTS];
    uint64_t **iqw; /* the blocks of the queue entries' addr and val arrays */
    int niqw, capiqw;
};

order_t *order_create(const platform_t *p, mem_t *mem)
{
    order_t *o = xcalloc(1, sizeof *o);
    o->model = p->memory_model;
    o->p = p;
    o->mem = mem;
    o->ncpus = p->ncpus;
    o->hw = (p->ncpus + 63) / 64;
    o->sw = (o->hw + 63) / 64;
    o->wpl = p->line_bytes / 8;
    o->q = (uint64_t)(p->costs.inval_queue_cycles + 0.5);
    o->scratch = xcalloc((size_t)o->hw, sizeof *o->scratch);
    o->hasq = xcalloc((size_t)o->hw, sizeof *o->hasq);
    o->ssum = xcalloc((size_t)o->sw, sizeof *o->ssum);
    o->qsum = xcalloc((size_t)o->sw, sizeof *o->qsum);
    /* aligned: each CPU's first fields in one host cache line (ocpu_t) */
    _Static_assert(sizeof(ocpu_t) % 64 == 0, "ocpu_t: a whole number of cache lines");
    o->heap = xrealloc(NULL, sizeof *o->heap);
    o->heap[0] = (hent_t){.vis = UINT64_MAX};
    o->cpus = xcheck(aligned_alloc(64, sizeof *o->cpus * (size_t)o->ncpus));
    memset(o->cpus, 0, sizeof *o->cpus * (size_t)o->ncpus);
    return o;
}

void order_destroy(order_t *o)
{
    if (!o)
        return;
#ifndef NDEBUG /* qlines counts every queue's entries (debug builds check it) */
    uint64_t queued = 0, counted = 0;
    for (int i = 0; i < o->ncpus; i++)
        queued += (uint64_t)o->cpus[i].niq;
    for (int k = 0; k < QLINE_SLOTS; k++)
        counted += o->qlines[k];
    if (queued != counted)
        abort();
#endif
    for (int i = 0; i < o->ncpus; i++) {
        ocpu_t *c = &o->cpus[i];
        free(c->iq);
        free(c->sb);
    }
    for (int k = 0; k < o->niqw; k++)
        free(o->iqw[k]);
    free(o->iqw);
    free(o->cpus);
    free(o->pool);
    free(o->holders);
    free(o->freel);
    free(o->heap);
    free(o->scratch);
    free(o->hasq);
    free(o->ssum);
    free(o->qsum);
    free(o->hsum);
    free(o);
}

platform_model_t order_model(const order_t *o)
{
    return o->model;
}

static uint64_t line_of(const order_t *o, maddr_t a)
{
    return mem_line_of(o->mem, a);
}

/* --- the heap of buffered stores, by (vis, seq) --- */

static int before(const hent_t *a, const hent_t *b)
{
    return a->vis < b->vis || (a->vis == b->vis && a->seq < b->seq);
}

static void heap_push(order_t *o, int id)
{
    hent_t x = {o->pool[id].vis, o->pool[id].seq, id};
    int i = o->nheap++;
    while (i > 0 && before(&x, &o->heap[(i - 1) / 2])) {
        o->heap[i] = o->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    o->heap[i] = x;
}

static int heap_pop(order_t *o)
{
    int top = o->heap[0].id, i = 0;
    hent_t last = o->heap[--o->nheap];
    for (;;) {
        int l = 2 * i + 1, s = l;
        if (l >= o->nheap)
            break;
        if (l + 1 < o->nheap && before(&o->heap[l + 1], &o->heap[l]))
            s = l + 1;
        if (!before(&o->heap[s], &last))
            break;
        o->heap[i] = o->heap[s];
        i = s;
    }
    if (o->nheap)
        o->heap[i] = last;
    else
        o->heap[0].vis = UINT64_MAX; /* the tests of heap[0].vis need no nheap */
    return top;
}

static int new_entry(order_t *o)
{
    if (o->nfree)
        return o->freel[--o->nfree];
    if (o->used == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 64;
        o->pool = xrealloc(o->pool, sizeof *o->pool * (size_t)o->cap);
        o->holders = xrealloc(o->holders, sizeof *o->holders * (size_t)o->cap * (size_t)o->hw);
        o->hsum = xrealloc(o->hsum, sizeof *o->hsum * (size_t)o->cap * (size_t)o->sw);
        o->freel = xrealloc(o->freel, sizeof *o->freel * (size_t)o->cap);
        o->heap = xrealloc(o->heap, sizeof *o->heap * (size_t)o->cap);
    }
    return o->used++;
}

/* --- invalidate queues ---
 *
 * An entry whose apply_at is at or before floor is dead: every access from
 * now on is at floor or later, and every store still to reach mem becomes
 * visible at floor or later, so each would drop it. iq_find prunes them as
 * it walks, which keeps a queue as short as its live entries; hasq lets a
 * store visit only the CPUs that hold its line or have a queue. Each bitset
 * over CPUs has a summary of its non-zero words, so that a store walks the
 * words that have a CPU in them, not CPUs / 64 words (at 4096 CPUs that
 * walk would be most of a run's instructions). */

static void sum_set(uint64_t *sum, int w)
{
    sum[w / 64] |= 1ull << (w % 64);
}

static void iq_clear(order_t *o, int cpu)
{
    int w = cpu / 64;
    ocpu_t *c = &o->cpus[cpu];
    for (int k = 0; k < c->niq; k++)
        o->qlines[c->iq[k].line % QLINE_SLOTS]--;
    c->niq = 0;
    o->hasq[w] &= ~(1ull << (cpu % 64));
    if (!o->hasq[w])
        o->qsum[w / 64] &= ~(1ull << (w % 64));
}

/* Removes entry k of cpu's queue (its arrays are kept for reuse). */
static void iq_drop_at(order_t *o, int cpu, int k)
{
    ocpu_t *c = &o->cpus[cpu];
    o->qlines[c->iq[k].line % QLINE_SLOTS]--;
    iqe_t tmp = c->iq[k];
    c->iq[k] = c->iq[--c->niq];
    c->iq[c->niq] = tmp;
    if (!c->niq)
        iq_clear(o, cpu);
}

/* cpu's live entry for line, or NULL; prunes the dead ones on the way. */
static iqe_t *iq_find(order_t *o, int cpu, uint64_t line)
{
    ocpu_t *c = &o->cpus[cpu];
    for (int k = 0; k < c->niq;) {
        if (c->iq[k].apply_at <= o->floor) {
            iq_drop_at(o, cpu, k);
            continue;
        }
        if (c->iq[k].line == line)
            return &c->iq[k];
        k++;
    }
    return NULL;
}

static void iq_drop(order_t *o, int cpu, iqe_t *e)
{
    iq_drop_at(o, cpu, (int)(e - o->cpus[cpu].iq));
}

/* Out of line: rare, and iq_add stays small where it is inlined. */
static __attribute__((noinline)) void iq_grow(order_t *o, ocpu_t *c)
{
    int cap = c->capiq ? 2 * c->capiq : 8;
    c->iq = xrealloc(c->iq, sizeof *c->iq * (size_t)cap);
    /* the new entries' arrays in one block: thousands of CPUs' first
     * queued invalidations are not thousands of mallocs each */
    size_t wpl = (size_t)o->wpl;
    uint64_t *w = xrealloc(NULL, sizeof *w * 2 * wpl * (size_t)(cap - c->capiq));
    if (o->niqw == o->capiqw) {
        o->capiqw = o->capiqw ? 2 * o->capiqw : 64;
        o->iqw = xrealloc(o->iqw, sizeof *o->iqw * (size_t)o->capiqw);
    }
    o->iqw[o->niqw++] = w;
    for (int k = c->capiq; k < cap; k++, w += 2 * wpl) {
        c->iq[k].addr = w;
        c->iq[k].val = w + wpl;
    }
    c->capiq = cap;
}

static iqe_t *iq_add(order_t *o, int cpu, uint64_t line, uint64_t apply_at)
{
    ocpu_t *c = &o->cpus[cpu];
    if (c->niq == c->capiq)
        iq_grow(o, c);
    o->hasq[cpu / 64] |= 1ull << (cpu % 64);
    sum_set(o->qsum, cpu / 64);
    o->qlines[line % QLINE_SLOTS]++;
    iqe_t *e = &c->iq[c->niq++];
    e->line = line;
    e->apply_at = apply_at;
    e->n = 0;
    return e;
}

/* The stale copy keeps the value a word had when the copy went stale. */
static void iq_keep(iqe_t *e, maddr_t a, uint64_t old)
{
    for (int k = 0; k < e->n; k++)
        if (e->addr[k] == a)
            return;
    e->addr[e->n] = a;
    e->val[e->n++] = old;
}

static void drop_line_everywhere(order_t *o, uint64_t line)
{
    if (!o->qlines[line % QLINE_SLOTS])
        return; /* in no queue */
    for (int j = 0; j < o->sw; j++)
        for (uint64_t ws = o->qsum[j]; ws; ws &= ws - 1) {
            int w = j * 64 + __builtin_ctzll(ws);
            for (uint64_t m = o->hasq[w]; m; m &= m - 1) {
                int r = w * 64 + __builtin_ctzll(m);
                iqe_t *e = iq_find(o, r, line);
                if (e)
                    iq_drop(o, r, e);
            }
        }
}

/* Store e reaches mem at e->vis: CPU r, if it held the line (h) and has not
 * processed the invalidation by then, keeps a stale copy. */
static void invalidate_one(order_t *o, const sbe_t *e, int r, int wn, const uint64_t *h,
                           uint64_t old)
{
    ocpu_t *c = &o->cpus[r];
    iqe_t *q = c->niq ? iq_find(o, r, e->line) : NULL;
    if (q && q->apply_at <= e->vis) {
        iq_drop(o, r, q);
        q = NULL;
    }
    if (q) { /* already stale: it stays as it was */
        iq_keep(q, e->a, old);
        return;
    }
    if (!(h[r / 64] >> (r % 64) & 1))
        return;
    uint64_t arrival = e->issue + platform_node_lat(o->p, wn, o->p->cpu_node[r]) / 2;
    if (c->flushed_at >= arrival)
        return; /* processed before the store completed */
    uint64_t at = arrival + o->q;
    if (at < c->iq_last)
        at = c->iq_last; /* the queue is processed in arrival order */
    if (at <= e->vis)
        return;
    c->iq_last = at;
    iq_keep(iq_add(o, r, e->line, at), e->a, old);
}

/* Only the holders (h, summary hs) and the CPUs with a queue are
 * concerned: a walk of the words their summaries name, in ascending order.
 * A visit changes only its own CPU's queue (and hasq bit), so the words
 * still to walk are as the summaries said. */
static void queue_invalidations(order_t *o, const sbe_t *e, const uint64_t *h, const uint64_t *hs,
                                uint64_t old)
{
    /* the CPUs with a queue matter only if a queue may hold the line */
    uint64_t qm = o->qlines[e->line % QLINE_SLOTS] ? ~0ull : 0;
    if (o->sw == 1 && !(hs[0] | (o->qsum[0] & qm)))
        return; /* nobody else held the line, no queue holds it: most stores */
    int wn = o->p->cpu_node[e->cpu];
    for (int j = 0; j < o->sw; j++)
        for (uint64_t ws = hs[j] | (o->qsum[j] & qm); ws; ws &= ws - 1) {
            int w = j * 64 + __builtin_ctzll(ws);
            uint64_t m = h[w] | (o->hasq[w] & qm);
            if (e->cpu / 64 == w)
                m &= ~(1ull << (e->cpu % 64));
            for (; m; m &= m - 1)
                invalidate_one(o, e, w * 64 + __builtin_ctzll(m), wn, h, old);
        }
}

static void sb_remove(ocpu_t *c, int id)
{
    for (int k = 0; k < c->nsb; k++)
        if (c->sb[k] == id) {
            c->sb[k] = c->sb[--c->nsb];
            return;
        }
}

/* Store id reaches mem and leaves its CPU's buffer (popped from the heap
 * already). */
static void retire(order_t *o, int id)
{
    const sbe_t *e = &o->pool[id];
    mem_set_word(o->mem, e->a, e->v); /* order_store came after the access */
    sb_remove(&o->cpus[e->cpu], id);
    o->freel[o->nfree++] = id;
}

/* The stores due at t, in order (order_settle found the first). */
static void settle_due(order_t *o, uint64_t t)
{
    while (o->nheap && o->heap[0].vis <= t) { /* t may be UINT64_MAX */
        int id = heap_pop(o);
        const sbe_t *e = &o->pool[id];
        if (o->model == PLATFORM_WEAK) {
            if (e->release)
                drop_line_everywhere(o, e->line);
            else
                queue_invalidations(o, e, &o->holders[(size_t)id * (size_t)o->hw],
                                    &o->hsum[(size_t)id * (size_t)o->sw], mem_word(o->mem, e->a));
        }
        retire(o, id);
    }
}

/* always_inline (here and below): before every access and store, from
 * simulated.c; link-time optimisation inlines them there, a build without
 * it calls them. */
__attribute__((always_inline)) inline void order_settle(order_t *o, uint64_t t)
{
    if (o->heap[0].vis <= t) /* before most accesses, nothing is due */
        settle_due(o, t);
    if (t > o->floor)
        o->floor = t;
}

void order_settle_all(order_t *o)
{
    settle_due(o, UINT64_MAX); /* the floor stays: nothing comes after */
}

__attribute__((always_inline)) inline order_src_t order_load(order_t *o, int cpu, maddr_t a,
                                                             uint64_t t, uint64_t *v)
{
    ocpu_t *c = &o->cpus[cpu];
    /* & and |, not && and ||: one branch, not three (mispredicted often) */
    if (((c->nsb | c->niq) == 0) & (c->early_max <= t))
        return ORDER_FROM_MEM; /* most loads */
    int best = -1;
    for (int k = 0; k < c->nsb; k++) {
        int id = c->sb[k];
        if (o->pool[id].a == a && (best < 0 || o->pool[id].seq > o->pool[best].seq))
            best = id;
    }
    if (best >= 0) {
        *v = o->pool[best].v;
        o->nfwd++;
        return ORDER_FROM_BUFFER;
    }
    if (c->early_max > t) { /* a buffered store is newer than a note of its word */
        const note_t *n = &c->early_word[(a >> 3) & (EARLY_SLOTS - 1)];
        if ((n->key == a) & (n->vis > t)) {
            *v = mem_peek(o->mem, a); /* what it wrote: nobody else could write since */
            o->nfwd++;
            return ORDER_FROM_BUFFER;
        }
    }
    if (c->niq) {
        iqe_t *e = iq_find(o, cpu, line_of(o, a));
        if (e && e->apply_at <= t) {
            iq_drop(o, cpu, e);
            e = NULL;
        }
        if (e) {
            *v = mem_peek(o->mem, a);
            for (int k = 0; k < e->n; k++)
                if (e->addr[k] == a)
                    *v = e->val[k];
            o->nstale++;
            return ORDER_FROM_STALE;
        }
    }
    return ORDER_FROM_MEM;
}

void order_process_queue(order_t *o, int cpu, uint64_t t)
{
    ocpu_t *c = &o->cpus[cpu];
    if (c->niq) /* else hasq's bit is clear already */
        iq_clear(o, cpu);
    if (t > c->flushed_at)
        c->flushed_at = t;
}

uint64_t order_drained_at(const order_t *o, int cpu)
{
    const ocpu_t *c = &o->cpus[cpu];
    uint64_t at = c->early_max > o->floor ? c->early_max : 0;
    for (int k = 0; k < c->nsb; k++)
        if (o->pool[c->sb[k]].vis > at)
            at = o->pool[c->sb[k]].vis;
    return at;
}

uint64_t order_line_drained_at(const order_t *o, int cpu, maddr_t a)
{
    const ocpu_t *c = &o->cpus[cpu];
    uint64_t line = line_of(o, a);
    const note_t *n = &c->early_line[line & (EARLY_SLOTS - 1)];
    /* a mask, not a branch: whether the note is live is a coin toss */
    uint64_t at = n->vis & -(uint64_t)((n->key == line) & (n->vis > o->floor));
    for (int k = 0; k < c->nsb; k++) {
        const sbe_t *e = &o->pool[c->sb[k]];
        at = (e->line == line) & (e->vis > at) ? e->vis : at;
    }
    return at;
}

/* order_before_store; owned: cpu owns the line (its store is a hit), so
 * no other CPU holds it and mem need not be asked. */
static inline __attribute__((always_inline)) void before_store(order_t *o, int cpu, maddr_t a,
                                                               int owned)
{
    if (o->model != PLATFORM_WEAK)
        return;
    uint64_t line = line_of(o, a);
    /* A CPU processes its queued invalidation of a line before it sends
     * any message about that line (McKenney's rule). */
    iqe_t *e = o->cpus[cpu].niq ? iq_find(o, cpu, line) : NULL;
    if (e)
        iq_drop(o, cpu, e);
    if (!owned) {
        mem_holders(o->mem, a, cpu, o->scratch, (size_t)o->hw, o->ssum); /* every CPU but cpu */
    } else if (o->hw == 1) {
        o->scratch[0] = o->ssum[0] = 0;
    } else {
        memset(o->scratch, 0, sizeof *o->scratch * (size_t)o->hw);
        memset(o->ssum, 0, sizeof *o->ssum * (size_t)o->sw);
    }
}

__attribute__((always_inline)) inline void order_before_store(order_t *o, int cpu, maddr_t a,
                                                              uint64_t t)
{
    (void)t;
    before_store(o, cpu, a, 0);
}

__attribute__((always_inline)) inline void order_before_owned_store(order_t *o, int cpu, maddr_t a,
                                                                    uint64_t t)
{
    (void)t;
    before_store(o, cpu, a, 1);
}

/* Would settling a store to line whose holders' summary is hs change
 * nothing but its word? On weak, only if no queue may hold the line (a
 * stale copy there would keep the old value, or a release drops it) and,
 * for a plain store, nobody else held the line. */
static inline int settles_alone(const order_t *o, int release, const uint64_t *hs, uint64_t line)
{
    if (o->model != PLATFORM_WEAK)
        return 1;
    if (o->qlines[line % QLINE_SLOTS])
        return 0; /* a queue may hold the line: its stale copy would change */
    if (release)
        return 1;
    if (o->sw == 1) /* up to 4096 CPUs */
        return !hs[0];
    for (int j = 0; j < o->sw; j++)
        if (hs[j])
            return 0;
    return 1;
}

/* Notes c's store to a (line), visible at vis, as applied early; 0 (and
 * nothing noted) when a slot holds another live word or line. */
static inline int note_early(order_t *o, ocpu_t *c, maddr_t a, uint64_t line, uint64_t vis)
{
    note_t *w = &c->early_word[(a >> 3) & (EARLY_SLOTS - 1)];
    note_t *l = &c->early_line[line & (EARLY_SLOTS - 1)];
    if (((w->key != a) & (w->vis > o->floor)) | ((l->key != line) & (l->vis > o->floor)))
        return 0;
    /* vis is at or after a live note of the same word or line: stores to a
     * line become visible in order (tso: all of them) */
    w->key = a;
    w->vis = vis;
    l->key = line;
    l->vis = vis;
    if (vis > c->early_max)
        c->early_max = vis;
    o->nearly++;
    return 1;
}

/* Applies now, in their order, cpu's buffered stores due by upto that
 * settle alone: upto <= quiet_until, so no other CPU can tell, and cpu
 * finds their notes. Stops at the first that does not settle alone, has
 * no free slot, or is another CPU's (cpu could read it too soon). */
static void settle_ahead(order_t *o, int cpu, uint64_t upto)
{
    ocpu_t *c = &o->cpus[cpu];
    while (o->heap[0].vis <= upto) {
        int id = o->heap[0].id;
        const sbe_t *e = &o->pool[id];
        if (e->cpu != cpu ||
            !settles_alone(o, e->release, &o->hsum[(size_t)id * (size_t)o->sw], e->line) ||
            !note_early(o, c, e->a, e->line, e->vis))
            return;
        heap_pop(o);
        retire(o, id);
    }
}

__attribute__((always_inline)) inline void order_store(order_t *o, int cpu, maddr_t a, uint64_t v,
                                                       uint64_t t, uint32_t cost, int release,
                                                       uint64_t quiet_until)
{
    ocpu_t *c = &o->cpus[cpu];
    uint64_t line = line_of(o, a), vis = t + cost;
    if (o->model == PLATFORM_TSO) {
        if (vis < c->last_vis)
            vis = c->last_vis;
        c->last_vis = vis;
    } else {
        uint64_t same = order_line_drained_at(o, cpu, a);
        if (vis < same)
            vis = same;
    }
    o->nstores++;
    if (quiet_until >= vis && vis > t) { /* see "Early visibility" */
        settle_ahead(o, cpu, vis);
        if (o->heap[0].vis > vis && settles_alone(o, release, o->ssum, line) &&
            note_early(o, c, a, line, vis)) {
            mem_set_word(o->mem, a, v); /* after the access: see order.h */
            return;
        }
    }
    int id = new_entry(o);
    sbe_t *e = &o->pool[id];
    e->a = a;
    e->line = line;
    e->v = v;
    e->issue = t;
    e->vis = vis;
    e->seq = o->seq++;
    e->cpu = cpu;
    e->release = release;
    if (o->model == PLATFORM_WEAK) {
        if (o->hw == 1) { /* up to 64 CPUs: no memcpy calls */
            o->holders[id] = o->scratch[0];
            o->hsum[id] = o->ssum[0];
        } else {
            memcpy(&o->holders[(size_t)id * (size_t)o->hw], o->scratch,
                   sizeof *o->scratch * (size_t)o->hw);
            memcpy(&o->hsum[(size_t)id * (size_t)o->sw], o->ssum, sizeof *o->ssum * (size_t)o->sw);
        }
    }
    if (c->nsb == c->capsb) {
        c->capsb = c->capsb ? 2 * c->capsb : 16;
        c->sb = xrealloc(c->sb, sizeof *c->sb * (size_t)c->capsb);
    }
    c->sb[c->nsb++] = id;
    heap_push(o, id);
}

void order_rmw(order_t *o, int cpu, maddr_t a, uint64_t t)
{
    if (o->model != PLATFORM_WEAK)
        return;
    /* Visible at once; the CPUs that held the line queue its invalidation
     * like any other (the holders noted by order_before_store). */
    sbe_t e = {.a = a, .line = line_of(o, a), .issue = t, .vis = t, .cpu = cpu};
    queue_invalidations(o, &e, o->scratch, o->ssum, mem_peek(o->mem, a));
}

int order_line_quiet(const order_t *o, int cpu, maddr_t a)
{
    uint64_t line = line_of(o, a);
    for (int k = 0; k < o->nheap; k++)
        if (o->pool[o->heap[k].id].line == line)
            return 0;
    const ocpu_t *c = &o->cpus[cpu];
    const note_t *n = &c->early_line[line & (EARLY_SLOTS - 1)];
    if (n->key == line && n->vis > o->floor) /* its own store, applied early */
        return 0;
    for (int k = 0; k < c->niq; k++) /* a dead entry is as good as gone */
        if (c->iq[k].line == line && c->iq[k].apply_at > o->floor)
            return 0;
    return 1;
}

uint64_t order_peek(const order_t *o, maddr_t a)
{
    int best = -1, kb = 0;
    for (int k = 0; k < o->nheap; k++) {
        int id = o->heap[k].id;
        if (o->pool[id].a == a && (best < 0 || before(&o->heap[kb], &o->heap[k]))) {
            best = id;
            kb = k;
        }
    }
    return best >= 0 ? o->pool[best].v : mem_peek(o->mem, a);
}

void order_flush(order_t *o, int cpu)
{
    iq_clear(o, cpu);
}

void order_counts(const order_t *o, uint64_t *stores, uint64_t *forwarded, uint64_t *stale,
                  uint64_t *early)
{
    *early = o->nearly;
    *stores = o->nstores;
    *forwarded = o->nfwd;
    *stale = o->nstale;
}
