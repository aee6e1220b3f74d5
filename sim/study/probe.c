/* probe: latency microbenchmarks on the machine API. Theory of operation.
 *
 * setup() (at cycle 0) builds the list of cells, one per probe and CPU pair,
 * and allocates each cell a fresh line homed where the probe wants it, with
 * a spare line after it (the adjacent-line prefetcher of real machines pairs
 * lines). Every CPU then runs the same program: for each cell and each
 * repetition,
 *
 *     barrier; prepare (the cell's CPUs put the line in its state);
 *     barrier; measure (the timing CPU: t0 = cpu_now(); op; t1 = cpu_now())
 *
 * CPUs outside the cell only pass the barriers. The barrier is a counter and
 * a generation word in machine memory (fetch-and-add, then spin), so it works
 * the same on simulated CPUs and on real threads, and it orders the
 * preparation of every CPU before the measured operation. A ping-pong cell
 * has one prepare/measure pair: its two CPUs hand a counter back and forth
 * reps + 1 times (the first round trip warms the line and is dropped).
 *
 * Samples are kept raw in host memory (each cell is written by its timing
 * CPU only); finish() subtracts the median of the empty timings (cell 0:
 * cpu_now(); cpu_now(); zero in simulation, the clock's own cost natively)
 * and takes the median, p10 and p90 (a batched cell's sample divided by its
 * batch first).
 *
 * The pause and chase cells (probe_cache.c) come last, run by CPU 0 alone.
 * Every CPU runs with interrupts disabled but in the ticks-on pause cells,
 * so the tick that the probe's timer core installs (at --hz) is taken only
 * there: the other cells see no tick (a simulated CPU takes the ticks it
 * missed when it enables interrupts, and the CPUs enable them only to stop).
 */
#include "probe_internal.h"
#include "start.h"
#include "xalloc.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>

const char *const probe_csv_header =
    "probe,platform,from_cpu,to_cpu,from_node,to_node,median_cycles,p10_cycles,p90_cycles,reps";

/* --- the cells ------------------------------------------------------------ */

static void add_cell(probe_ctx_t *X, machine_t *m, kind_t kind, int from, int to, int home, int k)
{
    probe_add_cell(X, m, kind, from, to, home, k, 1);
}

/* The second CPU of node n, or -1 when it has only one. */
static int second_cpu(const platform_t *p, int n)
{
    int seen = 0;
    for (int i = 0; i < p->ncpus; i++)
        if (p->cpu_node[i] == n && seen++)
            return i;
    return -1;
}

static int pair_wanted(const platform_t *p, int a)
{
    return (long)p->nnodes * p->nnodes <= PROBE_ALL_PAIRS_MAX || a == 0;
}

static void no_fn(cpu_t *c, tcore_t *tc, maddr_t t, uint64_t data, void *ctx)
{
    (void)c, (void)tc, (void)t, (void)data, (void)ctx;
}

