/* tune: the testable core of `numasim tune` (cli_tune.c runs the simulations).
 *
 * A target file holds measured cycles per call: '#' comment lines and blank
 * lines, then a header naming at least the columns platform, strategy, cache
 * and cycles (any order, more columns allowed), then one row per cell. Every
 * error is "FILE:LINE: message" (just "FILE: message" without a line).
 *
 * The fit is a Nelder-Mead simplex (GSL nmsimplex2) over the logarithms of
 * the parameter values, so they stay positive. The objective is the mean over
 * the cells of log(simulated/measured)^2; its square root is reported as the
 * "rms relative error" (a log ratio, the relative error for small errors).
 */
#ifndef NUMASIM_TUNE_H
#define NUMASIM_TUNE_H

#include "err.h"
#include "platform.h"

#include <stddef.h>
#include <stdio.h>

typedef struct {
    char platform[128], strategy[32], cache[8];
    double cycles; /* measured, > 0 */
    int line;      /* in the target file */
} tune_cell_t;

/* Reads a target file. Returns 0 with *cells (caller frees) and *ncells >= 1,
 * or -1 with e. Rows naming the same cell twice are an error. */
int tune_read_target(const char *path, tune_cell_t **cells, int *ncells, err_t *e);

/* Keeps the cells of platform `name` at the front of cells (in file order)
 * and returns their number, or -1 with e when one has a strategy or cache
 * not in the given lists (the scenario does not produce it) or when none is
 * left. *nother gets the number of rows of other platforms (ignored). */
int tune_select(const char *path, tune_cell_t *cells, int ncells, const char *name,
                const char *const *strategies, int nstrategies, const char *const *caches,
                int ncaches, int *nother, err_t *e);

/* Reads the mean_cycles of each cell from a CSV written by `numasim run`
 * into sim[ncells]. Returns 0, or -1 with e (unreadable file, missing
 * column, a cell without a row). */
int tune_read_run_csv(const char *path, const tune_cell_t *cells, int ncells, double *sim,
                      err_t *e);

/* mean over the cells of log(sim/measured)^2 (sim <= 0 counts as tiny). */
double tune_objective(const double *sim, const tune_cell_t *cells, int ncells);

/* Rounds a parameter value to what is written to files ("%.6g"). */
double tune_round(double v);

/* A malloc'd copy of s[0..len) without leading and trailing blanks. */
char *tune_trim_dup(const char *s, size_t len);

/* Parses --params "a,b,..." into *names (malloc'd strings in a malloc'd
 * array, set even on error: the caller frees *n of them). Each must be a
 * parameter of p other than "tunable", listed once. Returns 0 or -1 with e. */
int tune_parse_params(const char *list, const platform_t *p, char ***names, int *n, err_t *e);

/* The default output: IN's file name without ".xml", plus "-tuned.xml",
 * in the current directory. */
void tune_default_out(const char *in, char *buf, size_t n);

/* Makes s a valid XML comment body: no "--", no final '-'. */
void tune_comment_safe(char *s);

/* Writes the platform file in with the n parameters names set to vals
 * into out (comment, made safe here, at its top), reads it back to check
 * that it loads, and prints "wrote OUT". Returns 0, or -1 with e. */
int tune_write_platform(const char *in, const char *out, int n, const char *const *names,
                        const double *vals, char *comment, err_t *e);

/* Simulates the cells with the given parameter values: fills sim[ncells].
 * Returns 0, or -1 with e (the fit stops with that error). */
typedef int (*tune_eval_fn)(const double *values, double *sim, void *ctx, err_t *e);

typedef struct {
    int nparams;
    const char *const *names; /* [nparams], for the log */
    const double *initial;    /* [nparams], > 0 */
    int ncells;
    const tune_cell_t *cells;
    int max_evals;   /* evaluations (distinct parameter vectors) at most, >= 1 */
    double step;     /* initial simplex step in log space (0.2) */
    double size_tol; /* stop when the simplex size is below this (1e-3) */
    tune_eval_fn eval;
    void *ctx;
    FILE *log; /* "iter N: ..." lines, or NULL */
} tune_problem_t;

typedef struct {
    double *fitted;   /* [nparams] best values evaluated (malloc'd) */
    double *sim;      /* [ncells] simulated cycles at fitted (malloc'd) */
    double *sim0;     /* [ncells] simulated cycles at the initial values */
    double err, err0; /* rms relative error at fitted, at initial (fractions) */
    int evals, iters;
    int converged; /* the simplex shrank below size_tol */
} tune_result_t;

/* Runs the fit. Identical (rounded) parameter vectors are evaluated once.
 * Returns 0 with res filled (free with tune_result_free), or -1 with e. */
int tune_fit(const tune_problem_t *pb, tune_result_t *res, err_t *e);
void tune_result_free(tune_result_t *res);

#endif
