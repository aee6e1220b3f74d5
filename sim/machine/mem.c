/* mem: cache-coherence model. Theory of operation.
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
 * Caches are infinite (no capacity misses); that keeps a warm cache warm
 * except for what other CPUs write, which is the effect under study.
 */
#include "mem.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int32_t owner; /* exclusive holder, or -1 */
    uint8_t dirty; /* owner has modified it */
    uint8_t freed; /* released by mem_release */
    uint16_t pad;
    int32_t home;      /* node */
    uint32_t nsharers; /* valid when owner == -1 */
    uint64_t *sharers; /* bitset over CPUs, allocated on first share */
} line_t;

typedef struct {
    uint64_t *v;
    size_t n, cap;
} lvec_t; /* lines a CPU may hold; stale entries are allowed */

struct mem {
    const platform_t *p;
    int ncpus, nnodes;
    int line_shift;
    size_t words_per_line, bitset_words;
    uint64_t *words;
    line_t *lines;
    uint64_t nlines, cap_lines;
    lvec_t *held; /* [ncpus] */
    uint32_t c_hit, c_atomic, c_local, c_c2c, c_dirty, c_inval, c_insn;
    uint32_t jitter;
    gsl_rng *rng;
    uint64_t count[MEM_NKINDS];
    uint64_t freed_writes;
};

static const char *kKindNames[MEM_NKINDS] = {"hit",         "upgrade",  "miss_local",
                                             "miss_remote", "c2c_node", "c2c_remote"};

const char *mem_kind_name(mem_kind_t kind)
{
    return kind < MEM_NKINDS ? kKindNames[kind] : "?";
}

static uint32_t cyc(double v)
{
    return (uint32_t)(v + 0.5);
}

mem_t *mem_create(const platform_t *p)
{
    mem_t *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    m->p = p;
    m->ncpus = p->ncpus;
    m->nnodes = p->nnodes;
    while ((1 << m->line_shift) < p->line_bytes)
        m->line_shift++;
    m->words_per_line = (size_t)p->line_bytes / 8;
    m->bitset_words = ((size_t)p->ncpus + 63) / 64;
    m->held = calloc((size_t)p->ncpus, sizeof *m->held);
    if (!m->held)
        abort();
    m->c_hit = cyc(p->costs.hit_cycles);
    m->c_atomic = cyc(p->costs.atomic_cycles);
    m->c_local = cyc(p->costs.mem_local_cycles);
    m->c_c2c = cyc(p->costs.c2c_node_cycles);
    m->c_dirty = cyc(p->costs.remote_dirty_cycles);
    m->c_inval = cyc(p->costs.inval_node_cycles);
    m->c_insn = cyc(p->costs.insn_cycles);
    m->cap_lines = 1024;
    m->lines = calloc(m->cap_lines, sizeof *m->lines);
    m->words = calloc(m->cap_lines * m->words_per_line, sizeof *m->words);
    if (!m->lines || !m->words)
        abort();
    m->lines[0].owner = -1;
    m->nlines = 1; /* line 0 holds address 0: never allocated */
    return m;
}