static void setup(machine_t *m, void *arg)
{
    probe_ctx_t *X = arg;
    const platform_t *p = X->p;
    X->bar_count = machine_alloc(m, 0, (size_t)p->line_bytes);
    X->bar_gen = machine_alloc(m, 0, (size_t)p->line_bytes);
    int c0 = 0, n0 = p->cpu_node[0];
    add_cell(X, m, K_OVERHEAD, c0, c0, n0, 0);
    add_cell(X, m, K_HIT, c0, c0, n0, 0);
    add_cell(X, m, K_ATOMIC, c0, c0, n0, 0);
    add_cell(X, m, K_TIMER_OPS, c0, c0, n0, 0);
    X->period = X->hz > 0 ? (uint64_t)(p->clock_mhz * 1e6 / X->hz + 0.5) : 0;
    X->tc = tcore_create(m, TIMER_CLASSIC, 0, X->period > 0 ? X->period : 1ull << 50, 0);
    X->timer = timer_alloc(X->tc, n0, tcore_register_fn(X->tc, no_fn, NULL), 0);
    if (X->only_cache || X->only_core) {
        /* the empty timing and the hit only (the timer and the bases keep
         * their addresses: the pause rows see the same sets) */
        for (int i = 2; i < X->ncells; i++)
            free(X->cells[i].sample);
        X->ncells = 2;
        probe_cache_cells(X, m);
        return;
    }
    for (int a = 0; a < p->nnodes; a++)
        for (int h = 0; h < p->nnodes; h++)
            if (pair_wanted(p, a))
                add_cell(X, m, K_LOAD_MEM, p->node_first_cpu[a], p->node_first_cpu[a], h, 0);
    for (int a = 0; a < p->nnodes; a++)
        for (int b = 0; b < p->nnodes; b++) {
            if (!pair_wanted(p, a))
                continue;
            int from = p->node_first_cpu[a];
            int to = a == b ? second_cpu(p, a) : p->node_first_cpu[b];
            if (to >= 0)
                add_cell(X, m, K_LOAD_DIRTY, from, to, b, 0);
        }
    /* k = 1, 2, 4, ... and every other CPU */
    for (int k = 1; k < p->ncpus;
         k = k == p->ncpus - 1 ? p->ncpus : (2 * k < p->ncpus - 1 ? 2 * k : p->ncpus - 1))
        add_cell(X, m, K_STORE_INVAL, c0, k % p->ncpus, n0, k);
    for (int kind = K_PP_LDST; kind <= K_PP_CAS; kind++)
        for (int a = 0; a < p->nnodes; a++)
            for (int b = a; b < p->nnodes; b++) {
                if (!pair_wanted(p, a))
                    continue;
                int from = p->node_first_cpu[a];
                int to = a == b ? second_cpu(p, a) : p->node_first_cpu[b];
                if (to >= 0)
                    add_cell(X, m, (kind_t)kind, from, to, a, 0);
            }
    probe_cache_cells(X, m);
}

/* --- the programs ------------------------------------------------------- */

static int is_sharer(const cell_t *k, int id, int ncpus)
{
    for (int i = 1; i <= k->nsharers; i++)
        if ((k->from + i) % ncpus == id)
            return 1;
    return 0;
}

/* Puts the line in the state the cell measures from. */
static void prepare(cpu_t *c, const probe_ctx_t *X, const cell_t *k, int rep, int ncpus)
{
    int id = cpu_id(c);
    switch (k->kind) {
    case K_TIMER_OPS:
        if (id == k->from)
            probe_timer_pair(c, X);
        break;
    case K_HIT:
        if (id == k->from)
            cpu_read(c, k->line);
        break;
    case K_ATOMIC:
        if (id == k->from)
            cpu_write(c, k->line, (uint64_t)rep);
        break;
    case K_LOAD_DIRTY:
        if (id == k->to)
            cpu_write(c, k->line, (uint64_t)rep + 1);
        break;
    case K_STORE_INVAL:
        if (id == k->from || is_sharer(k, id, ncpus))
            cpu_read(c, k->line);
        break;
    default:
        break;
    }
}

/* One round trip per rep (plus a warm-up one), timed by k->from. */
static void pingpong(cpu_t *c, cell_t *k, int reps)
{
    int id = cpu_id(c);
    for (int r = 0; r <= reps; r++) {
        uint64_t mine = 2 * (uint64_t)r, sent = mine + 1;
        if (id == k->from) {
            uint64_t t0 = cpu_now(c);
            if (k->kind == K_PP_LDST)
                cpu_write(c, k->line, sent);
            else
                while (!cpu_cmpxchg(c, k->line, mine, sent))
                    ;
            cpu_spin_while_eq(c, k->line, sent);
            uint64_t t1 = cpu_now(c);
            if (r > 0)
                k->sample[r - 1] = (double)(t1 - t0);
        } else if (id == k->to) {
            cpu_spin_while_eq(c, k->line, mine);
            if (k->kind == K_PP_LDST)
                cpu_write(c, k->line, sent + 1);
            else
                while (!cpu_cmpxchg(c, k->line, sent, sent + 1))
                    ;
        }
    }
}

