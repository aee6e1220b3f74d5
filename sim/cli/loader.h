/* loader: a process that has loaded one platform into SimGrid and runs
 * simulations of it on request. Theory of operation.
 *
 * SimGrid allows one engine per process, so simulations run in children of
 * the parent. Without a loader each child parses the platform file again
 * and builds SimGrid's zones and routes: at 4096 CPUs that is 0.4 s a child,
 * more than many simulations take. A loader pays it once per platform, and
 * its workers (forks of it, up to --jobs) run the jobs, one after another
 * each:
 *
 *   parent --fork--> loader: sim_preload(p) (parse, routes)
 *          <-pipe--  0 when loaded, 2 when not (message printed)
 *          --pipe--> "job k, results to my fd f"
 *                    loader: to an idle worker, or a new one, or queued on
 *                    the busiest-but-least one (its pipe holds it)
 *          <-pipe--  k (taken)
 *          --pipe--> "wait for job k"
 *                    worker --pipe--> loader: k's exit code
 *          <-pipe--  an exit status of that code (or the worker's own
 *                    status, when it died: a crash)
 *
 * A worker runs as many jobs as it is sent, so a job pays no fork, no
 * copy-on-write of the loader's pages and no first touch of its heap (at
 * 32 CPUs these were most of a job's time). The parent keeps two jobs per
 * worker in flight, so that a worker finds its next job waiting when it
 * ends one: a job lasts a millisecond at 32 CPUs, and waking a sleeping
 * process through two pipes took as long on a 2-vCPU guest. The jobs of one
 * worker share its process: a job must leave nothing behind that another
 * could see (sim_run frees its machine). Under the clock-ordered
 * scheduler a worker runs one job and exits (sim_run_again_ok).
 *
 * A job writes its results into the parent's temporary file, which it opens
 * again through /proc/PARENT/fd/f. The loader dies with the parent, and a
 * worker with its loader (PR_SET_PDEATHSIG), so SIGINT of the parent (which
 * kills its children, child.h) ends them all. Requests are answered one at
 * a time, in order: the parent is single-threaded, and waits for jobs in
 * the order it submitted them. */
#ifndef NUMASIM_LOADER_H
#define NUMASIM_LOADER_H

#include "platform.h"

#include <sys/types.h>

typedef struct loader loader_t;

/* Runs in a worker: job k of ctx, results into file descriptor fd, which it
 * closes. last: the worker exits after it (nothing need be freed). Returns
 * the job's exit code (0 when its results are written). */
typedef int (*loader_body_t)(int k, int fd, int last, void *ctx);

/* Forks a loader for p with at most `workers` workers (what this process
 * knows at the call, ctx and the jobs it points to included, is what the
 * jobs will see) and waits until p is loaded. Returns the loader, or NULL
 * with *rc set as cli.h's rule has it: -1 when p could not be loaded (a
 * user error; the loader printed why), 1 on a system error (printed). */
loader_t *loader_start(platform_t *p, int workers, loader_body_t body, void *ctx, int *rc);

/* Hands job k (unique among l's jobs) to a worker of l, its results going
 * into this process's file descriptor fd. Returns 0, or -1 (printed). */
int loader_submit(loader_t *l, int k, int fd);

/* Waits for job k of loader l, the first submitted and not yet waited for
 * of its worker (jobs are waited for in the order they were submitted);
 * returns its wait status (as waitpid), or -1 when the loader is gone
 * (printed) or has no such job. */
int loader_wait(loader_t *l, int k);

/* Ends the loader (it exits once its pipe closes), waits for it, frees l
 * and returns the loader's wait status. NULL is allowed (returns 0). */
int loader_stop(loader_t *l);

/* Ends the loader and frees l without waiting: its exit (and its workers',
 * tearing their memory down) overlaps what the caller does next, until
 * loader_reap() waits for every loader so closed. NULL is allowed. */
void loader_close(loader_t *l);
void loader_reap(void);

#endif
