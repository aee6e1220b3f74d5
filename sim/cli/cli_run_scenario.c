/* cli_run_scenario: one scenario file of `numasim run`. Loads it (once per
 * sweep value), reads and checks its platforms, lists every combination
 * (platform x strategy x cache x sweep value x seed, in output order; with
 * scenario.sweep2, the sweep values are every pair of the two keys'), runs
 * them (or one slice of them) up to --jobs at a time, and writes the CSV and
 * its resolved configuration, or the slice's part file, atomically. */
#include "cli_run_internal.h"

#include "child.h"
#include "cli.h"
#include "err.h"
#include "part.h"
#include "outfile.h"
#include "run.h"
#include "simulated.h"
#include "strategy.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The job table, also from a static: a child simulation exits while the
 * parent's pointer may live only in a register, which valgrind's leak check
 * in the child would report as lost. */
static job_t *volatile g_jobs;

/* The resolved configuration's first line; the caller frees it. */
static char *resolved_head(const variant_t *v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = xcheck(open_memstream(&buf, &len));
    fprintf(f, "; numasim %s: resolved configuration of scenario '%s' (%s)", NUMASIM_VERSION,
            v[0].s->name, v[0].s->path);
    fclose(f);
    return buf;
}

/* The resolved configuration after its command line; the caller frees it.
 * host: the host of --native, or NULL. */
static char *resolved_body(const variant_t *v, int nv, host_t *host)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = xcheck(open_memstream(&buf, &len));
    const scenario_t *s = v[0].s;
    fprintf(f, "; platform paths are relative to the directory numasim ran in\n");
    char section[64] = "";
    for (int i = 0; i < s->nresolved; i++) {
        const scenario_kv_t *kv = &s->resolved[i];
        const char *dot = strchr(kv->key, '.');
        int sl = dot ? (int)(dot - kv->key) : 0;
        if ((int)strlen(section) != sl || strncmp(section, kv->key, (size_t)sl) != 0) {
            snprintf(section, sizeof section, "%.*s", sl, kv->key);
            fprintf(f, "\n[%s]\n", section);
        }
        if (strcmp(kv->key, "scenario.platforms") != 0) {
            fprintf(f, "%s = %s ; %s\n", dot ? dot + 1 : kv->key, kv->value, kv->origin);
            continue;
        }
        fprintf(f, "platforms = ");
        for (int k = 0; k < s->nplatforms; k++)
            fprintf(f, "%s%s", k ? ", " : "", s->platforms[k]);
        fprintf(f, " ; %s\n", kv->origin);
    }
    for (int k = 0; k < nv && v[k].sweep_value; k++)
        fprintf(f, "; sweep %s = %s\n", s->sweep_key, v[k].sweep_value);
    if (host) {
        fprintf(
            f,
            "\n; run natively on this host (numasim run --native), not on the platforms above:\n");
        host_describe(host, f);
        fclose(f);
        return buf;
    }
    for (int k = 0; k < s->nplatforms; k++) {
        const platform_t *p = v[0].plats[k];
        fprintf(f, "\n; platform %s (%s), resolved:\n", p->name, p->path);
        for (int i = 0; i < p->nparams; i++)
            fprintf(f, ";   %s = %s%s\n", p->params[i].name, p->params[i].value,
                    p->params[i].overridden ? "   (--set)" : "");
    }
    fclose(f);
    return buf;
}

/* argv joined by spaces, leaving out the options that only say where and how
 * fast a slice runs (--slice, -o, --jobs and their values): what a slice
 * records as the arguments of the equivalent plain run. */
static char *slice_command(int argc, char **argv)
{
    static const char *const drop[] = {"slice", "output", "jobs"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = xcheck(open_memstream(&buf, &len));
    int first = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int skip = 0, takes_next = 0;
        if (!strcmp(a, "--")) {
            skip = 0;
        } else if (a[0] == '-' && a[1] == '-') {
            size_t n = strcspn(a + 2, "=");
            for (int d = 0; d < 3; d++)
                if (n >= 2 && !strncmp(a + 2, drop[d], n)) {
                    skip = 1;
                    takes_next = a[2 + n] != '=';
                }
        } else if (a[0] == '-' && (a[1] == 'o' || a[1] == 'j')) {
            skip = 1;
            takes_next = a[2] == '\0';
        }
        if (skip) {
            i += takes_next;
            continue;
        }
        fprintf(f, "%s%s", first ? "" : " ", a);
        first = 0;
    }
    fclose(f);
    return buf;
}

/* The part's hash: the scenario file, every platform file, the resolved
 * configuration and the row layout. Returns 0, or -1 with e. */