/* The timed operation of the cell on its timing CPU. */
static void measure(cpu_t *c, const probe_ctx_t *X, cell_t *k, int rep)
{
    if (cpu_id(c) != k->from)
        return;
    if (k->kind == K_LOAD_MEM)
        cpu_flush_cache(c, 0);
    uint64_t t0 = cpu_now(c);
    switch (k->kind) {
    case K_OVERHEAD:
        break;
    case K_HIT: { /* each load names the one before: a hit's latency, not its rate */
        cpu_tok_t t = 0;
        for (int i = 0; i < PROBE_BATCH; i++)
            cpu_read_dep(c, k->line, t, &t);
        cpu_use(c, t);
        break;
    }
    case K_LOAD_MEM:
    case K_LOAD_DIRTY:
        cpu_read(c, k->line);
        break;
    case K_ATOMIC:
        for (int i = 0; i < PROBE_BATCH; i++)
            cpu_fetch_add(c, k->line, 1);
        break;
    case K_TIMER_OPS:
        for (int i = 0; i < PROBE_BATCH; i++)
            probe_timer_pair(c, X);
        break;
    case K_STORE_INVAL:
        cpu_write(c, k->line, (uint64_t)rep + 7);
        break;
    default:
        break;
    }
    uint64_t t1 = cpu_now(c);
    k->sample[rep] = (double)(t1 - t0);
}

static void program(cpu_t *c, void *arg)
{
    probe_ctx_t *X = arg;
    int n = X->p->ncpus, i;
    cpu_irq_disable(c); /* the tick only in the ticks-on pause cells */
    for (i = 0; i < X->ncells; i++) {
        cell_t *k = &X->cells[i];
        if (k->kind >= K_CHASE)
            break; /* probe_cache.c's and probe_core.c's, on CPU 0 alone */
        if (k->kind == K_PP_LDST || k->kind == K_PP_CAS) {
            probe_barrier(c, X);
            pingpong(c, k, X->reps);
            continue;
        }
        for (int r = 0; r < k->reps; r++) {
            probe_barrier(c, X);
            prepare(c, X, k, r, n);
            probe_barrier(c, X);
            measure(c, X, k, r);
        }
    }
    probe_barrier(c, X);
    probe_cache_section(c, X, i);
    probe_barrier(c, X);
    machine_stop(cpu_machine(c)); /* timer_ops installed a tick */
    cpu_irq_enable(c);            /* stopping: no tick is taken */
}

static void start_programs(machine_t *m, void *arg)
{
    setup(m, arg);
    for (int i = 0; i < machine_ncpus(m); i++)
        machine_set_program(m, i, program, arg);
}

/* --- results -------------------------------------------------------------- */

static const char *kind_name(const cell_t *k, char *buf, size_t n)
{
    static const char *const names[] = {"timer_overhead", "hit",          "atomic_held",
                                        "load_mem",       "load_dirty",   "store_inval",
                                        "pingpong_ldst",  "pingpong_cas", "timer_ops"};
    if (k->kind == K_STORE_INVAL)
        snprintf(buf, n, "store_inval_%d", k->nsharers);
    else if (k->kind >= K_CHASE)
        probe_cache_name(k, buf, n);
    else
        snprintf(buf, n, "%s", names[k->kind]);
    return buf;
}

static double quantile(const double *sorted, int n, double q)
{
    return gsl_stats_quantile_from_sorted_data(sorted, 1, (size_t)n, q);
}

