#include "tune.h"

#include "xalloc.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kTargetCols[] = {"platform", "strategy", "cache", "cycles"};
#define NCOLS 4

/* Strips trailing spaces, tabs and line ends; returns s past leading blanks. */
static char *trim(char *s)
{
    s += strspn(s, " \t");
    size_t n = strlen(s);
    while (n > 0 && strchr(" \t\r\n", s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Splits a CSV line (no quoting) in place; returns the number of fields. */
static int split(char *line, char ***fields, int *cap)
{
    int n = 0;
    for (char *p = line;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (n == *cap) {
            *cap = *cap ? *cap * 2 : 16;
            *fields = xrealloc(*fields, sizeof **fields * (size_t)*cap);
        }
        (*fields)[n++] = trim(p);
        if (!comma)
            return n;
        p = comma + 1;
    }
}

static int col_index(char **fields, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(fields[i], name))
            return i;
    return -1;
}

static int same_cell(const tune_cell_t *a, const tune_cell_t *b)
{
    return !strcmp(a->platform, b->platform) && !strcmp(a->strategy, b->strategy) &&
           !strcmp(a->cache, b->cache);
}

/* Copies a cell name field; -1 with e when empty or too long. */
static int copy_field(char *dst, size_t n, const char *v, const char *what, const char *path,
                      int line, err_t *e)
{
    if (!*v)
        return err_set(e, path, line, "empty %s", what);
    if (strlen(v) >= n)
        return err_set(e, path, line, "%s '%.40s...' is too long", what, v);
    memcpy(dst, v, strlen(v) + 1);
    return 0;
}

int tune_read_target(const char *path, tune_cell_t **cells, int *ncells, err_t *e)
{
    *cells = NULL;
    *ncells = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return err_set(e, path, 0, "cannot read target file: %s", strerror(errno));
    char *buf = NULL, **fl = NULL;
    size_t bufn = 0;
    int cap = 0, lineno = 0, header_line = 0, nheader = 0, rc = 0, idx[NCOLS] = {0};
    tune_cell_t *c = NULL;
    int n = 0;
    while (rc == 0 && getline(&buf, &bufn, f) >= 0) {
        lineno++;
        char *s = trim(buf);
        if (!*s || *s == '#')
            continue;
        int nf = split(s, &fl, &cap);
        if (!header_line) {
            header_line = lineno;
            nheader = nf;
            for (int k = 0; k < NCOLS && rc == 0; k++)
                if ((idx[k] = col_index(fl, nf, kTargetCols[k])) < 0)
                    rc = err_set(e, path, lineno,
                                 "header has no column '%s' (needs platform,strategy,cache,"
                                 "cycles)",
                                 kTargetCols[k]);
            continue;
        }
        if (nf != nheader) {
            rc = err_set(e, path, lineno, "%d fields, but the header (line %d) has %d", nf,
                         header_line, nheader);
            break;
        }
        c = xrealloc(c, sizeof *c * (size_t)(n + 1));
        tune_cell_t *t = &c[n];
        memset(t, 0, sizeof *t);
        t->line = lineno;
        const char *cy = fl[idx[3]];
        if (copy_field(t->platform, sizeof t->platform, fl[idx[0]], "platform", path, lineno, e) ||
            copy_field(t->strategy, sizeof t->strategy, fl[idx[1]], "strategy", path, lineno, e) ||
            copy_field(t->cache, sizeof t->cache, fl[idx[2]], "cache", path, lineno, e))
            rc = -1;
        else if (err_parse_double(cy, &t->cycles) < 0 || !(t->cycles > 0))
            rc = err_set(e, path, lineno, "cycles must be a number > 0, not '%.40s'", cy);
        for (int i = 0; i < n && rc == 0; i++)
            if (same_cell(&c[i], t))
                rc = err_set(e, path, lineno, "cell %s,%s,%s given twice (first at line %d)",
                             t->platform, t->strategy, t->cache, c[i].line);
        n++;
    }
    if (rc == 0 && ferror(f))
        rc = err_set(e, path, 0, "cannot read target file: %s", strerror(errno));
    else if (rc == 0 && !header_line)
        rc = err_set(e, path, 0,
                     "no header line (expected columns platform,strategy,cache,"
                     "cycles)");
    else if (rc == 0 && n == 0)
        rc = err_set(e, path, 0, "no data rows after the header (line %d)", header_line);
    fclose(f);
    free(buf);
    free(fl);
    if (rc) {
        free(c);
        return -1;
    }
    *cells = c;
    *ncells = n;
    return 0;
}

static int in_list(const char *v, const char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(v, list[i]))
            return 1;
    return 0;
}

static void join(char *buf, size_t n, const char *const *list, int m)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < m && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? "," : "", list[i]);
}

