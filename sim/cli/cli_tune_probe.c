/* cli_tune_probe: `numasim tune --probe-target FILE.csv PLATFORM.xml` - fits
 * the platform's parameters to probe cells (numasim probe's CSV, measured
 * natively or simulated on another platform) by simulating the same probes.
 *
 * Each evaluation re-executes this binary as `numasim probe -q --reps 5
 * --set platform.NAME=VALUE... PLATFORM.xml` in a child (SimGrid allows one
 * engine per process) and reads its CSV back; the fit is tune.c's simplex
 * on log(simulated/measured) of each cell's median. Five repetitions, the
 * simulated default: the ticks-on pause rows place repetition r of n at the
 * tick phase (r + 1/2) / n, so their median depends on n, and a simulated
 * target made with the default must be reproduced exactly. The chase stops
 * at the target's largest chase_S (--chase-max), and the pause rows are the
 * target's pauses (--pauses). A target of the core's rows alone (mlp_K,
 * code_N) is simulated with --only-core. */
#define _XOPEN_SOURCE 700
#include "child.h"
#include "cli.h"
#include "platform.h"
#include "probe.h"
#include "tune.h"
#include "xalloc.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    const char *platform;
    const char *const *fixed; /* user --set args */
    int nfixed;
    int nparams;
    char **names;
    const probe_row_t *rows; /* [ncells] target rows fitted */
    int ncells;
    char chase_max[32]; /* the target's largest chase (1024 without one) */
    char *pauses;       /* the target's pauses, "P,P,..." ("0" without one) */
    int only_cache;     /* the target has pause, chase and hit rows only */
    int only_core;      /* the target has mlp, code and hit rows only */
    char dir[PATH_MAX], csv[PATH_MAX + 16], errf[PATH_MAX + 16];
} ctx_t;

/* The parameters probes measure: the memory-model costs, the data cache
 * levels' latencies (the chase) and every link class, when their value is
 * > 0 (the fit works on logarithms). The footprints (default 0) are fitted
 * only when named: the pause rows see them. */
static int default_params(const platform_t *p, char ***names, int *n)
{
    static const char *const mem[] = {"hit_cycles",      "atomic_cycles",       "mem_local_cycles",
                                      "c2c_node_cycles", "remote_dirty_cycles", "inval_node_cycles",
                                      "l1d_cycles",      "l2_cycles",           "l3_cycles"};
    *n = 0;
    *names = xcalloc((size_t)p->nparams + 8, sizeof **names);
    for (int i = 0; i < p->nparams; i++) {
        const platform_param_t *q = &p->params[i];
        int want = !strncmp(q->name, "link.", 5);
        for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
            want |= !strcmp(q->name, mem[k]);
        double v;
        if (want && !q->overridden && err_parse_double(q->value, &v) == 0 && v > 0)
            (*names)[(*n)++] = xstrdup(q->name);
    }
    return *n;
}

/* The footprint parameters (lines per tick, per 10^6 cycles): 0 by default,
 * so their fit starts from FOOTPRINT_START lines. */
#define FOOTPRINT_START 64

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && !strcmp(s + n - t, tail);
}

static int is_footprint(const char *name)
{
    return ends_with(name, "_footprint_lines") || ends_with(name, "_per_mcycle");
}

/* The core's whole parameters (core.c): core_mshr and core_fetch_ahead,
 * which the mlp_K and code_N rows see; their largest value (the
 * platform's bound), else 0. Like the footprints they move the rows by
 * steps, so they are scanned too, and every value tried or written is a
 * whole number. (core_width, which timer_ops sees, may be a fraction: a
 * host's core issues a non-whole number of instructions a TSC cycle.) */
static int whole_max(const char *name)
{
    return !strcmp(name, "core_mshr")          ? CORE_MSHR_MAX
           : !strcmp(name, "core_fetch_ahead") ? CORE_FETCH_AHEAD_MAX
                                               : 0;
}

static int is_flat(const char *name)
{
    return is_footprint(name) || whole_max(name) > 0;
}

