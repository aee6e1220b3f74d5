/* cli_run: `numasim run` - every platform x strategy x cache x seed of each
 * scenario, each simulation in a child process (SimGrid allows one engine
 * per process), up to --jobs at a time. Everything is validated before the
 * first simulation starts, so bad input never leaves a partial result. */
#include "child.h"
#include "cli.h"
#include "cpu.h"
#include "simulated.h"
#include "host.h"
#include "part.h"
#include "platform.h"
#include "results.h"
#include "run.h"
#include "scenario.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    scenario_t *s;
    platform_t **plats; /* [s->nplatforms] */
    const char *sweep_value;
} variant_t;

typedef struct {
    int v, plat, cache, seedi;
    strategy_id_t strat;
    pid_t pid;
    FILE *out;
    /* results, read back from the child */
    uint64_t *cycles;
    int ncalls;
    uint64_t violations, oopses, bugs, uaf, accesses, sim_cycles;
    cpu_anatomy_t anatomy;
    int ok;
} job_t;

/* --paje: where the traces go, and how many measured calls each shows. */
typedef struct {
    const char *dir;
    int calls;
} paje_opt_t;

typedef struct {
    int ncalls, rc;
    uint64_t violations, oopses, bugs, uaf, accesses, switches, sim_cycles;
    cpu_anatomy_t anatomy;
    char msg[1024];
} wire_t;

#define MAX_JOBS 256
/* The job table, also from a static: a child simulation exits while the
 * parent's pointer may live only in a register, which valgrind's leak check
 * in the child would report as lost. */
static job_t *volatile g_jobs;

/* --native: every scenario runs on this host instead of its platforms. */
static host_t *g_host;
static native_opts_t g_native = {30};

static void run_usage(FILE *f)
{
    fprintf(f, "usage: numasim run [-o OUT.csv] [--set SECTION.KEY=VALUE]... [--trace] [--jobs N]\n"
               "                   [--paje DIR [--paje-calls N]] SCENARIO.ini...\n"
               "       numasim run --native [--cpus LIST] [--timeout S] [-o OUT.csv]\n"
               "                   [--set SECTION.KEY=VALUE]... SCENARIO.ini...\n"
               "       numasim run --slice I/N [-o PART] [options as above] SCENARIO.ini\n"
               "\n"
               "Runs every platform x strategy x cache state (x seed, x sweep value) of each\n"
               "scenario and writes one CSV row per combination, cycles per del_timer_sync\n"
               "call, to results/<scenario-name>.csv (written atomically), with the resolved\n"
               "configuration beside it in results/<scenario-name>.resolved.ini.\n"
               "\n"
               "  -o OUT.csv           write here instead (one scenario only)\n"
               "  --set S.K=V          override a scenario key; platform.NAME=V overrides a\n"
               "                       platform property (or link.CLASS latency) for this run\n"
               "  --trace              print the events before each combination's first\n"
               "                       violation (simulated time, CPU, event) on stderr\n"
               "  --paje DIR           also write a Paje trace (ViTE, pajeng) of each\n"
               "                       combination into DIR, named\n"
               "                       SCENARIO-PLATFORM-STRATEGY-CACHE[-SWEEP][-sSEED].paje\n"
               "  --paje-calls N       measured calls each trace shows (default 3)\n"
               "  --jobs N             simulations run at once (default: number of CPUs)\n"
               "  -q, --quiet          no progress line and no summary\n"
               "  --native             run on this host's CPUs and memory instead of the\n"
               "                       scenario's platforms (one run at a time), to\n"
               "                       results/<scenario-name>-host.csv; rows say platform 'host'\n"
               "  --cpus LIST          with --native: the host CPUs to use, e.g. 0,2-3 (default:\n"
               "                       all); scenario CPU i is the i-th of them\n"
               "  --timeout S          with --native: stop a run whose calls make no progress\n"
               "                       for S seconds (default 30)\n"
               "  --slice I/N          run only slice I (0 to N-1) of N: the combinations k\n"
               "                       (platform x strategy x cache x sweep value x seed, in\n"
               "                       run order) with k mod N = I, and write their raw result\n"
               "                       to PART (default results/<name>.part-I-of-N), for\n"
               "                       `numasim merge`; no CSV, no resolved configuration\n"
               "\n"
               "Keys, units and defaults: scenarios/README.md. Errors exit with code 2.\n");
}

