/* machine: the cpu_* and machine_* API of cpu.h, dispatched to the backend
 * that made the CPU or machine (see machine_backend.h). One indirect call
 * per operation: that is the whole price of having two backends. */
#include "machine_backend.h"

#include <string.h>

const char *access_kind_name(access_kind_t kind)
{
    static const char *const names[ACCESS_NKINDS] = {"hit",         "upgrade",  "miss_local",
                                                     "miss_remote", "c2c_node", "c2c_remote"};
    return kind < ACCESS_NKINDS ? names[kind] : "?";
}

uint64_t cpu_read(cpu_t *c, maddr_t a)
{
    return cpu_ops(c)->read(c, a);
}

void cpu_write(cpu_t *c, maddr_t a, uint64_t v)
{
    cpu_ops(c)->write(c, a, v);
}

uint64_t cpu_read_acquire(cpu_t *c, maddr_t a)
{
    return cpu_ops(c)->read_acquire(c, a);
}

void cpu_write_release(cpu_t *c, maddr_t a, uint64_t v)
{
    cpu_ops(c)->write_release(c, a, v);
}

uint64_t cpu_xchg(cpu_t *c, maddr_t a, uint64_t v)
{
    return cpu_ops(c)->xchg(c, a, v, CPU_FULL);
}

int cpu_cmpxchg(cpu_t *c, maddr_t a, uint64_t old, uint64_t nv)
{
    return cpu_ops(c)->cmpxchg(c, a, old, nv, CPU_FULL);
}

uint64_t cpu_fetch_add(cpu_t *c, maddr_t a, uint64_t d)
{
    return cpu_ops(c)->fetch_add(c, a, d, CPU_FULL);
}

uint64_t cpu_xchg_order(cpu_t *c, maddr_t a, uint64_t v, cpu_order_t o)
{
    return cpu_ops(c)->xchg(c, a, v, o);
}

int cpu_cmpxchg_order(cpu_t *c, maddr_t a, uint64_t old, uint64_t nv, cpu_order_t o)
{
    return cpu_ops(c)->cmpxchg(c, a, old, nv, o);
}

uint64_t cpu_fetch_add_order(cpu_t *c, maddr_t a, uint64_t d, cpu_order_t o)
{
    return cpu_ops(c)->fetch_add(c, a, d, o);
}

void cpu_work(cpu_t *c, uint64_t cycles)
{
    cpu_ops(c)->work(c, cycles);
}

void cpu_exec(cpu_t *c, int code)
{
    if (code >= 0 && cpu_ops(c)->exec)
        cpu_ops(c)->exec(c, code);
}

int machine_code(machine_t *m, const char *unit)
{
    return machine_ops(m)->code ? machine_ops(m)->code(m, unit) : -1;
}

int machine_code_bytes(machine_t *m, const char *unit, uint64_t bytes)
{
    return machine_ops(m)->code_bytes ? machine_ops(m)->code_bytes(m, unit, bytes) : -1;
}

void cpu_anatomy_accumulate(cpu_anatomy_t *sum, const cpu_anatomy_t *a, const cpu_anatomy_t *b)
{
    /* cpu_anatomy_t is counters only, all uint64_t */
    enum { N = sizeof(cpu_anatomy_t) / sizeof(uint64_t) };
    uint64_t s[N], x[N] = {0}, y[N];
    memcpy(s, sum, sizeof s);
    if (a)
        memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    for (int i = 0; i < N; i++)
        s[i] += y[i] - x[i];
    memcpy(sum, s, sizeof s);
}

void cpu_relax(cpu_t *c)
{
    cpu_ops(c)->relax(c);
}

uint64_t cpu_spin_while_eq(cpu_t *c, maddr_t a, uint64_t v)
{
    return cpu_ops(c)->spin_while_eq(c, a, v);
}

void cpu_idle_until(cpu_t *c, uint64_t cycle)
{
    cpu_ops(c)->idle_until(c, cycle);
}

void cpu_flush_cache(cpu_t *c, int with_code)
{
    cpu_ops(c)->flush_cache(c, with_code);
}

void cpu_sync(cpu_t *c)
{
    cpu_ops(c)->sync(c);
}

void cpu_mb(cpu_t *c)
{
    cpu_ops(c)->barrier(c, CPU_MB);
}

void cpu_wmb(cpu_t *c)
{
    cpu_ops(c)->barrier(c, CPU_WMB);
}

void cpu_rmb(cpu_t *c)
{
    cpu_ops(c)->barrier(c, CPU_RMB);
}

/* The core's calls: a NULL op is a machine without a core (cpu.h). */
void cpu_insns(cpu_t *c, uint64_t n)
{
    if (cpu_ops(c)->insns)
        cpu_ops(c)->insns(c, n);
}

uint64_t cpu_read_dep(cpu_t *c, maddr_t a, cpu_tok_t dep, cpu_tok_t *tok)
{
    if (cpu_ops(c)->read_dep)
        return cpu_ops(c)->read_dep(c, a, dep, tok);
    *tok = 0;
    return cpu_ops(c)->read(c, a);
}

void cpu_use(cpu_t *c, cpu_tok_t tok)
{
    if (cpu_ops(c)->use)
        cpu_ops(c)->use(c, tok);
}