/* The fit works on logarithms, so on values > 0. A whole parameter whose
 * smallest value is 0 (core_fetch_ahead: no line fetched ahead) is fitted
 * as its value + 1: the offset between the platform's value and the
 * fit's. */
static int fit_offset(const char *name)
{
    return !strcmp(name, "core_fetch_ahead");
}

/* v, a value of the fit, as the platform takes it: a whole parameter
 * rounded into its range (from 0 or 1), core_width kept within its range
 * (1 to CORE_WIDTH_MAX) as a fraction. */
static double as_param(const char *name, double v)
{
    int max = whole_max(name), off = fit_offset(name);
    if (!strcmp(name, "core_width"))
        return v < 1 ? 1 : v > CORE_WIDTH_MAX ? CORE_WIDTH_MAX : v;
    if (!max)
        return v;
    v = floor(v + 0.5) - off;
    return v < 1 - off ? 1 - off : v > max ? max : v;
}

/* The pauses P of the target's timer_ops_pause[_tick]_P rows, ascending
 * and once each, as --pauses takes them ("0" when there are none: the
 * simulated probe then spends no time on rows nobody fits). Malloc'd. */
static char *target_pauses(const probe_row_t *rows, int n)
{
    uint64_t *v = xcalloc((size_t)n + 1, sizeof *v);
    int nv = 0;
    for (int i = 0; i < n; i++) {
        const char *p = rows[i].probe;
        if (strncmp(p, "timer_ops_pause_", 16))
            continue;
        p += 16;
        if (!strncmp(p, "tick_", 5))
            p += 5;
        char *end;
        unsigned long long x = strtoull(p, &end, 10);
        if (*end || end == p)
            continue;
        int j = nv;
        while (j > 0 && v[j - 1] > x)
            j--;
        if (j > 0 && v[j - 1] == x)
            continue;
        memmove(v + j + 1, v + j, sizeof *v * (size_t)(nv - j));
        v[j] = x;
        nv++;
    }
    if (nv == 0)
        v[nv++] = 0;
    size_t cap = (size_t)nv * 24 + 1, used = 0;
    char *s = xmalloc(cap);
    s[0] = '\0';
    for (int i = 0; i < nv; i++)
        used += (size_t)snprintf(s + used, cap - used, "%s%llu", i ? "," : "",
                                 (unsigned long long)v[i]);
    free(v);
    return s;
}

/* mlp_K's level is the memory's latency (mem_local_cycles and the walks,
 * fitted before it); the miss registers set its shape. So every mlp_K cell
 * the fit sees is the simulated mlp_K times the measured mlp_1 over the
 * simulated one: the fit compares mlp_1 / mlp_K, not the levels. */
static int has_mlp_1(const ctx_t *T, int *one)
{
    for (int i = 0; i < T->ncells; i++)
        if (!strcmp(T->rows[i].probe, "mlp_1")) {
            *one = i;
            return 1;
        }
    return 0;
}

static void mlp_shape(const ctx_t *T, double *sim)
{
    int one;
    if (!has_mlp_1(T, &one) || sim[one] <= 0)
        return;
    double f = T->rows[one].median / sim[one];
    for (int i = 0; i < T->ncells; i++)
        if (!strncmp(T->rows[i].probe, "mlp_", 4))
            sim[i] *= f;
}

/* The tick's footprint shows in what a tick adds to a pause; the pause's
 * own level is the noise's, which the rows without ticks fit. So every
 * timer_ops_pause_tick_P cell the fit sees is the simulated one times the
 * measured timer_ops_pause_P over the simulated one (where the target has
 * that row): the fit compares each tick row's ratio to the row without.
 * Returns that row's index, or -1. */
static int untick_row(const ctx_t *T, int i)
{
    const probe_row_t *c = &T->rows[i];
    if (strncmp(c->probe, "timer_ops_pause_tick_", 21) != 0)
        return -1;
    char name[64];
    snprintf(name, sizeof name, "timer_ops_pause_%s", c->probe + 21);
    for (int j = 0; j < T->ncells; j++)
        if (!strcmp(T->rows[j].probe, name) && T->rows[j].from_cpu == c->from_cpu &&
            T->rows[j].to_cpu == c->to_cpu && T->rows[j].to_node == c->to_node)
            return j;
    return -1;
}

