/* litmus_run: runs a parsed litmus test many times. Theory of operation.
 *
 * All runs share one machine (SimGrid allows one engine per process): they
 * are rounds of one sim_run. Process Pi runs on CPU i * ncpus / nprocs
 * (spread over the nodes, so that its stores cross the machine), or on the
 * i-th CPU of --cpus in ascending order (as natively); each shared variable
 * has a line of its own, homed on the node of the process of the same rank.
 * A round:
 *
 *   1. every CPU waits (idles, looking at the round counter between steps)
 *      until the last CPU of the previous round opens this one, then runs
 *      an smp_mb (its invalidate queue is processed: nothing stale from
 *      the previous round survives) and idles until the round's start plus
 *      its own random offset (0 .. window cycles, from the run's generator);
 *   2. it interprets its process, then runs an smp_mb (its stores are
 *      visible: the final values are the last in coherence order, which the
 *      buffers fixed when the stores were issued, so this changes no
 *      outcome) and records its registers;
 *   3. the last CPU to finish reads the final values, counts the state,
 *      resets the variables to their initial values and opens the next
 *      round.
 *
 * The window is one miss of the platform at its longest per process: the
 * larger of a remote miss (mem_local plus the largest round trip plus
 * remote_dirty) and a transfer between caches on a node, plus the largest
 * jitter (mem_local). Processes that start further
 * apart than their stores take to become visible cannot show a relaxed
 * outcome, and a chain (WRC: P0 -> P1 -> P2) needs its later processes to
 * start one transfer later each. Every
 * miss also gets a jitter in [0, mem_local_cycles], seeded from the seed.
 * The interpreter costs nothing itself: only the accesses and fences pay.
 *
 * --native: the processes are pinned threads of this host (start.h).
 * Each round starts with a sense-reversing spin barrier on one counter;
 * the threads leave it within the time a cache line takes to reach them.
 */
#include "litmus.h"
#include "litmus_rcu.h"

#include "cpu.h"
#include "spinlock.h"
#include "start.h"
#include "xalloc.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const litmus_t *t;
    const lit_opts_t *o;
    lit_hist_t *h;
    int cpu_of[LIT_MAXPROC];
    maddr_t addr[LIT_MAXVAR];
    int64_t regs[LIT_MAXPROC][LIT_MAXREG];
    uint64_t window, start;
    uint64_t offset[LIT_MAXPROC];
    int cpu_list[LIT_MAXPROC], ncpu_list; /* --cpus, simulated */
    int uses[LIT_MAXPROC][LIT_MAXVAR];    /* P's code touches the variable */
    int preload[LIT_MAXPROC][LIT_MAXVAR]; /* this round: read it first */
    gsl_rng *rng;
    /* round bookkeeping: simulated CPUs run one at a time; native threads
     * use the atomics */
    uint64_t round, done, arrived;
    int native;
    lit_rcu_t rcu;         /* the processes' RCU slots (a test that uses RCU) */
    int nest[LIT_MAXPROC]; /* their open read-side critical sections */
    char fault[256];       /* the first access through a non-pointer */
    int fault_line;
} lrun_t;

/* v as the state prints it: a pointer by its variable's name. */
static const char *value_text(const litmus_t *t, int64_t v, char *buf, size_t n)
{
    int k = litmus_ptr_var(t, v);
    if (k >= 0)
        return t->var[k];
    snprintf(buf, n, "%lld", (long long)v);
    return buf;
}

