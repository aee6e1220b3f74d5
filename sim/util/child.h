/* child: every child process of numasim. SimGrid allows one engine per
 * process, so simulations run in children (`numasim run`, `hunt`, `litmus`,
 * `bench`); `numasim tune` runs whole numasim commands (child_run_self);
 * `numasim slurm` runs Slurm's commands.
 *
 * A child started here dies with the process that started it
 * (PR_SET_PDEATHSIG), and the parent keeps a table of its running children,
 * so that SIGINT or SIGTERM (child_catch_signals) removes the temporary
 * result files (outfile_cleanup) and kills every child before exiting. */
#ifndef NUMASIM_CHILD_H
#define NUMASIM_CHILD_H

#include <sys/resource.h>
#include <sys/types.h>

/* Installs the SIGINT/SIGTERM handler described above: it exits with
 * 128 + the signal's number. */
void child_catch_signals(void);

/* Forks (stdio flushed first). In the parent: records the child and returns
 * its pid, or -1 with errno when fork failed. In the child: returns 0, with
 * an empty table of children, after making it die with its parent and
 * restoring default SIGINT/SIGTERM. */
pid_t child_try_fork(void);

/* child_try_fork, but exits with code 1 and "numasim: fork: REASON" when
 * fork fails. */
pid_t child_fork(void);

/* Waits for child pid (retrying on EINTR), forgets it and returns its wait
 * status (0 when pid is not a child). child_wait_usage also stores its
 * resource usage, and its waited-for descendants', in *ru. */
int child_wait(pid_t pid);
int child_wait_usage(pid_t pid, struct rusage *ru);

/* Sends sig to every recorded child (safe in a signal handler). */
void child_kill_all(int sig);

/* Runs program file (looked up in PATH when it has no '/') with argv
 * (NULL-terminated), its standard error into errf (created or truncated)
 * and, when quiet, its standard output into /dev/null, and waits for it.
 * Returns its wait status (exit code 127 when file cannot be run, 126 when
 * errf cannot be opened), or -1 with errno when fork failed. It is a
 * recorded child while it runs: child_kill_all reaches it. */
int child_run(const char *file, char *const argv[], const char *errf, int quiet);

/* child_run of this program again (/proc/self/exe). */
int child_run_self(char *const argv[], const char *errf, int quiet);

#endif