static void tick_shape(const ctx_t *T, double *sim)
{
    for (int i = 0; i < T->ncells; i++) {
        int j = untick_row(T, i);
        if (j >= 0 && sim[j] > 0)
            sim[i] *= T->rows[j].median / sim[j];
    }
}

/* What a pause adds to the pair is the footprints'; the pair's own level,
 * back to back, is the code's and the caches' (stage c fits it to
 * timer_ops), and a host in a slow phase moves it for every row alike. So
 * every timer_ops_pause_P cell the fit sees is the simulated one times the
 * measured timer_ops_pause_0 over the simulated one (where the target has
 * that row): the fit compares each row's ratio to the pair without a
 * pause. Runs after tick_shape, which compares the tick rows with the rows
 * without ticks as simulated. Returns the index of timer_ops_pause_0, or
 * -1. */
static int pause0_row(const ctx_t *T)
{
    for (int j = 0; j < T->ncells; j++)
        if (!strcmp(T->rows[j].probe, "timer_ops_pause_0"))
            return j;
    return -1;
}

static void pause_shape(const ctx_t *T, double *sim)
{
    int z = pause0_row(T);
    if (z < 0 || sim[z] <= 0)
        return;
    double f = T->rows[z].median / sim[z];
    for (int i = 0; i < T->ncells; i++)
        if (!strncmp(T->rows[i].probe, "timer_ops_pause_", 16) && T->rows[i].probe[16] >= '0' &&
            T->rows[i].probe[16] <= '9')
            sim[i] *= f;
}

/* Is name a row numasim probe writes? (its families; the numbers are
 * checked by the simulated probe, which must produce the same row) */