static void collect(const probe_ctx_t *X, probe_result_t *r)
{
    const platform_t *p = X->p;
    int maxreps = 1;
    for (int i = 0; i < X->ncells; i++)
        if (X->cells[i].reps > maxreps)
            maxreps = X->cells[i].reps;
    double *s = xmalloc(sizeof *s * (size_t)maxreps);
    r->rows = xcalloc((size_t)X->ncells, sizeof *r->rows);
    double overhead = 0;
    for (int i = 0; i < X->ncells; i++) {
        const cell_t *k = &X->cells[i];
        int reps = k->reps;
        for (int j = 0; j < reps; j++) {
            double v = k->kind == K_OVERHEAD ? k->sample[j] : k->sample[j] - overhead;
            v /= k->batch;
            s[j] = v > 0 ? v : 0;
        }
        gsl_sort(s, 1, (size_t)reps);
        probe_row_t *w = &r->rows[r->nrows++];
        kind_name(k, w->probe, sizeof w->probe);
        w->from_cpu = k->from;
        w->to_cpu = k->to;
        w->from_node = p->cpu_node[k->from];
        w->to_node = k->kind == K_LOAD_MEM ? k->home : p->cpu_node[k->to];
        w->median = quantile(s, reps, 0.5);
        w->p10 = quantile(s, reps, 0.1);
        w->p90 = quantile(s, reps, 0.9);
        w->reps = reps;
        if (k->kind == K_OVERHEAD)
            overhead = w->median;
    }
    free(s);
}

int probe_run(platform_t *p, host_t *host, const probe_opts_t *o, const char *argv0,
              probe_result_t *r, err_t *e)
{
    memset(r, 0, sizeof *r);
    if (o->reps < 1)
        return err_set(e, NULL, 0, "probe: repetitions must be >= 1, not %d", o->reps);
    if (o->hz < 0)
        return err_set(e, NULL, 0, "probe: the tick rate must be >= 0, not %d", o->hz);
    probe_ctx_t X = {.p = host ? host_platform(host) : p,
                     .reps = o->reps,
                     .hz = o->hz,
                     .chase_max = 0,
                     .native = host != NULL};
    long chase = probe_chase_max(X.p, o->chase_max, e);
    if (chase < 0)
        return -1;
    X.chase_max = (uint64_t)chase;
    static const uint64_t decades[] = {0, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
    X.pauses = o->pauses ? o->pauses : decades;
    X.npauses = o->pauses ? o->npauses : (int)(sizeof decades / sizeof *decades);
    X.only_cache = o->only_cache;
    X.only_core = o->only_core;
    machine_hooks_t hooks = {.setup = start_programs, .arg = &X};
    start_t st = {.host = host, .platform = p, .argv0 = argv0, .seed = 1, .hooks = &hooks};
    st.native.timeout_s = 60;
    int rc = start_machine(&st, e);
    if (rc == 0)
        collect(&X, r);
    for (int i = 0; i < X.ncells; i++)
        free(X.cells[i].sample);
    tcore_destroy(X.tc);
    free(X.cells);
    return rc;
}

void probe_result_free(probe_result_t *r)
{
    free(r->rows);
    memset(r, 0, sizeof *r);
}

int probe_write_csv(FILE *f, const char *platform, const probe_result_t *r)
{
    fprintf(f, "%s\n", probe_csv_header);
    for (int i = 0; i < r->nrows; i++) {
        const probe_row_t *w = &r->rows[i];
        fprintf(f, "%s,%s,%d,%d,%d,%d,%.6g,%.6g,%.6g,%d\n", w->probe, platform, w->from_cpu,
                w->to_cpu, w->from_node, w->to_node, w->median, w->p10, w->p90, w->reps);
    }
    return ferror(f) ? -1 : 0;
}

const probe_row_t *probe_find(const probe_result_t *r, const char *probe, int from_cpu, int to_cpu,
                              int to_node)
{
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].from_cpu == from_cpu && r->rows[i].to_cpu == to_cpu &&
            r->rows[i].to_node == to_node && !strcmp(r->rows[i].probe, probe))
            return &r->rows[i];
    return NULL;
}
