/* coherence: the coherence directory, the entry point of every access. Theory
 * of operation.
 *
 * State per line: `owner` (the CPU holding it exclusive, E or M; -1 if none)
 * or a set of sharers (S). A CPU of node n accessing a line homed on node h
 * pays, in cycles (figures from the platform; lat[a][b] is the round trip
 * between nodes a and b along SimGrid's route):
 *
 *   found                         | cost
 *   ------------------------------+-------------------------------------------
 *   held, op allowed              | hit_cycles (atomic_cycles for an RMW)
 *   clean, home local             | mem_local_cycles
 *   clean, home remote            | mem_local_cycles + lat[n][h]
 *   modified on this node's bus   | c2c_node_cycles
 *   modified in node m != n       | mem_local_cycles + lat3(n,h,m)
 *                                 |   + remote_dirty_cycles
 *   write: other sharers exist    | max(fetch, invalidation), where the
 *                                 |   invalidation is inval_node_cycles on the
 *                                 |   bus, or lat3(n,h,s) for the farthest
 *                                 |   sharer node s
 *
 * lat3(n,h,m) = (lat[n][h] + lat[h][m] + lat[m][n]) / 2: the three legs
 * requester -> home directory -> owner -> requester, each half a round trip.
 * It is lat[n][m] when the home is one of the two ends. An RMW costs the
 * acquisition plus atomic_cycles (IA-64 atomics execute in L2).
 *
 * mem_access_at adds time: a write or RMW that is no hit keeps its line in
 * transit until its cost has passed, and a read miss by another CPU
 * meanwhile waits for the rest (the home serialises a line's transactions).
 * Writers do not wait for each other, so racing stores keep the order of
 * their completions (weak order's 2+2W).
 *
 * Without cache levels in the platform, caches are infinite (no capacity
 * misses): a warm cache stays warm except for what other CPUs write.
 *
 * With levels (cache.c), the same states say which CPUs hold a line, and the
 * hierarchy says where: a hit costs the latency of the first level that has
 * the line (an atomic: atomic_cycles; a store: l2's latency at
 * least when l1d is write-through), a line that a neighbour
 * brought into a shared level costs that level's latency instead of memory,
 * and a line leaving the last level is no longer held (a dirty one is
 * written back at no cost to the CPU: its write-back buffer). Another
 * CPU's write removes the line from every level of the CPUs it invalidates.
 * Code is fetched through the instruction side (mem_fetch_code): an L1I hit
 * costs nothing beyond the instructions, a miss its level's latency or,
 * from memory, a miss of the table above. Footprints (mem_footprint_*) bring
 * foreign lines into a CPU's levels, which evict by LRU.
 *
 * The common access (mem_hit): a read of a held line, or a write of an
 * owned one, found in the first level changes no state but that set's LRU
 * order, the counters and the dirty bit, so it skips the paths above;
 * anything else is mem_access.
 */
#include "memory_internal.h"
#include "xalloc.h"

#include <string.h>

static void drop_line(void *ctx, int cpu, uint64_t li);

/* What a hit costs at level lvl (-1: no levels) for op, in cycles: the
 * level's latency (a store to a write-through l1d completes in l2), an
 * RMW's atomic_cycles. The table of mem_hit, and of mem_access's hits. */
static uint32_t hit_cycles(const mem_t *m, mem_op_t op, int lvl)
{
    if (op == MEM_RMW)
        return m->c_atomic;
    if (op == MEM_WRITE && lvl == CACHE_L1D && m->p->l1d_write_through)
        return m->lvl_cycles[CACHE_L2];
    return lvl >= 0 ? m->lvl_cycles[lvl] : m->c_hit;
}

