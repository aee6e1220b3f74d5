/* cli_hunt: `numasim hunt` - a race hunter. Theory of operation.
 *
 * A candidate is the scenario with some workload keys changed (as --set
 * overrides): the calling CPU, the arming CPU, the timekeeper, the timer
 * function's length, re-arm point and distance, the spacing and its jitter,
 * the miss jitter and the seed. Each candidate is one short simulation
 * (--calls calls, no warm-up) of one strategy, in a child process as in
 * `numasim run` (SimGrid allows one engine per process), --jobs at a time.
 *
 * The search is a random walk with a corpus, in the spirit of PCT and of
 * coverage-guided fuzzing over timings. The timer core's events are anchored
 * to ticks, so lengths are drawn tick-aligned (a whole number of tick
 * periods minus a log-uniform slack) as often as freely, and the re-arm
 * point is drawn near the function's end as often as uniformly. A race needs
 * events packed close together; each simulation reports how tightly the
 * timer's events packed (oracle_tightness: function end to next start, and
 * re-arm to function end), and the corpus keeps the candidates that packed
 * them tightest. Once a strategy has a violation, candidates are scored by
 * the simulated time to the first violation instead, and the shortest is
 * kept. The hunt stops when the budget (simulations) is spent, or when every
 * hunted strategy has a violation and --refine more simulations found none
 * shorter.
 *
 * Determinism: candidates are drawn from the hunter's own generator (--seed)
 * in batches of a fixed size, and a batch's results are taken in candidate
 * order, so the hunt does not depend on --jobs or on timing.
 *
 * For each strategy with a violation it writes a scenario file that
 * reproduces it with `numasim run` (calls cut to the first violating call),
 * with the trace of events before the violation as comments. */
#define _GNU_SOURCE /* realpath */
#include "child.h"
#include "cli.h"
#include "platform.h"
#include "outfile.h"
#include "run.h"
#include "scenario.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <gsl/gsl_rng.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BATCH    8  /* candidates per generation: fixed, for determinism */
#define CORPUS   16 /* candidates kept */
#define NKEYS    10
#define MAX_JOBS 256
#define KEYLEN   96

/* The keys the hunter changes, in the order of its overrides. */
enum { K_CPU, K_ARM, K_TK, K_FN, K_AT, K_RJ, K_SP, K_SJ, K_JIT, K_SEED };
static const char *const kKeys[NKEYS] = {"measure.cpu",
                                         "measure.arm_cpu",
                                         "kernel.timekeeper_cpu",
                                         "function.cycles",
                                         "function.rearm_at",
                                         "function.rearm_jiffies",
                                         "measure.spacing_cycles",
                                         "measure.spacing_jitter_cycles",
                                         "scenario.jitter_cycles",
                                         "scenario.seed"};

typedef struct {
    double v[NKEYS];
    strategy_id_t strat;
    /* results */
    int ok, bad_call;
    uint64_t bad_cycle, g1, g2;
    double score; /* lower is better */
} cand_t;

typedef struct {
    int ncalls, rc, first_bad_call;
    uint64_t violations, first_bad_cycle, g1, g2;
    char msg[1024];
} hwire_t;

typedef struct {
    const char *path;
    const char **sets; /* the user's --set */
    int nsets;
    int calls;
    int ncpus;
    double period; /* cycles per tick */
} hunt_t;

