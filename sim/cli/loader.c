/* loader: one platform loaded once, its simulations forked from it (see
 * loader.h). */
#include "loader.h"

#include "child.h"
#include "err.h"
#include "simulated.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* A worker of the loader: a process that runs jobs one after another. The
 * jobs sent to it and not yet waited for are its queue, in order: the
 * parent waits for jobs in the order it started them, so the one waited
 * for is at the head of its worker's queue. */
enum { MAX_WORKERS = 256, MAX_QUEUE = 16 }; /* --jobs is at most 256 */
typedef struct {
    pid_t pid;
    int req, rep; /* the loader's ends: jobs out, exit codes in */
    int queue[MAX_QUEUE], nq;
    int dead, status; /* it died (with this wait status): its queue fails */
} worker_t;

static worker_t g_workers[MAX_WORKERS]; /* the loader's (in the loader only) */
static int g_nworkers, g_max_workers;

/* In a worker, just forked by the loader (child_fork: it dies with the
 * loader), having dropped every pipe but its own: then runs the jobs it is sent until its pipe
 * closes. With reuse off (the scheduler needs a fresh SimGrid clock), it exits with its first job's
 * code instead of reporting it. */
static void worker_main(pid_t parent, int req, int rep, loader_body_t body, void *ctx, int reuse)
{
    /* What a job frees stays in the heap for the next one: glibc would
     * hand it back, and the next job would fault it in again (thousands of
     * CPUs' cache tables: a third of a worker's page faults). */
    if (reuse) {
        mallopt(M_TRIM_THRESHOLD, 512 << 20);
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
    }
    req_t q;
    while (get(req, &q, sizeof q) == 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/fd/%d", (long)parent, q.fd);
        int fd = open(path, O_WRONLY);
        if (fd < 0) {
            fprintf(stderr, "numasim: %s: %s\n", path, strerror(errno));
            _exit(1);
        }
        int64_t code = body(q.k, fd, !reuse, ctx);
        fflush(NULL);
        if (!reuse || put(rep, &code, sizeof code) < 0)
            _exit((int)code);
    }
    _exit(0);
}

static worker_t *fork_worker(pid_t parent, int req, int rep, loader_body_t body, void *ctx)
{
    int down[2], up[2];
    if (g_nworkers == MAX_WORKERS || pipe(down) < 0)
        return NULL;
    if (pipe(up) < 0) {
        close(down[0]);
        close(down[1]);
        return NULL;
    }
    pid_t pid = child_try_fork();
    if (pid == 0) {
        close(req);
        close(rep);
        for (int i = 0; i < g_nworkers; i++) {
            close(g_workers[i].req);
            close(g_workers[i].rep);
        }
        close(down[1]);
        close(up[0]);
        worker_main(parent, down[0], up[1], body, ctx, sim_run_again_ok());
    }
    close(down[0]);
    close(up[1]);
    if (pid < 0) {
        close(down[1]);
        close(up[0]);
        return NULL;
    }
    worker_t *w = &g_workers[g_nworkers++];
    *w = (worker_t){.pid = pid, .req = down[1], .rep = up[0]};
    return w;
}

/* The worker for a new job: an idle one; else a new one while there are
 * fewer than g_max_workers (or when workers run one job each); else the
 * one with the shortest queue, whose pipe holds the job until it is
 * free. NULL when none can take it. */
static worker_t *pick_worker(pid_t parent, int req, int rep, loader_body_t body, void *ctx)
{
    worker_t *best = NULL;
    for (int i = 0; i < g_nworkers; i++) {
        worker_t *w = &g_workers[i];
        if (!w->dead && w->nq < MAX_QUEUE && (!best || w->nq < best->nq))
            best = w;
    }
    if (best && best->nq == 0)
        return best;
    if (g_nworkers < g_max_workers || !sim_run_again_ok() || !best)
        return fork_worker(parent, req, rep, body, ctx);
    return best;
}

/* Forgets worker w (dead, its queue empty). */
static void forget(worker_t *w)
{
    close(w->req);
    close(w->rep);
    *w = g_workers[--g_nworkers];
}

/* The wait status of job k: an exit status made of the code its worker
 * reported, or, when the worker died (a crash, or a worker without reuse),
 * the worker's own, for k and every job queued behind it. -1 when no
 * worker has k at the head of its queue. */
