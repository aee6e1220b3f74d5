/* cpu: the machine API. Every layer above the machine (timer core,
 * strategies, the run's programs, the oracle, the probes) touches memory and
 * time only through these functions, so the same code runs on two machines
 * (dispatched at run time, see backend/machine_backend.h):
 *
 *   simulated  (machine/simgrid/) CPUs are coroutines of one SimGrid actor
 *              (one actor each under the reference scheduler); each access
 *              pays what the memory system (machine/memory/) says; every
 *              CPU keeps its own cycle counter and CPUs run in (cycle, CPU
 *              id) order;
 *   native     (machine/native/native.c) CPUs are pinned threads of this host;
 *              accesses are real atomics on real memory; time is the TSC.
 *
 * A CPU runs a program (a C function). A periodic interrupt (the tick) can
 * be installed: it is taken between two steps when interrupts are enabled,
 * with interrupts disabled while it runs.
 */
#ifndef NUMASIM_CPU_H
#define NUMASIM_CPU_H

#include "err.h"
#include "platform.h"

#include <gsl/gsl_rng.h>
#include <stdint.h>

/* A machine address: on the simulated machine a byte address in its own
 * memory, on the native one a pointer. 0 is NULL. */
typedef uint64_t maddr_t;

/* What a memory access found, from cheapest to dearest (the anatomy counts
 * accesses and their cycles by kind; the native machine counts none). */
typedef enum {
    ACCESS_HIT,         /* held by this CPU in a state that allows the op */
    ACCESS_UPGRADE,     /* held shared, a write needs the other copies gone */
    ACCESS_MISS_LOCAL,  /* served by this node's memory */
    ACCESS_MISS_REMOTE, /* served by another node's memory */
    ACCESS_C2C_NODE,    /* modified in another cache on this node's bus */
    ACCESS_C2C_REMOTE,  /* modified in a cache of another node */
    ACCESS_NKINDS
} access_kind_t;

/* "hit", "upgrade", "miss_local", ... (the CSV's column stems); "?" past
 * the last. */
const char *access_kind_name(access_kind_t kind);

typedef struct cpu cpu_t;
typedef struct machine machine_t;
typedef void (*cpu_fn)(cpu_t *c, void *arg);
typedef void (*machine_setup_fn)(machine_t *m, void *arg);

typedef struct {
    machine_setup_fn setup;  /* at cycle 0: allocate objects, install programs */
    machine_setup_fn finish; /* after the last CPU ended, before teardown */
    void *arg;
} machine_hooks_t;

/* What a CPU spent its cycles on since it started (the anatomy of a call is
 * the difference of two snapshots). Every cycle of the CPU's counter falls
 * in exactly one of: an access (by kind), a cpu_relax, other plain work or
 * idling. */
typedef struct {
    uint64_t
        n[ACCESS_NKINDS]; /* accesses by kind; spin reads skipped by the fast-forward are hits */
    uint64_t cycles[ACCESS_NKINDS]; /* what they cost, jitter included */
    uint64_t relax_cycles;          /* cpu_relax() pauses */
    uint64_t work_cycles;           /* cpu_work() other than relax, and idling */
    uint64_t ticks;                 /* ticks taken */
    uint64_t tick_cycles;           /* cycles inside tick handlers (already in the above) */
    /* Cache levels (0 on platforms without them). Hits of the data side by
     * the level that served them (l1d, l2, l3; in n[ACCESS_HIT] already). */
    uint64_t hit_level[3];
    uint64_t code_lines;          /* code lines fetched (cpu_exec) */
    uint64_t code_misses;         /* of them, not in L1I (or not held, without levels) */
    uint64_t code_remote;         /* of them, from another node's memory */
    uint64_t code_cycles;         /* their cost: a term of the counter of its own */
    uint64_t evictions;           /* lines this CPU lost by capacity (footprints included) */
    uint64_t footprint_evictions; /* of them, evicted by a footprint */
    /* TLBs (0 on platforms without them): translations of the accesses and
     * code fetches above found in a second level, or walked, and what the
     * translations cost (in the accesses' and code's cycles already). */
    uint64_t tlb2_hits, tlb_walks, tlb_cycles;
    /* The core (platform prop core; all 0 with core none, the default):
     * issue_cycles, a term of the counter, are cycles of issuing
     * instructions (cpu_insns, and one per access); of the accesses' and
     * code's cycles above, hidden_cycles overlapped other work and are not
     * on the counter (subtract them), stall_cycles were paid later than
     * their access, at a use, a dependent load, a full window or a drain. */
    uint64_t issue_cycles;
    uint64_t stall_cycles;
    uint64_t hidden_cycles;
    uint64_t overlapped;    /* misses issued while another was outstanding */
    uint64_t code_streamed; /* code lines fetched ahead of their use (cpu_exec) */
} cpu_anatomy_t;