static void count_state(lrun_t *R, machine_t *m)
{
    const litmus_t *t = R->t;
    int64_t vals[LIT_MAXVAR];
    for (int v = 0; v < t->nvars; v++)
        vals[v] = (int64_t)machine_peek(m, R->addr[v]);
    if (!litmus_filter(t, (const int64_t(*)[LIT_MAXREG])R->regs, vals))
        return; /* herd7's filter: the run is not counted */
    char buf[1024], num[32];
    size_t n = 0;
    buf[0] = '\0';
    /* The state over what the condition names, registers first. */
    for (int p = 0; p < t->nprocs; p++)
        for (int r = 0; r < t->proc[p].nregs; r++)
            for (int k = 0; k < t->ncond; k++)
                if (t->cond[k].kind == LC_ATOM && t->cond[k].proc == p && t->cond[k].idx == r) {
                    n += (size_t)snprintf(buf + n, sizeof buf - n, "%d:%s=%s; ", p,
                                          t->proc[p].reg[r],
                                          value_text(t, R->regs[p][r], num, sizeof num));
                    break;
                }
    for (int v = 0; v < t->nvars && n < sizeof buf; v++)
        for (int k = 0; k < t->ncond; k++)
            if (t->cond[k].kind == LC_ATOM && t->cond[k].proc < 0 && t->cond[k].idx == v) {
                n += (size_t)snprintf(buf + n, sizeof buf - n, "%s=%s; ", t->var[v],
                                      value_text(t, vals[v], num, sizeof num));
                break;
            }
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    while (n && buf[n - 1] == ' ')
        buf[--n] = '\0';
    int ok = litmus_holds(t, (const int64_t(*)[LIT_MAXREG])R->regs, vals);
    lit_hist_t *h = R->h;
    h->runs++;
    h->positive += (uint64_t)ok;
    for (int k = 0; k < h->n; k++)
        if (!strcmp(h->s[k].state, buf)) {
            h->s[k].count++;
            return;
        }
    h->s = xrealloc(h->s, sizeof *h->s * (size_t)(h->n + 1));
    h->s[h->n].state = xstrdup(buf);
    h->s[h->n].count = 1;
    h->s[h->n].holds = ok;
    h->n++;
}

/* The address instruction in of process p accesses: its variable's, or
 * the one whose pointer its local preg holds. Through a pointer, an smp_rmb
 * first: the address dependency kept as Alpha's READ_ONCE keeps it (our
 * weak model's invalidate queue would otherwise let the access see a value
 * older than the pointer). 0 (the access is skipped) when the local holds
 * no pointer: the run then fails with R->fault. */
static maddr_t address(lrun_t *R, cpu_t *c, int p, const lit_insn_t *in)
{
    if (in->preg < 0)
        return R->addr[in->var];
    int64_t v = R->regs[p][in->preg];
    int k = litmus_ptr_var(R->t, v);
    if (k < 0) {
        if (!R->fault[0]) {
            snprintf(R->fault, sizeof R->fault,
                     "P%d goes through %s, which holds %lld, not a pointer to a shared variable", p,
                     R->t->proc[p].reg[in->preg], (long long)v);
            R->fault_line = in->line;
        }
        return 0;
    }
    cpu_rmb(c);
    return R->addr[k];
}

/* Atomically adds add to the word at a unless it is u (atomic_add_unless):
 * a cmpxchg loop. Returns 1 when it added. */
static int add_unless(cpu_t *c, maddr_t a, int64_t add, int64_t u, cpu_order_t o)
{
    uint64_t old = cpu_read(c, a);
    while ((int64_t)old != u) {
        if (cpu_cmpxchg_order(c, a, old, old + (uint64_t)add, o))
            return 1;
        old = cpu_read(c, a);
    }
    return 0;
}