static void hunt_usage(FILE *f)
{
    fprintf(f, "usage: numasim hunt [--strategy S]... [--budget N] [-o FOUND.ini] [--jobs N]\n"
               "                    [--calls N] [--refine N] [--seed N] [--set S.K=V]... "
               "SCENARIO\n"
               "\n"
               "Hunts for safety violations of del_timer_sync strategies: explores the\n"
               "scenario's workload (CPUs, timer function length and re-arm point, spacing,\n"
               "jitter, seeds) at random, keeps the candidates whose timer events pack\n"
               "tightest, then the ones that violate soonest, and writes a scenario that\n"
               "reproduces each violation found with `numasim run`, with the trace of events\n"
               "before it as comments. Runs on the scenario's first platform and cache state.\n"
               "SCENARIO is a file or a name, as for numasim run.\n"
               "\n"
               "  --strategy S      strategy to hunt (repeatable; default: the scenario's)\n"
               "  --budget N        simulations at most (default 500)\n"
               "  -o FOUND.ini      where to write the scenario (default NAME-found.ini); with\n"
               "                    several strategies, FOUND-STRATEGY.ini for each\n"
               "  --jobs N          simulations run at once (default: number of CPUs)\n"
               "  --calls N         del_timer_sync calls per simulation (default 30)\n"
               "  --refine N        after every strategy has a violation, stop when N more\n"
               "                    simulations found none sooner (default 32)\n"
               "  --seed N          the hunter's own random seed (default 1)\n"
               "  --set S.K=V       override a scenario key before the hunt\n"
               "  -q, --quiet       no progress on stderr\n"
               "\n"
               "Prints what it found on stdout; exit code 0 (found or not), 2 on bad input.\n");
}

/* --- candidates --- */

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int other_cpu(gsl_rng *r, int n, int not )
{
    int c = (int)gsl_rng_uniform_int(r, (unsigned long)n - 1);
    return c >= not ? c + 1 : c;
}

/* Changes 1 to 3 keys of c at random, within the documented ranges. */
static void mutate(cand_t *c, const hunt_t *h, gsl_rng *r)
{
    int n = 1 + (int)gsl_rng_uniform_int(r, 3);
    double P = h->period;
    for (int i = 0; i < n; i++) {
        int k = (int)gsl_rng_uniform_int(r, K_SEED);
        double u = gsl_rng_uniform(r);
        switch (k) {
        case K_CPU:
            c->v[K_CPU] = other_cpu(r, h->ncpus, (int)c->v[K_ARM]);
            break;
        case K_ARM:
            c->v[K_ARM] = other_cpu(r, h->ncpus, (int)c->v[K_CPU]);
            break;
        case K_TK: /* the arming CPU, the caller, or any */
            c->v[K_TK] = u < 0.34   ? c->v[K_ARM]
                         : u < 0.67 ? c->v[K_CPU]
                                    : (double)gsl_rng_uniform_int(r, (unsigned long)h->ncpus);
            break;
        case K_FN: /* tick-aligned (a period minus a log-uniform slack) or scaled */
            if (u < 0.5)
                c->v[K_FN] = P - pow(10, 3 + gsl_rng_uniform(r) * (log10(P / 2) - 3));
            else
                c->v[K_FN] *= pow(2, 2 * gsl_rng_uniform(r) - 1);
            /* Under a period: a function that re-arms itself for the next
             * jiffy and runs longer keeps its CPU in the run loop for good
             * (as in the kernel), and the simulation would never end. */
            c->v[K_FN] = floor(clampd(c->v[K_FN], 1000, P - 1000));
            break;
        case K_AT: /* near the end (1 - 10^-U(0,4)), the end itself, or uniform */
            c->v[K_AT] = u < 0.5 ? 1 - pow(10, -4 * gsl_rng_uniform(r)) : u < 0.7 ? 1 : u;
            break;
        case K_RJ:
            c->v[K_RJ] = 1 + (double)gsl_rng_uniform_int(r, 3);
            break;
        case K_SP:
            c->v[K_SP] = floor(gsl_rng_uniform(r) * 2 * P);
            break;
        case K_SJ:
            c->v[K_SJ] = floor(gsl_rng_uniform(r) * 2 * P);
            break;
        case K_JIT:
            c->v[K_JIT] = u < 0.5 ? 0 : floor(gsl_rng_uniform(r) * 4000);
            break;
        }
    }
    c->v[K_SEED] = 1 + (double)gsl_rng_uniform_int(r, 1000000000ul);
}

