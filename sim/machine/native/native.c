/* native: the machine API on the host. Theory of operation.
 *
 * Threads. Scenario CPU i is a POSIX thread pinned (hwloc) to the i-th host
 * CPU used. The calling thread runs setup(), starts the CPUs, then watches
 * them: when no CPU has called cpu_progress() for opts->timeout_s seconds,
 * it raises `abort` and every CPU leaves at its next wait loop.
 *
 * Memory. One anonymous mapping, a slice of ARENA_BYTES per node, each
 * slice bound to its NUMA node before it is touched. maddr_t is the real
 * address. machine_alloc bumps the node's slice (line-aligned); nothing is
 * ever reused, so a freed timer keeps its bytes and a later write to it can
 * be counted: one byte per line says "freed".
 *
 * Accesses. Each access of cpu.h is the C11 __atomic of the same order:
 * cpu_read/cpu_write relaxed (the kernel's READ_ONCE/WRITE_ONCE),
 * cpu_read_acquire/cpu_write_release acquire/release, the read-modify-writes
 * sequentially consistent unless an order is given. On x86 these compile to
 * exactly what the kernel's plain loads, stores and lock-prefixed
 * instructions are; on arm64 to ldr/str, ldar/stlr and ldaxr/stlxr loops.
 *
 * Code. machine_code_bytes generates a function of the unit's size (NOPs,
 * then a return: native_code.c) that cpu_exec calls. machine_code stays -1
 * (no .code op): the platform's kernel units are numasim's own code here.
 *
 * Time. cpu_now is the cycle counter (cycles.h) since the run started.
 * cpu_work(n) spins until n counter cycles have passed outside interrupt
 * handlers, so a tick lengthens the work as in the simulated machine.
 *
 * Ticks. Each thread has a POSIX timer (CLOCK_MONOTONIC, SIGEV_THREAD_ID)
 * at the tick period, out of phase as in the simulation. The handler runs
 * the tick function on the interrupted thread when interrupts are enabled;
 * with cpu_irq_disable() in force it only marks the tick pending, and
 * cpu_irq_enable() takes it. The signal may nest (SA_NODEFER) once the tick
 * function enables interrupts, as the softirq does. An access is one
 * instruction, so no tick can land inside one.
 *
 * Locking rules: none of our own. The CPUs share only the arena (through
 * atomics), the counters below (atomics) and the flags of the run's
 * programs, which are written before the threads start or are atomics.
 */
#define _GNU_SOURCE
#include "native.h"
#include "xalloc.h"

#include "cycles.h"
#include "machine_backend.h"
#include "native_code.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* per node: bases (8 KiB per CPU), timers, the chase probe (64 MiB at
 * most); touched only where used */
#define ARENA_BYTES ((size_t)96 << 20)
#define WATCH_MS    100 /* the watchdog's look interval */

typedef struct ncpu ncpu_t;
typedef struct nmachine nmachine_t;

struct ncpu {
    const machine_ops_t *ops; /* first: see machine_backend.h */
    int id, node;
    nmachine_t *m;
    gsl_rng *rng;
    cpu_fn prog;
    void *arg;
    pthread_t th;
    timer_t timer;
    int has_timer;
    /* irq_off, in_irq, pending, irq_cycles: shared with this thread's own signal
     * handler only, hence volatile and signal fences; ended: atomic */
    volatile int irq_off, in_irq, pending;
    int ended;
    volatile uint64_t irq_cycles; /* counter cycles spent in tick handlers */
    volatile uint64_t next_tick;
    uint64_t accesses;
    volatile uint64_t ticks; /* ticks taken (nested ones included) */
    err_t err;
    int rc;
} __attribute__((aligned(128))); /* no false sharing between CPUs */

