/* probe_cell: the cells of a probe run and what the probes' programs
 * share. Theory of operation.
 *
 * A cell is one row of the CSV: a probe between two CPUs, with its raw
 * samples (in host memory, written by the timing CPU only). probe.c builds
 * the cells of the coherence probes and runs them; probe_cache.c those of
 * the chase and pause probes, probe_core.c those of the core. They use the
 * barrier (a counter and a generation word in machine memory:
 * fetch-and-add, then spin, the same on simulated CPUs and real threads),
 * the timed timer pair and the chase buffer, which live here so that calls
 * go one way: probe.c -> probe_cache.c -> probe_core.c -> probe_cell.c.
 */
#include "probe_internal.h"

#include "xalloc.h"

#include <string.h>

cell_t *probe_add_cell(probe_ctx_t *X, machine_t *m, kind_t kind, int from, int to, int home, int k,
                       int with_line)
{
    if (X->ncells == X->cap) {
        X->cap = X->cap ? 2 * X->cap : 64;
        X->cells = xrealloc(X->cells, sizeof *X->cells * (size_t)X->cap);
    }
    cell_t *c = &X->cells[X->ncells++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->from = from;
    c->to = to;
    c->home = home;
    c->nsharers = k;
    c->reps = X->reps;
    c->batch = kind == K_HIT || kind == K_ATOMIC || kind == K_TIMER_OPS ? PROBE_BATCH : 1;
    if (with_line)
        c->line = machine_alloc(m, home, 2 * (size_t)X->p->line_bytes);
    c->sample = xcalloc((size_t)X->reps, sizeof *c->sample);
    return c;
}

void probe_barrier(cpu_t *c, const probe_ctx_t *X)
{
    cpu_progress(c); /* for the native machine's watchdog */
    uint64_t gen = cpu_read(c, X->bar_gen);
    if (cpu_fetch_add(c, X->bar_count, 1) == (uint64_t)X->p->ncpus - 1) {
        cpu_write(c, X->bar_count, 0);
        cpu_write(c, X->bar_gen, gen + 1);
    } else {
        cpu_spin_while_eq(c, X->bar_gen, gen);
    }
}

void probe_timer_pair(cpu_t *c, const probe_ctx_t *X)
{
    mod_timer(c, X->tc, X->timer, read_jiffies(c, X->tc) + 100);
    del_timer(c, X->tc, X->timer);
}

maddr_t probe_chase_buf(cpu_t *c, probe_ctx_t *X)
{
    if (!X->chase_buf)
        X->chase_buf = machine_alloc(cpu_machine(c), X->p->cpu_node[0], (size_t)X->chase_max);
    return X->chase_buf;
}