mem_t *mem_create(const platform_t *p)
{
    mem_t *m = xcalloc(1, sizeof *m);
    m->p = p;
    m->ncpus = p->ncpus;
    m->nnodes = p->nnodes;
    while ((1 << m->line_shift) < p->line_bytes)
        m->line_shift++;
    m->words_per_line = (size_t)p->line_bytes / 8;
    m->bitset_words = ((size_t)p->ncpus + 63) / 64;
    m->held = xcalloc((size_t)p->ncpus, sizeof *m->held);
    m->c_hit = mem_cycles(p->costs.hit_cycles);
    m->c_atomic = mem_cycles(p->costs.atomic_cycles);
    m->c_local = mem_cycles(p->costs.mem_local_cycles);
    m->c_c2c = mem_cycles(p->costs.c2c_node_cycles);
    m->c_dirty = mem_cycles(p->costs.remote_dirty_cycles);
    m->c_inval = mem_cycles(p->costs.inval_node_cycles);
    m->c_insn = mem_cycles(p->costs.insn_cycles);
    mem_words_init(m);
    m->last_level = -1;
    m->hier = hier_create(p, drop_line, m);
    mem_translate_init(m);
    if (m->hier) {
        for (int l = 0; l < CACHE_NLEVELS; l++)
            m->lvl_cycles[l] = hier_cycles(m->hier, l);
        m->evictions = xcalloc((size_t)p->ncpus, sizeof *m->evictions);
        m->footprint_evictions = xcalloc((size_t)p->ncpus, sizeof *m->footprint_evictions);
    }
    mem_footprint_init(m);
    for (int op = MEM_READ; op <= MEM_RMW; op++)
        for (int lvl = -1; lvl < CACHE_NLEVELS; lvl++)
            m->hit_cost[op][lvl + 1] = hit_cycles(m, (mem_op_t)op, lvl);
    return m;
}

void mem_destroy(mem_t *m)
{
    if (!m)
        return;
    for (uint64_t i = 0; i < m->nlines; i++)
        free(m->lines ? m->lines[i].shx : NULL);
    for (int c = 0; c < m->ncpus; c++)
        free(m->held[c].v);
    free(m->held);
    free(m->flushed);
    hier_destroy(m->hier);
    tlb_destroy(m->tlb);
    free(m->evictions);
    free(m->footprint_evictions);
    mem_footprint_free(m);
    mem_words_free(m);
    if (m->rng)
        gsl_rng_free(m->rng);
    free(m);
}

void mem_set_jitter(mem_t *m, uint32_t max_cycles, unsigned long seed)
{
    m->jitter = max_cycles;
    if (!m->rng)
        m->rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(m->rng, seed);
}

int mem_holds(const mem_t *m, int cpu, maddr_t a)
{
    return line_held(line_at(m, a), cpu);
}

/* always_inline (here and mem_hit): on most stores and accesses, from
 * order.c and simulated.c; link-time optimisation inlines them there, a
 * build without it calls them. */
__attribute__((always_inline)) inline void mem_holders(const mem_t *m, maddr_t a, int except,
                                                       uint64_t *bits, size_t words, uint64_t *sum)
{
    const line_t *l = line_at(m, a);
    if (words == 1) { /* up to 64 CPUs: no memset calls */
        bits[0] = sum[0] = 0;
    } else {
        memset(bits, 0, sizeof *bits * words);
        memset(sum, 0, sizeof *sum * ((words + 63) / 64));
    }
    if (l->owner >= 0) {
        size_t w = (size_t)l->owner / 64;
        if (w < words && l->owner != except) {
            bits[w] |= 1ull << (l->owner % 64);
            sum[w / 64] |= 1ull << (w % 64);
        }
    } else if (l->nsharers) {
        size_t n = words < m->bitset_words ? words : m->bitset_words;
        size_t ew = except >= 0 ? (size_t)except / 64 : SIZE_MAX;
        uint64_t ebit = except >= 0 ? 1ull << (except % 64) : 0;
        for (size_t w = 0; w < n; w++) /* only a shared line pays a walk */
            if ((bits[w] = sh_bits(l, w) & ~(w == ew ? ebit : 0)))
                sum[w / 64] |= 1ull << (w % 64);
    }
}

static void note_held(mem_t *m, int cpu, uint64_t line)
{
    if (m->hier)
        return; /* mem_flush finds cpu's lines in its last level */
    lvec_t *h = &m->held[cpu];
    if (h->n == h->cap) {
        /* Compact: keep only lines still held, once each. */
        size_t k = 0;
        for (size_t i = 0; i < h->n; i++) {
            line_t *l = &m->lines[h->v[i]];
            if (line_held(l, cpu) && !(l->pad & PAD_MARK)) {
                l->pad |= PAD_MARK;
                h->v[k++] = h->v[i];
            }
        }
        for (size_t i = 0; i < k; i++)
            m->lines[h->v[i]].pad &= (uint16_t)~PAD_MARK;
        h->n = k;
        /* more than a quarter still held: grow, so that a compaction's walk
         * is paid for by at least cap * 3/4 notes (also grows the first,
         * empty list) */
        if (h->n * 4 >= h->cap) {
            h->cap = h->cap ? h->cap * 2 : 64;
            h->v = xrealloc(h->v, sizeof *h->v * h->cap);
        }
    }
    h->v[h->n++] = line;
}

