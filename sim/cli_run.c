/* cli_run: `numasim run` - every platform x strategy x cache x seed of each
 * scenario, each simulation in a child process (SimGrid allows one engine
 * per process), up to --jobs at a time. Everything is validated before the
 * first simulation starts, so bad input never leaves a partial result. */
#include "cli.h"
#include "cpu.h"
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
static volatile pid_t g_children[MAX_JOBS]; /* running simulations */
/* The job table, also from a global: a child that _exits holds only a
 * pointer into it, which leak checkers would call "possibly lost". */
static job_t *volatile g_jobs;

static void on_signal(int sig)
{
    results_cleanup();
    for (int i = 0; i < MAX_JOBS; i++)
        if (g_children[i] > 0)
            kill(g_children[i], SIGKILL);
    _exit(128 + sig);
}

static void run_usage(FILE *f)
{
    fprintf(f, "usage: numasim run [-o OUT.csv] [--set SECTION.KEY=VALUE]... [--trace] [--jobs N]\n"
               "                   [--paje DIR [--paje-calls N]] SCENARIO.ini...\n"
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
    fflush(NULL);
    j->pid = fork();
    if (j->pid < 0) {
        perror("numasim: fork");
        exit(1);
    }
    if (j->pid > 0) {
        for (int i = 0; i < MAX_JOBS; i++)
            if (g_children[i] <= 0) {
                g_children[i] = j->pid;
                break;
            }
        return;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        _exit(1); /* the parent died before prctl took effect */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    run_t r;
    memset(&r, 0, sizeof r);
    r.s = v->s;
    r.p = v->plats[j->plat];
    r.strategy = j->strat;
    r.cache = v->s->caches[j->cache];
    r.seed = v->s->seed + (unsigned long)j->seedi;
    r.trace = trace;
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
    int st;
    while (waitpid(j->pid, &st, 0) < 0 && errno == EINTR)
        ;
    for (int i = 0; i < MAX_JOBS; i++)
        if (g_children[i] == j->pid)
            g_children[i] = 0;
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

static void write_resolved(FILE *f, const variant_t *v, int nv, int argc, char **argv)
{
    const scenario_t *s = v[0].s;
    fprintf(f, "; numasim %s: resolved configuration of scenario '%s' (%s)\n", NUMASIM_VERSION,
            s->name, s->path);
    fprintf(f, "; command: numasim");
    for (int i = 0; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n; platform paths are relative to the directory numasim ran in\n");
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
    for (int k = 0; k < s->nplatforms; k++) {
        const platform_t *p = v[0].plats[k];
        fprintf(f, "\n; platform %s (%s), resolved:\n", p->name, p->path);
        for (int i = 0; i < p->nparams; i++)
            fprintf(f, ";   %s = %s%s\n", p->params[i].name, p->params[i].value,
                    p->params[i].overridden ? "   (--set)" : "");
    }
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

static int run_scenario_file(const char *path, const char *out_opt, const char **sets, int nsets,
                             int trace, const paje_opt_t *po, int jobs, int quiet, int argc,
                             char **argv)
{
    err_t e = {{0}};
    int rc = 0;
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
        for (int i = 0; i < s->nplatforms && rc == 0; i++) {
            vs[k].plats[i] =
                platform_read(s->platforms[i], s->platform_sets, s->nplatform_sets, &e);
            if (!vs[k].plats[i] || run_check(s, vs[k].plats[i], &e) < 0) {
                fprintf(stderr, "%s\n", e.msg);
                rc = ERR_EXIT;
            } else {
                rc = fetch_routes(vs[k].plats[i]);
            }
        }
    }

    char out[4096];
    if (out_opt)
        snprintf(out, sizeof out, "%s", out_opt);
    else
        snprintf(out, sizeof out, "results/%s.csv", base->name);
    FILE *csv = NULL, *conf = NULL;
    char conf_path[4200];
    snprintf(conf_path, sizeof conf_path, "%.*s.resolved.ini",
             (int)(strlen(out) > 4 && !strcmp(out + strlen(out) - 4, ".csv") ? strlen(out) - 4
                                                                             : strlen(out)),
             out);
    if (rc == 0 && (results_ensure_dir(out, &e) < 0 || !(csv = results_open(out, &e)) ||
                    !(conf = results_open(conf_path, &e)))) {
        fprintf(stderr, "%s\n", e.msg);
        rc = ERR_EXIT;
    }

    /* All combinations, in output order. */
    int njobs = 0;
    job_t *js = NULL;
    for (int k = 0; k < nv && rc == 0; k++) {
        scenario_t *s = vs[k].s;
        int n = s->nplatforms * s->nstrategies * s->ncaches * s->seeds;
        js = realloc(js, sizeof *js * (size_t)(njobs + n));
        if (!js)
            abort();
        g_jobs = js;
        for (int pi = 0; pi < s->nplatforms; pi++)
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
    int next = 0, done = 0, running = 0;
    int *slot = calloc((size_t)(jobs > 0 ? jobs : 1), sizeof *slot);
    while (rc == 0 && done < njobs) {
        while (running < jobs && next < njobs) {
            start_job(&js[next], vs, trace, po);
            slot[running++] = next++;
        }
        /* Finish in start order: keeps stderr (traces) in a stable order. */
        int jr = finish_job(&js[slot[0]], vs);
        memmove(slot, slot + 1, sizeof *slot * (size_t)(running - 1));
        running--;
        done++;
        progress(quiet, done, njobs, base->name);
        if (jr)
            rc = jr;
    }
    while (running > 0) { /* after an error: reap the rest */
        int st;
        waitpid(js[slot[--running]].pid, &st, 0);
    }
    free(slot);

    if (rc == 0) {
        fprintf(csv, "%s\n", results_header);
        if (!quiet)
            printf("%s (%s):\n%-8s %-14s %-5s %12s %10s %10s %7s%s%s\n", base->name, out,
                   "platform", "strategy", "cache", "mean_cycles", "p95", "violations", "oopses",
                   base->sweep_key ? "  " : "", base->sweep_key ? base->sweep_key : "");
        for (int a = 0; a < njobs;) {
            job_t *j = &js[a];
            const variant_t *v = &vs[j->v];
            int b = a;
            size_t total = 0;
            while (b < njobs && js[b].v == j->v && js[b].plat == j->plat &&
                   js[b].strat == j->strat && js[b].cache == j->cache)
                total += (size_t)js[b++].ncalls;
            result_row_t row;
            memset(&row, 0, sizeof row);
            uint64_t *all = malloc(sizeof *all * (total ? total : 1));
            size_t off = 0;
            for (int i = a; i < b; i++) {
                memcpy(all + off, js[i].cycles, sizeof *all * (size_t)js[i].ncalls);
                off += (size_t)js[i].ncalls;
                row.violations += js[i].violations;
                row.oopses += js[i].oopses;
                row.bugs += js[i].bugs;
                row.uaf += js[i].uaf;
                row.sim_cycles += js[i].sim_cycles;
                row.accesses += js[i].accesses;
                row.seeds_violating += js[i].violations > 0;
                results_add_anatomy(&row, &js[i].anatomy);
            }
            results_stats(&row, all, total);
            free(all);
            const platform_t *p = v->plats[j->plat];
            snprintf(row.scenario, sizeof row.scenario, "%s", base->name);
            snprintf(row.platform, sizeof row.platform, "%s", p->name);
            snprintf(row.strategy, sizeof row.strategy, "%s", strategy_name(j->strat));
            snprintf(row.cache, sizeof row.cache, "%s", cache_state_name(v->s->caches[j->cache]));
            row.cpus = p->ncpus;
            row.nodes = p->nnodes;
            row.seed = v->s->seed;
            row.seeds = b - a;
            snprintf(row.sweep_key, sizeof row.sweep_key, "%s",
                     base->sweep_key ? base->sweep_key : "");
            snprintf(row.sweep_value, sizeof row.sweep_value, "%s",
                     v->sweep_value ? v->sweep_value : "");
            results_print_row(csv, &row);
            if (!quiet)
                printf("%-8s %-14s %-5s %12.1f %10.1f %10llu %7llu%s%s\n", row.platform,
                       row.strategy, row.cache, row.mean, row.p95,
                       (unsigned long long)row.violations, (unsigned long long)row.oopses,
                       *row.sweep_value ? "  " : "", row.sweep_value);
            a = b;
        }
        write_resolved(conf, vs, nv, argc, argv);
        /* The configuration first, the CSV last: a CSV under its final name
         * always has its configuration beside it. */
        FILE *c = conf;
        conf = NULL;
        if (results_commit(c, conf_path, &e) < 0) {
            fprintf(stderr, "%s\n", e.msg);
            rc = ERR_EXIT;
        } else {
            FILE *f = csv;
            csv = NULL;
            if (results_commit(f, out, &e) < 0) {
                fprintf(stderr, "%s\n", e.msg);
                unlink(conf_path);
                rc = ERR_EXIT;
            }
        }
    }
    if (csv)
        results_abort(csv, out);
    if (conf)
        results_abort(conf, conf_path);
    for (int i = 0; i < njobs; i++)
        free(js[i].cycles);
    free(js);
    for (int k = 0; k < nv; k++) {
        if (vs[k].plats)
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
                                         {"paje", required_argument, NULL, 'P'},
                                         {"paje-calls", required_argument, NULL, 'C'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *out = NULL;
    const char **sets = calloc((size_t)argc, sizeof *sets);
    int nsets = 0, trace = 0, quiet = 0, o;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN), pcalls = 0;
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
        case 'P':
            po.dir = optarg;
            break;
        case 'C':
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
    if (pcalls_set && !po.dir) {
        fprintf(stderr, "numasim run: --paje-calls needs --paje DIR\n");
        free(sets);
        return ERR_EXIT;
    }
    if (po.dir && paje_check_dir(po.dir) != 0) {
        free(sets);
        return ERR_EXIT;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    int rc = 0;
    for (int i = optind; i < argc && rc == 0; i++)
        rc = run_scenario_file(argv[i], out, sets, nsets, trace, &po, (int)jobs, quiet, argc, argv);
    free(sets);
    return rc;
}