/* The overrides of candidate c (the user's first); returns their count.
 * keys must hold NKEYS + 3 strings of KEYLEN. */
static int cand_sets(const cand_t *c, const hunt_t *h, char (*buf)[KEYLEN], const char **sets)
{
    int n = 0;
    for (int i = 0; i < h->nsets; i++)
        sets[n++] = h->sets[i];
    for (int k = 0; k < NKEYS; k++) {
        if (k == K_AT)
            snprintf(buf[k], KEYLEN, "%s=%.6f", kKeys[k], c->v[k]);
        else
            snprintf(buf[k], KEYLEN, "%s=%.0f", kKeys[k], c->v[k]);
        sets[n++] = buf[k];
    }
    snprintf(buf[NKEYS], KEYLEN, "scenario.strategies=%s", strategy_name(c->strat));
    snprintf(buf[NKEYS + 1], KEYLEN, "measure.calls=%d",
             c->bad_call >= 0 ? c->bad_call + 1 : h->calls);
    snprintf(buf[NKEYS + 2], KEYLEN, "measure.warmup_calls=0");
    sets[n++] = buf[NKEYS];
    sets[n++] = buf[NKEYS + 1];
    sets[n++] = buf[NKEYS + 2];
    sets[n++] = "scenario.seeds=1";
    sets[n++] = "scenario.sweep=";
    sets[n++] = "scenario.sweep_values=";
    sets[n++] = "scenario.sweep2=";
    sets[n++] = "scenario.sweep2_values=";
    return n;
}

/* Loads the scenario as candidate c makes it, with its platform; checks it.
 * Returns 0, or -1 with e (the candidate is then not run). */
static int cand_load(const cand_t *c, const hunt_t *h, scenario_t **s, platform_t **p, err_t *e)
{
    char buf[NKEYS + 3][KEYLEN];
    const char **sets = xcalloc((size_t)h->nsets + NKEYS + 8, sizeof *sets);
    int n = cand_sets(c, h, buf, sets);
    *s = scenario_load(h->path, sets, n, e);
    free(sets);
    *p = NULL;
    if (!*s)
        return -1;
    *p = platform_read((*s)->platforms[0], (*s)->platform_sets, (*s)->nplatform_sets, e);
    if (!*p || run_check(*s, *p, e) < 0) {
        scenario_free(*s);
        platform_free(*p);
        *s = NULL;
        *p = NULL;
        return -1;
    }
    return 0;
}

/* --- simulations in children --- */

typedef struct {
    pid_t pid;
    FILE *out, *trace;
} kid_t;

/* Starts candidate c in a child; with trace, its stderr (the oracle's trace)
 * goes to k->trace. Returns 0, or -1 when c is not a valid scenario. */
static int kid_start(kid_t *k, const cand_t *c, const hunt_t *h, int trace)
{
    scenario_t *s;
    platform_t *p;
    err_t e = {{0}};
    if (cand_load(c, h, &s, &p, &e) < 0)
        return -1;
    k->out = tmpfile();
    k->trace = trace ? tmpfile() : NULL;
    if (!k->out || (trace && !k->trace)) {
        perror("numasim: tmpfile");
        exit(1);
    }
    k->pid = child_fork();
    if (k->pid > 0) {
        scenario_free(s);
        platform_free(p);
        return 0;
    }
    if (trace)
        dup2(fileno(k->trace), 2);
    run_t r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.p = p;
    r.strategy = c->strat;
    r.cache = s->caches[0];
    r.seed = s->seed;
    r.trace = trace;
    hwire_t w;
    memset(&w, 0, sizeof w);
    w.rc = run_one(&r, "numasim", &e);
    snprintf(w.msg, sizeof w.msg, "%s", e.msg);
    w.ncalls = r.ncalls;
    w.violations = r.violations;
    w.first_bad_call = r.first_bad_call;
    w.first_bad_cycle = r.first_bad_cycle;
    w.g1 = r.gap_end_start;
    w.g2 = r.gap_rearm_end;
    fflush(stderr);
    fwrite(&w, sizeof w, 1, k->out);
    fflush(k->out);
    _exit(ferror(k->out) ? 1 : 0);
}