static void add_sharer(mem_t *m, line_t *l, int cpu, uint64_t li)
{
    if (cpu >= 64 && !l->shx)
        l->shx = xcalloc(m->bitset_words - 1, sizeof *l->shx);
    if (!is_sharer(l, cpu)) {
        *sh_word(l, (size_t)cpu >> 6) |= 1ull << (cpu & 63);
        l->nsharers++;
        note_held(m, cpu, li);
    }
}

static void clear_sharers(line_t *l, size_t words)
{
    if (l->nsharers) {
        l->sh0 = 0;
        if (words > 1 && l->shx) /* over 64 CPUs */
            memset(l->shx, 0, sizeof *l->shx * (words - 1));
    }
    l->nsharers = 0;
}

static uint32_t lat(const mem_t *m, int a, int b)
{
    return platform_node_lat(m->p, a, b);
}

static uint32_t lat3(const mem_t *m, int n, int h, int o)
{
    return (lat(m, n, h) + lat(m, h, o) + lat(m, o, n)) / 2;
}

/* Cost of bringing the line to cpu's node for a read, and what was found. */
static uint32_t fetch_cost(const mem_t *m, const line_t *l, int n, access_kind_t *kind)
{
    if (l->owner >= 0 && l->dirty) {
        int o = m->p->cpu_node[l->owner];
        if (o == n) {
            *kind = ACCESS_C2C_NODE;
            return m->c_c2c;
        }
        *kind = ACCESS_C2C_REMOTE;
        return m->c_local + lat3(m, n, l->home, o) + m->c_dirty;
    }
    if (l->home == n) {
        *kind = ACCESS_MISS_LOCAL;
        return m->c_local;
    }
    *kind = ACCESS_MISS_REMOTE;
    return m->c_local + lat(m, n, l->home);
}

/* Cost for cpu (node n) to invalidate every other copy of the line. */
static uint32_t inval_cost(const mem_t *m, const line_t *l, int cpu, int n)
{
    uint32_t worst = 0;
    if (l->owner >= 0 && l->owner != cpu) {
        int o = m->p->cpu_node[l->owner];
        return o == n ? m->c_inval : lat3(m, n, l->home, o);
    }
    if (l->nsharers == 0)
        return 0;
    for (size_t w = 0; w < m->bitset_words; w++) {
        uint64_t bits = sh_bits(l, w);
        while (bits) {
            int s = (int)(w * 64) + __builtin_ctzll(bits);
            bits &= bits - 1;
            if (s == cpu)
                continue;
            int sn = m->p->cpu_node[s];
            uint32_t c = sn == n ? m->c_inval : lat3(m, n, l->home, sn);
            worst = c > worst ? c : worst;
        }
    }
    return worst;
}

/* cpu read line li, which it did not hold: it becomes E if nobody else had
 * it, else a sharer (an exclusive holder drops to S). */
static void read_fill(mem_t *m, line_t *l, int cpu, uint64_t li)
{
    if (l->owner >= 0) { /* the exclusive holder drops to S */
        int o = l->owner;
        l->owner = -1;
        l->dirty = 0;
        clear_sharers(l, m->bitset_words);
        add_sharer(m, l, o, li);
        add_sharer(m, l, cpu, li);
    } else if (l->nsharers == 0) {
        l->owner = cpu; /* E: nobody else has it */
        l->dirty = 0;
        note_held(m, cpu, li);
    } else {
        add_sharer(m, l, cpu, li);
    }
}

/* cpu is about to own line li: every other copy leaves every level of the
 * CPUs that held it, but for the levels they share with cpu. */
static void unlevel_others(mem_t *m, const line_t *l, int cpu, uint64_t li)
{
    int fetched = l->pad & PAD_FETCHED;
    if (l->owner >= 0 && l->owner != cpu)
        hier_remove(m->hier, l->owner, li, cpu, fetched);
    if (l->owner >= 0 || !l->nsharers)
        return;
    for (size_t w = 0; w < m->bitset_words; w++)
        for (uint64_t bits = sh_bits(l, w); bits; bits &= bits - 1) {
            int s = (int)(w * 64) + __builtin_ctzll(bits);
            if (s != cpu)
                hier_remove(m->hier, s, li, cpu, fetched);
        }
}