static int is_probe_row(const char *name)
{
    static const char *const exact[] = {"timer_overhead", "hit",          "atomic_held",
                                        "timer_ops",      "load_mem",     "load_dirty",
                                        "pingpong_ldst",  "pingpong_cas", "rmw_load"};
    static const char *const prefix[] = {"store_inval_",     "chase_", "pages_",
                                         "timer_ops_pause_", "mlp_",   "code_"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (!strcmp(name, exact[i]))
            return 1;
    for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
        if (!strncmp(name, prefix[i], strlen(prefix[i])) && name[strlen(prefix[i])] >= '0' &&
            name[strlen(prefix[i])] <= '9')
            return 1;
    return !strncmp(name, "timer_ops_pause_tick_", 21) && name[21] >= '0' && name[21] <= '9';
}

static int eval_probe(const double *values, double *sim, void *vctx, err_t *e)
{
    ctx_t *T = vctx;
    char sets[64][320];
    const char *argv[200];
    int n = 0;
    argv[n++] = "numasim";
    argv[n++] = "probe";
    argv[n++] = "-q";
    argv[n++] = "--reps";
    argv[n++] = "5";
    if (!T->only_core) { /* mlp_K's working set is the platform's default */
        argv[n++] = "--chase-max";
        argv[n++] = T->chase_max;
    }
    argv[n++] = "--pauses";
    argv[n++] = T->pauses;
    if (T->only_cache)
        argv[n++] = "--only-cache";
    if (T->only_core)
        argv[n++] = "--only-core";
    argv[n++] = "-o";
    argv[n++] = T->csv;
    for (int i = 0; i < T->nparams && i < 64; i++) {
        snprintf(sets[i], sizeof sets[i], "platform.%s=%.6g", T->names[i],
                 as_param(T->names[i], values[i]));
        argv[n++] = "--set";
        argv[n++] = sets[i];
    }
    for (int i = 0; i < T->nfixed && n < 196; i++) {
        argv[n++] = "--set";
        argv[n++] = T->fixed[i];
    }
    argv[n++] = T->platform;
    argv[n] = NULL;
    unlink(T->csv);
    int st = child_run_self((char **)argv, T->errf, 0);
    if (st < 0)
        return err_set(e, NULL, 0, "numasim tune: fork: %s", strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char msg[600] = "";
        FILE *f = fopen(T->errf, "r");
        if (f) {
            if (!fgets(msg, sizeof msg, f))
                msg[0] = '\0';
            fclose(f);
        }
        msg[strcspn(msg, "\n")] = '\0';
        return err_set(e, NULL, 0, "numasim tune: the simulated probe failed: %s", msg);
    }
    probe_result_t r;
    if (probe_read_csv(T->csv, &r, e) < 0)
        return -1;
    int rc = 0;
    for (int i = 0; i < T->ncells && rc == 0; i++) {
        const probe_row_t *c = &T->rows[i];
        const probe_row_t *s = probe_find(&r, c->probe, c->from_cpu, c->to_cpu, c->to_node);
        if (!s)
            rc = err_set(e, NULL, 0,
                         "cell %s %d->%d (node %d) of the target: %s produces no such probe",
                         c->probe, c->from_cpu, c->to_cpu, c->to_node, T->platform);
        else
            sim[i] = s->median;
    }
    probe_result_free(&r);
    if (rc == 0) {
        mlp_shape(T, sim);
        tick_shape(T, sim);
        pause_shape(T, sim);
    }
    return rc;
}

static void cleanup(ctx_t *T)
{
    if (!T->dir[0])
        return;
    unlink(T->csv);
    unlink(T->errf);
    rmdir(T->dir);
}

/* The objective (tune.c's) of values, simulated; -1 with e on failure. */
static double objective(ctx_t *T, const double *values, const tune_cell_t *cells, double *sim,
                        int *evals, err_t *e)
{
    double v[64];
    for (int i = 0; i < T->nparams && i < 64; i++)
        v[i] = tune_round(values[i]);
    (*evals)++;
    return eval_probe(v, sim, T, e) < 0 ? -1 : tune_objective(sim, cells, T->ncells);
}

enum {
    NC_TOP = 40,  /* the largest scan exponent: 2^40 lines */
    NC_RATE = 20, /* for rates per Mcycle: 2^20, one line a cycle, beyond any
                   * CPU's memory bandwidth (and each step of the scan
                   * above it fills millions of lines per access) */
};

/* Footprints move the pause rows by steps: the simulated caches empty a
 * level at once when a footprint reaches its capacity, so the objective is
 * flat between steps and a simplex stops on the first flat. Before it, each
 * footprint is scanned alone (the others held), twice round: over x2 steps
 * from 1 to 2^top lines (top: 15, or more so that 2^top is twice the largest
 * level, which a footprint may exceed; a rate per Mcycle stops at 2^20,
 * NC_RATE), then finer steps around the best (down to x2^(1/16),
 * 4%), taking the middle of the best flat each time: the flat where every
 * row matches spans the values the pauses cannot tell apart, and its middle
 * is the estimate. The second round scans the whole range again: a value
 * chosen while another parameter was still at its start can be far off.
 * Returns 0 (v updated, *nsim the simulations it ran) or -1. */
static int scan_footprints(ctx_t *T, double *v, const tune_cell_t *cells, int top, int *nsim,
                           err_t *e)
{
    enum { NC = 64 };
    double *sim = xcalloc((size_t)T->ncells, sizeof *sim);
    int evals = 0;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < T->nparams; i++) {
            if (!is_flat(T->names[i]))
                continue;
            /* each round: x2 over the range, then x2^(1/4), x2^(1/16) around
             * the best; round 2 (the others moved) x2^(1/16) once more, so
             * that the window (x0.84 to x1.19) re-centres on the flat */
            int ptop = ends_with(T->names[i], "_per_mcycle") && top > NC_RATE ? NC_RATE : top;
            if (whole_max(T->names[i]))
                ptop = (int)log2(whole_max(T->names[i]) + fit_offset(T->names[i]));
            for (int step = 0; step < (round ? 4 : 3); step++) {
                int pass = step < 3 ? step : 2;
                double cand[NC], obj[NC], keep = v[i];
                int n = pass == 0 ? ptop + 1 : 9;
                for (int j = 0; j < n; j++) {
                    cand[j] = pass == 0 ? pow(2, j) : keep * pow(2, (j - 4) / pow(4, pass));
                    v[i] = cand[j];
                    if ((obj[j] = objective(T, v, cells, sim, &evals, e)) < 0) {
                        free(sim);
                        return -1;
                    }
                }
                int best = 0;
                for (int j = 1; j < n; j++)
                    if (obj[j] < obj[best] - 1e-12)
                        best = j;
                int lo = best, hi = best;
                while (lo > 0 && obj[lo - 1] <= obj[best] + 1e-12)
                    lo--;
                while (hi < n - 1 && obj[hi + 1] <= obj[best] + 1e-12)
                    hi++;
                v[i] = sqrt(cand[lo] * cand[hi]);
            }
            fprintf(stderr, "scan: %s=%.6g (%d simulations so far)\n", T->names[i],
                    whole_max(T->names[i]) ? as_param(T->names[i], v[i]) : v[i], evals);
        }
    free(sim);
    *nsim = evals;
    return 0;
}

