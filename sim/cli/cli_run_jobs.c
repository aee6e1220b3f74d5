/* cli_run_jobs: the simulations of `numasim run`, in child processes
 * (SimGrid allows one engine per process): a worker of the platform's
 * loader (loader.h), or, for traces and host runs, a child of their own. A
 * job is one combination; the child runs it and writes a wire_t and the
 * cycles of every call to a temporary file, which the parent reads back.
 * The node latency matrix of a platform is computed once, in a child too,
 * before its jobs start. */
#include "cli_run_internal.h"

#include "child.h"
#include "cli.h"
#include "err.h"
#include "run.h"
#include "simulated.h"
#include "strategy.h"
#include "xalloc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    int ncalls, rc;
    uint64_t violations, oopses, bugs, uaf, accesses, switches, sim_cycles;
    cpu_anatomy_t anatomy;
    run_extra_t extra;
    char msg[1024];
} wire_t;

int cli_run_fetch_routes(platform_t *p, err_t *e)
{
    size_t n = (size_t)p->nnodes * (size_t)p->nnodes;
    FILE *f = tmpfile();
    if (!f) {
        perror("numasim: tmpfile");
        return 1;
    }
    pid_t pid = child_try_fork();
    if (pid < 0) {
        perror("numasim: fork");
        fclose(f);
        return 1;
    }
    if (pid == 0) {
        if (sim_run(p, "numasim", 0, NULL, e) < 0) {
            fprintf(stderr, "%s\n", e->msg);
            _exit(ERR_EXIT);
        }
        _exit(fwrite(p->node_lat, sizeof *p->node_lat, n, f) == n && fflush(f) == 0 ? 0 : 1);
    }
    int st = child_wait(pid);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    if (rc == 0) {
        p->node_lat = xmalloc(sizeof *p->node_lat * n);
        rewind(f);
        if (fread(p->node_lat, sizeof *p->node_lat, n, f) != n) {
            free(p->node_lat);
            p->node_lat = NULL;
            rc = 1;
        }
    } else if (rc == ERR_EXIT) {
        rc = cli_err_printed(e);
    } else {
        fprintf(stderr, "numasim: internal error: loading %s failed\n", p->path);
        rc = 1;
    }
    fclose(f);
    return rc;
}

/* The trace file of job j: DIR/SCENARIO-PLATFORM-STRATEGY-CACHE[-SWEEP][-sSEED].paje */
static void paje_name(char *buf, size_t size, const paje_opt_t *po, const job_t *j,
                      const variant_t *vs)
{
    const variant_t *v = &vs[j->v];
    char sweep[160] = "", seed[32] = "";
    if (v->sweep_value)
        snprintf(sweep, sizeof sweep, "-%s", v->sweep_value);
    if (v->s->seeds > 1)
        snprintf(seed, sizeof seed, "-s%lu", v->s->seed + (unsigned long)j->seedi);
    snprintf(buf, size, "%s/%s-%s-%s-%s%s%s.paje", po->dir, v->s->name, v->plats[j->plat]->name,
             strategy_name(j->strat), cache_state_name(v->s->caches[j->cache]), sweep, seed);
}

/* Runs job j in this process, its results into j->out, which it closes;
 * returns the exit code (0 when they are written). last: this process
 * exits after it. With a --paje directory, SimGrid writes the trace to a
 * temporary name, renamed once the simulation returned: a trace under its
 * final name is complete. */
static int run_job(job_t *j, variant_t *vs, const run_opts_t *o, int last)
{
    const paje_opt_t *po = &o->paje;
    int trace = o->trace;
    variant_t *v = &vs[j->v];
    run_t r;
    memset(&r, 0, sizeof r);
    r.s = v->s;
    r.p = v->plats[j->plat];
    r.strategy = j->strat;
    r.cache = v->s->caches[j->cache];
    r.seed = v->s->seed + (unsigned long)j->seedi;
    r.trace = trace;
    r.host = o->host;
    r.native = o->native;
    if (trace)
        fprintf(stderr, "== trace: %s, %s, %s, %s, seed %lu\n", v->s->name, r.p->name,
                strategy_name(r.strategy), cache_state_name(r.cache), r.seed);
    char paje_final[4200], paje_tmp[4300];
    if (po->dir) {
        paje_name(paje_final, sizeof paje_final, po, j, vs);
        snprintf(paje_tmp, sizeof paje_tmp, "%s.tmp.%ld", paje_final, (long)getpid());
        r.paje = paje_tmp;
        r.paje_calls = po->calls;
    }
    err_t e = {{0}};
    wire_t w;
    memset(&w, 0, sizeof w);
    if (last && !po->dir)
        sim_exit_after(); /* nothing to free (a trace is closed at the end) */
    w.rc = run_one(&r, "numasim", &e);
    if (po->dir && (w.rc != 0 || rename(paje_tmp, paje_final) != 0)) {
        if (w.rc == 0) {
            snprintf(e.msg, sizeof e.msg, "%.900s: %s", paje_final, strerror(errno));
            w.rc = -1;
        }
        unlink(paje_tmp);
    }
    snprintf(w.msg, sizeof w.msg, "%s", e.msg);
    w.ncalls = r.ncalls;
    w.violations = r.violations;
    w.oopses = r.oopses;
    w.bugs = r.bugs;
    w.uaf = r.uaf;
    w.accesses = r.accesses;
    w.switches = r.switches;
    w.sim_cycles = r.sim_cycles;
    w.anatomy = r.anatomy;
    w.extra = r.extra;
    fwrite(&w, sizeof w, 1, j->out);
    fwrite(r.cycles, sizeof *r.cycles, (size_t)r.ncalls, j->out);
    free(r.cycles);
    int bad = fflush(j->out) != 0 || ferror(j->out);
    bad |= fclose(j->out) != 0;
    j->out = NULL;
    return bad;
}