/* The level of cpu's hierarchy that serves line li on side (LRU updated,
 * the levels above filled), or -1: no hierarchy, or not cached where cpu
 * reaches, or a shared level's copy that another CPU has since modified. */
static int level_of(mem_t *m, const line_t *l, int cpu, uint64_t li, int held, hier_side_t side)
{
    if (!m->hier)
        return -1;
    /* not held: in none of cpu's private levels, see cache.c */
    int lvl =
        held ? hier_access(m->hier, cpu, li, side) : hier_access_unheld(m->hier, cpu, li, side);
    if (held && lvl < 0)
        abort(); /* a simulator bug: a held line is in one of cpu's levels (cache.c) */
    if (!held && l->owner >= 0 && l->dirty)
        return -1;
    return lvl;
}

uint32_t mem_access(mem_t *m, int cpu, maddr_t a, mem_op_t op, access_kind_t *kind_out)
{
    uint32_t xlate = m->tlb ? mem_translate(m, cpu, a, 0) : 0;
    uint64_t li = a >> m->line_shift;
    line_t *l = line_at(m, a);
    int n = m->p->cpu_node[cpu];
    access_kind_t kind;
    uint32_t cost;

    if (op != MEM_READ && l->freed)
        m->freed_writes++;
    int held = line_held(l, cpu);
    int lvl = level_of(m, l, cpu, li, held, HIER_DATA);
    /* a hit's latency (an RMW's: the read's, its atomic_cycles come below) */
    uint32_t hit = m->hit_cost[op == MEM_RMW ? MEM_READ : op][lvl + 1];

    if (op == MEM_READ) {
        if (held) {
            kind = ACCESS_HIT;
            cost = hit;
        } else {
            if (lvl >= 0) { /* a neighbour brought it into a shared level */
                kind = ACCESS_HIT;
                cost = hit;
            } else {
                cost = fetch_cost(m, l, n, &kind);
            }
            read_fill(m, l, cpu, li);
        }
    } else {
        if (l->owner == cpu) {
            kind = ACCESS_HIT;
            cost = 0;
        } else if (line_held(l, cpu)) { /* shared: not the owner */
            kind = ACCESS_UPGRADE;
            uint32_t dir = l->home == n ? m->c_inval : lat(m, n, l->home);
            uint32_t inv = inval_cost(m, l, cpu, n);
            cost = inv > dir ? inv : dir;
        } else {
            uint32_t f = lvl >= 0 ? hit : fetch_cost(m, l, n, &kind);
            uint32_t inv = inval_cost(m, l, cpu, n);
            cost = f > inv ? f : inv;
            if (lvl >= 0) { /* from a shared level: a hit, unless copies must go */
                kind = inv ? ACCESS_UPGRADE : ACCESS_HIT;
                cost = inv ? cost : 0; /* a hit's cost is added below */
            }
            note_held(m, cpu, li);
        }
        if (m->hier)
            unlevel_others(m, l, cpu, li);
        clear_sharers(l, m->bitset_words);
        l->owner = cpu;
        l->dirty = 1;
        cost += op == MEM_RMW ? m->c_atomic : (kind == ACCESS_HIT ? hit : 0);
    }
    cost += m->c_insn + xlate; /* the code around the access (0 but on measured hosts) */
    if (kind != ACCESS_HIT && m->jitter && m->rng)
        cost += (uint32_t)gsl_rng_uniform_int(m->rng, (unsigned long)m->jitter + 1);
    m->count[kind]++;
    m->last_level = kind == ACCESS_HIT ? lvl : -1;
    if (kind_out)
        *kind_out = kind;
    return cost;
}

uint32_t mem_access_at(mem_t *m, int cpu, maddr_t a, mem_op_t op, uint64_t now,
                       access_kind_t *kind_out)
{
    uint64_t li = a >> m->line_shift;
    busy_t *b = &m->busy[li % MEM_BUSY_SLOTS];
    uint32_t wait = 0;
    if (op == MEM_READ && b->line == li && b->cpu != cpu && b->until > now) {
        wait = (uint32_t)(b->until - now);
        m->busy_waits++;
        m->busy_cycles += wait;
    }
    access_kind_t kind;
    uint32_t cost = wait + mem_access(m, cpu, a, op, &kind);
    if (op != MEM_READ && kind != ACCESS_HIT)
        *b = (busy_t){.line = li, .until = now + cost, .cpu = cpu};
    if (kind_out)
        *kind_out = kind;
    return cost;
}