void cpu_branch(cpu_t *c, cpu_tok_t tok)
{
    if (cpu_ops(c)->branch)
        cpu_ops(c)->branch(c, tok);
}

uint64_t cpu_read_branch(cpu_t *c, maddr_t a)
{
    if (cpu_ops(c)->read_branch)
        return cpu_ops(c)->read_branch(c, a);
    cpu_tok_t tok;
    uint64_t v = cpu_read_dep(c, a, 0, &tok);
    cpu_branch(c, tok);
    return v;
}

void cpu_serialize(cpu_t *c)
{
    if (cpu_ops(c)->serialize)
        cpu_ops(c)->serialize(c);
}

void cpu_progress(cpu_t *c)
{
    cpu_ops(c)->progress(c);
}

int cpu_anatomy(const cpu_t *c, cpu_anatomy_t *out)
{
    if (cpu_ops(c)->anatomy)
        return cpu_ops(c)->anatomy(c, out);
    memset(out, 0, sizeof *out); /* the host does not say what its accesses found */
    return 0;
}

void cpu_state_push(cpu_t *c, const char *name)
{
    if (cpu_ops(c)->state_push)
        cpu_ops(c)->state_push(c, name);
}

void cpu_state_pop(cpu_t *c)
{
    if (cpu_ops(c)->state_pop)
        cpu_ops(c)->state_pop(c);
}

void cpu_state_probe(cpu_t *c, int target)
{
    if (cpu_ops(c)->state_probe)
        cpu_ops(c)->state_probe(c, target);
}

void cpu_call_begin(cpu_t *c, int measured)
{
    if (cpu_ops(c)->call_begin)
        cpu_ops(c)->call_begin(c, measured);
}

void cpu_call_end(cpu_t *c)
{
    if (cpu_ops(c)->call_end)
        cpu_ops(c)->call_end(c);
}

void cpu_irq_disable(cpu_t *c)
{
    cpu_ops(c)->irq_disable(c);
}

void cpu_irq_enable(cpu_t *c)
{
    cpu_ops(c)->irq_enable(c);
}

void cpu_tick_now(cpu_t *c)
{
    cpu_ops(c)->tick_now(c);
}

int cpu_in_irq(const cpu_t *c)
{
    return cpu_ops(c)->in_irq(c);
}

uint64_t cpu_next_tick(const cpu_t *c)
{
    return cpu_ops(c)->next_tick(c);
}

uint64_t cpu_now(cpu_t *c)
{
    return cpu_ops(c)->now(c);
}

int cpu_stopping(const cpu_t *c)
{
    return cpu_ops(c)->stopping(c);
}

int cpu_id(const cpu_t *c)
{
    return cpu_ops(c)->id(c);
}

int cpu_node(const cpu_t *c)
{
    return cpu_ops(c)->node(c);
}

machine_t *cpu_machine(cpu_t *c)
{
    return cpu_ops(c)->machine(c);
}

gsl_rng *cpu_rng(cpu_t *c)
{
    return cpu_ops(c)->rng(c);
}

const platform_t *machine_platform(const machine_t *m)
{
    return machine_ops(m)->platform(m);
}

int machine_ncpus(const machine_t *m)
{
    return machine_platform(m)->ncpus;
}

cpu_t *machine_cpu(machine_t *m, int id)
{
    return machine_ops(m)->cpu(m, id);
}

void machine_set_program(machine_t *m, int cpu, cpu_fn fn, void *arg)
{
    machine_ops(m)->set_program(m, cpu, fn, arg);
}

void machine_set_tick(machine_t *m, uint64_t period, uint64_t offset, cpu_fn fn, void *arg)
{
    machine_ops(m)->set_tick(m, period, offset, fn, arg);
}

void machine_stop(machine_t *m)
{
    machine_ops(m)->stop(m);
}

uint64_t machine_accesses(const machine_t *m)
{
    return machine_ops(m)->accesses(m);
}

uint64_t machine_switches(const machine_t *m)
{
    return machine_ops(m)->switches ? machine_ops(m)->switches(m) : 0;
}

uint64_t machine_batched_reads(const machine_t *m)
{
    return machine_ops(m)->batched ? machine_ops(m)->batched(m) : 0;
}

maddr_t machine_alloc(machine_t *m, int node, size_t bytes)
{
    return machine_ops(m)->alloc(m, node, bytes);
}

void machine_release(machine_t *m, maddr_t a, size_t bytes)
{
    machine_ops(m)->release(m, a, bytes);
}

uint64_t machine_peek(const machine_t *m, maddr_t a)
{
    return machine_ops(m)->peek(m, a);
}

void machine_poke(machine_t *m, maddr_t a, uint64_t v)
{
    machine_ops(m)->poke(m, a, v);
}

void machine_poke_words(machine_t *m, maddr_t a, const uint64_t *v, size_t n)
{
    machine_ops(m)->poke_words(m, a, v, n);
}

int machine_home(const machine_t *m, maddr_t a)
{
    return machine_ops(m)->home(m, a);
}

uint64_t machine_freed_writes(const machine_t *m)
{
    return machine_ops(m)->freed_writes(m);
}

void machine_set_jitter(machine_t *m, uint32_t max_cycles, unsigned long seed)
{
    machine_ops(m)->set_jitter(m, max_cycles, seed);
}

const char *machine_backend_name(const machine_t *m)
{
    return machine_ops(m)->name;
}