struct nmachine {
    const machine_ops_t *ops; /* first: see machine_backend.h */
    host_t *h;
    platform_t *p;
    int n;
    ncpu_t *cpus;
    uint8_t *arena;
    size_t arena_len;
    size_t *used;   /* [nnodes] bytes allocated in each slice (atomic) */
    uint8_t *freed; /* one byte per line of the arena */
    ncode_t *code;  /* machine_code_bytes's units (native_code.h) */
    int line_shift, line;
    uint64_t t0;
    uint64_t tick_period, tick_offset;
    cpu_fn tick_fn;
    void *tick_arg;
    /* Lines of their own: idle CPUs poll stopping and abort while the caller
     * bumps progress once a call, and a shared line would bounce. */
    int stopping __attribute__((aligned(128)));
    int abort;
    uint64_t freed_writes __attribute__((aligned(128)));
    uint64_t progress __attribute__((aligned(128)));
    pthread_barrier_t start;
};

static __thread ncpu_t *tl_cpu; /* the CPU this thread is, for the handler */
static const machine_ops_t native_ops;

/* --- time --- */

static uint64_t n_now(cpu_t *cc)
{
    const ncpu_t *c = (const ncpu_t *)cc;
    return cycles_now() - c->m->t0;
}

static int aborting(const nmachine_t *m)
{
    return __atomic_load_n(&m->abort, __ATOMIC_RELAXED);
}

/* A CPU asked to leave by the watchdog ends its thread at once. */
static void check_abort(ncpu_t *c)
{
    if (aborting(c->m)) {
        __atomic_store_n(&c->ended, 1, __ATOMIC_RELEASE);
        pthread_exit(NULL);
    }
}

/* --- ticks --- */

static void take_tick(ncpu_t *c)
{
    nmachine_t *m = c->m;
    uint64_t t0 = cycles_now(), base = c->irq_cycles;
    c->next_tick += m->tick_period;
    c->ticks++;
    c->in_irq++;
    c->irq_off++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    m->tick_fn((cpu_t *)c, m->tick_arg);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    c->irq_off--;
    c->in_irq--;
    /* Nested ticks added their share; the outer one owns the whole span. */
    c->irq_cycles = base + (cycles_now() - t0);
}

static void on_tick(int sig)
{
    (void)sig;
    ncpu_t *c = tl_cpu;
    if (!c || !c->m->tick_fn || __atomic_load_n(&c->m->stopping, __ATOMIC_RELAXED) ||
        __atomic_load_n(&c->ended, __ATOMIC_RELAXED))
        return;
    int saved = errno;
    if (c->irq_off)
        c->pending = 1;
    else
        take_tick(c);
    errno = saved;
}

