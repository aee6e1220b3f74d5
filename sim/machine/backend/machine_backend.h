/* machine_backend: what a machine implementation provides. Not an API.
 *
 * The code above the machine layer (timer core, strategies, run, oracle)
 * calls the cpu_* and machine_* functions of cpu.h. Those are dispatched
 * here, at run time, to one of two implementations:
 *
 *   simulated.c  the simulated machine: SimGrid actors, the coherence model
 *   native.c     the host: pinned POSIX threads, real memory, real atomics
 *
 * so that the timer core and the strategies compile once, with no #ifdef
 * for the backend. A backend's cpu and machine structures start with a
 * pointer to its ops table; machine.c follows that pointer.
 */
#ifndef NUMASIM_MACHINE_BACKEND_H
#define NUMASIM_MACHINE_BACKEND_H

#include "cpu.h"

enum { CPU_MB, CPU_WMB, CPU_RMB };

typedef struct machine_ops {
    const char *name; /* "simgrid" or "native" */
    /* per CPU, called from that CPU only */
    uint64_t (*read)(cpu_t *c, maddr_t a);
    void (*write)(cpu_t *c, maddr_t a, uint64_t v);
    uint64_t (*read_acquire)(cpu_t *c, maddr_t a);
    void (*write_release)(cpu_t *c, maddr_t a, uint64_t v);
    uint64_t (*xchg)(cpu_t *c, maddr_t a, uint64_t v, cpu_order_t o);
    int (*cmpxchg)(cpu_t *c, maddr_t a, uint64_t old, uint64_t nv, cpu_order_t o);
    uint64_t (*fetch_add)(cpu_t *c, maddr_t a, uint64_t d, cpu_order_t o);
    void (*work)(cpu_t *c, uint64_t cycles);
    void (*exec)(cpu_t *c, int code); /* NULL: code is not modelled */
    void (*relax)(cpu_t *c);
    uint64_t (*spin_while_eq)(cpu_t *c, maddr_t a, uint64_t v);
    void (*idle_until)(cpu_t *c, uint64_t cycle);
    void (*flush_cache)(cpu_t *c, int with_code);
    void (*sync)(cpu_t *c);
    void (*progress)(cpu_t *c);
    void (*barrier)(cpu_t *c, int kind); /* kind: CPU_MB, CPU_WMB, CPU_RMB */
    /* the core (cpu.h): no-ops, and read_dep a plain read, where there is
     * none (the native machine; the simulated one with core none) */
    void (*insns)(cpu_t *c, uint64_t n);
    uint64_t (*read_dep)(cpu_t *c, maddr_t a, cpu_tok_t dep, cpu_tok_t *tok);
    void (*use)(cpu_t *c, cpu_tok_t tok);
    void (*branch)(cpu_t *c, cpu_tok_t tok);
    /* cpu_read_branch in one call; NULL: read_dep, then branch */
    uint64_t (*read_branch)(cpu_t *c, maddr_t a);
    void (*serialize)(cpu_t *c);
    /* access counters (1: every cycle accounted for, 0: only the ticks)
     * and Paje states; a backend without them: NULL */
    int (*anatomy)(const cpu_t *c, cpu_anatomy_t *out);
    void (*state_push)(cpu_t *c, const char *name);
    void (*state_pop)(cpu_t *c);
    void (*state_probe)(cpu_t *c, int target);
    void (*call_begin)(cpu_t *c, int measured);
    void (*call_end)(cpu_t *c);
    void (*irq_disable)(cpu_t *c);
    void (*irq_enable)(cpu_t *c);
    void (*tick_now)(cpu_t *c);
    int (*in_irq)(const cpu_t *c);
    uint64_t (*next_tick)(const cpu_t *c);
    uint64_t (*now)(cpu_t *c);
    int (*stopping)(const cpu_t *c);
    int (*id)(const cpu_t *c);
    int (*node)(const cpu_t *c);
    machine_t *(*machine)(cpu_t *c);
    gsl_rng *(*rng)(cpu_t *c);
    /* per machine */
    const platform_t *(*platform)(const machine_t *m);
    cpu_t *(*cpu)(machine_t *m, int id);
    void (*set_program)(machine_t *m, int cpu, cpu_fn fn, void *arg);
    void (*set_tick)(machine_t *m, uint64_t period, uint64_t offset, cpu_fn fn, void *arg);
    void (*stop)(machine_t *m);
    uint64_t (*accesses)(const machine_t *m);
    uint64_t (*switches)(const machine_t *m); /* NULL: none */
    uint64_t (*batched)(const machine_t *m);  /* NULL: none */
    maddr_t (*alloc)(machine_t *m, int node, size_t bytes);
    void (*release)(machine_t *m, maddr_t a, size_t bytes);
    uint64_t (*peek)(const machine_t *m, maddr_t a);
    void (*poke)(machine_t *m, maddr_t a, uint64_t v);
    void (*poke_words)(machine_t *m, maddr_t a, const uint64_t *v, size_t n);
    int (*home)(const machine_t *m, maddr_t a);
    uint64_t (*freed_writes)(const machine_t *m);
    void (*set_jitter)(machine_t *m, uint32_t max_cycles, unsigned long seed);
    int (*code)(machine_t *m, const char *unit); /* NULL: code is not modelled */
    int (*code_bytes)(machine_t *m, const char *unit, uint64_t bytes); /* NULL: likewise */
} machine_ops_t;

/* The ops of the object (its first member). */
static inline const machine_ops_t *cpu_ops(const cpu_t *c)
{
    return *(const machine_ops_t *const *)(const void *)c;
}

static inline const machine_ops_t *machine_ops(const machine_t *m)
{
    return *(const machine_ops_t *const *)(const void *)m;
}

#endif