/* Waits for k; fills w. Returns 0, or 1 on a crash or failure. */
static int kid_finish(kid_t *k, hwire_t *w)
{
    int st = child_wait(k->pid);
    rewind(k->out);
    int bad =
        !WIFEXITED(st) || WEXITSTATUS(st) != 0 || fread(w, sizeof *w, 1, k->out) != 1 || w->rc != 0;
    fclose(k->out);
    if (bad)
        fprintf(stderr, "numasim hunt: internal error: a simulation %s%s%s\n",
                WIFSIGNALED(st) ? "crashed" : "failed", w->rc ? ": " : "", w->rc ? w->msg : "");
    return bad;
}

/* The score of a finished candidate (lower is better): the simulated cycle
 * of its first violation when it has one, else 10^15 plus how loosely its
 * events packed (log of the two gaps, missing ones counted as 10^12). */
static double score(const cand_t *c)
{
    if (c->bad_call >= 0)
        return (double)c->bad_cycle;
    double g1 = c->g1 == UINT64_MAX ? 1e12 : (double)c->g1 + 1;
    double g2 = c->g2 == UINT64_MAX ? 1e12 : (double)c->g2 + 1;
    return 1e15 + log(g1) + log(g2);
}

/* --- the scenario file of a find --- */

static int write_found(const char *out, const cand_t *c, const hunt_t *h, unsigned long hseed,
                       int nsim, err_t *e)
{
    scenario_t *s;
    platform_t *p;
    if (cand_load(c, h, &s, &p, e) < 0)
        return -1;
    /* Run it once more, traced: this also checks that it reproduces. */
    kid_t k;
    hwire_t w;
    memset(&w, 0, sizeof w);
    if (kid_start(&k, c, h, 1) < 0 || kid_finish(&k, &w) != 0) {
        scenario_free(s);
        platform_free(p);
        return err_set(e, out, 0, "internal error: the found candidate did not run again");
    }
    if (w.violations == 0) {
        scenario_free(s);
        platform_free(p);
        return err_set(e, out, 0, "internal error: the found violation did not reproduce");
    }
    char abs[PATH_MAX];
    if (!realpath(s->platforms[0], abs))
        snprintf(abs, sizeof abs, "%s", s->platforms[0]);
    FILE *f = outfile_open(out, e);
    if (!f) {
        scenario_free(s);
        platform_free(p);
        return -1;
    }
    fprintf(f, "; Found by numasim %s hunt (seed %lu), simulation %d, from %s:\n", NUMASIM_VERSION,
            hseed, nsim, h->path);
    fprintf(f, "; a violation of %s at call %d (cycle %llu). Reproduce it with\n",
            strategy_name(c->strat), c->bad_call, (unsigned long long)c->bad_cycle);
    fprintf(f, ";   numasim run %s\n; which gives violations = %llu for %s.\n;\n", out,
            (unsigned long long)w.violations, strategy_name(c->strat));
    rewind(k.trace);
    char line[512];
    while (fgets(line, sizeof line, k.trace))
        if (strncmp(line, "==", 2) != 0)
            fprintf(f, "; %s", line);
    fclose(k.trace);
    char section[32] = "";
    for (int i = 0; i < s->nresolved; i++) {
        const scenario_kv_t *kv = &s->resolved[i];
        const char *dot = strchr(kv->key, '.');
        const char *key = dot + 1;
        if (!strncmp(kv->key, "scenario.sweep", 14))
            continue;
        if ((int)strlen(section) != (int)(dot - kv->key) ||
            strncmp(section, kv->key, (size_t)(dot - kv->key)) != 0) {
            snprintf(section, sizeof section, "%.*s", (int)(dot - kv->key), kv->key);
            fprintf(f, "\n[%s]\n", section);
        }
        if (!strcmp(kv->key, "scenario.name"))
            fprintf(f, "name = %s-found-%s\n", s->name, strategy_name(c->strat));
        else if (!strcmp(kv->key, "scenario.description"))
            fprintf(f, "description = found by numasim hunt\n");
        else if (!strcmp(kv->key, "scenario.default"))
            fprintf(f, "default = false\n");
        else if (!strcmp(kv->key, "scenario.platforms"))
            fprintf(f, "platforms = %s\n", abs);
        else if (!strcmp(kv->key, "scenario.cache"))
            fprintf(f, "cache = %s\n", cache_state_name(s->caches[0]));
        else
            fprintf(f, "%s = %s\n", key, kv->value);
    }
    scenario_free(s);
    platform_free(p);
    return outfile_commit(f, out, e);
}