/* What a job forked by a loader needs: the jobs as they were when the loader
 * started (loader.h). */
typedef struct {
    job_t *js;
    variant_t *vs;
    const run_opts_t *o;
} jobs_ctx_t;

static int loader_body(int k, int fd, int last, void *ctx)
{
    const jobs_ctx_t *x = ctx;
    job_t *j = &x->js[k];
    j->out = fdopen(fd, "w");
    if (!j->out) {
        close(fd);
        return 1;
    }
    return run_job(j, x->vs, x->o, last);
}

int cli_run_in_workers(const run_opts_t *o)
{
    return !o->paje.dir && !o->host;
}

int cli_run_start_job(job_t *js, int k, variant_t *vs, const run_opts_t *o, err_t *e)
{
    job_t *j = &js[k];
    variant_t *v = &vs[j->v];
    j->out = tmpfile();
    if (!j->out) {
        perror("numasim: tmpfile");
        exit(1);
    }
    j->k = k;
    if (cli_run_in_workers(o)) {
        if (!v->loaders[j->plat]) {
            static jobs_ctx_t x; /* the loader's copy of this process holds it */
            x = (jobs_ctx_t){js, vs, o};
            int rc;
            v->loaders[j->plat] = loader_start(v->plats[j->plat], o->jobs, loader_body, &x, &rc);
            if (!v->loaders[j->plat])
                return rc < 0 ? cli_err_printed(e) : 1;
        }
        j->loader = v->loaders[j->plat];
        j->pid = loader_submit(j->loader, k, fileno(j->out)); /* 0, or -1 */
        return 0;
    }
    j->pid = child_fork();
    if (j->pid == 0)
        _exit(run_job(j, vs, o, 1));
    return 0;
}

/* Waits for j's process; when it was its platform's last job, closes the
 * platform's loader (cli_run_scenario_file reaps it at its end). */
static int wait_job(job_t *j, variant_t *vs)
{
    variant_t *v = &vs[j->v];
    int st = j->pid < 0 ? -1 : j->loader ? loader_wait(j->loader, j->k) : child_wait(j->pid);
    if (--v->left[j->plat] == 0 && v->loaders[j->plat]) {
        loader_close(v->loaders[j->plat]);
        v->loaders[j->plat] = NULL;
    }
    return st;
}

void cli_run_reap_job(job_t *j, variant_t *vs)
{
    wait_job(j, vs);
}

int cli_run_finish_job(job_t *j, variant_t *vs, err_t *e)
{
    int st = wait_job(j, vs);
    const variant_t *v = &vs[j->v];
    wire_t w;
    rewind(j->out);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || fread(&w, sizeof w, 1, j->out) != 1) {
        fprintf(stderr, "numasim: internal error: the simulation of %s on %s (%s, %s) %s\n",
                v->s->name, v->plats[j->plat]->name, strategy_name(j->strat),
                cache_state_name(v->s->caches[j->cache]), WIFSIGNALED(st) ? "crashed" : "failed");
        fclose(j->out);
        return 1;
    }
    if (w.rc != 0) {
        fclose(j->out);
        return err_set(e, NULL, 0, "%s", w.msg);
    }
    j->ncalls = w.ncalls;
    j->cycles = xmalloc(sizeof *j->cycles * (size_t)w.ncalls);
    if (fread(j->cycles, sizeof *j->cycles, (size_t)w.ncalls, j->out) != (size_t)w.ncalls) {
        fprintf(stderr, "numasim: internal error: short result from a simulation\n");
        fclose(j->out);
        return 1;
    }
    fclose(j->out);
    j->violations = w.violations;
    j->oopses = w.oopses;
    j->bugs = w.bugs;
    j->uaf = w.uaf;
    j->accesses = w.accesses;
    j->sim_cycles = w.sim_cycles;
    j->anatomy = w.anatomy;
    j->extra = w.extra;
    j->ok = 1;
    return 0;
}