/* Computes p's node latency matrix once, in a child (SimGrid allows one
 * engine per process), so that every simulation of p skips the route
 * look-ups. Returns 0, 1 (crash) or 2 (broken routes, message printed). */
static int fetch_routes(platform_t *p)
{
    size_t n = (size_t)p->nnodes * (size_t)p->nnodes;
    FILE *f = tmpfile();
    if (!f) {
        perror("numasim: tmpfile");
        return 1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("numasim: fork");
        fclose(f);
        return 1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        err_t e = {{0}};
        if (machine_run(p, "numasim", 0, NULL, &e) < 0) {
            fprintf(stderr, "%s\n", e.msg);
            _exit(2);
        }
        _exit(fwrite(p->node_lat, sizeof *p->node_lat, n, f) == n && fflush(f) == 0 ? 0 : 1);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    if (rc == 0) {
        p->node_lat = malloc(sizeof *p->node_lat * n);
        rewind(f);
        if (!p->node_lat || fread(p->node_lat, sizeof *p->node_lat, n, f) != n) {
            free(p->node_lat);
            p->node_lat = NULL;
            rc = 1;
        }
    } else if (rc != 2) {
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

/* Creates DIR if missing and checks that a file can be written in it.
 * Returns 0, or ERR_EXIT with the message printed. */
static int paje_check_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0) {
        fprintf(stderr, "%s: cannot create the trace directory: %s\n", dir, strerror(errno));
        return ERR_EXIT;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: not a directory (--paje)\n", dir);
        return ERR_EXIT;
    }
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.numasim-probe.%ld", dir, (long)getpid());
    FILE *f = fopen(probe, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot write a trace here: %s\n", dir, strerror(errno));
        return ERR_EXIT;
    }
    fclose(f);
    unlink(probe);
    return 0;
}

/* Runs job j in a child; its results go to j->out (a temporary file). With
 * po->dir, SimGrid writes the trace to a temporary name, renamed once the
 * simulation returned: a trace under its final name is complete. */
static void start_job(job_t *j, variant_t *vs, int trace, const paje_opt_t *po)
{
    variant_t *v = &vs[j->v];
    j->out = tmpfile();
    if (!j->out) {
        perror("numasim: tmpfile");
        exit(1);
    }
    j->pid = child_fork();
    if (j->pid > 0)
        return;
    run_t r;
    memset(&r, 0, sizeof r);
    r.s = v->s;
    r.p = v->plats[j->plat];
    r.strategy = j->strat;
    r.cache = v->s->caches[j->cache];
    r.seed = v->s->seed + (unsigned long)j->seedi;
    r.trace = trace;
    r.host = g_host;
    r.native = g_native;
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
    fwrite(&w, sizeof w, 1, j->out);
    fwrite(r.cycles, sizeof *r.cycles, (size_t)r.ncalls, j->out);
    fflush(j->out);
    _exit(ferror(j->out) ? 1 : 0);
}

/* Waits for job j; returns 0, 1 (crash) or 2 (user error from the child). */
static int finish_job(job_t *j, const variant_t *vs)
{
    int st = child_wait(j->pid);
    const variant_t *v = &vs[j->v];
    wire_t w;
    rewind(j->out);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || fread(&w, sizeof w, 1, j->out) != 1) {
        fprintf(stderr, "numasim: internal error: the simulation of %s on %s (%s, %s) %s\n",
                v->s->name, v->plats[j->plat]->name, strategy_name(j->strat),
                cache_state_name(v->s->caches[j->cache]), WIFSIGNALED(st) ? "crashed" : "failed");
        fclose(j->out);
        return 1;
    }
    if (w.rc != 0) {
        fprintf(stderr, "%s\n", w.msg);
        fclose(j->out);
        return 2;
    }
    j->ncalls = w.ncalls;
    j->cycles = malloc(sizeof *j->cycles * (size_t)(w.ncalls ? w.ncalls : 1));
    if (!j->cycles ||
        fread(j->cycles, sizeof *j->cycles, (size_t)w.ncalls, j->out) != (size_t)w.ncalls) {
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
    j->ok = 1;
    return 0;
}

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
    if (g_host) {
        fprintf(
            f,
            "\n; run natively on this host (numasim run --native), not on the platforms above:\n");
        host_describe(g_host, f);
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

static int run_scenario_file(const char *path, const char *out_opt, const char **sets, int nsets,
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
        if (g_host) { /* the host stands in for every platform, once */
            vs[k].plats[0] = host_platform(g_host);
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
            } else if (!sliced) {
                rc = fetch_routes(vs[k].plats[i]);
            }
        }
    }

    /* All combinations, in output order. */
    int njobs = 0;
    job_t *js = NULL;
    for (int k = 0; k < nv && rc == 0; k++) {
        scenario_t *s = vs[k].s;
        int nplat = g_host ? 1 : s->nplatforms;
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
        if (part_slice_of(a, nslices) == slice && !p->node_lat)
            rc = fetch_routes(p);
    }

    char out[4096];
    if (out_opt)
        snprintf(out, sizeof out, "%s", out_opt);
    else if (sliced)
        snprintf(out, sizeof out, "results/%s.part-%d-of-%d", base->name, slice, nslices);
    else
        snprintf(out, sizeof out, "results/%s%s.csv", base->name, g_host ? "-host" : "");
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
        if (!sliced || part_slice_of(a, nslices) == slice)
            mine[nmine++] = a;
    int next = 0, done = 0, running = 0;
    int *slot = calloc((size_t)(jobs > 0 ? jobs : 1), sizeof *slot);
    while (rc == 0 && done < nmine) {
        while (running < jobs && next < nmine) {
            start_job(&js[mine[next]], vs, trace, po);
            slot[running++] = mine[next++];
        }
        /* Finish in start order: keeps stderr (traces) in a stable order. */
        int jr = finish_job(&js[slot[0]], vs);
        memmove(slot, slot + 1, sizeof *slot * (size_t)(running - 1));
        running--;
        done++;
        progress(quiet, done, nmine, base->name);
        if (jr)
            rc = jr;
    }
    while (running > 0) { /* after an error: reap the rest */
        child_wait(js[slot[--running]].pid);
    }
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
        char *cmd = NULL;
        size_t cmdlen = 0;
        FILE *cf = open_memstream(&cmd, &cmdlen);
        if (!cf)
            abort();
        for (int i = 0; i < argc; i++)
            fprintf(cf, "%s%s", i ? " " : "", argv[i]);
        fclose(cf);
        part_write_resolved(&pt, conf, cmd);
        free(cmd);
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
    for (int i = 0; i < njobs; i++)
        free(js[i].cycles);
    part_release(&pt);
    free(js);
    for (int k = 0; k < nv; k++) {
        if (vs[k].plats && !g_host)
            for (int i = 0; i < vs[k].s->nplatforms; i++)
                platform_free(vs[k].plats[i]);
        free(vs[k].plats);
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

int cli_run(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"set", required_argument, NULL, 's'},
                                         {"trace", no_argument, NULL, 't'},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"native", no_argument, NULL, 'N'},
                                         {"cpus", required_argument, NULL, 'C'},
                                         {"timeout", required_argument, NULL, 'T'},
                                         {"slice", required_argument, NULL, 'S'},
                                         {"paje", required_argument, NULL, 'P'},
                                         {"paje-calls", required_argument, NULL, 'K'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *out = NULL;
    const char **sets = calloc((size_t)argc, sizeof *sets);
    int nsets = 0, trace = 0, quiet = 0, native = 0, o, slice = -1, nslices = 1;
    const char *cpus = NULL;
    long timeout = 30;
    err_t e = {{0}};
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    long pcalls = 0;
    int pcalls_set = 0;
    paje_opt_t po = {NULL, 3};
    optind = 1;
    while ((o = getopt_long(argc, argv, "o:s:j:qh", opts, NULL)) != -1) {
        switch (o) {
        case 'o':
            out = optarg;
            break;
        case 's':
            sets[nsets++] = optarg;
            break;
        case 't':
            trace = 1;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'N':
            native = 1;
            break;
        case 'C':
            cpus = optarg;
            break;
        case 'T':
            if (err_parse_long(optarg, &timeout) < 0 || timeout < 1 || timeout > 86400) {
                fprintf(stderr, "--timeout: expected seconds from 1 to 86400, not '%s'\n", optarg);
                free(sets);
                return ERR_EXIT;
            }
            break;
        case 'S':
            if (part_parse_slice(optarg, &slice, &nslices, &e) < 0) {
                fprintf(stderr, "%s\n", e.msg);
                free(sets);
                return ERR_EXIT;
            }
            break;
        case 'P':
            po.dir = optarg;
            break;
        case 'K':
            if (err_parse_long(optarg, &pcalls) < 0 || pcalls < 1 || pcalls > 1000000) {
                fprintf(stderr,
                        "--paje-calls: expected a whole number from 1 to 1000000, not '%s'\n",
                        optarg);
                free(sets);
                return ERR_EXIT;
            }
            po.calls = (int)pcalls;
            pcalls_set = 1;
            break;
        case 'j':
            if (err_parse_long(optarg, &jobs) < 0 || jobs < 1 || jobs > MAX_JOBS) {
                fprintf(stderr, "--jobs: expected a whole number from 1 to 256, not '%s'\n",
                        optarg);
                free(sets);
                return ERR_EXIT;
            }
            break;
        case 'h':
            run_usage(stdout);
            free(sets);
            return 0;
        default:
            run_usage(stderr);
            free(sets);
            return ERR_EXIT;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "numasim run: no scenario file given (see --help)\n");
        free(sets);
        return ERR_EXIT;
    }
    if (out && argc - optind > 1) {
        fprintf(stderr, "numasim run: -o takes one scenario file, %d given\n", argc - optind);
        free(sets);
        return ERR_EXIT;
    }
    if (!native && (cpus || timeout != 30)) {
        fprintf(stderr, "numasim run: --cpus and --timeout go with --native\n");
        free(sets);
        return ERR_EXIT;
    }
    if (native && trace) {
        fprintf(stderr,
                "numasim run: --trace is for simulations; it is not available with --native\n");
        free(sets);
        return ERR_EXIT;
    }
    if (native) {
        g_host = host_open(cpus, &e);
        if (!g_host) {
            fprintf(stderr, "%s\n", e.msg);
            free(sets);
            return ERR_EXIT;
        }
        g_native.timeout_s = (int)timeout;
        jobs = 1; /* a native run needs every CPU it uses */
    }
    if (slice >= 0 && native) {
        fprintf(stderr,
                "numasim run: --slice is for simulations; it is not available with --native\n");
        free(sets);
        return ERR_EXIT;
    }
    if (slice >= 0 && argc - optind > 1) {
        fprintf(stderr, "numasim run: --slice takes one scenario file, %d given\n", argc - optind);
        free(sets);
        return ERR_EXIT;
    }
    if (native && po.dir) {
        fprintf(stderr,
                "numasim run: --paje is for simulations; it is not available with --native\n");
        free(sets);
        return ERR_EXIT;
    }
    if (pcalls_set && !po.dir) {
        fprintf(stderr, "numasim run: --paje-calls needs --paje DIR\n");
        free(sets);
        return ERR_EXIT;
    }
    if (po.dir && paje_check_dir(po.dir) != 0) {
        free(sets);
        return ERR_EXIT;
    }
    child_catch_signals();
    int rc = 0;
    for (int i = optind; i < argc && rc == 0; i++)
        rc = run_scenario_file(argv[i], out, sets, nsets, trace, &po, (int)jobs, quiet, slice,
                               nslices, argc, argv);
    free(sets);
    host_close(g_host);
    g_host = NULL;
    return rc;
}