/* The fit's start: each parameter's value in the platform (a footprint at
 * 0 starts at FOOTPRINT_START), into init, and as the fit takes it
 * (fit_offset) into start; *scan: some parameter is a footprint (scanned
 * before the simplex). Returns 0, or -1 with e. */
static int fit_init(const ctx_t *T, const platform_t *p, double *init, double *start, int *scan,
                    err_t *e)
{
    for (int i = 0; i < T->nparams; i++) {
        err_parse_double(platform_param(p, T->names[i])->value, &init[i]);
        start[i] = init[i] + fit_offset(T->names[i]);
        *scan |= is_flat(T->names[i]);
        if (start[i] > 0)
            continue;
        if (is_flat(T->names[i])) {
            init[i] = start[i] = whole_max(T->names[i]) ? 1 : FOOTPRINT_START;
            /* stdout, with the fit's report: stderr is for the one-line error */
            printf("note: %s is 0 in %s; the fit starts it at %g\n", T->names[i], T->platform,
                   init[i]);
        } else {
            return err_set(e, T->platform, platform_param(p, T->names[i])->line,
                           "%s is %g: the fit works on logarithms and needs a start > 0 "
                           "(write one in the file)",
                           T->names[i], init[i]);
        }
    }
    return 0;
}

/* Prints the fitted values and each cell's error. */
static void print_fit(const ctx_t *T, const tune_result_t *r, const double *init, int scan_only,
                      int scan_sims)
{
    printf("%-24s %12s %12s %8s\n", "parameter", "initial", "fitted", "change");
    for (int i = 0; i < T->nparams; i++)
        if (init[i] != 0)
            printf("%-24s %12.6g %12.6g %+7.1f%%\n", T->names[i], init[i], r->fitted[i],
                   100 * (r->fitted[i] / init[i] - 1));
        else
            printf("%-24s %12.6g %12.6g %8s\n", T->names[i], init[i], r->fitted[i], "-");
    printf("\n%-16s %5s %5s %5s %12s %12s %8s\n", "probe", "from", "to", "node", "measured",
           "simulated", "error");
    for (int i = 0; i < T->ncells; i++) {
        const probe_row_t *c = &T->rows[i];
        printf("%-16s %5d %5d %5d %12.6g %12.1f %+7.1f%%\n", c->probe, c->from_cpu, c->to_cpu,
               c->to_node, c->median, r->sim[i], 100 * (r->sim[i] / c->median - 1));
    }
    int one;
    if (has_mlp_1(T, &one))
        printf("(mlp_K simulated: scaled by the measured mlp_1 over the simulated one, so "
               "that the fit compares mlp_1 / mlp_K)\n");
    int ticks = 0;
    for (int i = 0; i < T->ncells; i++)
        ticks += untick_row(T, i) >= 0;
    if (ticks)
        printf("(timer_ops_pause_tick_P simulated: scaled by the measured timer_ops_pause_P over "
               "the simulated one, so that the fit compares what the tick adds)\n");
    if (pause0_row(T) >= 0)
        printf("(timer_ops_pause_P simulated: scaled by the measured timer_ops_pause_0 over the "
               "simulated one, so that the fit compares what the pause adds)\n");
    if (scan_only)
        printf("\nrms relative error %.3g%%: the values of a scan of %d simulations (a simplex "
               "does not move on the footprints' flats)\n",
               100 * r->err, scan_sims);
    else
        printf("\nrms relative error %.3g%% (initial %.3g%%), %d simulations, %d iterations, "
               "%s\n",
               100 * r->err, 100 * r->err0, r->evals, r->iters,
               r->converged ? "converged" : "stopped before converging (--max-evals)");
}