/* sum += b - a, field by field (a NULL: zero), for every counter above. */
void cpu_anatomy_accumulate(cpu_anatomy_t *sum, const cpu_anatomy_t *a, const cpu_anatomy_t *b);

/* --- for setup() --- */
const platform_t *machine_platform(const machine_t *m);
int machine_ncpus(const machine_t *m);
cpu_t *machine_cpu(machine_t *m, int id);
void machine_set_program(machine_t *m, int cpu, cpu_fn fn, void *arg);
/* Every CPU takes fn every period cycles; CPU i's first tick is at
 * offset + i * period / ncpus (local timers are not in phase). */
void machine_set_tick(machine_t *m, uint64_t period, uint64_t offset, cpu_fn fn, void *arg);

/* Memory of the machine, for setup code and the layers above (the timer
 * core allocates its bases and timers here). alloc returns zeroed memory
 * homed on node, line-aligned, never 0; release marks it freed (later writes
 * are counted by machine_freed_writes). peek/poke are cost-free accesses to
 * the 8-byte word at a, for bookkeeping, not for simulated code. */
maddr_t machine_alloc(machine_t *m, int node, size_t bytes);
void machine_release(machine_t *m, maddr_t a, size_t bytes);
uint64_t machine_peek(const machine_t *m, maddr_t a);
void machine_poke(machine_t *m, maddr_t a, uint64_t v);
/* machine_poke of v[0..n) to the n words from a (one call for a whole
 * structure: thousands of CPUs' timer bases are millions of words). */
void machine_poke_words(machine_t *m, maddr_t a, const uint64_t *v, size_t n);
int machine_home(const machine_t *m, maddr_t a);
uint64_t machine_freed_writes(const machine_t *m);
/* Kernel text. From setup: the handle of code unit `unit`, whose size the
 * platform gives (prop code_UNIT_bytes), laid out in the memory of the
 * platform's text_node; -1 when the platform gives it no size, or on the
 * native machine (whose code is real). The same unit gives the same handle. */
int machine_code(machine_t *m, const char *unit);
/* The same for a unit of the given size, whatever the platform says (for
 * probes of the front end: code_N). The native machine generates it: a
 * function of the size rounded up to whole lines (NOPs, then a return) in
 * executable memory of its own (native/native_code.c); -1 on hosts other
 * than x86 and aarch64, or when the host refuses executable memory. Either
 * machine may be asked from a CPU's program as well as from setup. */
int machine_code_bytes(machine_t *m, const char *unit, uint64_t bytes);

/* Adds a uniform draw in [0, max_cycles] to every miss (simulated machine
 * only; the host has its own noise). */
void machine_set_jitter(machine_t *m, uint32_t max_cycles, unsigned long seed);
/* "simgrid" or "native". */
const char *machine_backend_name(const machine_t *m);

/* Asks every CPU to finish: cpu_stopping() turns true, ticks stop, idle
 * CPUs end. */
void machine_stop(machine_t *m);
/* Memory accesses simulated so far, spin reads skipped over by the
 * fast-forward included, and baton passes between CPUs (for the benchmark). */
uint64_t machine_accesses(const machine_t *m);
uint64_t machine_switches(const machine_t *m);
/* Spin-loop reads that cpu_spin_while_eq skipped over (all hits). */
uint64_t machine_batched_reads(const machine_t *m);

/* --- for code running on a CPU (only from that CPU's actor) --- */
int cpu_id(const cpu_t *c);
int cpu_node(const cpu_t *c);
machine_t *cpu_machine(cpu_t *c);
uint64_t cpu_now(cpu_t *c); /* this CPU's cycle counter, read behind a fence (lfence; rdtsc) */
int cpu_stopping(const cpu_t *c);
gsl_rng *cpu_rng(cpu_t *c); /* this CPU's generator, seeded from the run's seed */