int tune_select(const char *path, tune_cell_t *cells, int ncells, const char *name,
                const char *const *strategies, int nstrategies, const char *const *caches,
                int ncaches, int *nother, err_t *e)
{
    char have[256];
    tune_cell_t *keep = xmalloc(sizeof *keep * (size_t)ncells);
    int nk = 0;
    *nother = 0;
    for (int i = 0; i < ncells; i++) {
        const tune_cell_t *c = &cells[i];
        if (strcmp(c->platform, name) != 0) {
            (*nother)++;
            continue;
        }
        const char *bad = NULL, *what = NULL;
        if (!in_list(c->strategy, strategies, nstrategies)) {
            bad = c->strategy;
            what = "strategy";
            join(have, sizeof have, strategies, nstrategies);
        } else if (!in_list(c->cache, caches, ncaches)) {
            bad = c->cache;
            what = "cache";
            join(have, sizeof have, caches, ncaches);
        }
        if (bad) {
            free(keep);
            return err_set(e, path, c->line,
                           "cell %s,%s,%s: the scenario does not produce %s '%s' (it runs %s)",
                           c->platform, c->strategy, c->cache, what, bad, have);
        }
        keep[nk++] = *c;
    }
    if (nk == 0) {
        free(keep);
        return err_set(e, path, 0, "no row for platform '%s' (the platform tuned)", name);
    }
    int no = 0;
    for (int i = 0; i < ncells; i++)
        if (strcmp(cells[i].platform, name) != 0)
            keep[nk + no++] = cells[i];
    memcpy(cells, keep, sizeof *cells * (size_t)ncells);
    free(keep);
    return nk;
}

int tune_read_run_csv(const char *path, const tune_cell_t *cells, int ncells, double *sim, err_t *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return err_set(e, path, 0, "cannot read simulation results: %s", strerror(errno));
    static const char *const want[] = {"platform", "strategy", "cache", "mean_cycles"};
    char *buf = NULL, **fl = NULL;
    size_t bufn = 0;
    int cap = 0, lineno = 0, idx[4] = {0}, nheader = 0, rc = 0;
    int *found = xcalloc((size_t)ncells, sizeof *found);
    while (rc == 0 && getline(&buf, &bufn, f) >= 0) {
        lineno++;
        char *s = trim(buf);
        if (!*s)
            continue;
        int nf = split(s, &fl, &cap);
        if (lineno == 1) {
            nheader = nf;
            for (int k = 0; k < 4 && rc == 0; k++)
                if ((idx[k] = col_index(fl, nf, want[k])) < 0)
                    rc = err_set(e, path, 1, "no column '%s'", want[k]);
            continue;
        }
        if (nf != nheader) {
            rc = err_set(e, path, lineno, "%d fields, but the header has %d", nf, nheader);
            break;
        }
        for (int i = 0; i < ncells; i++) {
            const tune_cell_t *c = &cells[i];
            if (found[i] || strcmp(fl[idx[0]], c->platform) || strcmp(fl[idx[1]], c->strategy) ||
                strcmp(fl[idx[2]], c->cache))
                continue;
            if (err_parse_double(fl[idx[3]], &sim[i]) < 0)
                rc = err_set(e, path, lineno, "mean_cycles is not a number: '%.40s'", fl[idx[3]]);
            found[i] = 1;
        }
    }
    if (rc == 0 && lineno == 0)
        rc = err_set(e, path, 0, "empty simulation results");
    for (int i = 0; i < ncells && rc == 0; i++)
        if (!found[i])
            rc = err_set(e, path, 0, "no row for cell %s,%s,%s", cells[i].platform,
                         cells[i].strategy, cells[i].cache);
    fclose(f);
    free(buf);
    free(fl);
    free(found);
    return rc ? -1 : 0;
}

double tune_objective(const double *sim, const tune_cell_t *cells, int ncells)
{
    double sum = 0;
    for (int i = 0; i < ncells; i++) {
        double s = sim[i] > 1e-9 ? sim[i] : 1e-9;
        double l = log(s / cells[i].cycles);
        sum += l * l;
    }
    return ncells > 0 ? sum / ncells : 0;
}

double tune_round(double v)
{
    char b[64];
    snprintf(b, sizeof b, "%.6g", v);
    return strtod(b, NULL);
}

/* --- command-line helpers ------------------------------------------------ */

char *tune_trim_dup(const char *s, size_t len)
{
    while (len > 0 && (*s == ' ' || *s == '\t'))
        s++, len--;
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    char *d = xcheck(strndup(s, len));
    return d;
}

