/* child: simulations in child processes (SimGrid allows one engine per
 * process), shared by `numasim run` and `numasim hunt`.
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

#endif