static void interpret(lrun_t *R, cpu_t *c, int p)
{
    const litmus_t *t = R->t;
    const lit_proc_t *P = &t->proc[p];
    int64_t *regs = R->regs[p];
    memset(regs, 0, sizeof R->regs[p]);
    for (int pc = 0; pc < P->ncode;) {
        const lit_insn_t *in = &P->code[pc++];
        maddr_t a = LIT_OP_HAS_VAR(in->op) ? address(R, c, p, in) : 0;
        uint64_t v;
        if (LIT_OP_HAS_VAR(in->op) && !a) {
            if (in->reg >= 0)
                regs[in->reg] = 0;
            continue;
        }
        switch (in->op) {
        case LI_LOAD:
            v = in->order == CPU_ACQUIRE ? cpu_read_acquire(c, a) : cpu_read(c, a);
            if (in->reg >= 0) /* a bare READ_ONCE(*x); drops its value */
                regs[in->reg] = (int64_t)v;
            break;
        case LI_STORE:
            v = (uint64_t)litmus_eval(t, in->e1, regs);
            if (in->order == CPU_RELEASE)
                cpu_write_release(c, a, v);
            else
                cpu_write(c, a, v);
            break;
        case LI_FENCE:
            if (in->kind == 0)
                cpu_mb(c);
            else if (in->kind == 1)
                cpu_wmb(c);
            else
                cpu_rmb(c);
            break;
        case LI_XCHG:
            v = cpu_xchg_order(c, a, (uint64_t)litmus_eval(t, in->e1, regs), in->order);
            if (in->reg >= 0)
                regs[in->reg] = (int64_t)v;
            break;
        case LI_CMPXCHG: {
            /* cmpxchg returns the old value; the machine's says if it stored */
            uint64_t old = (uint64_t)litmus_eval(t, in->e1, regs);
            uint64_t nv = (uint64_t)litmus_eval(t, in->e2, regs);
            int done = cpu_cmpxchg_order(c, a, old, nv, in->order);
            v = done ? old : cpu_read(c, a);
            if (in->reg >= 0)
                regs[in->reg] = (int64_t)v;
            break;
        }
        case LI_LOCK:
            spin_lock(c, a);
            break;
        case LI_UNLOCK:
            spin_unlock(c, a);
            break;
        case LI_FADD: {
            int64_t d = litmus_eval(t, in->e1, regs);
            uint64_t old = cpu_fetch_add_order(c, a, (uint64_t)d, in->order);
            int64_t nv = (int64_t)(old + (uint64_t)d);
            if (in->reg >= 0)
                regs[in->reg] = in->kind == LIT_FADD_OLD   ? (int64_t)old
                                : in->kind == LIT_FADD_NEW ? nv
                                                           : nv == 0;
            break;
        }
        case LI_ADDUNLESS:
            v = (uint64_t)add_unless(c, a, litmus_eval(t, in->e1, regs),
                                     litmus_eval(t, in->e2, regs), in->order);
            if (in->reg >= 0)
                regs[in->reg] = (int64_t)v;
            break;
        case LI_TRYLOCK:
            v = (uint64_t)spin_trylock(c, a);
            if (in->reg >= 0)
                regs[in->reg] = (int64_t)v;
            break;
        case LI_ISLOCKED:
            v = cpu_read(c, a) != 0;
            if (in->reg >= 0)
                regs[in->reg] = (int64_t)v;
            break;
        case LI_RCU_LOCK:
            R->nest[p]++;
            lit_rcu_read_lock(c, &R->rcu, p);
            break;
        case LI_RCU_UNLOCK:
            if (R->nest[p] > 0) {
                R->nest[p]--;
                lit_rcu_read_unlock(c, &R->rcu, p);
            }
            break;
        case LI_SYNC_RCU:
            lit_rcu_synchronize(c, &R->rcu, p);
            break;
        case LI_ASSIGN:
            regs[in->reg] = litmus_eval(t, in->e1, regs);
            break;
        case LI_JZ:
            if (!litmus_eval(t, in->e1, regs))
                pc = in->target;
            break;
        case LI_JMP:
            pc = in->target;
            break;
        }
    }
    for (; R->nest[p] > 0; R->nest[p]--) /* a section left open ends with the process */
        lit_rcu_read_unlock(c, &R->rcu, p);
}

/* --- simulated --- */

static lrun_t *g_run;

/* The next round's start offsets and preloads. */
static void draw(lrun_t *R)
{
    for (int p = 0; p < R->t->nprocs; p++) {
        R->offset[p] = gsl_rng_uniform_int(R->rng, R->window + 1);
        for (int v = 0; v < R->t->nvars; v++)
            R->preload[p][v] = R->uses[p][v] && gsl_rng_uniform_int(R->rng, 2);
    }
}

static void open_round(lrun_t *R, cpu_t *c)
{
    machine_t *m = cpu_machine(c);
    for (int v = 0; v < R->t->nvars; v++)
        machine_poke(m, R->addr[v], (uint64_t)R->t->init[v]);
    lit_rcu_reset(&R->rcu, m);
    draw(R);
    R->start = cpu_now(c) + 50;
}

/* litmus7's "-preload random": before the round, the process reads each
 * variable it uses or not, at random, so that the rounds start from every
 * mix of cached and missing lines (a stale copy needs a cached line). */
static void preload(lrun_t *R, cpu_t *c, int p)
{
    cpu_flush_cache(c, 0); /* what this round holds is what it preloads */
    for (int v = 0; v < R->t->nvars; v++)
        if (R->preload[p][v])
            cpu_read(c, R->addr[v]);
}

static void sim_prog(cpu_t *c, void *arg)
{
    lrun_t *R = g_run;
    int p = (int)(intptr_t)arg;
    for (uint64_t k = 0; k < R->o->runs; k++) {
        while (R->round < k) {
            cpu_idle_until(c, cpu_now(c) + 20);
            cpu_sync(c);
        }
        cpu_mb(c);
        preload(R, c, p);
        cpu_idle_until(c, R->start + R->offset[p]);
        interpret(R, c, p);
        cpu_mb(c);
        cpu_sync(c);
        if (++R->done == (uint64_t)R->t->nprocs) {
            count_state(R, cpu_machine(c));
            R->done = 0;
            open_round(R, c);
            R->round = k + 1;
        }
    }
}

