/* child: simulations in child processes (SimGrid allows one engine per
 * process), shared by `numasim run` and `numasim hunt`; `numasim tune`
 * runs whole numasim commands through child_run_self().
 *
 * The parent keeps a table of the children it started, so that SIGINT or
 * SIGTERM removes the temporary result files (outfile_cleanup) and kills
 * every running child before exiting. */
#ifndef NUMASIM_CHILD_H
#define NUMASIM_CHILD_H

#include <sys/types.h>

/* Installs the SIGINT/SIGTERM handler described above. */
void child_catch_signals(void);

/* Forks (stdio flushed first; exits with a message if fork fails). In the
 * parent: records the child and returns its pid. In the child: returns 0,
 * after making it die with its parent and restoring default SIGINT/SIGTERM. */
pid_t child_fork(void);

/* Waits for child pid (retrying on EINTR), forgets it and returns its wait
 * status. */
int child_wait(pid_t pid);

/* Runs this program again (/proc/self/exe) with argv (NULL-terminated), its
 * standard error into errf (created or truncated) and, when quiet, its
 * standard output into /dev/null, and waits for it. While it runs, *running
 * (may be NULL) holds its pid, for the caller's signal handler to kill.
 * Returns its wait status, or -1 with errno when fork failed. The child
 * dies with its parent. */
int child_run_self(char *const argv[], const char *errf, int quiet, volatile pid_t *running);

#endif