/* Writes the tuned platform to out, with a comment saying how it was
 * fitted, and reads it back. Returns 0, or -1 with e. */
static int write_tuned(const ctx_t *T, const tune_result_t *r, const char *target, const char *out,
                       int scan_only, int scan_sims, err_t *e)
{
    char comment[3000], date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime(&now));
    size_t used =
        (size_t)snprintf(comment, sizeof comment,
                         " tuned by numasim tune %s on %s to probe cells: ", NUMASIM_VERSION, date);
    for (int i = 0; i < T->nparams && used < sizeof comment; i++)
        used += (size_t)snprintf(comment + used, sizeof comment - used, "%s%s=%.6g", i ? ", " : "",
                                 T->names[i], r->fitted[i]);
    if (used < sizeof comment && scan_only)
        snprintf(comment + used, sizeof comment - used,
                 "; probe target %s (%d cells), rms relative error %.3g%%, a scan of %d "
                 "simulations ",
                 target, T->ncells, 100 * r->err, scan_sims);
    else if (used < sizeof comment)
        snprintf(comment + used, sizeof comment - used,
                 "; probe target %s (%d cells), rms relative error %.3g%% (initial %.3g%%), "
                 "%d simulations%s ",
                 target, T->ncells, 100 * r->err, 100 * r->err0, r->evals,
                 r->converged ? "" : ", not converged");
    return tune_write_platform(T->platform, out, T->nparams, (const char *const *)T->names,
                               r->fitted, comment, e);
}

/* Fits: a scan of the footprints (if any), then the simplex from there;
 * prints the fit and writes the tuned platform. Returns 0, or -1 with e. */
static int fit(ctx_t *T, const char *target, const char *out, long max_evals, const platform_t *p,
               err_t *e)
{
    tune_cell_t *cells = xcalloc((size_t)T->ncells, sizeof *cells);
    double *init = xcalloc((size_t)T->nparams, sizeof *init);
    double *start = xcalloc((size_t)T->nparams, sizeof *start);
    for (int i = 0; i < T->ncells; i++)
        cells[i].cycles = T->rows[i].median;
    double step = 0.2;
    int scan = 0, scan_sims = 0, all_footprints = 1, rc = fit_init(T, p, init, start, &scan, e);
    if (rc == 0 && scan) {
        int top = 15;
        for (int l = 0; l < CACHE_NLEVELS; l++)
            while (top < NC_TOP && pow(2, top) < 2.0 * (double)p->cache[l].bytes / p->line_bytes)
                top++;
        rc = scan_footprints(T, start, cells, top, &scan_sims, e);
        step = 0.05; /* the simplex polishes what the scan found */
    }
    for (int i = 0; i < T->nparams; i++)
        all_footprints &= is_flat(T->names[i]);
    if (scan && all_footprints)
        max_evals = 1; /* nothing for a simplex on flats: the scan's values stand */
    tune_problem_t pb = {.nparams = T->nparams,
                         .names = (const char *const *)T->names,
                         .initial = start,
                         .ncells = T->ncells,
                         .cells = cells,
                         .max_evals = (int)max_evals,
                         .step = step,
                         .size_tol = 1e-3,
                         .eval = eval_probe,
                         .ctx = T,
                         .log = stderr};
    tune_result_t r;
    if (rc == 0 && (rc = tune_fit(&pb, &r, e)) == 0) {
        for (int i = 0; i < T->nparams; i++) /* what the simulations ran */
            r.fitted[i] = as_param(T->names[i], r.fitted[i]);
        print_fit(T, &r, init, scan && all_footprints, scan_sims);
        rc = write_tuned(T, &r, target, out, scan && all_footprints, scan_sims, e);
        tune_result_free(&r);
    }
    free(cells);
    free(init);
    free(start);
    return rc;
}