/* --- the hunt --- */

static void found_path(char *dst, size_t n, const char *out, const char *name, int many,
                       strategy_id_t st)
{
    if (!out) {
        if (many)
            snprintf(dst, n, "%s-found-%s.ini", name, strategy_name(st));
        else
            snprintf(dst, n, "%s-found.ini", name);
        return;
    }
    size_t len = strlen(out);
    if (!many)
        snprintf(dst, n, "%s", out);
    else if (len > 4 && !strcmp(out + len - 4, ".ini"))
        snprintf(dst, n, "%.*s-%s.ini", (int)(len - 4), out, strategy_name(st));
    else
        snprintf(dst, n, "%s-%s", out, strategy_name(st));
}

/* The options of `numasim hunt`. */
typedef struct {
    const char *out; /* -o, or NULL */
    const char **sets;
    int nsets;
    const char **snames; /* --strategy */
    int nsn;
    int quiet;
    long budget, jobs, calls, refine, seed;
} hunt_opts_t;

/* The search: the start, and per strategy its corpus and best so far. */
typedef struct {
    const hunt_t *h;
    const hunt_opts_t *o;
    const strategy_id_t *strats;
    int nstrats;
    gsl_rng *r;
    cand_t start;
    cand_t corpus[STRAT_COUNT][CORPUS];
    int ncorpus[STRAT_COUNT];
    cand_t best[STRAT_COUNT];
    int has[STRAT_COUNT], best_sim[STRAT_COUNT];
    long sims, since_better;
    int first; /* the first batch: the scenario as given */
    kid_t kids[MAX_JOBS];
} search_t;

/* The scenario as given, as a candidate. */
static void start_candidate(search_t *S, const scenario_t *base)
{
    cand_t *c = &S->start;
    memset(c, 0, sizeof *c);
    c->v[K_CPU] = base->cpu;
    c->v[K_ARM] = base->arm_cpu >= 0 ? base->arm_cpu : (base->cpu + 1) % S->h->ncpus;
    c->v[K_TK] = base->timekeeper_cpu;
    c->v[K_FN] = (double)base->fn_cycles;
    c->v[K_AT] = base->fn_rearm_at;
    c->v[K_RJ] = base->fn_rearm_jiffies;
    c->v[K_SP] = (double)base->spacing_cycles;
    c->v[K_SJ] = (double)base->spacing_jitter_cycles;
    c->v[K_JIT] = base->jitter_cycles;
    c->v[K_SEED] = (double)base->seed;
    c->bad_call = -1;
}

/* Draws the next batch into b: the same candidates whatever --jobs is.
 * Returns its size. */