/* The RCU slots of a test that uses RCU, one per process on its CPU's node. */
static void rcu_setup(lrun_t *R, machine_t *m, const platform_t *p)
{
    if (!R->t->rcu)
        return;
    int node[LIT_MAXPROC];
    for (int i = 0; i < R->t->nprocs; i++)
        node[i] = p->cpu_node[R->cpu_of[i]];
    lit_rcu_init(&R->rcu, m, R->t->nprocs, node);
}

/* --- the grace period's cost (litmus_grace_period) --- */

enum { GP_WINDOW = 20000 }; /* the readers' sections, then the grace period */

/* One round every gp_period cycles: a reader's section at a random offset
 * in the first half of the window, the grace period at its end. */
static uint64_t gp_period(int ncpus)
{
    return (uint64_t)ncpus * 5000 + 2 * GP_WINDOW;
}

static void gp_prog(cpu_t *c, void *arg)
{
    lrun_t *R = g_run;
    int self = (int)(intptr_t)arg, n = R->rcu.n;
    uint64_t period = gp_period(n), t0 = cpu_now(c);
    for (int k = 0; k < LIT_GP_ROUNDS; k++) {
        uint64_t base = t0 + (uint64_t)k * period;
        if (self == 0) {
            cpu_idle_until(c, base + GP_WINDOW);
            uint64_t start = cpu_now(c);
            lit_rcu_synchronize(c, &R->rcu, 0);
            R->o->gp->cycles[k] = cpu_now(c) - start;
            cpu_progress(c);
        } else {
            cpu_idle_until(c, base + gsl_rng_uniform_int(cpu_rng(c), GP_WINDOW / 2));
            lit_rcu_read_lock(c, &R->rcu, self);
            lit_rcu_read_unlock(c, &R->rcu, self);
            cpu_progress(c);
        }
    }
}

static void gp_setup(machine_t *m, lrun_t *R)
{
    const platform_t *p = machine_platform(m);
    int n = machine_ncpus(m);
    int *node = calloc((size_t)n, sizeof *node);
    if (!node)
        abort();
    for (int i = 0; i < n; i++)
        node[i] = p->cpu_node[i];
    lit_rcu_init(&R->rcu, m, n, node);
    free(node);
    R->o->gp->ncpus = n;
    for (int i = 0; i < n; i++)
        machine_set_program(m, i, gp_prog, (void *)(intptr_t)i);
}

static void sim_setup(machine_t *m, void *arg)
{
    lrun_t *R = arg;
    if (R->o->gp) {
        gp_setup(m, R);
        return;
    }
    const platform_t *p = machine_platform(m);
    int n = R->t->nprocs;
    uint32_t maxlat = 0;
    for (int i = 0; i < p->nnodes * p->nnodes; i++)
        if (p->node_lat[i] > maxlat)
            maxlat = p->node_lat[i];
    double miss = p->costs.mem_local_cycles + maxlat + p->costs.remote_dirty_cycles;
    if (p->costs.c2c_node_cycles > miss)
        miss = p->costs.c2c_node_cycles;
    R->window = (uint64_t)n * (uint64_t)(miss + p->costs.mem_local_cycles + 0.5);
    machine_set_jitter(m, (uint32_t)(p->costs.mem_local_cycles + 0.5), R->o->seed);
    for (int i = 0; i < n; i++)
        R->cpu_of[i] = R->ncpu_list ? R->cpu_list[i] : i * p->ncpus / n;
    for (int v = 0; v < R->t->nvars; v++)
        R->addr[v] = machine_alloc(m, p->cpu_node[R->cpu_of[v % n]], 8);
    for (int i = 0; i < n; i++)
        machine_set_program(m, R->cpu_of[i], sim_prog, (void *)(intptr_t)i);
    /* the first round opens at once */
    for (int v = 0; v < R->t->nvars; v++)
        machine_poke(m, R->addr[v], (uint64_t)R->t->init[v]);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < R->t->proc[i].ncode; k++)
            if (LIT_OP_HAS_VAR(R->t->proc[i].code[k].op) && R->t->proc[i].code[k].preg < 0)
                R->uses[i][R->t->proc[i].code[k].var] = 1;
    rcu_setup(R, m, p);
    draw(R);
    R->start = 50;
}

