/* loader: one platform loaded once, its simulations forked from it (see
 * loader.h). */
#include "loader.h"

#include "child.h"
#include "err.h"
#include "simulated.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

struct loader {
    pid_t pid;
    int req, rep; /* the parent's ends: requests out, replies in */
    loader_t *next;
};

/* The running loaders: a new one closes the others' pipes, which would
 * otherwise never see their end of file. */
static loader_t *g_loaders;

enum { REQ_START, REQ_WAIT };

typedef struct {
    int op, k, fd;
    pid_t pid;
} req_t;

/* A whole write (out) or read of n bytes on a pipe; 0, or -1 (EOF or
 * error). */
static int move(int fd, void *buf, size_t n, int out)
{
    char *b = buf;
    while (n) {
        ssize_t k = out ? write(fd, b, n) : read(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

static int put(int fd, const void *buf, size_t n)
{
    return move(fd, (void *)buf, n, 1);
}

static int get(int fd, void *buf, size_t n)
{
    return move(fd, buf, n, 0);
}

/* In a job, just forked by the loader: dies with the loader, drops the
 * pipes, opens the parent's result file and runs the job. */
static void job_main(pid_t parent, int req, int rep, const req_t *q, loader_body_t body, void *ctx)
{
    pid_t loader = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != loader)
        _exit(1); /* the loader died before prctl took effect */
    close(req);
    close(rep);
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/%d", (long)parent, q->fd);
    int fd = open(path, O_WRONLY);
    if (fd < 0) {
        fprintf(stderr, "numasim: %s: %s\n", path, strerror(errno));
        _exit(1);
    }
    body(q->k, fd, ctx);
    _exit(1); /* body does not return */
}

/* The loader's life: load p, then answer requests until the pipe closes. */
static void loader_main(platform_t *p, int req, int rep, loader_body_t body, void *ctx)
{
    pid_t parent = getppid();
    err_t e = {{0}};
    int64_t ok = machine_preload(p, "numasim", &e) < 0 ? 2 : 0;
    if (ok)
        fprintf(stderr, "%s\n", e.msg);
    if (put(rep, &ok, sizeof ok) < 0 || ok)
        _exit((int)ok);
    req_t q;
    while (get(req, &q, sizeof q) == 0) {
        int64_t a = -1;
        if (q.op == REQ_START) {
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0)
                job_main(parent, req, rep, &q, body, ctx);
            a = pid < 0 ? -2 : pid;
        } else {
            int st = 0;
            while (waitpid(q.pid, &st, 0) < 0 && errno == EINTR)
                ;
            a = st;
        }
        if (put(rep, &a, sizeof a) < 0)
            break;
    }
    _exit(0);
}

loader_t *loader_start(platform_t *p, loader_body_t body, void *ctx, int *rc)
{
    int down[2], up[2];
    if (pipe(down) < 0 || pipe(up) < 0) {
        perror("numasim: pipe");
        *rc = 1;
        return NULL;
    }
    pid_t pid = child_fork();
    if (pid == 0) {
        for (loader_t *o = g_loaders; o; o = o->next) {
            close(o->req);
            close(o->rep);
        }
        close(down[1]);
        close(up[0]);
        loader_main(p, down[0], up[1], body, ctx);
    }
    close(down[0]);
    close(up[1]);
    loader_t *l = malloc(sizeof *l);
    if (!l)
        abort();
    l->pid = pid;
    l->req = down[1];
    l->rep = up[0];
    l->next = g_loaders;
    g_loaders = l;
    int64_t ok;
    if (get(l->rep, &ok, sizeof ok) == 0 && ok == 0)
        return l;
    int st = loader_stop(l);
    *rc = WIFEXITED(st) && WEXITSTATUS(st) == 2 ? 2 : 1;
    if (*rc == 1)
        fprintf(stderr, "numasim: internal error: loading %s failed\n", p->path);
    return NULL;
}

/* One request, one answer; -1 when the loader is gone. */
static int64_t ask(loader_t *l, const req_t *q)
{
    int64_t a;
    fflush(NULL);
    if (put(l->req, q, sizeof *q) < 0 || get(l->rep, &a, sizeof a) < 0) {
        fprintf(stderr, "numasim: internal error: the platform loader %ld is gone\n", (long)l->pid);
        return -1;
    }
    return a;
}

pid_t loader_fork(loader_t *l, int k, int fd)
{
    req_t q = {REQ_START, k, fd, 0};
    int64_t pid = ask(l, &q);
    if (pid == -2)
        fprintf(stderr, "numasim: fork: failed in the platform loader\n");
    return pid > 0 ? (pid_t)pid : -1;
}

int loader_wait(loader_t *l, pid_t pid)
{
    req_t q = {REQ_WAIT, 0, 0, pid};
    return (int)ask(l, &q);
}

int loader_stop(loader_t *l)
{
    if (!l)
        return 0;
    for (loader_t **o = &g_loaders; *o; o = &(*o)->next)
        if (*o == l) {
            *o = l->next;
            break;
        }
    close(l->req);
    close(l->rep);
    int st = child_wait(l->pid);
    free(l);
    return st;
}
