/* simulated_run: the functions of simulated.h, running the simulated
 * machine. sim_run() starts SimGrid on the platform, creates the machine
 * (its CPUs, the heap of keys, the Paje trace if one was requested) and a
 * boot actor that computes the routes, creates the memory, runs the setup
 * hook and runs the CPUs: as coroutines of the boot actor (sim_cpu_coro,
 * simulated.c), or one actor each under the reference scheduler
 * (sim_cpu_main); once SimGrid returns, it runs the finish hook and frees
 * the machine. Also the
 * choice of scheduler, the machine's coherence model and the bare SimGrid
 * loop of the benchmark. */
#include "simulated.h"
#include "xalloc.h"

#include "core.h"
#include "simulated_internal.h"
#include "platform_simgrid.h"
#include "paje.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A CPU's stack under the baton scheduler, as SimGrid's contexts/stack-size
 * gives its actors (platform_simgrid.c): mapped lazily, so 4096 CPUs touch
 * only the pages they use. */
#define CPU_STACK_BYTES (256u << 10)

static machine_t *g_machine; /* the one machine of this process */
static int g_no_teardown;    /* sim_exit_after() */

void sim_exit_after(void)
{
    g_no_teardown = 1;
}
static int g_paje_calls; /* the window of a requested trace */

void sim_request_paje(const char *file, int calls)
{
    paje_request(file);
    g_paje_calls = calls;
}

mem_t *sim_mem(machine_t *m)
{
    return m->mem;
}

void sim_set_always_yield(machine_t *m, int on)
{
    m->always_yield = on;
    heap_bound(m);
}

int sim_run_again_ok(void)
{
    const char *sched = getenv("NUMASIM_SCHEDULER");
    return !(sched && !strcmp(sched, "yield"));
}

static void boot_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    machine_t *m = g_machine;
    /* The matrix may have come with the platform (computed once per platform
     * by the parent of several simulations). */
    if (!m->p->node_lat && platform_routes(m->p, m->err) < 0) {
        m->rc = -1;
        return;
    }
    m->mem = mem_create(m->p);
    m->levels = mem_has_levels(m->mem);
    m->tlbs = mem_has_tlbs(m->mem);
    m->spin_hit = mem_spin_hit_cycles(m->mem);
    /* out of order, a store's entry in the buffer is its issue slot (core.c) */
    m->store_entry = m->p->core.kind == CORE_OOO ? 0 : m->spin_hit;
    m->noise = m->levels && m->p->footprint.noise_per_mcycle > 0;
    m->spin_exact = mem_spin_exact(m->mem);
    if (m->p->memory_model != PLATFORM_SC)
        m->order = order_create(m->p, m->mem);
    if (m->hooks && m->hooks->setup)
        m->hooks->setup(m, m->hooks->arg);
    if (m->always_yield) { /* one actor per CPU, ordered by SimGrid's clock */
        for (int i = 0; i < m->n; i++) {
            sg_actor_t a = sg_actor_init(m->p->cpu_host[i], sg_host_by_name(m->p->cpu_host[i]));
            sg_actor_set_data(a, &m->cpus[i]);
            sg_actor_start(a, sim_cpu_main, 0, NULL);
        }
        return;
    }
    /* The baton scheduler: every CPU is a coroutine of this actor. */
    for (int i = 0; i < m->n; i++)
        if (coro_init(&m->cpus[i].co, CPU_STACK_BYTES, sim_cpu_coro, &m->cpus[i]) < 0) {
            fprintf(stderr, "numasim: cannot map a stack for CPU %d of %d\n", i, m->n);
            abort();
        }
    coro_switch(&m->boot_co, &m->cpus[m->heap[0].cpu].co); /* CPU 0 starts with the baton */
    paje_emit(m->paje);                                    /* back when every CPU has ended */
}