static int draw_batch(search_t *S, cand_t *b)
{
    int nb = 0;
    for (; nb < BATCH && S->sims + nb < S->o->budget; nb++) {
        strategy_id_t st = S->strats[(S->sims + nb) % S->nstrats];
        int nc = S->ncorpus[st];
        cand_t *c = &b[nb];
        if (S->first && nb < S->nstrats) {
            *c = S->start; /* the scenario as given, once per strategy */
        } else {
            /* Parent: the best so far, a corpus member, or the start. */
            double u = gsl_rng_uniform(S->r);
            if (S->has[st] && u < 0.5)
                *c = S->best[st];
            else if (nc && u < 0.85)
                *c = S->corpus[st][gsl_rng_uniform_int(S->r, (unsigned long)nc)];
            else
                *c = S->start;
            mutate(c, S->h, S->r);
        }
        c->strat = st;
        c->bad_call = -1;
        c->ok = 0;
    }
    S->first = 0;
    return nb;
}

/* Simulates the nb candidates of b, --jobs at a time, and stores their
 * results. Returns 0, or 1 when a simulation failed (printed). */
static int run_batch(search_t *S, cand_t *b, int nb)
{
    int rc = 0;
    for (int i = 0; i < nb && rc == 0;) {
        int nrun = 0, idx[MAX_JOBS];
        for (; i < nb && nrun < S->o->jobs; i++)
            if (kid_start(&S->kids[nrun], &b[i], S->h, 0) == 0)
                idx[nrun++] = i;
        for (int j = 0; j < nrun; j++) {
            hwire_t w;
            memset(&w, 0, sizeof w);
            if (kid_finish(&S->kids[j], &w) != 0) {
                rc = 1;
                continue;
            }
            cand_t *c = &b[idx[j]];
            c->ok = 1;
            c->bad_call = w.first_bad_call;
            c->bad_cycle = w.first_bad_cycle;
            c->g1 = w.g1;
            c->g2 = w.g2;
            c->score = score(c);
        }
    }
    return rc;
}

/* Takes the batch's results in candidate order: a better violation becomes
 * its strategy's best, and the corpus keeps the best CORPUS, sorted. */
static void take_batch(search_t *S, const cand_t *b, int nb)
{
    for (int i = 0; i < nb; i++) {
        const cand_t *c = &b[i];
        S->sims++;
        S->since_better++;
        if (!c->ok)
            continue;
        strategy_id_t st = c->strat;
        if (c->bad_call >= 0 && (!S->has[st] || c->score < S->best[st].score)) {
            S->best[st] = *c;
            S->best_sim[st] = (int)S->sims;
            if (!S->has[st] && !S->o->quiet)
                fprintf(stderr, "\nnumasim hunt: %s violated at simulation %ld (call %d)\n",
                        strategy_name(st), S->sims, c->bad_call);
            S->has[st] = 1;
            S->since_better = 0;
        }
        cand_t *corpus = S->corpus[st];
        int n = S->ncorpus[st], at = n;
        while (at > 0 && corpus[at - 1].score > c->score)
            at--;
        if (at < CORPUS) {
            if (n == CORPUS)
                n--;
            memmove(&corpus[at + 1], &corpus[at], sizeof *c * (size_t)(n - at));
            corpus[at] = *c;
            S->ncorpus[st] = n + 1;
        }
    }
}

/* Whether the hunt is over: the budget spent, or every strategy violated
 * and --refine simulations found none shorter. */
static int hunt_done(const search_t *S)
{
    if (S->sims >= S->o->budget)
        return 1;
    int all = 1;
    for (int i = 0; i < S->nstrats; i++)
        all &= S->has[S->strats[i]];
    return all && S->since_better >= S->o->refine;
}

static void show_progress(const search_t *S)
{
    fprintf(stderr, "\rnumasim hunt: %ld/%ld simulations", S->sims, S->o->budget);
    for (int i = 0; i < S->nstrats; i++)
        fprintf(stderr, ", %s %s", strategy_name(S->strats[i]),
                S->has[S->strats[i]] ? "found" : "none yet");
    fflush(stderr);
}

/* Reports each strategy, writing the scenario of each violation found.
 * Returns 0, or -1 with e. */
