/* cli_run_internal: what the three files of `numasim run` share (cli_run.c:
 * the options; cli_run_scenario.c: one scenario file, its combinations and
 * outputs; cli_run_jobs.c: each combination in a child process); not an
 * API. */
#ifndef NUMASIM_CLI_RUN_INTERNAL_H
#define NUMASIM_CLI_RUN_INTERNAL_H

#include "cpu.h"
#include "err.h"
#include "host.h"
#include "loader.h"
#include "native.h"
#include "platform.h"
#include "results.h"
#include "scenario.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct {
    scenario_t *s;
    platform_t **plats; /* [s->nplatforms] */
    const char *sweep_value;
    loader_t **loaders; /* [s->nplatforms]: running loaders, or NULL */
    int *left;          /* [s->nplatforms]: jobs of the platform not yet finished */
} variant_t;

typedef struct {
    int v, plat, cache, seedi;
    strategy_id_t strat;
    int k;            /* its index among the jobs */
    pid_t pid;        /* its process; with a loader, 0 (or -1: not started) */
    loader_t *loader; /* the job's loader, or NULL: a child of this process */
    FILE *out;
    /* results, read back from the child */
    uint64_t *cycles;
    int ncalls;
    uint64_t violations, oopses, bugs, uaf, accesses, sim_cycles;
    cpu_anatomy_t anatomy;
    run_extra_t extra;
    int ok;
} job_t;

/* --paje: where the traces go, and how many measured calls each shows. */
typedef struct {
    const char *dir; /* NULL: no trace */
    int calls;
} paje_opt_t;

/* The options of `numasim run`, parsed and checked once by cli_run. */
typedef struct {
    const char *out;   /* -o, or NULL: results/ */
    const char **sets; /* --set, [nsets] */
    int nsets;
    int trace, quiet;
    int jobs;           /* simulations at once */
    int slice, nslices; /* --slice I/N; slice < 0: every combination */
    paje_opt_t paje;
    host_t *host;         /* --native: every scenario runs on it, or NULL */
    native_opts_t native; /* --timeout */
    int argc;             /* the command line, recorded in the outputs */
    char **argv;
} run_opts_t;

/* Errors, as everywhere in cli/: a function returns 0, -1 with err_t
 * filled (a user error: exit code 2; an empty message has been printed
 * already, by a child), or 1 for an internal failure, printed. */

/* Computes p's node latency matrix once, in a child (SimGrid allows one
 * engine per process), so that every simulation of p skips the route
 * look-ups. Returns 0, 1 or -1 (broken routes: the child printed why). */
int cli_run_fetch_routes(platform_t *p, err_t *e);

/* Whether jobs run in the workers of their platform's loader (loader.h): a
 * simulated job without a trace file. */
int cli_run_in_workers(const run_opts_t *o);

/* Runs job js[k] in a child; its results go to its out (a temporary file).
 * A job that runs in workers goes to its platform's loader (started at the
 * platform's first job, with up to o->jobs workers); others are children of
 * their own that load their platform themselves. With o->paje.dir, the
 * child also writes the job's Paje trace there. Returns 0, 1 or -1 (the
 * loader could not load the platform, and printed why). */
int cli_run_start_job(job_t *js, int k, variant_t *vs, const run_opts_t *o, err_t *e);

/* Waits for job j and reads its results back. Returns 0, 1 (it crashed,
 * printed) or -1 with the child's message in e. The platform's loader
 * stops after its last job. */
int cli_run_finish_job(job_t *j, variant_t *vs, err_t *e);

/* Waits for job j after an error, its result unread. */
void cli_run_reap_job(job_t *j, variant_t *vs);

/* Runs every combination of the scenario file path (or those of o's slice)
 * and writes the CSV and resolved configuration (or the part file) to o->out
 * or results/. Returns 0, 1 or -1 with e. */
int cli_run_scenario_file(const char *path, const run_opts_t *o, err_t *e);

#endif