/* --- native --- */

static void native_prog(cpu_t *c, void *arg)
{
    lrun_t *R = g_run;
    int p = (int)(intptr_t)arg, n = R->t->nprocs;
    for (uint64_t k = 0; k < R->o->runs; k++) {
        /* Round barrier: the last to arrive opens the round. */
        if (__atomic_add_fetch(&R->arrived, 1, __ATOMIC_ACQ_REL) == (uint64_t)n * (k + 1))
            __atomic_store_n(&R->round, k + 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(&R->round, __ATOMIC_ACQUIRE) < k + 1)
            cpu_relax(c);
        interpret(R, c, p);
        cpu_progress(c);
        /* Count after everyone: the next barrier's last arrival does it. */
        if (__atomic_add_fetch(&R->done, 1, __ATOMIC_ACQ_REL) == (uint64_t)n * (k + 1)) {
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            count_state(R, cpu_machine(c));
            for (int v = 0; v < R->t->nvars; v++)
                machine_poke(cpu_machine(c), R->addr[v], (uint64_t)R->t->init[v]);
            lit_rcu_reset(&R->rcu, cpu_machine(c));
            __atomic_store_n(&R->start, k + 1, __ATOMIC_RELEASE);
        }
        while (__atomic_load_n(&R->start, __ATOMIC_ACQUIRE) < k + 1)
            cpu_relax(c);
    }
}

static void native_setup(machine_t *m, void *arg)
{
    lrun_t *R = arg;
    if (R->o->gp) {
        gp_setup(m, R);
        return;
    }
    const platform_t *p = machine_platform(m);
    for (int v = 0; v < R->t->nvars; v++) {
        R->addr[v] = machine_alloc(m, p->cpu_node[v % R->t->nprocs], 8);
        machine_poke(m, R->addr[v], (uint64_t)R->t->init[v]);
    }
    for (int i = 0; i < R->t->nprocs; i++) {
        R->cpu_of[i] = i;
        machine_set_program(m, i, native_prog, (void *)(intptr_t)i);
    }
    rcu_setup(R, m, p);
}

enum { MAXCPU = 65536 };

static int add_cpu(long c, void *set)
{
    ((unsigned char *)set)[c / 8] |= (unsigned char)(1u << (c % 8));
    return 0;
}

int litmus_parse_cpus(const char *list, int *cpus, int max, int *highest, err_t *e)
{
    unsigned char *set = xcalloc(MAXCPU / 8, 1);
    int rc = err_parse_cpus(list, add_cpu, set, e), n = 0;
    for (int c = 0; c < MAXCPU && rc == 0; c++)
        if (set[c / 8] >> (c % 8) & 1) {
            if (n < max)
                cpus[n] = c;
            *highest = c;
            n++;
        }
    free(set);
    return rc < 0 ? -1 : n;
}

/* This host's CPUs for test t (--native): *host, or -1 with e. */
static int open_native(const litmus_t *t, const lit_opts_t *o, host_t **host, err_t *e)
{
    *host = host_open(o->cpus, e);
    if (!*host)
        return -1;
    if (host_platform(*host)->ncpus < t->nprocs) {
        err_set(e, t->name, 0, "needs %d CPUs, the host gives %d", t->nprocs,
                host_platform(*host)->ncpus);
        host_close(*host);
        *host = NULL;
        return -1;
    }
    return 0;
}

/* The simulated platform of o for test t, with its --set overrides and R's
 * --cpus: *p, or -1 with e (*p may then be set: the caller frees it). */
static int open_simulated(const litmus_t *t, const lit_opts_t *o, lrun_t *R, platform_t **p,
                          err_t *e)
{
    platform_override_t ov[16];
    char names[16][128];
    for (int i = 0; i < o->nset; i++) {
        const char *eq = strchr(o->set[i], '=');
        snprintf(names[i], sizeof names[i], "%.*s", (int)(eq - o->set[i]), o->set[i]);
        ov[i].name = names[i];
        ov[i].value = eq + 1;
    }
    *p = platform_read(o->platform, ov, o->nset, e);
    int hi = 0;
    if (*p && o->cpus)
        R->ncpu_list = litmus_parse_cpus(o->cpus, R->cpu_list, LIT_MAXPROC, &hi, e);
    if (!*p || R->ncpu_list < 0)
        return -1;
    if (o->cpus && hi >= (*p)->ncpus)
        return err_set(e, NULL, 0, "--cpus: CPU %d is not on platform %s (it has CPUs 0..%d)", hi,
                       (*p)->name, (*p)->ncpus - 1);
    if (o->cpus && R->ncpu_list < t->nprocs)
        return err_set(e, NULL, 0, "--cpus: test %s needs %d CPUs, '%s' gives %d", t->name,
                       t->nprocs, o->cpus, R->ncpu_list);
    if ((*p)->ncpus < t->nprocs)
        return err_set(e, o->platform, 0, "test %s needs %d CPUs, the platform has %d", t->name,
                       t->nprocs, (*p)->ncpus);
    return 0;
}

