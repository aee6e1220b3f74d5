/* child: every child process of numasim (see child.h). */
#define _DEFAULT_SOURCE /* wait4 */
#include "child.h"

#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CHILDREN 256
static volatile pid_t g_children[MAX_CHILDREN]; /* running children */

void child_kill_all(int sig)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (g_children[i] > 0)
            kill(g_children[i], sig);
}

static void on_signal(int sig)
{
    outfile_cleanup();
    child_kill_all(SIGKILL);
    _exit(128 + sig);
}

void child_catch_signals(void)
{
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
}

pid_t child_try_fork(void)
{
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid > 0) {
        for (int i = 0; i < MAX_CHILDREN; i++)
            if (g_children[i] <= 0) {
                g_children[i] = pid;
                break;
            }
        return pid;
    }
    for (int i = 0; i < MAX_CHILDREN; i++) /* the parent's, not this one's */
        g_children[i] = 0;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1); /* the parent died before prctl took effect */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    return 0;
}

pid_t child_fork(void)
{
    pid_t pid = child_try_fork();
    if (pid < 0) {
        perror("numasim: fork");
        exit(1);
    }
    return pid;
}

int child_wait_usage(pid_t pid, struct rusage *ru)
{
    int st = 0;
    while (wait4(pid, &st, 0, ru) < 0 && errno == EINTR)
        ;
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (g_children[i] == pid)
            g_children[i] = 0;
    return st;
}

int child_wait(pid_t pid)
{
    return child_wait_usage(pid, NULL);
}

int child_run(const char *file, char *const argv[], const char *errf, int quiet)
{
    pid_t pid = child_try_fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int ef = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (ef < 0 || dup2(ef, 2) < 0)
            _exit(126);
        if (quiet) {
            int dn = open("/dev/null", O_WRONLY);
            if (dn < 0 || dup2(dn, 1) < 0)
                _exit(126);
        }
        execvp(file, argv);
        fprintf(stderr, "numasim: cannot run %s: %s\n", file, strerror(errno));
        _exit(127);
    }
    return child_wait(pid);
}

int child_run_self(char *const argv[], const char *errf, int quiet)
{
    return child_run("/proc/self/exe", argv, errf, quiet);
}