static int hash_part(part_t *pt, const variant_t *vs, int nv, err_t *e)
{
    uint64_t h = PART_HASH_INIT;
    if (part_hash_file(&h, vs[0].s->path, e) < 0)
        return -1;
    for (int k = 0; k < nv; k++)
        for (int i = 0; i < vs[k].s->nplatforms; i++)
            if (part_hash_file(&h, vs[k].plats[i]->path, e) < 0)
                return -1;
    h = part_hash(h, pt->head, strlen(pt->head));
    h = part_hash(h, pt->body, strlen(pt->body));
    pt->hash = part_hash_layout(h, pt);
    return 0;
}

static void progress(int quiet, int done, int total, const char *name)
{
    if (quiet || !isatty(2))
        return;
    fprintf(stderr, "\rnumasim run: %s: %d/%d simulations", name, done, total);
    if (done == total)
        fprintf(stderr, "\n");
    fflush(stderr);
}

/* Fills pt's header, groups and (empty) combinations from the jobs. */
static void fill_part(part_t *pt, const variant_t *vs, int nv, const job_t *js, int njobs,
                      host_t *host)
{
    const scenario_t *base = vs[0].s;
    snprintf(pt->version, sizeof pt->version, "%s", NUMASIM_VERSION);
    snprintf(pt->scenario, sizeof pt->scenario, "%s", base->name);
    snprintf(pt->sweep_key, sizeof pt->sweep_key, "%s%s%s", base->sweep_key ? base->sweep_key : "",
             base->sweep2_key ? "/" : "", base->sweep2_key ? base->sweep2_key : "");
    pt->ncombos = njobs;
    pt->combos = xcalloc((size_t)(njobs ? njobs : 1), sizeof *pt->combos);
    pt->groups = xcalloc((size_t)(njobs ? njobs : 1), sizeof *pt->groups);
    for (int a = 0; a < njobs;) {
        const job_t *j = &js[a];
        const variant_t *v = &vs[j->v];
        int b = a;
        while (b < njobs && js[b].v == j->v && js[b].plat == j->plat && js[b].strat == j->strat &&
               js[b].cache == j->cache)
            b++;
        part_group_t *q = &pt->groups[pt->ngroups++];
        const platform_t *p = v->plats[j->plat];
        q->first = a;
        q->n = b - a;
        snprintf(q->platform, sizeof q->platform, "%s", p->name);
        q->cpus = p->ncpus;
        q->nodes = p->nnodes;
        snprintf(q->strategy, sizeof q->strategy, "%s", strategy_name(j->strat));
        snprintf(q->cache, sizeof q->cache, "%s", cache_state_name(v->s->caches[j->cache]));
        q->seed = v->s->seed;
        snprintf(q->sweep_value, sizeof q->sweep_value, "%s", v->sweep_value ? v->sweep_value : "");
        a = b;
    }
    pt->head = resolved_head(vs);
    pt->body = resolved_body(vs, nv, host);
}

/* Whether job j goes to the loader of every job in slot[0 .. n). */
static int same_loader(const job_t *j, const job_t *js, const int *slot, int n)
{
    for (int i = 0; i < n; i++)
        if (js[slot[i]].v != j->v || js[slot[i]].plat != j->plat)
            return 0;
    return 1;
}

/* Writes the resolved configuration, after the command line that ran it. */
static void write_resolved(const part_t *pt, FILE *conf, int argc, char **argv)
{
    char *cmd = NULL;
    size_t cmdlen = 0;
    FILE *cf = xcheck(open_memstream(&cmd, &cmdlen));
    for (int i = 0; i < argc; i++)
        fprintf(cf, "%s%s", i ? " " : "", argv[i]);
    fclose(cf);
    part_write_resolved(pt, conf, cmd);
    free(cmd);
}

/* One scenario file's run: its variants (one per sweep value), its jobs
 * and its outputs. */
typedef struct {
    const run_opts_t *o;
    const char *path;
    scenario_t *base;
    int nv;
    variant_t *vs;      /* [nv] */
    const char **vsets; /* o->sets, then a sweep value's --set */
    char **owned;       /* [3 nv]: per variant, the sweep values' --set and their pair's name */
    job_t *js;          /* [njobs]: every combination, in output order */
    int njobs, nmine;   /* nmine: those of this slice */
    part_t pt;
    char out[4096], conf_path[4200];
    FILE *csv, *conf; /* the open outputs, or NULL */
    int conf_synced;  /* conf is written and synced */
} scen_t;