int sim_run(platform_t *p, const char *argv0, unsigned long seed, const machine_hooks_t *hooks,
            err_t *e)
{
    platform_boot(p, argv0);
    machine_t *m = xcalloc(1, sizeof *m);
    m->ops = &sim_ops;
    m->p = p;
    m->paje = paje_create(p->ncpus, p->cpu_host, g_paje_calls);
    m->n = p->ncpus;
    m->hooks = hooks;
    m->err = e;
    m->seed = seed;
    while ((1 << m->kshift) < m->n)
        m->kshift++;
    m->limit = 1ull << (53 - m->kshift);
    m->cpus = xcalloc((size_t)m->n, sizeof *m->cpus);
    /* two sentinels after the heap: sync_step reads the root's children blindly */
    m->heap = xmalloc(sizeof *m->heap * (size_t)(m->n + 2));
    m->pos = xmalloc(sizeof(int) * (size_t)m->n);
    m->watchers = xmalloc(sizeof(int) * (size_t)m->n);
    for (int i = 0; i < m->n; i++) {
        cpu_t *c = &m->cpus[i];
        c->ops = &sim_ops;
        c->id = i;
        c->node = p->cpu_node[i];
        c->irq_at = UINT64_MAX; /* no ticks yet */
        c->m = m;
        c->rng = gsl_rng_alloc(gsl_rng_taus2);
        gsl_rng_set(c->rng, seed * 1000003ul + (unsigned long)i + 1);
        m->heap[i] = (heapent_t){.key = (uint64_t)i, .cpu = i};
        m->pos[i] = i;
    }
    m->heap[m->n] = m->heap[m->n + 1] = (heapent_t){.key = UINT64_MAX, .cpu = -1};
    core_attach(m); /* the core's operations replace sim_ops where the platform has one */
    /* The reference scheduler, for checking the fast one on whole scenarios. */
    if (!sim_run_again_ok() && !m->paje) /* a trace needs the clock at 0 */
        m->always_yield = 1;
    heap_bound(m);
    g_machine = m;
    sg_actor_t boot = sg_actor_init("boot", sg_host_by_name(p->cpu_host[0]));
    sg_actor_start(boot, boot_main, 0, NULL);
    simgrid_run();
    int rc = m->rc;
    if (m->order) { /* every store reaches memory before finish() looks */
        order_settle_all(m->order);
        if (getenv("NUMASIM_ORDER_DEBUG")) {
            uint64_t st, fw, sl, ea;
            order_counts(m->order, &st, &fw, &sl, &ea);
            fprintf(stderr,
                    "order: %llu stores (%llu applied early), %llu forwarded, %llu stale loads\n",
                    (unsigned long long)st, (unsigned long long)ea, (unsigned long long)fw,
                    (unsigned long long)sl);
        }
    }
    if (rc == 0 && m->hooks && m->hooks->finish)
        m->hooks->finish(m, m->hooks->arg);
    if (g_no_teardown)
        return rc; /* the process exits: freeing would only cost time */
    for (int i = 0; i < m->n; i++) {
        gsl_rng_free(m->cpus[i].rng);
        coro_free(&m->cpus[i].co);
    }
    free(m->watchers);
    core_detach(m);
    paje_destroy(m->paje);
    order_destroy(m->order);
    mem_destroy(m->mem);
    free(m->code);
    free(m->cpus);
    free(m->heap);
    free(m->pos);
    free(m);
    g_machine = NULL;
    return rc;
}

static struct {
    platform_t *p;
    err_t *e;
    int rc;
} g_preload;

/* SimGrid seals the platform (and answers route look-ups) once it runs. */
static void preload_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    g_preload.rc = platform_routes(g_preload.p, g_preload.e);
}

int sim_preload(platform_t *p, const char *argv0, err_t *e)
{
    platform_boot(p, argv0);
    if (p->node_lat)
        return 0;
    g_preload.p = p;
    g_preload.e = e;
    sg_actor_t a = sg_actor_init("routes", sg_host_by_name(p->cpu_host[0]));
    sg_actor_start(a, preload_main, 0, NULL);
    simgrid_run();
    return g_preload.rc;
}

/* --- the bare loop of the benchmark --- */

static long g_bare_left;

static void bare_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    while (g_bare_left > 0) {
        g_bare_left--;
        sg_actor_sleep_for(1.0);
    }
}

long sim_bare_sleeps(platform_t *p, const char *argv0, long sleeps)
{
    platform_boot(p, argv0);
    g_bare_left = sleeps;
    for (int i = 0; i < p->ncpus; i++) {
        sg_actor_t a = sg_actor_init(p->cpu_host[i], sg_host_by_name(p->cpu_host[i]));
        sg_actor_start(a, bare_main, 0, NULL);
    }
    simgrid_run();
    return sleeps;
}