static int write_results(const search_t *S, const scenario_t *base, err_t *e)
{
    for (int i = 0; i < S->nstrats; i++) {
        strategy_id_t st = S->strats[i];
        if (!S->has[st]) {
            printf("%s: no violation in %ld simulations\n", strategy_name(st), S->sims);
            continue;
        }
        char path[4200];
        found_path(path, sizeof path, S->o->out, base->name, S->nstrats > 1, st);
        if (write_found(path, &S->best[st], S->h, (unsigned long)S->o->seed, S->best_sim[st], e) <
            0)
            return -1;
        printf("%s: violation at call %d (cycle %llu), found in simulation %d of %ld; "
               "written to %s\n",
               strategy_name(st), S->best[st].bad_call, (unsigned long long)S->best[st].bad_cycle,
               S->best_sim[st], S->sims, path);
    }
    return 0;
}

/* The hunt (the theory of operation above). Returns 0, 1 (a simulation
 * failed, printed) or -1 with e. */
static int hunt(const hunt_t *h, const scenario_t *base, const strategy_id_t *strats, int nstrats,
                const hunt_opts_t *o, err_t *e)
{
    static search_t S; /* large: not on the stack */
    memset(&S, 0, sizeof S);
    S.h = h;
    S.o = o;
    S.strats = strats;
    S.nstrats = nstrats;
    S.first = 1;
    S.r = gsl_rng_alloc(gsl_rng_taus2);
    gsl_rng_set(S.r, (unsigned long)o->seed);
    start_candidate(&S, base);
    int rc = 0;
    while (rc == 0 && !hunt_done(&S)) {
        cand_t b[BATCH];
        int nb = draw_batch(&S, b);
        rc = run_batch(&S, b, nb);
        if (rc == 0)
            take_batch(&S, b, nb);
        if (!o->quiet)
            show_progress(&S);
    }
    if (!o->quiet)
        fprintf(stderr, "\n");
    if (rc == 0)
        rc = write_results(&S, base, e);
    gsl_rng_free(S.r);
    return rc;
}

/* Parses the options into o. Returns 0, 1 when --help was printed, or -1
 * with e (empty: the usage was printed). */