void mem_busy_counts(const mem_t *m, uint64_t *waits, uint64_t *cycles)
{
    *waits = m->busy_waits;
    *cycles = m->busy_cycles;
}

__attribute__((always_inline)) inline int mem_hit(mem_t *m, int cpu, maddr_t a, mem_op_t op,
                                                  uint32_t *cost)
{
    line_t *l = line_at(m, a);
    /* owned, or held and read (& and |: one branch on the answer) */
    if (!((l->owner == cpu) | ((op == MEM_READ) & line_held(l, cpu))))
        return 0;
    int lvl = -1, way = 0;
    if (m->hier && (way = hier_first_way(m->hier, cpu, a >> m->line_shift, HIER_DATA, &lvl)) < 0)
        return 0;
    /* before the line moves: a walk's fill must find the LRU order as is */
    if (m->tlb && !tlb_first_mru(m->tlb, cpu, tlb_page_of(m->tlb, a), 0))
        return 0;
    if (way > 0) /* in the first level, not the most recent: hier_access's move only */
        hier_first_promote(m->hier, cpu, a >> m->line_shift, HIER_DATA, way);
    /* what mem_access does in this case, and nothing else */
    if (op != MEM_READ) {
        m->freed_writes += l->freed;
        l->dirty = 1;
    }
    *cost = m->hit_cost[op][lvl + 1] + m->c_insn;
    m->count[ACCESS_HIT]++;
    m->last_level = lvl;
    return 1;
}

uint32_t mem_fetch_code(mem_t *m, int cpu, maddr_t a, access_kind_t *kind_out, int *level)
{
    uint32_t xlate = m->tlb ? mem_translate(m, cpu, a, 1) : 0;
    uint64_t li = a >> m->line_shift;
    line_t *l = line_at(m, a);
    access_kind_t kind = ACCESS_HIT;
    uint32_t cost;
    int held = line_held(l, cpu);
    if (m->hier)
        l->pad |= PAD_FETCHED;
    int lvl = level_of(m, l, cpu, li, held, HIER_CODE);
    if (held) /* an L1I hit (or an infinite cache's) is in the instructions' own cycles */
        cost = lvl < 0 || lvl == CACHE_L1I ? 0 : m->lvl_cycles[lvl];
    else {
        cost = lvl >= 0 ? m->lvl_cycles[lvl] : fetch_cost(m, l, m->p->cpu_node[cpu], &kind);
        read_fill(m, l, cpu, li);
    }
    if (kind != ACCESS_HIT && m->jitter && m->rng)
        cost += (uint32_t)gsl_rng_uniform_int(m->rng, (unsigned long)m->jitter + 1);
    cost += xlate;
    *kind_out = kind;
    *level = kind == ACCESS_HIT ? lvl : -1;
    return cost;
}

int mem_fetch_code_private_hit(mem_t *m, int cpu, maddr_t a)
{
    if (!m->hier || !m->p->cache[CACHE_L1I].bytes)
        return 0;
    if (m->tlb && !tlb_first_mru(m->tlb, cpu, tlb_page_of(m->tlb, a), 1))
        return 0;
    /* in l1i means held: inclusion keeps it in the last level, and a line
     * that leaves the last level or is invalidated leaves l1i too */
    return hier_touch_private(m->hier, cpu, CACHE_L1I, a >> m->line_shift);
}

uint64_t mem_code_version(const mem_t *m, int cpu)
{
    return m->hier && m->p->cache[CACHE_L1I].bytes && !m->tlb
               ? hier_version(m->hier, cpu, CACHE_L1I) + 1
               : 0;
}

/* cpu stops holding line l (a dirty line is written back: memory has its
 * words already). Returns 0 when cpu did not hold it. */
static int let_go(line_t *l, int cpu)
{
    if (l->owner == cpu) {
        l->owner = -1;
        l->dirty = 0;
    } else if (line_held(l, cpu)) {
        *sh_word(l, (size_t)cpu >> 6) &= ~(1ull << (cpu & 63));
        l->nsharers--;
    } else {
        return 0;
    }
    return 1;
}

