/* cli_tune: `numasim tune` - fits platform parameters so that a scenario's
 * simulated mean cycles per call match measured ones.
 *
 * Each evaluation is one whole `numasim run` of the scenario in a child
 * (this binary, re-executed: SimGrid allows one engine per process), with
 * the candidate values given as --set platform.NAME=VALUE, writing its CSV
 * to a private temporary directory. The fit itself is in tune.c. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "child.h"
#include "cli.h"
#include "platform.h"
#include "run.h"
#include "scenario.h"
#include "tune.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t g_sig;

/* SIGINT/SIGTERM: the running evaluation (a numasim run) is told to stop,
 * and the fit stops at its end. */
static void on_signal(int sig)
{
    g_sig = sig;
    child_kill_all(SIGTERM);
}

static void tune_usage(FILE *f)
{
    fprintf(f, "usage: numasim tune --target MEASURED.csv [--params NAME,...] [-o TUNED.xml]\n"
               "                    [--max-evals N] [--set SECTION.KEY=VALUE]...\n"
               "                    PLATFORM.xml SCENARIO.ini\n"
               "       numasim tune --probe-target PROBE.csv [--params NAME,...] [-o TUNED.xml]\n"
               "                    [--max-evals N] [--set platform.NAME=VALUE]... PLATFORM.xml\n"
               "\n"
               "Fits parameters of PLATFORM.xml (memory-model props, or link.CLASS one-way\n"
               "latencies) so that SCENARIO.ini run on it gives the measured mean cycles per\n"
               "call. Each evaluation runs the whole scenario on PLATFORM.xml (its own\n"
               "[scenario] platforms are ignored); the fit is a Nelder-Mead simplex over the\n"
               "logarithms of the values, minimising the mean of log(simulated/measured)^2.\n"
               "PLATFORM.xml and SCENARIO.ini may be names, as for numasim run (numa32,\n"
               "paper-table).\n"
               "\n"
               "  --target FILE     measured cycles: '#' comments, then a CSV header with at\n"
               "                    least platform,strategy,cache,cycles; only rows of this\n"
               "                    platform (its zone id) are fitted\n"
               "  --probe-target F  fit to the cells of a probe CSV (numasim probe) instead:\n"
               "                    each evaluation simulates the same probes on PLATFORM.xml\n"
               "  --params LIST     parameters to fit, comma-separated (default: those the\n"
               "                    platform's \"tunable\" prop lists; with --probe-target,\n"
               "                    every memory cost, cache level latency (l1d/l2/l3_cycles)\n"
               "                    and link class whose value is > 0). With --probe-target,\n"
               "                    the chase_S rows see the level latencies, the\n"
               "                    timer_ops_pause rows the footprints (tick_footprint_lines,\n"
               "                    work_lines_per_mcycle, noise_lines_per_mcycle; a footprint\n"
               "                    at 0 starts at 64); a parameter the file lacks is an error\n"
               "  -o FILE           tuned platform (default: NAME-tuned.xml in the current\n"
               "                    directory, NAME = PLATFORM.xml's file name without .xml)\n"
               "  --max-evals N     simulations at most (default 200)\n"
               "  --set S.K=V       scenario override for every simulation; platform.NAME=V\n"
               "                    fixes a parameter that is not fitted (written to the output)\n"
               "\n"
               "Progress goes to stderr (one line per iteration); the fitted values and each\n"
               "cell's error go to stdout. Errors exit with code 2.\n");
}

typedef struct {
    char *argv[64]; /* numasim run ... (the per-evaluation --set slots are filled later) */
    int nfixed;     /* argv entries before the parameter --set pairs */
    int nparams;
    const char *const *names;
    char **tail; /* user --set pairs and the scenario, NULL-terminated */
    char csv[PATH_MAX], errf[PATH_MAX];
    const tune_cell_t *cells;
    int ncells;
} eval_ctx_t;

static char *xasprintf(const char *fmt, const char *a, const char *b)
{
    size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
    char *s = xmalloc(n);
    snprintf(s, n, fmt, a, b);
    return s;
}

static void print_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, stderr);
    fclose(f);
}

