/* cli_run_internal: what the three files of `numasim run` share (cli_run.c:
 * the options; cli_run_scenario.c: one scenario file, its combinations and
 * outputs; cli_run_jobs.c: each combination in a child process); not an
 * API. */
#ifndef NUMASIM_CLI_RUN_INTERNAL_H
#define NUMASIM_CLI_RUN_INTERNAL_H

#include "cpu.h"
#include "host.h"
#include "loader.h"
#include "native.h"
#include "platform.h"
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
    int ok;
} job_t;

/* --paje: where the traces go, and how many measured calls each shows. */
typedef struct {
    const char *dir;
    int calls;
} paje_opt_t;

/* --native: every scenario runs on this host instead of its platforms. */
extern host_t *cli_run_host;
extern native_opts_t cli_run_native; /* --timeout */

/* Computes p's node latency matrix once, in a child (SimGrid allows one
 * engine per process), so that every simulation of p skips the route
 * look-ups. Returns 0, 1 (crash) or 2 (broken routes, message printed). */
int cli_run_fetch_routes(platform_t *p);

/* Whether jobs run in the workers of their platform's loader (loader.h): a
 * simulated job without a trace file. */
int cli_run_in_workers(const paje_opt_t *po);

/* Runs job js[k] in a child; its results go to its out (a temporary file).
 * A job that runs in workers goes to its platform's loader (started at the
 * platform's first job, with up to `jobs` workers); others are children of
 * their own that load their platform themselves. With po->dir, the child
 * also writes the job's Paje trace into po->dir. Returns 0, or 1 or 2 when
 * the loader could not start (printed). */
int cli_run_start_job(job_t *js, int k, variant_t *vs, int trace, const paje_opt_t *po, int jobs);

/* Waits for job j; returns 0, 1 (crash) or 2 (user error from the child).
 * The platform's loader stops after its last job. */
int cli_run_finish_job(job_t *j, variant_t *vs);

/* Waits for job j after an error, its result unread. */
void cli_run_reap_job(job_t *j, variant_t *vs);

/* Runs every combination of the scenario file path (or those of slice
 * `slice` of `nslices`; slice < 0: all) and writes the CSV and resolved
 * configuration (or the part file) to out_opt or results/. argc/argv: the
 * command line, recorded in the outputs. Returns 0, 1 (crash) or ERR_EXIT
 * with the message printed. */
int cli_run_scenario_file(const char *path, const char *out_opt, const char **sets, int nsets,
                          int trace, const paje_opt_t *po, int jobs, int quiet, int slice,
                          int nslices, int argc, char **argv);

#endif
