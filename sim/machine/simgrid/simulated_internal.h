/* simulated_internal: what the two files of the simulated machine share
 * (simulated.c: the CPUs, their scheduling and operations; simulated_run.c:
 * creating and running the machine); not an API. */
#ifndef NUMASIM_SIMULATED_INTERNAL_H
#define NUMASIM_SIMULATED_INTERNAL_H

#include "coro.h"
#include "machine_backend.h"
#include "mem.h"
#include "order.h"
#include "paje.h"

#include <stdint.h>

enum { CODE_MEMO = 16 }; /* code units whose fetches sim_exec can skip */

struct cpu {
    const machine_ops_t *ops; /* first: see machine_backend.h */
    int id, node;
    machine_t *m;
    uint64_t now;
    uint64_t next_tick;
    uint64_t irq_at; /* next_tick, or UINT64_MAX: see irq_rearm */
    int irq_off, in_irq;
    cpu_fn prog;
    void *arg;
    gsl_rng *rng;
    /* spin fast-forward (cpu_spin_while_eq) */
    coro_t co; /* the baton scheduler's stack for this CPU */
    int watching, woken;
    uint64_t watch_line, watch_t0, watch_iter, resume;
    cpu_anatomy_t an;
    /* data hits by level, at [level + 1] ([0]: no level, not counted):
     * an.hit_level without a test per access (sim_anatomy copies them) */
    uint64_t lvl_hits[CACHE_NLEVELS + 1];
    /* [unit]: mem_code_version when a fetch of the whole unit found every
     * line private and changed nothing: then a fetch at the same version
     * would do the same (sim_exec skips it) */
    uint64_t code_ver[CODE_MEMO];
    struct core *core; /* core.c's state; NULL with core none */
};

/* A code unit of machine_code: its lines in text_node's memory. */
typedef struct {
    char unit[64];
    maddr_t addr;
    uint64_t lines; /* 0: the platform gives it no code */
    uint64_t insns; /* the instructions the core issues for it (0: core none, a probe's unit) */
} sim_code_t;

typedef struct {
    uint64_t key;
    int cpu;
} heapent_t;

struct machine {
    const machine_ops_t *ops; /* first: see machine_backend.h */
    platform_t *p;
    mem_t *mem;
    int n;
    cpu_t *cpus;
    int kshift;
    uint64_t limit;  /* first cycle that cannot be keyed exactly */
    heapent_t *heap; /* next keys, a min-heap: the key beside its CPU, one load to compare */
    int *pos;        /* [cpu]: its index in heap */
    uint64_t bound;  /* the root keeps the baton below this key: see heap_bound */
    uint64_t tick_period, tick_offset;
    cpu_fn tick_fn;
    void *tick_arg;
    int stopping, always_yield;
    void (*irq_return)(cpu_t *c); /* the core's wait at a handler's return, or NULL */
    unsigned long seed;
    const machine_hooks_t *hooks;
    err_t *err;
    int rc;
    uint64_t switches, batched;
    int nwatch;
    int *watchers;  /* CPUs in cpu_spin_while_eq's fast-forward */
    paje_t *paje;   /* NULL unless a Paje trace is written */
    int ended;      /* CPUs whose actor is done */
    order_t *order; /* store buffers, invalidate queues; NULL on sc */
    /* the cache levels' mechanisms, when the platform has them */
    int levels;           /* mem_has_levels() */
    uint32_t spin_hit;    /* mem_spin_hit_cycles(): a hit in the store buffer's terms */
    uint32_t store_entry; /* a store's entry in the buffer: spin_hit, or 0 (core.c) */
    int tlbs;             /* mem_has_tlbs() */
    int noise;            /* a noise footprint: mem_footprint_time at every step */
    int spin_exact;       /* mem_spin_exact(): the spin fast-forward may skip hits */
    sim_code_t *code;
    int ncode;
    coro_t boot_co; /* the boot actor's own stack, while the CPUs run */
};

/* The operations of a simulated CPU and machine (simulated.c); sim_run
 * puts it first in the machine and in every CPU. */
extern const machine_ops_t sim_ops;

/* c->irq_at: the cycle of c's next interrupt, its next tick while ticks
 * run and its interrupts are on, else never; every change of those calls
 * this, so that an access tests one field. */
static inline void irq_rearm(cpu_t *c)
{
    const machine_t *m = c->m;
    int on = (m->tick_fn != NULL) & !m->stopping & !c->irq_off; /* one branch at most */
    c->irq_at = on ? c->next_tick : UINT64_MAX;
}

/* On tso and weak: waits, as plain work, until c's buffered stores (whole:
 * all; else those to a's line) are visible (simulated.c). */
void sim_drain_stores(cpu_t *c, maddr_t a, int whole);

