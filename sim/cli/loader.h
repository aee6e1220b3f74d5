/* loader: a process that has loaded one platform into SimGrid and forks
 * simulations of it on request. Theory of operation.
 *
 * SimGrid allows one engine per process, so every simulation runs in a
 * child. Without a loader each child parses the platform file again and
 * builds SimGrid's zones and routes: at 4096 CPUs that is 0.4 s a child,
 * more than many simulations take. A loader pays it once per platform:
 *
 *   parent --fork--> loader: machine_preload(p) (parse, routes)
 *          <-pipe--  0 when loaded, 2 when not (message printed)
 *          --pipe--> "start job k, results to my fd f"
 *                    loader --fork--> job: body(k, fd, ctx), then _exit
 *          <-pipe--  the job's pid
 *          --pipe--> "wait for pid"
 *          <-pipe--  its wait status
 *
 * The job is the loader's child, so the loader waits for it; the parent
 * asks. A job writes its results into the parent's temporary file, which it
 * opens again through /proc/PARENT/fd/f. The loader dies with the parent,
 * and a job with its loader (PR_SET_PDEATHSIG), so SIGINT of the parent
 * (which kills its children, child.h) ends them all. Requests are answered
 * one at a time, in order: the parent is single-threaded. */
#ifndef NUMASIM_LOADER_H
#define NUMASIM_LOADER_H

#include "platform.h"

#include <sys/types.h>

typedef struct loader loader_t;

/* Runs in the job process: job k of ctx, results into file descriptor fd.
 * Must not return (it ends with _exit). */
typedef void (*loader_body_t)(int k, int fd, void *ctx);

/* Forks a loader for p (what this process knows at the call, ctx and the
 * jobs it points to included, is what the jobs will see) and waits until p
 * is loaded. Returns the loader, or NULL with *rc set: 2 when p could not
 * be loaded (the loader printed why), 1 on a system error (printed). */
loader_t *loader_start(platform_t *p, loader_body_t body, void *ctx, int *rc);

/* Starts job k in a child of the loader, its results going into this
 * process's file descriptor fd. Returns the job's pid, or -1 (printed). */
pid_t loader_fork(loader_t *l, int k, int fd);

/* Waits for job pid of loader l; returns its wait status (as waitpid), or
 * -1 when the loader is gone (printed). */
int loader_wait(loader_t *l, pid_t pid);

/* Ends the loader (it exits once its pipe closes), waits for it, frees l
 * and returns the loader's wait status. NULL is allowed (returns 0). */
int loader_stop(loader_t *l);

#endif