static void n_irq_disable(cpu_t *cc)
{
    ncpu_t *c = (ncpu_t *)cc;
    c->irq_off++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static void n_irq_enable(cpu_t *cc)
{
    ncpu_t *c = (ncpu_t *)cc;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (c->irq_off > 0)
        c->irq_off--;
    while (!c->irq_off && c->pending) {
        c->pending = 0;
        if (!__atomic_load_n(&c->m->stopping, __ATOMIC_RELAXED))
            take_tick(c);
    }
}

static void n_tick_now(cpu_t *cc)
{
    ncpu_t *c = (ncpu_t *)cc;
    if (c->m->tick_fn && !c->irq_off)
        take_tick(c);
}

static int n_in_irq(const cpu_t *cc)
{
    return ((const ncpu_t *)cc)->in_irq;
}

static uint64_t n_next_tick(const cpu_t *cc)
{
    return ((const ncpu_t *)cc)->next_tick;
}

/* --- accesses --- */

static uint64_t *word(maddr_t a)
{
    return (uint64_t *)(uintptr_t)a;
}

static void count_freed(ncpu_t *c, maddr_t a)
{
    nmachine_t *m = c->m;
    uintptr_t off = (uintptr_t)a - (uintptr_t)m->arena;
    if (off < m->arena_len && m->freed[off >> m->line_shift])
        __atomic_fetch_add(&m->freed_writes, 1, __ATOMIC_RELAXED);
}

/* The C11 memory order of an access of cpu.h. */
static int morder(cpu_order_t o)
{
    switch (o) {
    case CPU_RELAXED:
        return __ATOMIC_RELAXED;
    case CPU_ACQUIRE:
        return __ATOMIC_ACQUIRE;
    case CPU_RELEASE:
        return __ATOMIC_RELEASE;
    default:
        return __ATOMIC_SEQ_CST;
    }
}

/* A failed compare-exchange only loads: it may not be a release. */
static int morder_fail(cpu_order_t o)
{
    return o == CPU_RELEASE ? __ATOMIC_RELAXED : o == CPU_FULL ? __ATOMIC_SEQ_CST : morder(o);
}

static uint64_t n_read(cpu_t *cc, maddr_t a)
{
    ((ncpu_t *)cc)->accesses++;
    return __atomic_load_n(word(a), __ATOMIC_RELAXED);
}

static uint64_t n_read_acquire(cpu_t *cc, maddr_t a)
{
    ((ncpu_t *)cc)->accesses++;
    return __atomic_load_n(word(a), __ATOMIC_ACQUIRE);
}

static void n_write(cpu_t *cc, maddr_t a, uint64_t v)
{
    ncpu_t *c = (ncpu_t *)cc;
    c->accesses++;
    count_freed(c, a);
    __atomic_store_n(word(a), v, __ATOMIC_RELAXED);
}

static void n_write_release(cpu_t *cc, maddr_t a, uint64_t v)
{
    ncpu_t *c = (ncpu_t *)cc;
    c->accesses++;
    count_freed(c, a);
    __atomic_store_n(word(a), v, __ATOMIC_RELEASE);
}

static uint64_t n_xchg(cpu_t *cc, maddr_t a, uint64_t v, cpu_order_t o)
{
    ncpu_t *c = (ncpu_t *)cc;
    c->accesses++;
    count_freed(c, a);
    return __atomic_exchange_n(word(a), v, morder(o));
}

static int n_cmpxchg(cpu_t *cc, maddr_t a, uint64_t old, uint64_t nv, cpu_order_t o)
{
    ncpu_t *c = (ncpu_t *)cc;
    c->accesses++;
    count_freed(c, a);
    return __atomic_compare_exchange_n(word(a), &old, nv, 0, morder(o), morder_fail(o));
}

static uint64_t n_fetch_add(cpu_t *cc, maddr_t a, uint64_t d, cpu_order_t o)
{
    ncpu_t *c = (ncpu_t *)cc;
    c->accesses++;
    count_freed(c, a);
    return __atomic_fetch_add(word(a), d, morder(o));
}

static void n_work(cpu_t *cc, uint64_t cycles)
{
    ncpu_t *c = (ncpu_t *)cc;
    uint64_t start = cycles_now(), irq0 = c->irq_cycles;
    while (cycles_now() - start - (c->irq_cycles - irq0) < cycles)
        check_abort(c);
}

static void n_relax(cpu_t *cc)
{
    (void)cc;
    cycles_pause();
}

static uint64_t n_spin_while_eq(cpu_t *cc, maddr_t a, uint64_t v)
{
    ncpu_t *c = (ncpu_t *)cc;
    for (;;) {
        uint64_t x = n_read(cc, a);
        if (x != v)
            return x;
        cycles_pause();
        check_abort(c);
    }
}

static void n_idle_until(cpu_t *cc, uint64_t cycle)
{
    ncpu_t *c = (ncpu_t *)cc;
    while (n_now(cc) < cycle) {
        cycles_pause();
        check_abort(c);
    }
}

/* clflush evicts a line from every cache of the coherence domain, not only
 * the caller's: after a cold flush the other CPUs miss too. Only the bytes
 * the run allocated are flushed (all the timer core's objects), and with_code
 * the code units; numasim's own code stays where the hardware keeps it. */
static void n_flush_cache(cpu_t *cc, int with_code)
{
    nmachine_t *m = ((ncpu_t *)cc)->m;
    for (int k = 0; k < m->p->nnodes; k++)
        native_flush_lines(m->arena + (size_t)k * ARENA_BYTES,
                           __atomic_load_n(&m->used[k], __ATOMIC_ACQUIRE), m->line);
    if (with_code)
        ncode_flush(m->code);
    native_flush_fence();
}

static int n_code_bytes(machine_t *mm, const char *unit, uint64_t bytes)
{
    return ncode_get(((nmachine_t *)mm)->code, unit, bytes);
}

static void n_exec(cpu_t *cc, int code)
{
    ncode_exec(((ncpu_t *)cc)->m->code, code);
}

static void n_sync(cpu_t *cc)
{
    (void)cc;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* The core's calls (cpu.h): the host's own core schedules its
 * instructions, overlaps its misses and streams its code; nothing to
 * model. */
static void n_insns(cpu_t *cc, uint64_t n)
{
    (void)cc, (void)n;
}

static uint64_t n_read_dep(cpu_t *cc, maddr_t a, cpu_tok_t dep, cpu_tok_t *tok)
{
    (void)dep;
    *tok = 0;
    return n_read(cc, a);
}

static void n_use(cpu_t *cc, cpu_tok_t tok)
{
    (void)cc, (void)tok;
}

static void n_serialize(cpu_t *cc)
{
    (void)cc;
}

/* smp_mb is a full fence everywhere (mfence on x86). smp_wmb and smp_rmb
 * are compiler barriers on x86, where TSO already keeps stores in order and
 * loads in order, as in the kernel; elsewhere a release fence (store-store
 * and load-store) and an acquire fence (load-load and load-store), which
 * C11 offers as the nearest ones that are at least as strong. */
static void n_barrier(cpu_t *cc, int kind)
{
    (void)cc;
    if (kind == CPU_MB)
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
#if defined(__x86_64__) || defined(__i386__)
    else
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
#else
    else if (kind == CPU_WMB)
        __atomic_thread_fence(__ATOMIC_RELEASE);
    else
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
}

/* The host does not say what its accesses found: only the ticks are known
 * (taken, and the cycles from handler entry to exit). */
static int n_anatomy(const cpu_t *cc, cpu_anatomy_t *out)
{
    const ncpu_t *c = (const ncpu_t *)cc;
    memset(out, 0, sizeof *out);
    out->ticks = c->ticks;
    out->tick_cycles = c->irq_cycles;
    return 0;
}

static void n_progress(cpu_t *cc)
{
    __atomic_fetch_add(&((ncpu_t *)cc)->m->progress, 1, __ATOMIC_RELAXED);
}

static int n_stopping(const cpu_t *cc)
{
    return __atomic_load_n(&((const ncpu_t *)cc)->m->stopping, __ATOMIC_ACQUIRE);
}

static int n_id(const cpu_t *cc)
{
    return ((const ncpu_t *)cc)->id;
}

static int n_node(const cpu_t *cc)
{
    return ((const ncpu_t *)cc)->node;
}

static machine_t *n_machine(cpu_t *cc)
{
    return (machine_t *)((ncpu_t *)cc)->m;
}

static gsl_rng *n_rng(cpu_t *cc)
{
    return ((ncpu_t *)cc)->rng;
}

/* --- the machine --- */

static const platform_t *n_platform(const machine_t *mm)
{
    return ((const nmachine_t *)mm)->p;
}

static cpu_t *n_cpu(machine_t *mm, int id)
{
    nmachine_t *m = (nmachine_t *)mm;
    return id >= 0 && id < m->n ? (cpu_t *)&m->cpus[id] : NULL;
}

static void n_set_program(machine_t *mm, int cpu, cpu_fn fn, void *arg)
{
    nmachine_t *m = (nmachine_t *)mm;
    m->cpus[cpu].prog = fn;
    m->cpus[cpu].arg = arg;
}

static void n_set_tick(machine_t *mm, uint64_t period, uint64_t offset, cpu_fn fn, void *arg)
{
    nmachine_t *m = (nmachine_t *)mm;
    m->tick_period = period ? period : 1;
    m->tick_offset = offset;
    m->tick_fn = fn;
    m->tick_arg = arg;
}

static void n_stop(machine_t *mm)
{
    __atomic_store_n(&((nmachine_t *)mm)->stopping, 1, __ATOMIC_RELEASE);
}

static uint64_t n_accesses(const machine_t *mm)
{
    const nmachine_t *m = (const nmachine_t *)mm;
    uint64_t s = 0;
    for (int i = 0; i < m->n; i++)
        s += m->cpus[i].accesses;
    return s;
}

static maddr_t n_alloc(machine_t *mm, int node, size_t bytes)
{
    nmachine_t *m = (nmachine_t *)mm;
    size_t len = (bytes + (size_t)m->line - 1) & ~((size_t)m->line - 1);
    size_t off = __atomic_fetch_add(&m->used[node], len ? len : (size_t)m->line, __ATOMIC_ACQ_REL);
    if (off + len > ARENA_BYTES) {
        fprintf(stderr, "numasim: native memory of node %d exhausted (%zu MiB)\n", node,
                ARENA_BYTES >> 20);
        abort();
    }
    return (maddr_t)(uintptr_t)(m->arena + (size_t)node * ARENA_BYTES + off);
}

static void n_release(machine_t *mm, maddr_t a, size_t bytes)
{
    nmachine_t *m = (nmachine_t *)mm;
    uintptr_t off = (uintptr_t)a - (uintptr_t)m->arena;
    if (!bytes || off >= m->arena_len)
        return;
    for (uintptr_t l = off >> m->line_shift; l <= (off + bytes - 1) >> m->line_shift; l++)
        __atomic_store_n(&m->freed[l], 1, __ATOMIC_RELEASE);
}

static uint64_t n_peek(const machine_t *mm, maddr_t a)
{
    (void)mm;
    return __atomic_load_n(word(a), __ATOMIC_SEQ_CST);
}

static void n_poke(machine_t *mm, maddr_t a, uint64_t v)
{
    (void)mm;
    __atomic_store_n(word(a), v, __ATOMIC_SEQ_CST);
}

static void n_poke_words(machine_t *mm, maddr_t a, const uint64_t *v, size_t n)
{
    (void)mm;
    for (size_t i = 0; i < n; i++)
        __atomic_store_n(word(a + (maddr_t)(8 * i)), v[i], __ATOMIC_SEQ_CST);
}

static int n_home(const machine_t *mm, maddr_t a)
{
    const nmachine_t *m = (const nmachine_t *)mm;
    return (int)(((uintptr_t)a - (uintptr_t)m->arena) / ARENA_BYTES);
}

static uint64_t n_freed_writes(const machine_t *mm)
{
    return __atomic_load_n(&((const nmachine_t *)mm)->freed_writes, __ATOMIC_RELAXED);
}

static void n_set_jitter(machine_t *mm, uint32_t max_cycles, unsigned long seed)
{
    (void)mm, (void)max_cycles, (void)seed; /* the host brings its own */
}

static const machine_ops_t native_ops = {
    .name = "native",
    .read = n_read,
    .read_acquire = n_read_acquire,
    .write_release = n_write_release,
    .write = n_write,
    .xchg = n_xchg,
    .cmpxchg = n_cmpxchg,
    .fetch_add = n_fetch_add,
    .work = n_work,
    .exec = n_exec,
    .relax = n_relax,
    .spin_while_eq = n_spin_while_eq,
    .idle_until = n_idle_until,
    .flush_cache = n_flush_cache,
    .sync = n_sync,
    .progress = n_progress,
    .anatomy = n_anatomy,
    .barrier = n_barrier,
    .insns = n_insns,
    .read_dep = n_read_dep,
    .use = n_use,
    .serialize = n_serialize,
    .irq_disable = n_irq_disable,
    .irq_enable = n_irq_enable,
    .tick_now = n_tick_now,
    .in_irq = n_in_irq,
    .next_tick = n_next_tick,
    .now = n_now,
    .stopping = n_stopping,
    .id = n_id,
    .node = n_node,
    .machine = n_machine,
    .rng = n_rng,
    .platform = n_platform,
    .cpu = n_cpu,
    .set_program = n_set_program,
    .set_tick = n_set_tick,
    .stop = n_stop,
    .accesses = n_accesses,
    .switches = NULL,
    .batched = NULL,
    .alloc = n_alloc,
    .release = n_release,
    .peek = n_peek,
    .poke = n_poke,
    .poke_words = n_poke_words,
    .home = n_home,
    .freed_writes = n_freed_writes,
    .set_jitter = n_set_jitter,
    .code_bytes = n_code_bytes,
};

/* --- threads --- */

/* Arms c's tick timer: first at c->next_tick, then every period. */
static int arm_tick(ncpu_t *c)
{
    nmachine_t *m = c->m;
    if (!m->tick_fn)
        return 0;
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGRTMIN;
    sev._sigev_un._tid = gettid();
    if (timer_create(CLOCK_MONOTONIC, &sev, &c->timer) < 0)
        return err_set(&c->err, NULL, 0, "native: timer_create: %s", strerror(errno));
    c->has_timer = 1;
    uint64_t now = n_now((cpu_t *)c);
    struct itimerspec its;
    double mhz = m->p->clock_mhz;
    its.it_value = ns_to_ts(cycles_to_ns(c->next_tick > now ? c->next_tick - now : 1, mhz) + 1);
    its.it_interval = ns_to_ts(cycles_to_ns(m->tick_period, mhz));
    if (timer_settime(c->timer, 0, &its, NULL) < 0)
        return err_set(&c->err, NULL, 0, "native: timer_settime: %s", strerror(errno));
    return 0;
}

static void *thread_main(void *arg)
{
    ncpu_t *c = arg;
    nmachine_t *m = c->m;
    if (host_bind_thread(m->h, c->id, &c->err) < 0)
        c->rc = -1;
    pthread_barrier_wait(&m->start); /* everyone pinned (or failed) */
    pthread_barrier_wait(&m->start); /* the main thread checked and set t0 */
    if (c->rc < 0 || aborting(m)) {
        __atomic_store_n(&c->ended, 1, __ATOMIC_RELEASE);
        return NULL;
    }
    tl_cpu = c;
    if (arm_tick(c) < 0) {
        c->rc = -1;
        __atomic_store_n(&m->abort, 1, __ATOMIC_RELAXED);
    } else {
        if (c->prog)
            c->prog((cpu_t *)c, c->arg);
        /* Nothing left to run: take ticks until the machine stops. */
        while (m->tick_fn && !n_stopping((cpu_t *)c)) {
            cycles_pause();
            check_abort(c);
        }
    }
    if (c->has_timer)
        timer_delete(c->timer);
    __atomic_store_n(&c->ended, 1, __ATOMIC_RELEASE);
    return NULL;
}

static uint64_t progress_of(const nmachine_t *m)
{
    return __atomic_load_n(&m->progress, __ATOMIC_RELAXED);
}

/* Waits for every thread, stopping the run when it makes no progress. */
static int watch(nmachine_t *m, int timeout_s, err_t *e)
{
    uint64_t last = progress_of(m);
    int idle_ms = 0, hung = 0;
    for (;;) {
        int ended = 0;
        for (int i = 0; i < m->n; i++)
            ended += __atomic_load_n(&m->cpus[i].ended, __ATOMIC_ACQUIRE);
        if (ended == m->n)
            break;
        struct timespec ts = {0, WATCH_MS * 1000000L};
        nanosleep(&ts, NULL);
        uint64_t now = progress_of(m);
        idle_ms = now == last ? idle_ms + WATCH_MS : 0;
        last = now;
        if (!hung && idle_ms >= timeout_s * 1000) {
            hung = 1;
            __atomic_store_n(&m->abort, 1, __ATOMIC_RELAXED);
        }
    }
    for (int i = 0; i < m->n; i++)
        pthread_join(m->cpus[i].th, NULL);
    if (hung)
        return err_set(e, NULL, 0,
                       "native: the run made no progress for %d s (a CPU waits for something "
                       "that never comes); stopped",
                       timeout_s);
    return 0;
}

static int setup_memory(nmachine_t *m, err_t *e)
{
    const platform_t *p = m->p;
    m->line = p->line_bytes > 0 ? p->line_bytes : 64;
    while ((1 << m->line_shift) < m->line)
        m->line_shift++;
    m->line = 1 << m->line_shift;
    m->arena_len = ARENA_BYTES * (size_t)p->nnodes;
    void *a = mmap(NULL, m->arena_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED)
        return err_set(e, NULL, 0, "native: cannot map %zu MiB of memory", m->arena_len >> 20);
    m->arena = a;
    for (int k = 0; k < p->nnodes; k++)
        if (host_bind_memory(m->h, m->arena + (size_t)k * ARENA_BYTES, ARENA_BYTES, k, e) < 0)
            return -1;
    m->freed = xcalloc(m->arena_len >> m->line_shift, 1);
    m->used = xcalloc((size_t)p->nnodes, sizeof *m->used);
    return 0;
}

static int install_handler(err_t *e)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sa.sa_flags = SA_RESTART | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGRTMIN, &sa, NULL) < 0)
        return err_set(e, NULL, 0, "native: sigaction: %s", strerror(errno));
    return 0;
}