/* The hierarchy let go of line li for cpu (capacity). */
static void drop_line(void *ctx, int cpu, uint64_t li)
{
    mem_t *m = ctx;
    if (!let_go(&m->lines[li], cpu))
        return;
    m->evictions[cpu]++;
    if (m->in_footprint)
        m->footprint_evictions[cpu]++;
}

/* cpu's flush let go of line li: it leaves cpu's private levels (emptied
 * after) and the shared ones that no other CPU there still holds. */
static void unlevel_flushed(mem_t *m, int cpu, uint64_t li)
{
    const line_t *l = &m->lines[li];
    for (int lv = 0; lv < CACHE_NLEVELS; lv++) {
        int k;
        const int *who = hier_members(m->hier, (cache_level_t)lv, cpu, &k);
        int kept = 0;
        for (int i = 0; i < k && !kept; i++)
            kept = who[i] != cpu && line_held(l, who[i]);
        if (k > 1 && !kept)
            hier_remove_at(m->hier, cpu, (cache_level_t)lv, li);
    }
}

/* hier_flush_private's keep. A flush is clflush over the run's own lines:
 * the foreign ones (page tables, other software, the tick's) are not among
 * them and stay, as they do natively; the code lines stay but with_code. */
static int keep_foreign(void *ctx, uint64_t tag)
{
    (void)ctx;
    return (tag & TAG_FOREIGN) != 0;
}

static int keep_foreign_code(void *ctx, uint64_t tag)
{
    const mem_t *m = ctx;
    return (tag & TAG_FOREIGN) || (m->lines[tag].pad & PAD_CODE);
}

/* With a hierarchy, the lines cpu holds are in its levels (the last one,
 * when it is inclusive), where a flush finds them: no list is kept as they
 * come, one miss at a time. The lines are let go in another order than
 * they came, to the same end: letting go of one changes no other. */
void mem_flush(mem_t *m, int cpu, int with_code)
{
    if (m->hier) {
        size_t n = hier_held_tags(m->hier, cpu, &m->flushed, &m->capflushed);
        for (size_t i = 0; i < n; i++) {
            line_t *l = &m->lines[m->flushed[i]];
            if (((l->pad & PAD_CODE) && !with_code) || !let_go(l, cpu))
                continue;
            unlevel_flushed(m, cpu, m->flushed[i]);
        }
        hier_flush_private(m->hier, cpu, with_code ? keep_foreign : keep_foreign_code, m);
        return;
    }
    lvec_t *h = &m->held[cpu];
    size_t kept = 0;
    for (size_t i = 0; i < h->n; i++) {
        line_t *l = &m->lines[h->v[i]];
        if ((l->pad & PAD_CODE) && !with_code) {
            h->v[kept++] = h->v[i]; /* still held: stays on the list */
            continue;
        }
        let_go(l, cpu);
    }
    h->n = kept;
}

int mem_has_tlbs(const mem_t *m)
{
    return m->tlb != NULL;
}

int mem_last_translation(const mem_t *m, uint32_t *cycles)
{
    *cycles = m->xl_cost;
    return m->xl_level;
}

int mem_has_levels(const mem_t *m)
{
    return m->hier != NULL;
}

int mem_last_level(const mem_t *m)
{
    return m->last_level;
}

uint32_t mem_spin_hit_cycles(const mem_t *m)
{
    return m->hier ? m->lvl_cycles[CACHE_L1D] : m->c_hit;
}

int mem_spin_exact(const mem_t *m)
{
    if (!m->hier)
        return 1;
    const platform_t *p = m->p;
    if (p->footprint.noise_per_mcycle > 0)
        return 0;
    for (int l = 0; l < CACHE_NLEVELS; l++)
        if (p->cache[l].bytes && p->cache[l].scope != SCOPE_CPU)
            return 0;
    return 1;
}

uint64_t mem_evictions(const mem_t *m, int cpu, int footprint_only)
{
    if (!m->hier)
        return 0;
    return footprint_only ? m->footprint_evictions[cpu] : m->evictions[cpu];
}

uint64_t mem_count(const mem_t *m, access_kind_t kind)
{
    return kind < ACCESS_NKINDS ? m->count[kind] : 0;
}

uint64_t mem_freed_writes(const mem_t *m)
{
    return m->freed_writes;
}