int litmus_run(const litmus_t *t, const lit_opts_t *o, lit_hist_t *h, err_t *e)
{
    memset(h, 0, sizeof *h);
    lrun_t *R = xcalloc(1, sizeof *R);
    R->t = t;
    R->o = o;
    R->h = h;
    R->rng = xcheck(gsl_rng_alloc(gsl_rng_taus2));
    gsl_rng_set(R->rng, o->seed * 2654435761ul + 17);
    g_run = R;
    host_t *host = NULL;
    platform_t *p = NULL;
    int rc = o->native ? open_native(t, o, &host, e) : open_simulated(t, o, R, &p, e);
    if (rc == 0) {
        machine_hooks_t hooks = {o->native ? native_setup : sim_setup, NULL, R};
        start_t st = {
            .host = host, .platform = p, .argv0 = o->argv0, .seed = o->seed, .hooks = &hooks};
        st.native.timeout_s = 30;
        rc = start_machine(&st, e);
    }
    if (host)
        host_close(host);
    platform_free(p);
    if (rc == 0 && R->fault[0])
        rc = err_set(e, t->path, R->fault_line, "%s", R->fault);
    lit_rcu_free(&R->rcu);
    gsl_rng_free(R->rng);
    free(R);
    g_run = NULL;
    return rc < 0 ? -1 : 0;
}

int litmus_grace_period(const lit_opts_t *opts, lit_gp_t *gp, err_t *e)
{
    litmus_t t = {.name = "grace-period", .nprocs = 1};
    lit_opts_t o = *opts;
    o.gp = gp;
    o.cpus = NULL;
    memset(gp, 0, sizeof *gp);
    lit_hist_t h;
    int rc = litmus_run(&t, &o, &h, e);
    litmus_hist_free(&h);
    return rc;
}

void litmus_hist_free(lit_hist_t *h)
{
    for (int k = 0; k < h->n; k++)
        free(h->s[k].state);
    free(h->s);
    memset(h, 0, sizeof *h);
}

static int by_state(const void *a, const void *b)
{
    return strcmp(((const lit_state_t *)a)->state, ((const lit_state_t *)b)->state);
}

void litmus_print(const litmus_t *t, const lit_hist_t *h, FILE *f)
{
    static const char *const q[] = {"exists", "~exists", "forall"};
    if (h->n > 1) /* an empty histogram (every run filtered out) has no array */
        qsort(h->s, (size_t)h->n, sizeof *h->s, by_state);
    uint64_t pos = h->positive, neg = h->runs - h->positive;
    /* Allowed: the condition as the test states it can come true. */
    int validated = t->quant == LQ_EXISTS       ? pos > 0
                    : t->quant == LQ_NOT_EXISTS ? pos == 0
                                                : neg == 0;
    fprintf(f, "Test %s %s\n", t->name, t->quant == LQ_EXISTS ? "Allowed" : "Required");
    fprintf(f, "Histogram (%d states)\n", h->n);
    for (int k = 0; k < h->n; k++)
        fprintf(f, "%-10llu%s>%s\n", (unsigned long long)h->s[k].count, h->s[k].holds ? "*" : ":",
                h->s[k].state);
    fprintf(f, "%s\n", validated ? "Ok" : "No");
    fprintf(f, "Witnesses\nPositive: %llu, Negative: %llu\n", (unsigned long long)pos,
            (unsigned long long)neg);
    fprintf(f, "Condition %s is %svalidated\n", q[t->quant], validated ? "" : "NOT ");
    fprintf(f, "Observation %s %s %llu %llu\n", t->name,
            pos == 0   ? "Never"
            : neg == 0 ? "Always"
                       : "Sometimes",
            (unsigned long long)pos, (unsigned long long)neg);
}