/* Why a cache parameter may be missing (appended to the error). */
static const char *missing_hint(const char *name)
{
    static const char *const levels[] = {
        "l1i_", ": the platform has no l1i cache level (no l1i_bytes prop)",
        "l1d_", ": the platform has no l1d cache level (no l1d_bytes prop)",
        "l2_",  ": the platform has no l2 cache level (no l2_bytes prop)",
        "l3_",  ": the platform has no l3 cache level (no l3_bytes prop)"};
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i += 2)
        if (!strncmp(name, levels[i], strlen(levels[i])))
            return levels[i + 1];
    if (strstr(name, "_footprint_lines") || strstr(name, "_per_mcycle"))
        return ": a footprint is fitted only when the file has its prop (write it, value 0)";
    return "";
}

int tune_parse_params(const char *list, const platform_t *p, char ***names, int *n, err_t *e)
{
    *n = 0;
    *names = NULL;
    for (const char *s = list;;) {
        size_t len = strcspn(s, ",");
        char *name = tune_trim_dup(s, len);
        *names = xrealloc(*names, sizeof **names * (size_t)(*n + 1));
        (*names)[(*n)++] = name;
        if (!*name)
            return err_set(e, "--params", 0, "item %d of '%s' is empty", *n, list);
        if (!platform_param(p, name) || !strcmp(name, "tunable"))
            return err_set(e, "--params", 0, "'%s' is not a parameter of %s (%s)%s", name, p->path,
                           p->name, missing_hint(name));
        for (int i = 0; i < *n - 1; i++)
            if (!strcmp((*names)[i], name))
                return err_set(e, "--params", 0, "'%s' is listed twice", name);
        if (!s[len])
            return 0;
        s += len + 1;
    }
}

void tune_default_out(const char *in, char *buf, size_t n)
{
    const char *base = strrchr(in, '/');
    base = base ? base + 1 : in;
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".xml"))
        len -= 4;
    snprintf(buf, n, "%.*s-tuned.xml", (int)len, base);
}

void tune_comment_safe(char *s)
{
    for (char *p = s; *p; p++)
        if (p[0] == '-' && (p[1] == '-' || p[1] == '\0'))
            p[p[1] ? 1 : 0] = '_';
}

int tune_write_platform(const char *in, const char *out, int n, const char *const *names,
                        const double *vals, char *comment, err_t *e)
{
    tune_comment_safe(comment);
    if (platform_write_with(in, out, n, names, vals, comment, e) < 0)
        return -1;
    platform_t *check = platform_read(out, NULL, 0, e);
    if (!check)
        return -1;
    platform_free(check);
    printf("wrote %s\n", out);
    fflush(stdout);
    return 0;
}

/* --- the fit --------------------------------------------------------------- */

typedef struct {
    const tune_problem_t *pb;
    double *vals; /* [ncache * nparams] evaluated vectors (rounded) */
    double *sims; /* [ncache * ncells] their simulated cycles */
    double *objs; /* [ncache] their objective */
    int ncache, cap, best;
    int out_of_budget, failed;
    err_t *e;
} fit_t;

/* Objective far above any real one, for values no simulation should see. */
#define OUT_OF_RANGE 1e6

/* Evaluates x (log values); NAN stops GSL when out of budget or failed. */
static double objective_at(const gsl_vector *x, void *ctx)
{
    fit_t *F = ctx;
    const tune_problem_t *pb = F->pb;
    int np = pb->nparams;
    double v[np > 0 ? np : 1];
    for (int i = 0; i < np; i++) {
        double xi = gsl_vector_get(x, i);
        v[i] = isfinite(xi) ? tune_round(exp(xi)) : 0;
        if (!(v[i] > 0) || v[i] > 1e15)
            return OUT_OF_RANGE;
    }
    for (int k = 0; k < F->ncache; k++)
        if (!memcmp(&F->vals[(size_t)k * (size_t)np], v, sizeof v))
            return F->objs[k];
    if (F->failed || F->ncache >= pb->max_evals) {
        F->out_of_budget = !F->failed;
        return NAN;
    }
    if (F->ncache == F->cap) {
        F->cap = F->cap ? F->cap * 2 : 32;
        F->vals = xrealloc(F->vals, sizeof *F->vals * (size_t)F->cap * (size_t)np);
        F->sims = xrealloc(F->sims, sizeof *F->sims * (size_t)F->cap * (size_t)pb->ncells);
        F->objs = xrealloc(F->objs, sizeof *F->objs * (size_t)F->cap);
    }
    double *sim = &F->sims[(size_t)F->ncache * (size_t)pb->ncells];
    if (pb->eval(v, sim, pb->ctx, F->e) < 0) {
        F->failed = 1;
        return NAN;
    }
    int k = F->ncache++;
    memcpy(&F->vals[(size_t)k * (size_t)np], v, sizeof v);
    F->objs[k] = tune_objective(sim, pb->cells, pb->ncells);
    if (F->best < 0 || F->objs[k] < F->objs[F->best])
        F->best = k;
    return F->objs[k];
}