int native_run(host_t *h, unsigned long seed, const machine_hooks_t *hooks,
               const native_opts_t *opts, err_t *e)
{
    nmachine_t *m = xcheck(aligned_alloc(128, (sizeof *m + 127) / 128 * 128));
    memset(m, 0, sizeof *m);
    m->ops = &native_ops;
    m->h = h;
    m->p = host_platform(h);
    m->n = m->p->ncpus;
    m->cpus = xcheck(aligned_alloc(128, sizeof *m->cpus * (size_t)m->n));
    memset(m->cpus, 0, sizeof *m->cpus * (size_t)m->n);
    int rc = setup_memory(m, e);
    m->code = ncode_new(m->line);
    if (rc == 0)
        rc = install_handler(e);
    for (int i = 0; i < m->n; i++) {
        ncpu_t *c = &m->cpus[i];
        c->ops = &native_ops;
        c->id = i;
        c->node = m->p->cpu_node[i];
        c->m = m;
        c->rng = gsl_rng_alloc(gsl_rng_taus2);
        gsl_rng_set(c->rng, seed * 1000003ul + (unsigned long)i + 1);
    }
    if (rc == 0 && hooks && hooks->setup)
        hooks->setup((machine_t *)m, hooks->arg);
    int started = 0;
    if (rc == 0) {
        pthread_barrier_init(&m->start, NULL, (unsigned)m->n + 1);
        for (; started < m->n; started++)
            if (pthread_create(&m->cpus[started].th, NULL, thread_main, &m->cpus[started]) != 0)
                break;
        if (started < m->n) { /* cannot happen with a sane ulimit; do not deadlock */
            fprintf(stderr, "numasim: native: cannot start %d threads\n", m->n);
            abort();
        }
        pthread_barrier_wait(&m->start);
        for (int i = 0; i < m->n && rc == 0; i++)
            if (m->cpus[i].rc < 0) {
                *e = m->cpus[i].err;
                rc = -1;
                __atomic_store_n(&m->abort, 1, __ATOMIC_RELAXED);
            }
        m->t0 = cycles_now();
        for (int i = 0; i < m->n; i++)
            m->cpus[i].next_tick = m->tick_offset + (uint64_t)i * m->tick_period / (uint64_t)m->n;
        pthread_barrier_wait(&m->start);
        int timeout = opts && opts->timeout_s > 0 ? opts->timeout_s : 30;
        int wrc = watch(m, timeout, rc == 0 ? e : NULL);
        for (int i = 0; i < m->n && rc == 0; i++)
            if (m->cpus[i].rc < 0) {
                *e = m->cpus[i].err;
                rc = -1;
            }
        if (rc == 0)
            rc = wrc;
        pthread_barrier_destroy(&m->start);
    }
    if (rc == 0 && hooks && hooks->finish)
        hooks->finish((machine_t *)m, hooks->arg);
    signal(SIGRTMIN, SIG_IGN);
    for (int i = 0; i < m->n; i++)
        gsl_rng_free(m->cpus[i].rng);
    if (m->arena)
        munmap(m->arena, m->arena_len);
    ncode_free(m->code);
    free(m->freed);
    free(m->used);
    free(m->cpus);
    free(m);
    return rc;
}