/* The --set overrides, all platform.NAME=VALUE, into ov (64 at most; the
 * names allocated). Returns 0, or -1 with e. */
static int read_overrides(const char *const *sets, int nsets, platform_override_t *ov, int *nov,
                          err_t *e)
{
    for (int i = 0; i < nsets; i++) {
        const char *eq = strchr(sets[i], '=');
        if (strncmp(sets[i], "platform.", 9) || !eq || *nov >= 64)
            return err_set(e, "--set", 0,
                           "with --probe-target only platform.NAME=VALUE, not '%.60s'", sets[i]);
        ov[*nov].name = xcheck(strndup(sets[i] + 9, (size_t)(eq - sets[i] - 9)));
        ov[(*nov)++].value = eq + 1;
    }
    return 0;
}

/* The parameters to fit: --params, or the defaults; none may be set.
 * Returns 0, or -1 with e. */
static int pick_params(ctx_t *T, const platform_t *p, const char *params, err_t *e)
{
    if (params && tune_parse_params(params, p, &T->names, &T->nparams, e) < 0)
        return -1;
    if (!params && default_params(p, &T->names, &T->nparams) == 0)
        return err_set(e, T->platform, 0, "no parameter > 0 to fit; name some with --params");
    for (int i = 0; i < T->nparams; i++)
        if (platform_param(p, T->names[i])->overridden)
            return err_set(e, "--set", 0, "platform.%s is fitted, it cannot be set too",
                           T->names[i]);
    return 0;
}

/* The cells into rows (T->ncells): every target row but the empty timing
 * and zero medians. Returns 0, or -1 with e. */
static int pick_cells(ctx_t *T, const probe_result_t *tg, const platform_t *p, const char *target,
                      probe_row_t *rows, err_t *e)
{
    for (int i = 0; i < tg->nrows; i++) {
        const probe_row_t *w = &tg->rows[i];
        if (w->from_cpu >= p->ncpus || w->to_cpu >= p->ncpus || w->to_node >= p->nnodes)
            return err_set(e, target, 0,
                           "cell %s %d->%d (node %d) is outside %s (%d CPUs, %d nodes)", w->probe,
                           w->from_cpu, w->to_cpu, w->to_node, T->platform, p->ncpus, p->nnodes);
        if (!is_probe_row(w->probe))
            return err_set(e, target, 0,
                           "row '%s' is not a probe cell of numasim probe (a del_timer_sync cell "
                           "is fitted by tune --target, never to probes)",
                           w->probe);
        if (strcmp(w->probe, "timer_overhead") && w->median > 0)
            rows[T->ncells++] = *w;
    }
    if (T->ncells == 0)
        return err_set(e, target, 0, "no probe cell with a median > 0 to fit");
    return 0;
}

/* What the simulated probes measure: the chase stops at the target's
 * largest size (the rest of the chase is the bulk of a probe's time on a
 * platform with a large last level, and the other rows do not depend on it,
 * probe_cache.c), the target's pauses, and only the cache probes when the
 * cells are all of them. */
