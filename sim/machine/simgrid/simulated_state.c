/* simulated_state: the operations of the ops table that take no step of
 * the simulation: what a CPU or the machine is (its id, node, platform,
 * counters, anatomy), the memory the layers above allocate, peek and poke
 * at no cost, the tick's set-up, the code units' layout, and the Paje
 * hooks but the two the scheduler uses itself.
 * They read and set fields, and call the memory system and paje.c; they
 * call nothing of simulated.c, whose ops table names them.
 */
#include "simulated_internal.h"

#include "paje.h"
#include "xalloc.h"

#include <stdio.h>
#include <string.h>

int sim_in_irq(const cpu_t *c)
{
    return c->in_irq;
}

uint64_t sim_next_tick(const cpu_t *c)
{
    return c->next_tick;
}

int sim_anatomy(const cpu_t *c, cpu_anatomy_t *out)
{
    *out = c->an;
    if (c->m->levels)
        for (size_t i = 0; i < sizeof out->hit_level / sizeof *out->hit_level; i++)
            out->hit_level[i] = c->lvl_hits[CACHE_L1D + 1 + i];
    out->evictions = mem_evictions(c->m->mem, c->id, 0);
    out->footprint_evictions = mem_evictions(c->m->mem, c->id, 1);
    return 1;
}

void sim_state_probe(cpu_t *c, int target)
{
    if (c->m->paje)
        paje_probe(c->m->paje, c->id, c->now, target);
}

void sim_call_begin(cpu_t *c, int measured)
{
    if (c->m->paje)
        paje_call_begin(c->m->paje, c->id, c->now, measured);
}

void sim_call_end(cpu_t *c)
{
    if (c->m->paje)
        paje_call_end(c->m->paje, c->id, c->now);
}

int sim_id(const cpu_t *c)
{
    return c->id;
}

int sim_node(const cpu_t *c)
{
    return c->node;
}

machine_t *sim_machine(cpu_t *c)
{
    return c->m;
}

uint64_t sim_now(cpu_t *c)
{
    return c->now;
}

int sim_stopping(const cpu_t *c)
{
    return c->m->stopping;
}

gsl_rng *sim_rng(cpu_t *c)
{
    return c->rng;
}

const platform_t *sim_platform(const machine_t *m)
{
    return m->p;
}

cpu_t *sim_cpu(machine_t *m, int id)
{
    return id >= 0 && id < m->n ? &m->cpus[id] : NULL;
}

void sim_set_program(machine_t *m, int cpu, cpu_fn fn, void *arg)
{
    m->cpus[cpu].prog = fn;
    m->cpus[cpu].arg = arg;
}

void sim_stop(machine_t *m)
{
    m->stopping = 1;
    for (int i = 0; i < m->n; i++)
        m->cpus[i].irq_at = UINT64_MAX;
}

/* Every access (a spin read the fast-forward skipped too) counts once in
 * its CPU's anatomy, by kind: their sum, not a counter of its own. */
uint64_t sim_accesses(const machine_t *m)
{
    uint64_t n = 0;
    for (int i = 0; i < m->n; i++)
        for (int k = 0; k < ACCESS_NKINDS; k++)
            n += m->cpus[i].an.n[k];
    return n;
}

uint64_t sim_switches(const machine_t *m)
{
    return m->switches;
}

uint64_t sim_batched(const machine_t *m)
{
    return m->batched;
}

maddr_t sim_alloc(machine_t *m, int node, size_t bytes)
{
    return mem_alloc(m->mem, node, bytes);
}

void sim_release(machine_t *m, maddr_t a, size_t bytes)
{
    mem_release(m->mem, a, bytes);
}

uint64_t sim_peek(const machine_t *m, maddr_t a)
{
    if (m->order) /* the value once every buffered store is visible */
        return order_peek(m->order, a);
    return mem_peek(m->mem, a);
}

void sim_poke(machine_t *m, maddr_t a, uint64_t v)
{
    mem_poke(m->mem, a, v);
}

void sim_poke_words(machine_t *m, maddr_t a, const uint64_t *v, size_t n)
{
    mem_poke_words(m->mem, a, v, n);
}

int sim_home(const machine_t *m, maddr_t a)
{
    return mem_home(m->mem, a);
}

uint64_t sim_freed_writes(const machine_t *m)
{
    return mem_freed_writes(m->mem);
}

void sim_set_jitter(machine_t *m, uint32_t max_cycles, unsigned long seed)
{
    mem_set_jitter(m->mem, max_cycles, seed);
}

void sim_flush_cache(cpu_t *c, int with_code)
{
    if (c->m->order)
        order_flush(c->m->order, c->id);
    mem_flush(c->m->mem, c->id, with_code);
}

void sim_progress(cpu_t *c)
{
    (void)c; /* a simulation that cannot go on aborts in pass_baton */
}

void sim_set_tick(machine_t *m, uint64_t period, uint64_t offset, cpu_fn fn, void *arg)
{
    m->tick_period = period ? period : 1;
    m->tick_offset = offset;
    m->tick_fn = fn;
    m->tick_arg = arg;
    for (int i = 0; i < m->n; i++) {
        m->cpus[i].next_tick = offset + (uint64_t)i * m->tick_period / (uint64_t)m->n;
        irq_rearm(&m->cpus[i]);
    }
}

/* machine_code: the unit's lines, laid out in text_node's memory once,
 * and the instructions the core issues for it. */
int sim_code(machine_t *m, const char *unit)
{
    int h = sim_code_bytes(m, unit, platform_code_bytes(m->p, unit));
    if (h >= 0)
        m->code[h].insns = platform_code_insns(m->p, unit);
    return h;
}

int sim_code_bytes(machine_t *m, const char *unit, uint64_t bytes)
{
    for (int i = 0; i < m->ncode; i++)
        if (strcmp(m->code[i].unit, unit) == 0)
            return m->code[i].lines ? i : -1;
    m->code = xrealloc(m->code, sizeof *m->code * (size_t)(m->ncode + 1));
    sim_code_t *k = &m->code[m->ncode];
    snprintf(k->unit, sizeof k->unit, "%s", unit);
    k->insns = 0;
    k->lines = (bytes + (uint64_t)m->p->line_bytes - 1) / (uint64_t)m->p->line_bytes;
    k->addr = k->lines ? mem_alloc(m->mem, m->p->text_node, bytes) : 0;
    if (k->lines)
        mem_mark_code(m->mem, k->addr, bytes);
    return k->lines ? m->ncode++ : (m->ncode++, -1);
}