void mem_destroy(mem_t *m)
{
    if (!m)
        return;
    for (uint64_t i = 0; i < m->nlines; i++)
        free(m->lines ? m->lines[i].sharers : NULL);
    for (int c = 0; c < m->ncpus; c++)
        free(m->held[c].v);
    free(m->held);
    free(m->lines);
    free(m->words);
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

maddr_t mem_alloc(mem_t *m, int node, size_t bytes)
{
    uint64_t n = (bytes + ((size_t)1 << m->line_shift) - 1) >> m->line_shift;
    if (n == 0)
        n = 1;
    uint64_t first = m->nlines;
    if (m->nlines + n > m->cap_lines) {
        uint64_t cap = m->cap_lines;
        while (cap < m->nlines + n)
            cap *= 2;
        m->lines = realloc(m->lines, sizeof *m->lines * cap);
        m->words = realloc(m->words, sizeof *m->words * m->words_per_line * cap);
        if (!m->lines || !m->words)
            abort();
        m->cap_lines = cap;
    }
    for (uint64_t i = first; i < first + n; i++) {
        line_t *l = &m->lines[i];
        memset(l, 0, sizeof *l);
        l->owner = -1;
        l->home = node;
    }
    memset(m->words + first * m->words_per_line, 0, sizeof *m->words * m->words_per_line * n);
    m->nlines += n;
    return (maddr_t)first << m->line_shift;
}

uint64_t mem_line_of(const mem_t *m, maddr_t a)
{
    return a >> m->line_shift;
}

static line_t *line_at(const mem_t *m, maddr_t a)
{
    uint64_t i = a >> m->line_shift;
    if (i == 0 || i >= m->nlines)
        abort(); /* a simulator bug: an address that was never allocated */
    return &m->lines[i];
}

int mem_home(const mem_t *m, maddr_t a)
{
    return line_at(m, a)->home;
}

void mem_release(mem_t *m, maddr_t a, size_t bytes)
{
    for (uint64_t li = a >> m->line_shift; bytes && li <= (a + bytes - 1) >> m->line_shift; li++)
        line_at(m, li << m->line_shift)->freed = 1;
}

int mem_is_freed(const mem_t *m, maddr_t a)
{
    return line_at(m, a)->freed;
}

uint64_t mem_peek(const mem_t *m, maddr_t a)
{
    line_at(m, a);
    return m->words[a >> 3];
}

void mem_poke(mem_t *m, maddr_t a, uint64_t v)
{
    line_at(m, a);
    m->words[a >> 3] = v;
}

static int is_sharer(const line_t *l, int cpu)
{
    return l->sharers && (l->sharers[cpu >> 6] >> (cpu & 63) & 1);
}

int mem_holds(const mem_t *m, int cpu, maddr_t a)
{
    const line_t *l = line_at(m, a);
    return l->owner == cpu || (l->owner < 0 && is_sharer(l, cpu));
}

static void note_held(mem_t *m, int cpu, uint64_t line)
{
    lvec_t *h = &m->held[cpu];
    if (h->n == h->cap) {
        /* Compact: keep only lines still held, once each. */
        size_t k = 0;
        for (size_t i = 0; i < h->n; i++) {
            line_t *l = &m->lines[h->v[i]];
            if ((l->owner == cpu || (l->owner < 0 && is_sharer(l, cpu))) && !(l->pad & 1)) {
                l->pad |= 1;
                h->v[k++] = h->v[i];
            }
        }
        for (size_t i = 0; i < k; i++)
            m->lines[h->v[i]].pad &= (uint16_t)~1u;
        h->n = k;
        if (h->n * 2 >= h->cap) { /* also grows the first, empty list */
            h->cap = h->cap ? h->cap * 2 : 64;
            h->v = realloc(h->v, sizeof *h->v * h->cap);
            if (!h->v)
                abort();
        }
    }
    h->v[h->n++] = line;
}

static void add_sharer(mem_t *m, line_t *l, int cpu, uint64_t li)
{
    if (!l->sharers) {
        l->sharers = calloc(m->bitset_words, sizeof *l->sharers);
        if (!l->sharers)
            abort();
    }
    if (!is_sharer(l, cpu)) {
        l->sharers[cpu >> 6] |= 1ull << (cpu & 63);
        l->nsharers++;
        note_held(m, cpu, li);
    }
}

static void clear_sharers(line_t *l, size_t words)
{
    if (l->sharers && l->nsharers)
        memset(l->sharers, 0, sizeof *l->sharers * words);
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
static uint32_t fetch_cost(const mem_t *m, const line_t *l, int n, mem_kind_t *kind)
{
    if (l->owner >= 0 && l->dirty) {
        int o = m->p->cpu_node[l->owner];
        if (o == n) {
            *kind = MEM_C2C_NODE;
            return m->c_c2c;
        }
        *kind = MEM_C2C_REMOTE;
        return m->c_local + lat3(m, n, l->home, o) + m->c_dirty;
    }
    if (l->home == n) {
        *kind = MEM_MISS_LOCAL;
        return m->c_local;
    }
    *kind = MEM_MISS_REMOTE;
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
    if (!l->sharers || l->nsharers == 0)
        return 0;
    for (size_t w = 0; w < m->bitset_words; w++) {
        uint64_t bits = l->sharers[w];
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

uint32_t mem_access(mem_t *m, int cpu, maddr_t a, mem_op_t op, mem_kind_t *kind_out)
{
    uint64_t li = a >> m->line_shift;
    line_t *l = line_at(m, a);
    int n = m->p->cpu_node[cpu];
    mem_kind_t kind;
    uint32_t cost;

    if (op != MEM_READ && l->freed)
        m->freed_writes++;

    if (op == MEM_READ) {
        if (l->owner == cpu || (l->owner < 0 && is_sharer(l, cpu))) {
            kind = MEM_HIT;
            cost = m->c_hit;
        } else {
            cost = fetch_cost(m, l, n, &kind);
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
    } else {
        if (l->owner == cpu) {
            kind = MEM_HIT;
            cost = 0;
        } else if (l->owner < 0 && is_sharer(l, cpu)) {
            kind = MEM_UPGRADE;
            uint32_t dir = l->home == n ? m->c_inval : lat(m, n, l->home);
            uint32_t inv = inval_cost(m, l, cpu, n);
            cost = inv > dir ? inv : dir;
        } else {
            uint32_t f = fetch_cost(m, l, n, &kind);
            uint32_t inv = inval_cost(m, l, cpu, n);
            cost = f > inv ? f : inv;
            note_held(m, cpu, li);
        }
        clear_sharers(l, m->bitset_words);
        l->owner = cpu;
        l->dirty = 1;
        cost += op == MEM_RMW ? m->c_atomic : (kind == MEM_HIT ? m->c_hit : 0);
    }
    cost += m->c_insn; /* the code around the access (0 but on measured hosts) */
    if (kind != MEM_HIT && m->jitter && m->rng)
        cost += (uint32_t)gsl_rng_uniform_int(m->rng, (unsigned long)m->jitter + 1);
    m->count[kind]++;
    if (kind_out)
        *kind_out = kind;
    return cost;
}

void mem_flush(mem_t *m, int cpu)
{
    lvec_t *h = &m->held[cpu];
    for (size_t i = 0; i < h->n; i++) {
        line_t *l = &m->lines[h->v[i]];
        if (l->owner == cpu) {
            l->owner = -1;
            l->dirty = 0;
        } else if (l->owner < 0 && is_sharer(l, cpu)) {
            l->sharers[cpu >> 6] &= ~(1ull << (cpu & 63));
            l->nsharers--;
        }
    }
    h->n = 0;
}

uint64_t mem_count(const mem_t *m, mem_kind_t kind)
{
    return kind < MEM_NKINDS ? m->count[kind] : 0;
}

uint64_t mem_freed_writes(const mem_t *m)
{
    return m->freed_writes;
}