static int job_status(int k)
{
    worker_t *w = NULL;
    for (int i = 0; i < g_nworkers && !w; i++)
        if (g_workers[i].nq && g_workers[i].queue[0] == k)
            w = &g_workers[i];
    if (!w)
        return -1;
    memmove(w->queue, w->queue + 1, sizeof *w->queue * (size_t)--w->nq);
    int64_t code;
    if (!w->dead && get(w->rep, &code, sizeof code) == 0)
        return (int)(code & 0xff) << 8; /* as WIFEXITED with WEXITSTATUS = code */
    if (!w->dead) {
        w->dead = 1;
        w->status = child_wait(w->pid);
    }
    int st = w->status;
    if (!w->nq)
        forget(w);
    return st;
}

/* The loader's life: load p, then answer requests until the pipe closes;
 * then closes its workers' pipes (they exit) and waits for them. */
static void loader_main(platform_t *p, int req, int rep, loader_body_t body, void *ctx)
{
    pid_t parent = getppid();
    signal(SIGPIPE, SIG_IGN); /* a worker that died: its pipe fails, EPIPE */
    err_t e = {{0}};
    int64_t ok = sim_preload(p, "numasim", &e) < 0 ? ERR_EXIT : 0;
    if (ok)
        fprintf(stderr, "%s\n", e.msg);
    if (put(rep, &ok, sizeof ok) < 0 || ok)
        _exit((int)ok);
    req_t q;
    while (get(req, &q, sizeof q) == 0) {
        int64_t a = -1;
        if (q.op == REQ_START) {
            worker_t *w = pick_worker(parent, req, rep, body, ctx);
            a = -2;
            if (w && put(w->req, &q, sizeof q) == 0) {
                w->queue[w->nq++] = q.k;
                a = q.k;
            } else if (w && !w->nq) { /* it died idle: forget it */
                child_wait(w->pid);
                forget(w);
            }
        } else {
            a = job_status(q.k);
        }
        if (put(rep, &a, sizeof a) < 0)
            break;
    }
    /* Every worker is told first, then waited for: their exits (each
     * hands back its memory, half a millisecond at 32 CPUs) overlap. */
    for (int i = 0; i < g_nworkers; i++) {
        close(g_workers[i].req);
        close(g_workers[i].rep);
    }
    for (int i = 0; i < g_nworkers; i++)
        if (!g_workers[i].dead)
            child_wait(g_workers[i].pid);
    _exit(0);
}

loader_t *loader_start(platform_t *p, int workers, loader_body_t body, void *ctx, int *rc)
{
    g_max_workers = workers < 1 ? 1 : workers > MAX_WORKERS ? MAX_WORKERS : workers;
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
    loader_t *l = xmalloc(sizeof *l);
    l->pid = pid;
    l->req = down[1];
    l->rep = up[0];
    l->next = g_loaders;
    g_loaders = l;
    int64_t ok;
    if (get(l->rep, &ok, sizeof ok) == 0 && ok == 0)
        return l;
    int st = loader_stop(l);
    *rc = WIFEXITED(st) && WEXITSTATUS(st) == ERR_EXIT ? -1 : 1;
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

int loader_submit(loader_t *l, int k, int fd)
{
    req_t q = {REQ_START, k, fd, 0};
    int64_t a = ask(l, &q);
    if (a == -2)
        fprintf(stderr, "numasim: fork: failed in the platform loader\n");
    return a == k ? 0 : -1;
}

int loader_wait(loader_t *l, int k)
{
    req_t q = {REQ_WAIT, k, 0, 0};
    return (int)ask(l, &q);
}

/* Loaders closed and not yet waited for (loader_close). */
static pid_t *g_closing;
static int g_nclosing;

void loader_close(loader_t *l)
{
    if (!l)
        return;
    g_closing = xrealloc(g_closing, sizeof *g_closing * (size_t)(g_nclosing + 1));
    g_closing[g_nclosing++] = l->pid;
    for (loader_t **o = &g_loaders; *o; o = &(*o)->next)
        if (*o == l) {
            *o = l->next;
            break;
        }
    close(l->req);
    close(l->rep);
    free(l);
}

void loader_reap(void)
{
    for (int i = 0; i < g_nclosing; i++)
        child_wait(g_closing[i]);
    g_nclosing = 0;
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
