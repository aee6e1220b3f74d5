/* cli_run_scenario: one scenario file of `numasim run`. Loads it (once per
 * sweep value), reads and checks its platforms, lists every combination
 * (platform x strategy x cache x sweep value x seed, in output order), runs
 * them (or one slice of them) up to --jobs at a time, and writes the CSV and
 * its resolved configuration, or the slice's part file, atomically. */
#include "cli_run_internal.h"

#include "child.h"
#include "err.h"
#include "part.h"
#include "outfile.h"
#include "run.h"
#include "simulated.h"
#include "strategy.h"

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
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    fprintf(f, "; numasim %s: resolved configuration of scenario '%s' (%s)", NUMASIM_VERSION,
            v[0].s->name, v[0].s->path);
    fclose(f);
    return buf;
}

/* The resolved configuration after its command line; the caller frees it. */
static char *resolved_body(const variant_t *v, int nv)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
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
    if (cli_run_host) {
        fprintf(
            f,
            "\n; run natively on this host (numasim run --native), not on the platforms above:\n");
        host_describe(cli_run_host, f);
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
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
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
static void fill_part(part_t *pt, const variant_t *vs, int nv, const job_t *js, int njobs)
{
    const scenario_t *base = vs[0].s;
    snprintf(pt->version, sizeof pt->version, "%s", NUMASIM_VERSION);
    snprintf(pt->scenario, sizeof pt->scenario, "%s", base->name);
    snprintf(pt->sweep_key, sizeof pt->sweep_key, "%s", base->sweep_key ? base->sweep_key : "");
    pt->ncombos = njobs;
    pt->combos = calloc((size_t)(njobs ? njobs : 1), sizeof *pt->combos);
    pt->groups = calloc((size_t)(njobs ? njobs : 1), sizeof *pt->groups);
    if (!pt->combos || !pt->groups)
        abort();
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
    pt->body = resolved_body(vs, nv);
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
    FILE *cf = open_memstream(&cmd, &cmdlen);
    if (!cf)
        abort();
    for (int i = 0; i < argc; i++)
        fprintf(cf, "%s%s", i ? " " : "", argv[i]);
    fclose(cf);
    part_write_resolved(pt, conf, cmd);
    free(cmd);
}

int cli_run_scenario_file(const char *path, const char *out_opt, const char **sets, int nsets,
                          int trace, const paje_opt_t *po, int jobs, int quiet, int slice,
                          int nslices, int argc, char **argv)
{
    err_t e = {{0}};
    int rc = 0, sliced = slice >= 0; /* slice < 0: a plain run */
    scenario_t *base = scenario_load(path, sets, nsets, &e);
    if (!base) {
        fprintf(stderr, "%s\n", e.msg);
        return ERR_EXIT;
    }
    int nv = base->sweep_key ? base->nsweep : 1;
    variant_t *vs = calloc((size_t)nv, sizeof *vs);
    const char **vsets = malloc(sizeof *vsets * (size_t)(nsets + 1));
    char **owned = calloc((size_t)nv, sizeof *owned);
    if (!vs || !vsets || !owned)
        abort();
    for (int i = 0; i < nsets; i++)
        vsets[i] = sets[i];
    for (int k = 0; k < nv && rc == 0; k++) {
        if (base->sweep_key) {
            size_t len = strlen(base->sweep_key) + strlen(base->sweep_values[k]) + 2;
            owned[k] = malloc(len);
            snprintf(owned[k], len, "%s=%s", base->sweep_key, base->sweep_values[k]);
            vsets[nsets] = owned[k];
            vs[k].s = scenario_load(path, vsets, nsets + 1, &e);
            vs[k].sweep_value = base->sweep_values[k];
        } else {
            vs[k].s = base;
        }
        if (!vs[k].s) {
            fprintf(stderr, "%s (sweep value %s)\n", e.msg, base->sweep_values[k]);
            rc = ERR_EXIT;
            break;
        }
        scenario_t *s = vs[k].s;
        vs[k].plats = calloc((size_t)s->nplatforms, sizeof *vs[k].plats);
        vs[k].loaders = calloc((size_t)s->nplatforms, sizeof *vs[k].loaders);
        vs[k].left = calloc((size_t)s->nplatforms, sizeof *vs[k].left);
        if (!vs[k].plats || !vs[k].loaders || !vs[k].left)
            abort();
        if (cli_run_host) { /* the host stands in for every platform, once */
            vs[k].plats[0] = host_platform(cli_run_host);
            if (run_check(s, vs[k].plats[0], &e) < 0) {
                fprintf(stderr, "%s\n", e.msg);
                rc = ERR_EXIT;
            }
            continue;
        }
        for (int i = 0; i < s->nplatforms && rc == 0; i++) {
            vs[k].plats[i] =
                platform_read(s->platforms[i], s->platform_sets, s->nplatform_sets, &e);
            if (!vs[k].plats[i] || run_check(s, vs[k].plats[i], &e) < 0) {
                fprintf(stderr, "%s\n", e.msg);
                rc = ERR_EXIT;
            } else if (!sliced && po->dir) { /* else the platform's loader does it */
                rc = cli_run_fetch_routes(vs[k].plats[i]);
            }
        }
    }

    /* All combinations, in output order. */
    int njobs = 0;
    job_t *js = NULL;
    for (int k = 0; k < nv && rc == 0; k++) {
        scenario_t *s = vs[k].s;
        int nplat = cli_run_host ? 1 : s->nplatforms;
        int n = nplat * s->nstrategies * s->ncaches * s->seeds;
        js = realloc(js, sizeof *js * (size_t)(njobs + n));
        if (!js)
            abort();
        g_jobs = js;
        for (int pi = 0; pi < nplat; pi++)
            for (int si = 0; si < s->nstrategies; si++)
                for (int ci = 0; ci < s->ncaches; ci++)
                    for (int di = 0; di < s->seeds; di++) {
                        job_t *j = &js[njobs++];
                        memset(j, 0, sizeof *j);
                        j->v = k;
                        j->plat = pi;
                        j->strat = s->strategies[si];
                        j->cache = ci;
                        j->seedi = di;
                    }
    }
    part_t pt;
    memset(&pt, 0, sizeof pt);
    pt.slice = sliced ? slice : 0;
    pt.nslices = nslices;
    if (rc == 0) {
        fill_part(&pt, vs, nv, js, njobs);
        if (sliced) {
            pt.command = slice_command(argc, argv);
            if (hash_part(&pt, vs, nv, &e) < 0) {
                fprintf(stderr, "%s\n", e.msg);
                rc = ERR_EXIT;
            }
        }
    }
    /* A slice loads only the routes of the platforms it simulates. */
    for (int a = 0; a < njobs && rc == 0 && sliced; a++) {
        platform_t *p = vs[js[a].v].plats[js[a].plat];
        if (part_slice_of(a, nslices) == slice && !p->node_lat && po->dir)
            rc = cli_run_fetch_routes(p);
    }

    char out[4096];
    if (out_opt)
        snprintf(out, sizeof out, "%s", out_opt);
    else if (sliced)
        snprintf(out, sizeof out, "results/%s.part-%d-of-%d", base->name, slice, nslices);
    else
        snprintf(out, sizeof out, "results/%s%s.csv", base->name, cli_run_host ? "-host" : "");
    FILE *csv = NULL, *conf = NULL;
    char conf_path[4200];
    snprintf(conf_path, sizeof conf_path, "%.*s.resolved.ini",
             (int)(strlen(out) > 4 && !strcmp(out + strlen(out) - 4, ".csv") ? strlen(out) - 4
                                                                             : strlen(out)),
             out);
    if (rc == 0 && (outfile_ensure_dir(out, &e) < 0 || !(csv = outfile_open(out, &e)) ||
                    (!sliced && !(conf = outfile_open(conf_path, &e))))) {
        fprintf(stderr, "%s\n", e.msg);
        rc = ERR_EXIT;
    }

    /* The combinations of this slice (all of them for a plain run). */
    int nmine = 0;
    int *mine = malloc(sizeof *mine * (size_t)(njobs ? njobs : 1));
    if (!mine)
        abort();
    for (int a = 0; a < njobs; a++)
        if (!sliced || part_slice_of(a, nslices) == slice) {
            mine[nmine++] = a;
            vs[js[a].v].left[js[a].plat]++;
        }
    /* With workers, two jobs per worker in flight: one runs, one waits in
     * its pipe (loader.h). Beyond --jobs, only jobs of the platform whose
     * jobs are in flight: another loader's workers would run beside its. */
    int depth = cli_run_in_workers(po) && sim_run_again_ok() ? 2 * jobs : jobs;
    int next = 0, done = 0, running = 0, conf_synced = 0;
    int *slot = calloc((size_t)(depth > 0 ? depth : 1), sizeof *slot);
    while (rc == 0 && done < nmine) {
        while (rc == 0 && running < depth && next < nmine &&
               (running < jobs || same_loader(&js[mine[next]], js, slot, running))) {
            rc = cli_run_start_job(js, mine[next], vs, trace, po, jobs);
            if (rc == 0)
                slot[running++] = mine[next++];
        }
        if (rc)
            break;
        if (conf && !conf_synced) { /* known before any result: synced while the jobs run */
            conf_synced = 1;
            write_resolved(&pt, conf, argc, argv);
            if (outfile_sync(conf, conf_path, &e) < 0) {
                fprintf(stderr, "%s\n", e.msg);
                rc = ERR_EXIT;
                break;
            }
        }
        /* Finish in start order: keeps stderr (traces) in a stable order. */
        int jr = cli_run_finish_job(&js[slot[0]], vs);
        memmove(slot, slot + 1, sizeof *slot * (size_t)(running - 1));
        running--;
        done++;
        progress(quiet, done, nmine, base->name);
        if (jr)
            rc = jr;
    }
    while (running > 0) /* after an error: reap the rest */
        cli_run_reap_job(&js[slot[--running]], vs);
    for (int k = 0; k < nv; k++) /* after an error: loaders of jobs never started */
        for (int i = 0; vs[k].s && i < vs[k].s->nplatforms; i++)
            loader_stop(vs[k].loaders ? vs[k].loaders[i] : NULL);
    free(slot);
    free(mine);
    for (int a = 0; a < njobs && rc == 0; a++) {
        part_combo_t *c = &pt.combos[a];
        c->ncalls = js[a].ok ? js[a].ncalls : -1;
        c->cycles = js[a].cycles;
        js[a].cycles = NULL;
        c->violations = js[a].violations;
        c->oopses = js[a].oopses;
        c->bugs = js[a].bugs;
        c->uaf = js[a].uaf;
        c->accesses = js[a].accesses;
        c->sim_cycles = js[a].sim_cycles;
        c->anatomy = js[a].anatomy;
    }

    if (rc == 0 && sliced) {
        FILE *f = csv;
        csv = NULL;
        if (part_write(f, &pt) < 0 || outfile_commit(f, out, &e) < 0) {
            if (!*e.msg)
                err_set(&e, out, 0, "cannot write");
            fprintf(stderr, "%s\n", e.msg);
            rc = ERR_EXIT;
        } else if (!quiet) {
            printf("%s: slice %d/%d, %d of %d combinations -> %s\n", base->name, slice, nslices,
                   nmine, njobs, out);
        }
    } else if (rc == 0) {
        if (!quiet)
            printf("%s (%s):\n%-8s %-14s %-5s %12s %10s %10s %7s%s%s\n", base->name, out,
                   "platform", "strategy", "cache", "mean_cycles", "p95", "violations", "oopses",
                   base->sweep_key ? "  " : "", base->sweep_key ? base->sweep_key : "");
        part_write_rows(&pt, csv, quiet ? NULL : stdout);
        if (!conf_synced)
            write_resolved(&pt, conf, argc, argv);
        /* The configuration first, the CSV last: a CSV under its final name
         * always has its configuration beside it. */
        FILE *c = conf;
        conf = NULL;
        if (outfile_commit(c, conf_path, &e) < 0) {
            fprintf(stderr, "%s\n", e.msg);
            rc = ERR_EXIT;
        } else {
            FILE *f = csv;
            csv = NULL;
            if (outfile_commit(f, out, &e) < 0) {
                fprintf(stderr, "%s\n", e.msg);
                unlink(conf_path);
                rc = ERR_EXIT;
            }
        }
    }
    if (csv)
        outfile_abort(csv, out);
    if (conf)
        outfile_abort(conf, conf_path);
    loader_reap(); /* the loaders closed as their last jobs ended */
    for (int i = 0; i < njobs; i++)
        free(js[i].cycles);
    part_release(&pt);
    free(js);
    for (int k = 0; k < nv; k++) {
        if (vs[k].plats && !cli_run_host)
            for (int i = 0; i < vs[k].s->nplatforms; i++)
                platform_free(vs[k].plats[i]);
        free(vs[k].plats);
        free(vs[k].loaders);
        free(vs[k].left);
        if (vs[k].s && vs[k].s != base)
            scenario_free(vs[k].s);
        free(owned[k]);
    }
    free(owned);
    free(vs);
    free(vsets);
    scenario_free(base);
    return rc;
}