/* What an access promises about the order in which other CPUs see it
 * (the platform's memory_model decides what is left unordered; see
 * machine/memory/order.h). On a sequentially consistent platform all are equal.
 *
 *   RELAXED  a plain load or store (ld8/st8, READ_ONCE/WRITE_ONCE): only
 *            per-location coherence; may be reordered with any other access
 *   ACQUIRE  (loads, RMWs) no later access of this CPU is performed before
 *            it (ld.acq, smp_load_acquire, cmpxchg.acq)
 *   RELEASE  (stores, RMWs) every earlier access of this CPU is performed
 *            before it, and it becomes visible to all CPUs at once (st.rel,
 *            smp_store_release, spin_unlock)
 *   FULL     (RMWs) both, and a full fence on each side (Linux's xchg,
 *            cmpxchg, atomic_*_return) */
typedef enum { CPU_RELAXED, CPU_ACQUIRE, CPU_RELEASE, CPU_FULL } cpu_order_t;

/* Plain (relaxed) load and store of the 8-byte word at a. */
uint64_t cpu_read(cpu_t *c, maddr_t a);
void cpu_write(cpu_t *c, maddr_t a, uint64_t v);
/* Acquire load, release store. */
uint64_t cpu_read_acquire(cpu_t *c, maddr_t a);
void cpu_write_release(cpu_t *c, maddr_t a, uint64_t v);
/* Read-modify-writes, fully ordered as Linux's are. */
uint64_t cpu_xchg(cpu_t *c, maddr_t a, uint64_t v);
/* Stores nv if the word equals old; returns 1 when it did. */
int cpu_cmpxchg(cpu_t *c, maddr_t a, uint64_t old, uint64_t nv);
uint64_t cpu_fetch_add(cpu_t *c, maddr_t a, uint64_t d);
/* The same with the ordering given (xchg_acquire, cmpxchg_release, ...). */
uint64_t cpu_xchg_order(cpu_t *c, maddr_t a, uint64_t v, cpu_order_t o);
int cpu_cmpxchg_order(cpu_t *c, maddr_t a, uint64_t old, uint64_t nv, cpu_order_t o);
uint64_t cpu_fetch_add_order(cpu_t *c, maddr_t a, uint64_t d, cpu_order_t o);

void cpu_work(cpu_t *c, uint64_t cycles); /* plain work, interruptible */
/* Runs code unit `code` (machine_code): the simulated CPU fetches each of
 * its lines through the instruction side of its caches and pays the misses
 * (with a core: streamed ahead, and the unit's instructions issued as its
 * lines arrive); the native CPU calls the generated function
 * (machine_code_bytes), whose lines the host's front end fetches as it
 * fetches any code. A no-op for -1. */
void cpu_exec(cpu_t *c, int code);
void cpu_relax(cpu_t *c); /* one spin-loop pause */
/* Memory barriers (smp_mb, smp_wmb, smp_rmb). Simulated: barrier_cycles
 * of plain work each, plus what the platform's memory_model makes them wait
 * for: nothing on sc; on tso smp_mb waits for the store buffer to drain
 * (wmb and rmb order nothing TSO does not order already); on weak all
 * three are IA-64's mf and drain the store buffer and the invalidate
 * queue. Native: the host's fences (mb: a full fence; wmb: a store-store
 * fence, rmb: a load-load fence, both nothing but a compiler barrier on
 * x86). */
void cpu_mb(cpu_t *c);
void cpu_wmb(cpu_t *c);
void cpu_rmb(cpu_t *c);
/* while (cpu_read(c, a) == v) cpu_relax(c); returns the value that ended
 * it. Exactly the same cycles and interleaving, but the iterations that only
 * hit a held line are skipped until another CPU writes it or a tick comes. */
uint64_t cpu_spin_while_eq(cpu_t *c, maddr_t a, uint64_t v);
void cpu_idle_until(cpu_t *c, uint64_t cycle); /* nothing to do until then */
/* Empties c's caches of the data lines it holds (with_code: of its code
 * lines too, which the simulated machine fetches again). The native machine
 * flushes the data the run allocated from every CPU's caches, and with_code
 * the lines of its generated code units (machine_code_bytes; clflush on
 * x86, dc civac and ic ivau on aarch64), never numasim's own code. */
void cpu_flush_cache(cpu_t *c, int with_code);
/* Lets every other CPU catch up to this CPU's cycle, so that what is read
 * from simulated state next (at no cost) is as of now. */