static int hunt_parse_opts(int argc, char **argv, hunt_opts_t *o, err_t *e)
{
    static const struct option opts[] = {{"strategy", required_argument, NULL, 'S'},
                                         {"budget", required_argument, NULL, 'b'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"calls", required_argument, NULL, 'c'},
                                         {"refine", required_argument, NULL, 'r'},
                                         {"seed", required_argument, NULL, 'e'},
                                         {"set", required_argument, NULL, 's'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:j:s:qh", opts, NULL)) != -1) {
        long *num = NULL, lo = 0, hi = 0;
        const char *what = NULL;
        switch (c) {
        case 'S':
            o->snames[o->nsn++] = optarg;
            break;
        case 'o':
            o->out = optarg;
            break;
        case 's':
            o->sets[o->nsets++] = optarg;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'b':
            num = &o->budget, lo = 1, hi = 10000000, what = "--budget";
            break;
        case 'j':
            num = &o->jobs, lo = 1, hi = MAX_JOBS, what = "--jobs";
            break;
        case 'c':
            num = &o->calls, lo = 1, hi = 100000, what = "--calls";
            break;
        case 'r':
            num = &o->refine, lo = 0, hi = 10000000, what = "--refine";
            break;
        case 'e':
            num = &o->seed, lo = 0, hi = LONG_MAX, what = "--seed";
            break;
        case 'h':
            hunt_usage(stdout);
            return 1;
        default:
            hunt_usage(stderr);
            return cli_err_printed(e);
        }
        if (num && (err_parse_long(optarg, num) < 0 || *num < lo || *num > hi))
            return err_set(e, NULL, 0, "%s: expected a whole number from %ld to %ld, not '%s'",
                           what, lo, hi, optarg);
    }
    if (argc - optind != 1)
        return err_set(e, NULL, 0,
                       "numasim hunt: expected one scenario file, %d given (see --help)",
                       argc - optind);
    return 0;
}

/* The scenario at path with the user's --set, then (when strategy is not
 * NULL) scenario.strategies = strategy. NULL with e on an error. */
static scenario_t *load_with_strategy(const char *path, const char **user, int n,
                                      const char *strategy, err_t *e)
{
    char buf[128];
    const char **sets = xcalloc((size_t)n + 1, sizeof *sets);
    for (int k = 0; k < n; k++)
        sets[k] = user[k];
    if (strategy) {
        snprintf(buf, sizeof buf, "scenario.strategies=%s", strategy);
        sets[n++] = buf;
    }
    scenario_t *s = scenario_load(path, sets, n, e);
    free(sets);
    return s;
}

/* The strategies to hunt into strats: --strategy's, each once, or the
 * scenario's. Returns how many, or -1 with e. */
static int hunt_strategies(const hunt_t *h, const hunt_opts_t *o, const scenario_t *base,
                           strategy_id_t *strats, err_t *e)
{
    int n = 0;
    for (int i = 0; i < o->nsn; i++) {
        /* The scenario parser checks the names: the user's --set (which
         * may choose kernel.core), then one more per strategy. */
        scenario_t *t = load_with_strategy(h->path, h->sets, h->nsets, o->snames[i], e);
        if (!t)
            return -1;
        int dup = 0;
        for (int k = 0; k < n; k++)
            dup |= strats[k] == t->strategies[0];
        if (!dup)
            strats[n++] = t->strategies[0];
        scenario_free(t);
    }
    if (o->nsn == 0)
        for (int i = 0; i < base->nstrategies; i++)
            strats[n++] = base->strategies[i];
    return n;
}

/* Loads and checks the scenario and its first platform, then hunts. */
static int hunt_main(const char *arg, const hunt_opts_t *o, err_t *e)
{
    hunt_t h = {.sets = o->sets, .nsets = o->nsets, .calls = (int)o->calls};
    char *found = cli_find(arg, "scenario", e);
    if (!found)
        return -1;
    h.path = found;
    platform_t *p = NULL;
    /* With --strategy, the file's own list does not count (it may name
     * strategies of a core the user's --set kernel.core leaves out). */
    scenario_t *base =
        load_with_strategy(h.path, o->sets, o->nsets, o->nsn > 0 ? o->snames[0] : NULL, e);
    int rc = 0;
    if (base)
        p = platform_read(base->platforms[0], base->platform_sets, base->nplatform_sets, e);
    if (!base || !p || run_check(base, p, e) < 0)
        rc = -1;
    strategy_id_t strats[STRAT_COUNT];
    int nstrats = 0;
    if (rc == 0) {
        h.ncpus = p->ncpus;
        h.period = p->clock_mhz * 1e6 / base->hz;
        if (h.ncpus < 2)
            rc = err_set(e, h.path, 0, "platform %s has one CPU: nothing to race", p->name);
        else if ((nstrats = hunt_strategies(&h, o, base, strats, e)) < 0)
            rc = -1;
    }
    if (rc == 0) {
        child_catch_signals();
        rc = hunt(&h, base, strats, nstrats, o, e);
    }
    scenario_free(base);
    platform_free(p);
    free(found);
    return rc;
}

int cli_hunt(int argc, char **argv)
{
    hunt_opts_t o = {.sets = xcalloc((size_t)argc + 1, sizeof *o.sets),
                     .snames = xcalloc((size_t)argc + 1, sizeof *o.snames),
                     .budget = 500,
                     .jobs = sysconf(_SC_NPROCESSORS_ONLN),
                     .calls = 30,
                     .refine = 32,
                     .seed = 1};
    err_t e = {{0}};
    int rc = hunt_parse_opts(argc, argv, &o, &e);
    if (rc == 1)
        rc = 0; /* --help */
    else if (rc == 0)
        rc = hunt_main(argv[optind], &o, &e);
    free(o.sets);
    free(o.snames);
    return cli_exit_code(rc, &e);
}