static void log_iter(const tune_problem_t *pb, int iter, double obj, const gsl_vector *x, int evals)
{
    if (!pb->log)
        return;
    fprintf(pb->log, "iter %d: rms relative error %.3g%% params ", iter, 100 * sqrt(obj));
    for (int i = 0; i < pb->nparams; i++)
        fprintf(pb->log, "%s%s=%.6g", i ? "," : "", pb->names[i],
                tune_round(exp(gsl_vector_get(x, i))));
    fprintf(pb->log, " (%d simulations)\n", evals);
    fflush(pb->log);
}

int tune_fit(const tune_problem_t *pb, tune_result_t *res, err_t *e)
{
    memset(res, 0, sizeof *res);
    gsl_set_error_handler_off();
    int np = pb->nparams;
    if (np < 1 || pb->ncells < 1 || pb->max_evals < 1)
        return err_set(e, NULL, 0, "tune: nothing to fit");
    fit_t F = {.pb = pb, .best = -1, .e = e};
    gsl_vector *x = xcheck(gsl_vector_alloc((size_t)np));
    gsl_vector *step = xcheck(gsl_vector_alloc((size_t)np));
    gsl_multimin_fminimizer *s =
        xcheck(gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, (size_t)np));
    for (int i = 0; i < np; i++) {
        gsl_vector_set(x, i, log(pb->initial[i]));
        gsl_vector_set(step, i, pb->step);
    }
    int rc = 0;
    double obj0 = objective_at(x, &F);
    if (F.failed || !(obj0 < OUT_OF_RANGE)) {
        rc = F.failed ? -1 : err_set(e, NULL, 0, "tune: initial values out of range");
        goto out;
    }
    int k0 = F.ncache - 1;
    log_iter(pb, 0, obj0, x, F.ncache);
    gsl_multimin_function fn = {.f = objective_at, .n = (size_t)np, .params = &F};
    int st = gsl_multimin_fminimizer_set(s, &fn, x, step);
    int iter = 0;
    for (int iter_cap = 100 * pb->max_evals + 1000; st == GSL_SUCCESS && iter < iter_cap;) {
        iter++;
        st = gsl_multimin_fminimizer_iterate(s);
        if (st != GSL_SUCCESS)
            break;
        log_iter(pb, iter, gsl_multimin_fminimizer_minimum(s), gsl_multimin_fminimizer_x(s),
                 F.ncache);
        if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(s), pb->size_tol) == GSL_SUCCESS) {
            res->converged = 1;
            break;
        }
        if (F.ncache >= pb->max_evals)
            break;
    }
    if (F.failed) {
        rc = -1;
        goto out;
    }
    if (st != GSL_SUCCESS && !F.out_of_budget && pb->log)
        fprintf(pb->log, "note: the simplex stopped: %s\n", gsl_strerror(st));
    int nc = pb->ncells;
    res->fitted = xmalloc(sizeof *res->fitted * (size_t)np);
    res->sim = xmalloc(sizeof *res->sim * (size_t)nc);
    res->sim0 = xmalloc(sizeof *res->sim0 * (size_t)nc);
    memcpy(res->fitted, &F.vals[(size_t)F.best * (size_t)np], sizeof *res->fitted * (size_t)np);
    memcpy(res->sim, &F.sims[(size_t)F.best * (size_t)nc], sizeof *res->sim * (size_t)nc);
    memcpy(res->sim0, &F.sims[(size_t)k0 * (size_t)nc], sizeof *res->sim0 * (size_t)nc);
    res->err = sqrt(F.objs[F.best]);
    res->err0 = sqrt(F.objs[k0]);
    res->evals = F.ncache;
    res->iters = iter;
out:
    gsl_multimin_fminimizer_free(s);
    gsl_vector_free(x);
    gsl_vector_free(step);
    free(F.vals);
    free(F.sims);
    free(F.objs);
    return rc;
}

void tune_result_free(tune_result_t *res)
{
    free(res->fitted);
    free(res->sim);
    free(res->sim0);
    memset(res, 0, sizeof *res);
}