static int eval_sim(const double *values, double *sim, void *vctx, err_t *e)
{
    eval_ctx_t *T = vctx;
    if (g_sig)
        return err_set(e, NULL, 0, "numasim tune: interrupted");
    char *argv[256];
    char sets[64][320];
    int n = 0;
    for (int i = 0; i < T->nfixed; i++)
        argv[n++] = T->argv[i];
    for (int i = 0; i < T->nparams && i < 64; i++) {
        snprintf(sets[i], sizeof sets[i], "platform.%s=%.6g", T->names[i], values[i]);
        argv[n++] = "--set";
        argv[n++] = sets[i];
    }
    for (char **t = T->tail; *t && n < 255; t++)
        argv[n++] = *t;
    argv[n] = NULL;
    unlink(T->csv);
    int st = child_run_self(argv, T->errf, 1);
    if (st < 0)
        return err_set(e, NULL, 0, "numasim tune: fork: %s", strerror(errno));
    if (g_sig)
        return err_set(e, NULL, 0, "numasim tune: interrupted");
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        print_file(T->errf);
        char cmd[700];
        size_t used = 0;
        for (int i = 0; argv[i] && used < sizeof cmd; i++)
            used += (size_t)snprintf(cmd + used, sizeof cmd - used, "%s%s", i ? " " : "", argv[i]);
        if (WIFSIGNALED(st))
            return err_set(e, NULL, 0, "numasim tune: the simulation was killed by signal %d: %s",
                           WTERMSIG(st), cmd);
        return err_set(e, NULL, 0, "numasim tune: the simulation failed (exit %d): %s",
                       WEXITSTATUS(st), cmd);
    }
    return tune_read_run_csv(T->csv, T->cells, T->ncells, sim, e);
}

/* Removes the temporary directory and what the simulations left in it. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        char p[PATH_MAX + 300];
        while ((de = readdir(d)))
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(dir);
}

/* "S.K" of a "S.K=V" set, trimmed, into buf. */
static const char *set_key(const char *set, char *buf, size_t n)
{
    const char *eq = strchr(set, '=');
    size_t len = eq ? (size_t)(eq - set) : strlen(set);
    while (len > 0 && (set[len - 1] == ' ' || set[len - 1] == '\t'))
        len--;
    set += strspn(set, " \t");
    len = len >= n ? n - 1 : len;
    snprintf(buf, n, "%.*s", (int)len, set);
    return buf;
}

typedef struct {
    const char *target, *probe_target, *params, *out, *platform, *scenario;
    const char **sets;
    int nsets;
    long max_evals;
} opts_t;

static int tune_main(const opts_t *o, int *fatal);

/* Parses the options into o. Returns 0, 1 when --help was printed, or -1
 * with e. */