/* Reads and checks the platforms of variant v (the host of --native stands
 * in for them all) and, for a plain run with traces, fetches their routes
 * (else a loader does it). Returns 0, 1 or -1 with e. */
static int load_platforms(scen_t *S, variant_t *v, err_t *e)
{
    const run_opts_t *o = S->o;
    scenario_t *s = v->s;
    v->plats = xcalloc((size_t)s->nplatforms, sizeof *v->plats);
    v->loaders = xcalloc((size_t)s->nplatforms, sizeof *v->loaders);
    v->left = xcalloc((size_t)s->nplatforms, sizeof *v->left);
    if (o->host) {
        v->plats[0] = host_platform(o->host);
        return run_check(s, v->plats[0], e) < 0 ? -1 : 0;
    }
    for (int i = 0; i < s->nplatforms; i++) {
        v->plats[i] = platform_read(s->platforms[i], s->platform_sets, s->nplatform_sets, e);
        if (!v->plats[i] || run_check(s, v->plats[i], e) < 0)
            return -1;
        int rc = o->slice < 0 && o->paje.dir ? cli_run_fetch_routes(v->plats[i], e) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* a, sep and b in one malloc'd string. */
static char *joined(const char *a, const char *sep, const char *b)
{
    size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
    char *s = xmalloc(n);
    snprintf(s, n, "%s%s%s", a, sep, b);
    return s;
}

/* Loads the scenario once per sweep value (once when it has no sweep), and
 * each one's platforms. Returns 0, 1 or -1 with e. */
static int load_variants(scen_t *S, err_t *e)
{
    const run_opts_t *o = S->o;
    const scenario_t *base = S->base;
    int n2 = base->sweep2_key ? base->nsweep2 : 1;
    S->nv = base->sweep_key ? base->nsweep * n2 : 1;
    S->vs = xcalloc((size_t)S->nv, sizeof *S->vs);
    S->vsets = xmalloc(sizeof *S->vsets * (size_t)(o->nsets + 2));
    S->owned = xcalloc((size_t)S->nv * 3, sizeof *S->owned);
    for (int i = 0; i < o->nsets; i++)
        S->vsets[i] = o->sets[i];
    for (int k = 0; k < S->nv; k++) {
        variant_t *v = &S->vs[k];
        v->s = S->base;
        if (base->sweep_key) {
            /* every pair of values, the second key's varying fastest */
            const char *a = base->sweep_values[k / n2];
            char **own = &S->owned[3 * k];
            own[0] = joined(base->sweep_key, "=", a);
            S->vsets[o->nsets] = own[0];
            if (base->sweep2_key) {
                const char *b = base->sweep2_values[k % n2];
                own[1] = joined(base->sweep2_key, "=", b);
                own[2] = joined(a, "/", b);
                S->vsets[o->nsets + 1] = own[1];
            }
            v->s = scenario_load(S->path, S->vsets, o->nsets + 1 + (base->sweep2_key != NULL), e);
            v->sweep_value = own[2] ? own[2] : a;
        }
        if (!v->s) {
            err_t why = *e;
            return err_set(e, NULL, 0, "%s (sweep value %s)", why.msg, v->sweep_value);
        }
        int rc = load_platforms(S, v, e);
        if (rc)
            return rc;
    }
    return 0;
}

/* Lists every combination, in output order. */
static void list_jobs(scen_t *S)
{
    for (int k = 0; k < S->nv; k++) {
        const scenario_t *s = S->vs[k].s;
        int nplat = S->o->host ? 1 : s->nplatforms;
        int n = nplat * s->nstrategies * s->ncaches * s->seeds;
        S->js = xrealloc(S->js, sizeof *S->js * (size_t)(S->njobs + n));
        g_jobs = S->js;
        for (int pi = 0; pi < nplat; pi++)
            for (int si = 0; si < s->nstrategies; si++)
                for (int ci = 0; ci < s->ncaches; ci++)
                    for (int di = 0; di < s->seeds; di++) {
                        job_t *j = &S->js[S->njobs++];
                        memset(j, 0, sizeof *j);
                        j->v = k;
                        j->plat = pi;
                        j->strat = s->strategies[si];
                        j->cache = ci;
                        j->seedi = di;
                    }
    }
}

/* Fills the part (the results' header); a slice also gets its command and
 * hash, and the routes of the platforms it simulates. Returns 0, 1 or -1
 * with e. */
static int prepare_part(scen_t *S, err_t *e)
{
    const run_opts_t *o = S->o;
    fill_part(&S->pt, S->vs, S->nv, S->js, S->njobs, o->host);
    workload_t w = S->vs[0].s->workload; /* not sweepable apart: one per scenario */
    S->pt.cols = w == WORKLOAD_TICK      ? EXTRA_TICK
                 : w == WORKLOAD_CONTEND ? EXTRA_CONTEND
                                         : EXTRA_NONE;
    if (o->slice < 0)
        return 0;
    S->pt.command = slice_command(o->argc, o->argv);
    if (hash_part(&S->pt, S->vs, S->nv, e) < 0)
        return -1;
    for (int a = 0; a < S->njobs; a++) {
        platform_t *p = S->vs[S->js[a].v].plats[S->js[a].plat];
        int rc = part_slice_of(a, o->nslices) == o->slice && !p->node_lat && o->paje.dir
                     ? cli_run_fetch_routes(p, e)
                     : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* Opens the CSV (or the part file) and the resolved configuration, under
 * temporary names (outfile.h). Returns 0, or -1 with e. */
static int open_outputs(scen_t *S, err_t *e)
{
    const run_opts_t *o = S->o;
    const char *name = S->base->name;
    if (o->out)
        snprintf(S->out, sizeof S->out, "%s", o->out);
    else if (o->slice >= 0)
        snprintf(S->out, sizeof S->out, "results/%s.part-%d-of-%d", name, o->slice, o->nslices);
    else
        snprintf(S->out, sizeof S->out, "results/%s%s.csv", name, o->host ? "-host" : "");
    size_t n = strlen(S->out);
    snprintf(S->conf_path, sizeof S->conf_path, "%.*s.resolved.ini",
             (int)(n > 4 && !strcmp(S->out + n - 4, ".csv") ? n - 4 : n), S->out);
    if (outfile_ensure_dir(S->out, e) < 0 || !(S->csv = outfile_open(S->out, e)) ||
        (o->slice < 0 && !(S->conf = outfile_open(S->conf_path, e))))
        return -1;
    return 0;
}

/* The jobs of this slice (all of them for a plain run) into mine[];
 * returns how many, and counts them in their platforms' `left`. */
static int my_jobs(scen_t *S, int *mine)
{
    int n = 0;
    for (int a = 0; a < S->njobs; a++)
        if (S->o->slice < 0 || part_slice_of(a, S->o->nslices) == S->o->slice) {
            mine[n++] = a;
            S->vs[S->js[a].v].left[S->js[a].plat]++;
        }
    return n;
}

/* Runs the jobs of mine[0 .. S->nmine) up to --jobs at a time, finishing
 * them in start order (keeps stderr, the traces, in a stable order). With
 * workers, two jobs per worker are in flight: one runs, one waits in its
 * pipe (loader.h). Beyond --jobs, only jobs of the platform whose jobs are
 * in flight: another loader's workers would run beside its. The resolved
 * configuration, known before any result, is written and synced while the
 * first jobs run. Returns 0, 1 or -1 with e; after an error, the jobs in
 * flight are reaped and every loader stopped. */
static int run_jobs(scen_t *S, const int *mine, err_t *e)
{
    const run_opts_t *o = S->o;
    int jobs = o->jobs;
    int depth = cli_run_in_workers(o) && sim_run_again_ok() ? 2 * jobs : jobs;
    int next = 0, done = 0, running = 0, rc = 0;
    int *slot = xcalloc((size_t)(depth > 0 ? depth : 1), sizeof *slot);
    while (rc == 0 && done < S->nmine) {
        while (rc == 0 && running < depth && next < S->nmine &&
               (running < jobs || same_loader(&S->js[mine[next]], S->js, slot, running))) {
            rc = cli_run_start_job(S->js, mine[next], S->vs, o, e);
            if (rc == 0)
                slot[running++] = mine[next++];
        }
        if (rc)
            break;
        if (S->conf && !S->conf_synced) {
            S->conf_synced = 1;
            write_resolved(&S->pt, S->conf, o->argc, o->argv);
            if (outfile_sync(S->conf, S->conf_path, e) < 0) {
                rc = -1;
                break;
            }
        }
        rc = cli_run_finish_job(&S->js[slot[0]], S->vs, e);
        memmove(slot, slot + 1, sizeof *slot * (size_t)(running - 1));
        running--;
        done++;
        progress(o->quiet, done, S->nmine, S->base->name);
    }
    while (running > 0)
        cli_run_reap_job(&S->js[slot[--running]], S->vs);
    for (int k = 0; k < S->nv; k++) /* loaders of jobs never started */
        for (int i = 0; i < S->vs[k].s->nplatforms; i++)
            loader_stop(S->vs[k].loaders[i]);
    free(slot);
    return rc;
}

/* Moves the jobs' results into the part's combinations. */
static void collect(scen_t *S)
{
    for (int a = 0; a < S->njobs; a++) {
        job_t *j = &S->js[a];
        part_combo_t *c = &S->pt.combos[a];
        c->ncalls = j->ok ? j->ncalls : -1;
        c->cycles = j->cycles;
        j->cycles = NULL;
        c->violations = j->violations;
        c->oopses = j->oopses;
        c->bugs = j->bugs;
        c->uaf = j->uaf;
        c->accesses = j->accesses;
        c->sim_cycles = j->sim_cycles;
        c->anatomy = j->anatomy;
        c->extra = j->extra;
    }
}

/* A slice's output: the part file. Returns 0, or -1 with e. */
static int write_slice(scen_t *S, err_t *e)
{
    FILE *f = S->csv;
    S->csv = NULL;
    e->msg[0] = '\0';
    if (part_write(f, &S->pt) < 0 || outfile_commit(f, S->out, e) < 0) {
        if (!*e->msg)
            err_set(e, S->out, 0, "cannot write");
        return -1;
    }
    if (!S->o->quiet)
        printf("%s: slice %d/%d, %d of %d combinations -> %s\n", S->base->name, S->o->slice,
               S->o->nslices, S->nmine, S->njobs, S->out);
    return 0;
}

/* A plain run's outputs: the table on standard output, then the resolved
 * configuration and the CSV, committed in this order: a CSV under its final
 * name always has its configuration beside it. Returns 0, or -1 with e. */
static int write_csv(scen_t *S, err_t *e)
{
    const run_opts_t *o = S->o;
    const scenario_t *base = S->base;
    if (!o->quiet)
        printf("%s (%s):\n%-9s %-20s %-5s %12s %10s %10s %7s%s%s\n", base->name, S->out, "platform",
               "strategy", "cache", "mean_cycles", "p95", "violations", "oopses",
               base->sweep_key ? "  " : "", S->pt.sweep_key);
    part_write_rows(&S->pt, S->csv, o->quiet ? NULL : stdout);
    if (!S->conf_synced)
        write_resolved(&S->pt, S->conf, o->argc, o->argv);
    FILE *c = S->conf;
    S->conf = NULL;
    if (outfile_commit(c, S->conf_path, e) < 0)
        return -1;
    FILE *f = S->csv;
    S->csv = NULL;
    if (outfile_commit(f, S->out, e) < 0) {
        unlink(S->conf_path);
        return -1;
    }
    return 0;
}

/* Removes the outputs not committed, waits for the loaders and frees S. */
static void scen_free(scen_t *S)
{
    if (S->csv)
        outfile_abort(S->csv, S->out);
    if (S->conf)
        outfile_abort(S->conf, S->conf_path);
    loader_reap(); /* the loaders closed as their last jobs ended */
    for (int i = 0; i < S->njobs; i++)
        free(S->js[i].cycles);
    part_release(&S->pt);
    free(S->js);
    for (int k = 0; k < S->nv; k++) {
        variant_t *v = &S->vs[k];
        if (v->plats && !S->o->host)
            for (int i = 0; i < v->s->nplatforms; i++)
                platform_free(v->plats[i]);
        free(v->plats);
        free(v->loaders);
        free(v->left);
        if (v->s && v->s != S->base)
            scenario_free(v->s);
        for (int i = 0; i < 3; i++)
            free(S->owned[3 * k + i]);
    }
    free(S->owned);
    free(S->vs);
    free(S->vsets);
    scenario_free(S->base);
}

int cli_run_scenario_file(const char *path, const run_opts_t *o, err_t *e)
{
    scen_t S = {.o = o, .path = path};
    S.pt.slice = o->slice >= 0 ? o->slice : 0;
    S.pt.nslices = o->nslices;
    if (!(S.base = scenario_load(path, o->sets, o->nsets, e)))
        return -1;
    int rc = load_variants(&S, e);
    if (rc == 0) {
        list_jobs(&S);
        rc = prepare_part(&S, e);
    }
    if (rc == 0)
        rc = open_outputs(&S, e);
    int *mine = xmalloc(sizeof *mine * (size_t)(S.njobs ? S.njobs : 1));
    if (rc == 0) {
        S.nmine = my_jobs(&S, mine);
        rc = run_jobs(&S, mine, e);
    }
    free(mine);
    if (rc == 0) {
        collect(&S);
        rc = o->slice >= 0 ? write_slice(&S, e) : write_csv(&S, e);
    }
    scen_free(&S);
    return rc;
}