void cpu_sync(cpu_t *c);

/* The core that executes (platform prop core, machine/simgrid/core.h).
 * Code tells the core what it cannot see from a synchronous API: how many
 * plain instructions it runs, and which loads' values it uses when. A load
 * started by cpu_read_dep returns its value at once (the value as of its
 * start, as every access), but the CPU pays its latency only where the
 * value is needed: at cpu_use of its token, at a load that names it as
 * dep (its address came from that value: a pointer chase), or at a drain
 * (fences, serialising instructions, and on an out-of-order core the
 * RMWs). Every other access still waits for its own value. A code unit's
 * instructions are the platform's (code_UNIT_insns): cpu_exec issues them
 * as its lines arrive, so the code says only what the unit table cannot:
 * dependences, branches and uses. With core none and on the native
 * machine, cpu_insns, cpu_use, cpu_branch and cpu_serialize do nothing and
 * cpu_read_dep is cpu_read with *tok = 0, so annotated code runs unchanged.
 * A token is never reused; one whose load has completed (or 0) costs
 * nothing to use. */
typedef uint64_t cpu_tok_t;
/* n plain instructions, issued in order at the platform's core_width a
 * cycle (and on an out-of-order core within core_rob of the oldest
 * load still outstanding). */
void cpu_insns(cpu_t *c, uint64_t n);
/* A plain load of the word at a whose address depends on the load dep (0:
 * none); *tok names it for cpu_use and later dependent loads. */
uint64_t cpu_read_dep(cpu_t *c, maddr_t a, cpu_tok_t dep, cpu_tok_t *tok);
/* The first use of load tok's value: waits until it has arrived. */
void cpu_use(cpu_t *c, cpu_tok_t tok);
/* A branch on load tok's value: in order it is a use (the branch waits for
 * the value); out of order the branch is predicted and later instructions
 * issue at once (the simulation knows the value, so the prediction is
 * right: mispredictions are not modelled). A loop over independent loads
 * that only tests them overlaps them out of order this way. */
void cpu_branch(cpu_t *c, cpu_tok_t tok);
/* A plain load whose value only decides a branch (BUG_ON's test, a loop's
 * exit): cpu_read_dep with no dependence, then cpu_branch. */
uint64_t cpu_read_branch(cpu_t *c, maddr_t a);
/* A serialising instruction: every load outstanding completes, then
 * core_serialize_cycles. */
void cpu_serialize(cpu_t *c);

/* This CPU made progress (a measured call returned). The native machine
 * stops a run in which no CPU says so for its timeout; the simulated one,
 * which cannot hang unnoticed, ignores it. */
void cpu_progress(cpu_t *c);

/* Copies c's counters (any CPU may ask; no cost). Returns 1 where the
 * machine counts what every cycle went to (simulated), 0 where it knows
 * only the ticks and the rest of *out is 0 (native). */
int cpu_anatomy(const cpu_t *c, cpu_anatomy_t *out);

/* Paje trace hooks for code that must not know SimGrid (timer core,
 * strategies, run.c). All are no-ops, at the cost of one test, unless the
 * machine writes a trace. name is a string literal, one of the state names
 * paje.c declares. States nest per CPU and must be popped in order. */
void cpu_state_push(cpu_t *c, const char *name);
void cpu_state_pop(cpu_t *c);
/* Pushes the state "probe" for a read of CPU target's base (pop it after). */
void cpu_state_probe(cpu_t *c, int target);
/* A del_timer_sync call starts (pushes its state) or ends (pops it).
 * measured: counts towards hooks->paje_calls, whose calls the trace shows. */
void cpu_call_begin(cpu_t *c, int measured);
void cpu_call_end(cpu_t *c);

/* Interrupt masking, nestable (local_irq_save/restore). */
void cpu_irq_disable(cpu_t *c);
void cpu_irq_enable(cpu_t *c);
int cpu_in_irq(const cpu_t *c); /* nesting depth of tick handlers */
/* Takes c's tick at once when interrupts are enabled, as if it came now
 * (tests that drive time themselves set a tick period that never comes). */
void cpu_tick_now(cpu_t *c);
/* The cycle of c's next tick (bookkeeping: no cost, any CPU may ask). */
uint64_t cpu_next_tick(const cpu_t *c);

#endif