static int tune_parse_opts(int argc, char **argv, opts_t *o, err_t *e)
{
    static const struct option lo[] = {{"target", required_argument, NULL, 't'},
                                       {"probe-target", required_argument, NULL, 'P'},
                                       {"params", required_argument, NULL, 'p'},
                                       {"output", required_argument, NULL, 'o'},
                                       {"max-evals", required_argument, NULL, 'n'},
                                       {"set", required_argument, NULL, 's'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:p:o:n:s:h", lo, NULL)) != -1) {
        switch (c) {
        case 't':
            o->target = optarg;
            break;
        case 'P':
            o->probe_target = optarg;
            break;
        case 'p':
            o->params = optarg;
            break;
        case 'o':
            o->out = optarg;
            break;
        case 's':
            o->sets[o->nsets++] = optarg;
            break;
        case 'n':
            if (err_parse_long(optarg, &o->max_evals) < 0 || o->max_evals < 1 ||
                o->max_evals > 1000000)
                return err_set(e, NULL, 0,
                               "--max-evals: expected a whole number from 1 to 1000000, not '%s'",
                               optarg);
            break;
        case 'h':
            tune_usage(stdout);
            return 1;
        default:
            return err_set(e, NULL, 0, "numasim tune: see numasim tune --help");
        }
    }
    return 0;
}

/* --probe-target: one platform, fitted by cli_tune_probe. Returns its exit
 * code, or -1 with e. */
static int tune_probe_cmd(int argc, char **argv, const opts_t *o, err_t *e)
{
    if (o->target)
        return err_set(e, NULL, 0, "numasim tune: give --target or --probe-target, not both");
    if (argc - optind != 1)
        return err_set(e, NULL, 0,
                       "numasim tune: --probe-target expects one PLATFORM.xml, got %d "
                       "arguments (see --help)",
                       argc - optind);
    char *plat = cli_find(argv[optind], "platform", e);
    if (!plat)
        return -1;
    int rc =
        cli_tune_probe(o->probe_target, o->params, o->out, o->max_evals, o->sets, o->nsets, plat);
    free(plat);
    return rc;
}

/* --target: a platform and a scenario, fitted by tune_main. Returns its
 * exit code, or -1 with e. */
static int tune_target_cmd(int argc, char **argv, opts_t *o, err_t *e)
{
    if (!o->target)
        return err_set(e, NULL, 0, "numasim tune: --target MEASURED.csv is required (see --help)");
    if (argc - optind != 2)
        return err_set(e, NULL, 0,
                       "numasim tune: expected PLATFORM.xml SCENARIO.ini, got %d argument%s "
                       "(see --help)",
                       argc - optind, argc - optind == 1 ? "" : "s");
    char *plat = NULL, *scen = NULL;
    int rc = -1;
    if ((plat = cli_find(argv[optind], "platform", e)) &&
        (scen = cli_find(argv[optind + 1], "scenario", e))) {
        o->platform = plat;
        o->scenario = scen;
        int fatal = ERR_EXIT;
        rc = tune_main(o, &fatal);
    }
    free(plat);
    free(scen);
    return rc;
}

int cli_tune(int argc, char **argv)
{
    opts_t o = {.max_evals = 200};
    o.sets = xcalloc((size_t)argc + 1, sizeof *o.sets);
    err_t e = {{0}};
    int rc = tune_parse_opts(argc, argv, &o, &e);
    if (rc == 1)
        rc = 0; /* --help */
    else if (rc == 0 && o.probe_target)
        rc = tune_probe_cmd(argc, argv, &o, &e);
    else if (rc == 0)
        rc = tune_target_cmd(argc, argv, &o, &e);
    free(o.sets);
    return cli_exit_code(rc, &e);
}

/* Everything a run of tune owns, freed at the end whatever happened. */
typedef struct {
    platform_override_t *ov;
    int nov;
    platform_t *p;
    char **names;
    int nparams;
    double *initial;
    tune_cell_t *cells;
    scenario_t *s;
    const char **ssets;
    char *owned[4];
    eval_ctx_t ev;
    char tmpdir[PATH_MAX];
    tune_result_t res;
} state_t;

static void state_free(state_t *S)
{
    if (S->tmpdir[0])
        remove_dir(S->tmpdir);
    for (int i = 0; i < S->nov; i++) {
        free((char *)S->ov[i].name);
        free((char *)S->ov[i].value);
    }
    free(S->ov);
    platform_free(S->p);
    for (int i = 0; i < S->nparams; i++)
        free(S->names[i]);
    free(S->names);
    free(S->initial);
    free(S->cells);
    scenario_free(S->s);
    free(S->ssets);
    for (int i = 0; i < 4; i++)
        free(S->owned[i]);
    tune_result_free(&S->res);
}

static int setup(const opts_t *o, state_t *S, char *out, size_t outn, err_t *e);
static int report(const opts_t *o, state_t *S, const char *out, err_t *e);

static int tune_main(const opts_t *o, int *fatal)
{
    state_t S;
    memset(&S, 0, sizeof S);
    err_t e = {{0}};
    char out[PATH_MAX];
    int rc = setup(o, &S, out, sizeof out, &e);
    if (rc == 0) {
        snprintf(S.tmpdir, sizeof S.tmpdir, "%s/numasim-tune.XXXXXX",
                 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(S.tmpdir)) {
            rc = err_set(&e, S.tmpdir, 0, "cannot create a temporary directory: %s",
                         strerror(errno));
            S.tmpdir[0] = '\0';
        }
    }
    if (rc == 0) {
        snprintf(S.ev.csv, sizeof S.ev.csv, "%s/eval.csv", S.tmpdir);
        snprintf(S.ev.errf, sizeof S.ev.errf, "%s/stderr", S.tmpdir);
        S.ev.argv[4] = S.ev.csv;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        tune_problem_t pb = {.nparams = S.nparams,
                             .names = (const char *const *)S.names,
                             .initial = S.initial,
                             .ncells = S.ev.ncells,
                             .cells = S.cells,
                             .max_evals = (int)o->max_evals,
                             .step = 0.2,
                             .size_tol = 1e-3,
                             .eval = eval_sim,
                             .ctx = &S.ev,
                             .log = stderr};
        rc = tune_fit(&pb, &S.res, &e);
        if (rc == 0)
            rc = report(o, &S, out, &e);
        else if (g_sig)
            *fatal = 128 + g_sig;
    }
    if (rc < 0)
        fprintf(stderr, "%s\n", e.msg);
    state_free(&S);
    if (g_sig) {
        signal(g_sig, SIG_DFL);
        raise(g_sig);
    }
    return rc < 0 ? *fatal : 0;
}

/* The platform with the --set overrides of its properties, the parameters
 * to fit and their initial values; *user_strat and *user_cache: whether
 * --set gives the scenario's strategies or cache states. Returns 0, or -1
 * with e. */
static int setup_params(const opts_t *o, state_t *S, int *user_strat, int *user_cache, err_t *e)
{
    char key[128];
    if (o->nsets > 60)
        return err_set(e, "--set", 0, "at most 60 overrides, not %d", o->nsets);
    S->ov = xcalloc((size_t)o->nsets + 1, sizeof *S->ov);
    S->ssets = xcalloc((size_t)o->nsets + 4, sizeof *S->ssets);
    for (int i = 0; i < o->nsets; i++) {
        set_key(o->sets[i], key, sizeof key);
        const char *eq = strchr(o->sets[i], '=');
        if (!strncmp(key, "platform.", 9) && eq) {
            S->ov[S->nov].name = tune_trim_dup(key + 9, strlen(key + 9));
            S->ov[S->nov++].value = tune_trim_dup(eq + 1, strlen(eq + 1));
        } else if (!strcmp(key, "scenario.platforms"))
            return err_set(e, "--set", 0,
                           "scenario.platforms: tune runs the scenario on "
                           "PLATFORM.xml only; do not set it");
        *user_strat |= !strcmp(key, "scenario.strategies");
        *user_cache |= !strcmp(key, "scenario.cache");
    }
    S->p = platform_read(o->platform, S->ov, S->nov, e);
    if (!S->p)
        return -1;
    const platform_t *p = S->p;
    if (o->params) {
        if (tune_parse_params(o->params, p, &S->names, &S->nparams, e) < 0)
            return -1;
    } else {
        for (int i = 0; i < p->nparams; i++)
            if (p->params[i].tunable) {
                S->names = xrealloc(S->names, sizeof *S->names * (size_t)(S->nparams + 1));
                S->names[S->nparams++] = xstrdup(p->params[i].name);
            }
        if (S->nparams == 0)
            return err_set(e, o->platform, 0,
                           "no parameter is tunable (no \"tunable\" prop); "
                           "name some with --params");
    }
    if (S->nparams > 60)
        return err_set(e, "--params", 0, "at most 60 parameters, not %d", S->nparams);
    S->initial = xcalloc((size_t)S->nparams, sizeof *S->initial);
    for (int i = 0; i < S->nparams; i++) {
        const platform_param_t *q = platform_param(p, S->names[i]);
        if (q->overridden)
            return err_set(e, "--set", 0, "platform.%s is fitted, it cannot be set too", q->name);
        if (err_parse_double(q->value, &S->initial[i]) < 0 || !(S->initial[i] > 0))
            return err_set(e, o->platform, q->line,
                           "parameter '%s' is '%s'; tune fits numbers > 0 only", q->name, q->value);
    }
    return 0;
}

/* The scenario as every evaluation will run it (but for the fitted values):
 * on the platform file only, with the user's --set. Returns 0, or -1 with
 * e. */
static int setup_scenario(const opts_t *o, state_t *S, err_t *e)
{
    const platform_t *p = S->p;
    char abs[PATH_MAX];
    if (!realpath(o->platform, abs))
        return err_set(e, o->platform, 0, "cannot resolve path: %s", strerror(errno));
    if (strchr(abs, ','))
        return err_set(e, abs, 0, "a platform path with a comma cannot be given to a scenario");
    S->owned[0] = xasprintf("scenario.platforms=%s%s", abs, "");
    int ns = 0;
    S->ssets[ns++] = S->owned[0];
    for (int i = 0; i < o->nsets; i++)
        S->ssets[ns++] = o->sets[i];
    S->s = scenario_load(o->scenario, S->ssets, ns, e);
    if (!S->s)
        return -1;
    const scenario_t *s = S->s;
    if (s->sweep_key)
        return err_set(e, o->scenario, 0,
                       "sweeps %s; tune needs one value per cell (--set "
                       "scenario.sweep= --set scenario.sweep_values= turns it off)",
                       s->sweep_key);
    if (run_check(s, p, e) < 0)
        return -1;
    return 0;
}

/* The target cells of this platform; strats and caches get the scenario's
 * names, *nfit the number of cells to fit. Returns 0, or -1 with e. */
static int setup_cells(const opts_t *o, state_t *S, const char **strats, const char **caches,
                       int *nfit, err_t *e)
{
    const platform_t *p = S->p;
    const scenario_t *s = S->s;
    int ncells = 0, nother = 0;
    if (tune_read_target(o->target, &S->cells, &ncells, e) < 0)
        return -1;
    for (int i = 0; i < s->nstrategies; i++)
        strats[i] = strategy_name(s->strategies[i]);
    for (int i = 0; i < s->ncaches; i++)
        caches[i] = cache_state_name(s->caches[i]);
    *nfit = tune_select(o->target, S->cells, ncells, p->name, strats, s->nstrategies, caches,
                        s->ncaches, &nother, e);
    if (*nfit < 0)
        return -1;
    if (nother)
        fprintf(stderr, "note: %s: ignoring %d row%s of other platforms (fitting %s)\n", o->target,
                nother, nother == 1 ? "" : "s", p->name);
    return 0;
}

/* Only the strategies and cache states of the cells are simulated (unless
 * --set gives them): their --set into S->owned[1] and [2]. */
static void restrict_runs(state_t *S, const char **strats, const char **caches, int nfit,
                          int user_strat, int user_cache)
{
    const scenario_t *s = S->s;
    char list[256];
    int used = 0;
    if (!user_strat) {
        used = snprintf(list, sizeof list, "scenario.strategies=");
        for (int i = 0, n = 0; i < s->nstrategies; i++)
            for (int k = 0; k < nfit; k++)
                if (!strcmp(S->cells[k].strategy, strats[i])) {
                    used += snprintf(list + used, sizeof list - (size_t)used, "%s%s",
                                     n++ ? "," : "", strats[i]);
                    break;
                }
        S->owned[1] = xasprintf("%s%s", list, "");
    }
    if (!user_cache) {
        used = snprintf(list, sizeof list, "scenario.cache=");
        for (int i = 0, n = 0; i < s->ncaches; i++)
            for (int k = 0; k < nfit; k++)
                if (!strcmp(S->cells[k].cache, caches[i])) {
                    used += snprintf(list + used, sizeof list - (size_t)used, "%s%s",
                                     n++ ? "," : "", caches[i]);
                    break;
                }
        S->owned[2] = xasprintf("%s%s", list, "");
    }
}

/* The command line of an evaluation (eval_sim). */
static void setup_eval(const opts_t *o, state_t *S, int nfit)
{
    eval_ctx_t *T = &S->ev;
    int n = 0;
    const char *fixed[] = {"numasim", "run", "-q", "-o", "", "--set", S->owned[0]};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        T->argv[n++] = (char *)fixed[i];
    for (int i = 1; i <= 2; i++)
        if (S->owned[i]) {
            T->argv[n++] = "--set";
            T->argv[n++] = S->owned[i];
        }
    T->nfixed = n;
    T->nparams = S->nparams;
    T->names = (const char *const *)S->names;
    T->tail = xcalloc((size_t)(2 * o->nsets + 2), sizeof *T->tail);
    S->owned[3] = (char *)T->tail;
    n = 0;
    for (int i = 0; i < o->nsets; i++) {
        T->tail[n++] = "--set";
        T->tail[n++] = (char *)o->sets[i];
    }
    T->tail[n] = (char *)o->scenario;
    T->cells = S->cells;
    T->ncells = nfit;
}

/* Where the result goes: never over the input unless -o names it. Returns
 * 0, or -1 with e. */
static int setup_output(const opts_t *o, char *out, size_t outn, err_t *e)
{
    if (o->out)
        snprintf(out, outn, "%s", o->out);
    else
        tune_default_out(o->platform, out, outn);
    struct stat si, so;
    if (stat(out, &so) == 0) {
        if (S_ISDIR(so.st_mode))
            return err_set(e, out, 0, "is a directory (give the output file with -o)");
        if (stat(o->platform, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino &&
            !(o->out && !strcmp(o->out, o->platform)))
            return err_set(e, out, 0, "is the input platform; give -o %s to overwrite it",
                           o->platform);
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
    if (access(slash ? dir : ".", W_OK) != 0)
        return err_set(e, out, 0, "cannot write to directory '%s': %s", slash ? dir : ".",
                       strerror(errno));
    return 0;
}

/* Reads and checks every input; fills S and the output path. */
static int setup(const opts_t *o, state_t *S, char *out, size_t outn, err_t *e)
{
    int user_strat = 0, user_cache = 0, nfit = 0;
    const char *strats[STRAT_COUNT], *caches[2];
    if (setup_params(o, S, &user_strat, &user_cache, e) < 0 || setup_scenario(o, S, e) < 0 ||
        setup_cells(o, S, strats, caches, &nfit, e) < 0)
        return -1;
    restrict_runs(S, strats, caches, nfit, user_strat, user_cache);
    setup_eval(o, S, nfit);
    return setup_output(o, out, outn, e);
}

/* Prints the fit, writes the tuned platform. */
static int report(const opts_t *o, state_t *S, const char *out, err_t *e)
{
    const tune_result_t *r = &S->res;
    const eval_ctx_t *T = &S->ev;
    printf("%-24s %12s %12s %8s\n", "parameter", "initial", "fitted", "change");
    for (int i = 0; i < S->nparams; i++)
        printf("%-24s %12.6g %12.6g %+7.1f%%\n", S->names[i], S->initial[i], r->fitted[i],
               100 * (r->fitted[i] / S->initial[i] - 1));
    printf("\n%-10s %-14s %-5s %12s %12s %8s\n", "platform", "strategy", "cache", "measured",
           "simulated", "error");
    for (int i = 0; i < T->ncells; i++) {
        const tune_cell_t *c = &T->cells[i];
        printf("%-10s %-14s %-5s %12.6g %12.1f %+7.1f%%\n", c->platform, c->strategy, c->cache,
               c->cycles, r->sim[i], 100 * (r->sim[i] / c->cycles - 1));
    }
    printf("\nrms relative error %.3g%% (initial %.3g%%), %d simulations, %d iterations, %s\n",
           100 * r->err, 100 * r->err0, r->evals, r->iters,
           r->converged ? "converged" : "stopped before converging (--max-evals)");

    /* The tuned platform: fitted values, plus the fixed platform.* overrides. */
    int n = S->nparams + S->nov;
    const char **names = xcalloc((size_t)n, sizeof *names);
    double *vals = xcalloc((size_t)n, sizeof *vals);
    char comment[3000], date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime(&now));
    size_t used = (size_t)snprintf(comment, sizeof comment,
                                   " tuned by numasim tune %s on %s: ", NUMASIM_VERSION, date);
    int m = 0;
    for (int i = 0; i < S->nparams; i++) {
        names[m] = S->names[i];
        vals[m++] = r->fitted[i];
        if (used < sizeof comment)
            used += (size_t)snprintf(comment + used, sizeof comment - used, "%s%s=%.6g",
                                     i ? ", " : "", S->names[i], r->fitted[i]);
    }
    for (int i = 0; i < S->nov; i++) {
        double v;
        if (err_parse_double(S->ov[i].value, &v) < 0) {
            fprintf(stderr, "note: platform.%s=%s is not a number, not written to %s\n",
                    S->ov[i].name, S->ov[i].value, out);
            continue;
        }
        names[m] = S->ov[i].name;
        vals[m++] = v;
        if (used < sizeof comment)
            used += (size_t)snprintf(comment + used, sizeof comment - used, "%s %s=%s (fixed)", ",",
                                     S->ov[i].name, S->ov[i].value);
    }
    if (used < sizeof comment)
        snprintf(comment + used, sizeof comment - used,
                 "; target %s (%d cells), scenario %s, rms relative error %.3g%% (initial "
                 "%.3g%%), %d simulations%s ",
                 o->target, T->ncells, o->scenario, 100 * r->err, 100 * r->err0, r->evals,
                 r->converged ? "" : ", not converged");
    int rc = tune_write_platform(o->platform, out, m, names, vals, comment, e);
    free(names);
    free(vals);
    return rc;
}