static void probe_args(ctx_t *T, const probe_row_t *rows, const platform_t *p)
{
    long chase_max = 1024, page = p->page_bytes > 0 ? p->page_bytes : 4096;
    for (int i = 0; i < T->ncells; i++) {
        long s;
        if (!strncmp(rows[i].probe, "chase_", 6) && err_parse_long(rows[i].probe + 6, &s) == 0 &&
            s > chase_max)
            chase_max = s;
        /* a pages_N row needs N pages and one to align them (probe_cache.c) */
        if (!strncmp(rows[i].probe, "pages_", 6) && err_parse_long(rows[i].probe + 6, &s) == 0 &&
            (s + 1) * page > chase_max && (s + 1) * page <= PROBE_CHASE_CAP)
            chase_max = (s + 1) * page;
    }
    snprintf(T->chase_max, sizeof T->chase_max, "%ld", chase_max);
    T->pauses = target_pauses(rows, T->ncells);
    T->only_cache = 1;
    T->only_core = 1;
    for (int i = 0; i < T->ncells; i++)
        if (strncmp(rows[i].probe, "mlp_", 4) && strncmp(rows[i].probe, "code_", 5) &&
            strcmp(rows[i].probe, "rmw_load") && strcmp(rows[i].probe, "hit"))
            T->only_core = 0;
    for (int i = 0; i < T->ncells; i++)
        if (strncmp(rows[i].probe, "chase_", 6) && strncmp(rows[i].probe, "pages_", 6) &&
            strncmp(rows[i].probe, "timer_ops_pause_", 16) && strcmp(rows[i].probe, "hit"))
            T->only_cache = 0;
    T->only_core &= !T->only_cache; /* hit alone: the smaller run */
}

/* The output path into outbuf (never the input unless -o names it) and the
 * temporary directory of the simulated probes. Returns 0, or -1 with e. */
static int prepare_out(ctx_t *T, const char *out, char *outbuf, size_t n, err_t *e)
{
    if (out)
        snprintf(outbuf, n, "%s", out);
    else
        tune_default_out(T->platform, outbuf, n);
    if (!strcmp(outbuf, T->platform) && !out)
        return err_set(e, outbuf, 0, "is the input platform; give -o to overwrite it");
    snprintf(T->dir, sizeof T->dir, "%s/numasim-tune.XXXXXX",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(T->dir)) {
        err_set(e, T->dir, 0, "cannot create a temporary directory: %s", strerror(errno));
        T->dir[0] = '\0';
        return -1;
    }
    snprintf(T->csv, sizeof T->csv, "%s/probe.csv", T->dir);
    snprintf(T->errf, sizeof T->errf, "%s/stderr", T->dir);
    return 0;
}

int cli_tune_probe(const char *target, const char *params, const char *out, long max_evals,
                   const char *const *sets, int nsets, const char *platform)
{
    err_t e = {{0}};
    ctx_t T = {.platform = platform, .fixed = sets, .nfixed = nsets};
    platform_override_t ov[64];
    int nov = 0;
    probe_result_t tg = {0};
    platform_t *p = NULL;
    probe_row_t *rows = NULL;
    char outbuf[PATH_MAX];
    int rc = read_overrides(sets, nsets, ov, &nov, &e);
    if (rc == 0 && !(p = platform_read(platform, ov, nov, &e)))
        rc = -1;
    if (rc == 0)
        rc = pick_params(&T, p, params, &e);
    if (rc == 0 && probe_read_csv(target, &tg, &e) < 0)
        rc = -1;
    if (rc == 0) {
        rows = xcalloc((size_t)tg.nrows + 1, sizeof *rows);
        T.rows = rows;
        rc = pick_cells(&T, &tg, p, target, rows, &e);
    }
    if (rc == 0) {
        probe_args(&T, rows, p);
        rc = prepare_out(&T, out, outbuf, sizeof outbuf, &e);
    }
    if (rc == 0)
        rc = fit(&T, target, outbuf, max_evals, p, &e);
    cleanup(&T);
    free(T.pauses);
    if (rc < 0)
        fprintf(stderr, "%s\n", e.msg);
    for (int i = 0; i < nov; i++)
        free((char *)ov[i].name);
    for (int i = 0; i < T.nparams; i++)
        free(T.names[i]);
    free(T.names);
    free(rows);
    probe_result_free(&tg);
    platform_free(p);
    return rc < 0 ? ERR_EXIT : 0;
}