/* The operations that take no step (simulated_state.c), for the ops table
 * of simulated.c: machine_backend.h says what each does. */
int sim_in_irq(const cpu_t *c);
uint64_t sim_next_tick(const cpu_t *c);
int sim_anatomy(const cpu_t *c, cpu_anatomy_t *out);
void sim_state_probe(cpu_t *c, int target);
void sim_call_begin(cpu_t *c, int measured);
void sim_call_end(cpu_t *c);
int sim_id(const cpu_t *c);
int sim_node(const cpu_t *c);
machine_t *sim_machine(cpu_t *c);
uint64_t sim_now(cpu_t *c);
int sim_stopping(const cpu_t *c);
gsl_rng *sim_rng(cpu_t *c);
const platform_t *sim_platform(const machine_t *m);
cpu_t *sim_cpu(machine_t *m, int id);
void sim_set_program(machine_t *m, int cpu, cpu_fn fn, void *arg);
void sim_stop(machine_t *m);
uint64_t sim_accesses(const machine_t *m);
uint64_t sim_switches(const machine_t *m);
uint64_t sim_batched(const machine_t *m);
maddr_t sim_alloc(machine_t *m, int node, size_t bytes);
void sim_release(machine_t *m, maddr_t a, size_t bytes);
uint64_t sim_peek(const machine_t *m, maddr_t a);
void sim_poke(machine_t *m, maddr_t a, uint64_t v);
void sim_poke_words(machine_t *m, maddr_t a, const uint64_t *v, size_t n);
int sim_home(const machine_t *m, maddr_t a);
uint64_t sim_freed_writes(const machine_t *m);
void sim_set_jitter(machine_t *m, uint32_t max_cycles, unsigned long seed);
void sim_progress(cpu_t *c);
void sim_set_tick(machine_t *m, uint64_t period, uint64_t offset, cpu_fn fn, void *arg);
int sim_code(machine_t *m, const char *unit);
int sim_code_bytes(machine_t *m, const char *unit, uint64_t bytes);
void sim_flush_cache(cpu_t *c, int with_code);

/* Steps for the core (core.c), which wraps the operations above and those
 * of sim_ops (simulated.c).
 * sim_poll_irq takes the ticks due now (inline: most accesses have none).
 * sim_wait_until advances c to cycle, taking the ticks due on the way at
 * their cycle, and returns the cycles that were not theirs.
 * sim_fetch_line fetches the code line at a now (a step), counts it
 * (code_lines, code_misses, code_cycles...), and returns its cost without
 * charging it; *private is cleared when the fetch took a step.
 * sim_code_known: nonzero when every line of unit code is known to be a
 * free private hit (the unit's lines are then counted and need no fetch);
 * else *ver is what sim_code_fetched needs once the unit is fetched, with
 * private still set if every fetch was private: then the next
 * sim_code_known at the same version knows it. */
void sim_take_ticks(cpu_t *c);
static inline void sim_poll_irq(cpu_t *c)
{
    if (c->irq_at <= c->now)
        sim_take_ticks(c);
}
uint64_t sim_wait_until(cpu_t *c, uint64_t cycle);
uint32_t sim_fetch_line(cpu_t *c, maddr_t a, int *private);
static inline int sim_code_known(cpu_t *c, int code, uint64_t *ver)
{
    *ver = code < CODE_MEMO ? mem_code_version(c->m->mem, c->id) : 0;
    if (!*ver || c->code_ver[code] != *ver)
        return 0;
    c->an.code_lines += c->m->code[code].lines;
    return 1;
}
static inline void sim_code_fetched(cpu_t *c, int code, uint64_t ver, int private)
{
    if (ver && private && mem_code_version(c->m->mem, c->id) == ver)
        c->code_ver[code] = ver;
}

/* A CPU runs its program, then takes ticks until the machine stops.
 * sim_cpu_main is the SimGrid actor of a CPU under the reference scheduler
 * (its data is its cpu_t; the last to end emits the Paje trace).
 * sim_cpu_coro is a CPU's coroutine under the baton scheduler (arg: its
 * cpu_t); it ends by handing the baton on for good. */
void sim_cpu_main(int argc, char **argv);
void sim_cpu_coro(void *arg);

/* The key below which the root's CPU is still the earliest: the smaller of
 * its children's keys (two sentinels follow the heap), or 0 under the
 * reference scheduler, which yields at every step. Kept by every change
 * of the heap, so that a step compares its key once. */
static inline void heap_bound(struct machine *m)
{
    uint64_t k = m->heap[1].key < m->heap[2].key ? m->heap[1].key : m->heap[2].key;
    m->bound = m->always_yield ? 0 : k;
}

#endif
