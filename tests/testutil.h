/* testutil: what the Check unit tests share. Header only: each test is one
 * program of one file, so every helper is static inline.
 *
 *   tu_run_suite                      the Check main: runs a suite, gives main's status
 *   tu_src_path                       a path inside the source dir
 *   tu_platform_read, tu_platform     a platform file read, or the test fails
 *   tu_bare_platform                  a platform built by hand: CPUs, nodes, line, costs
 *   tu_machine_run, tu_machine_routes one simulation, or the test fails
 *   tu_run_in_child                   a simulation in a child, results piped back
 *   tu_tmp_*                          a fresh temp dir (a fixture) and files in it
 *   tu_read_stream, tu_slurp          a whole stream or file in memory
 *   tu_assert_err, tu_assert_err_at   the one-line error contract of err_t
 *
 * Who frees what: paths come back in static buffers, valid until the next
 * call of the same helper (tu_tmp_write's is tu_tmp_path's); platforms
 * (platform_free) and buffers (free) are the caller's.
 */
#ifndef NUMASIM_TESTUTIL_H
#define NUMASIM_TESTUTIL_H

#include "host.h"
#include "platform.h"
#include "simulated.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A platform built by hand (no file): ncpus CPUs on nnodes nodes (cpu_node
 * and the node_lat matrix are the caller's, and must outlive it), lines of
 * line bytes, and the memory costs of the cache tests: hit 5, atomic 7,
 * memory 100, modified on the bus 50, invalidation 20. No cache level, no
 * TLB. Free with free(). */
static inline platform_t *tu_bare_platform(int ncpus, int nnodes, int *cpu_node, uint32_t *node_lat,
                                           int line)
{
    platform_t *p = calloc(1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    p->ncpus = ncpus;
    p->nnodes = nnodes;
    p->cpu_node = cpu_node;
    p->line_bytes = line;
    p->node_lat = node_lat;
    p->costs.hit_cycles = 5;
    p->costs.atomic_cycles = 7;
    p->costs.mem_local_cycles = 100;
    p->costs.c2c_node_cycles = 50;
    p->costs.inval_node_cycles = 20;
    return p;
}

/* Runs every test of s (the runner frees s); returns main's exit status. */
static inline int tu_run_suite(Suite *s)
{
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* SRC/rel, SRC being $NUMASIM_SRC (set by CTest), else the working dir. */
static inline const char *tu_src_path(const char *rel)
{
    static char buf[4096];
    const char *s = getenv("NUMASIM_SRC");
    snprintf(buf, sizeof buf, "%s/%s", s && *s ? s : ".", rel);
    return buf;
}

/* platform_read that fails the test on an error. */
static inline platform_t *tu_platform_read(const char *path, const platform_override_t *ov, int nov)
{
    err_t e = {{0}};
    platform_t *p = platform_read(path, ov, nov, &e);
    ck_assert_msg(p != NULL, "platform_read(%s): %s", path, e.msg);
    return p;
}

/* The shipped platform platforms/NAME.xml. */
static inline platform_t *tu_platform(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "platforms/%s.xml", name);
    return tu_platform_read(tu_src_path(rel), NULL, 0);
}

/* The shipped platform without its cache levels, code sizes and core: the
 * coherence model alone, whose cost table these tests compute by hand (the
 * hierarchy's costs are test_cache's, the core's test_core's). */
static inline platform_t *tu_platform_flat(const char *name)
{
    platform_t *p = tu_platform(name);
    p->core =
        (platform_core_t){.kind = CORE_NONE, .width = 1, .rob = 1, .mshr = 1, .insn_bytes = 4};
    memset(p->cache, 0, sizeof p->cache);
    p->ncache_levels = 0;
    p->l1d_write_through = 0;
    for (int i = 0; i < p->nparams; i++)
        if (strncmp(p->params[i].name, "code_", 5) == 0) {
            free(p->params[i].value);
            p->params[i].value = strdup("0");
            ck_assert_ptr_nonnull(p->params[i].value);
        }
    return p;
}

/* sim_run of p with these hooks (any may be NULL), or the test fails.
 * SimGrid allows one run per process: one per test (CK_FORK), or see
 * tu_run_in_child. */
static inline void tu_machine_run(platform_t *p, const char *argv0, unsigned long seed,
                                  machine_setup_fn setup, machine_setup_fn finish, void *arg)
{
    machine_hooks_t hooks = {setup, finish, arg};
    err_t e = {{0}};
    ck_assert_msg(sim_run(p, argv0, seed, &hooks, &e) == 0, "sim_run: %s", e.msg);
}

/* A run with no programs, for its routes: fills p->node_lat. */
static inline void tu_machine_routes(platform_t *p, const char *argv0)
{
    tu_machine_run(p, argv0, 0, NULL, NULL, NULL);
    ck_assert_ptr_nonnull(p->node_lat);
}

/* Runs fn(arg) in a forked child (a second SimGrid run in one test), which
 * then sends back the size bytes at src (its results, typically a global)
 * into dst. fn returns 0, or the child's exit status. Fails the test unless
 * the child exits 0 having sent them all; `what` names the run. */
static inline void tu_run_in_child(int (*fn)(void *arg), void *arg, const void *src, void *dst,
                                   size_t size, const char *what)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fd[0]);
        int rc = fn(arg);
        if (rc != 0)
            _exit(rc);
        const char *b = src;
        for (size_t left = size; left;) { /* larger than a pipe: in pieces */
            ssize_t w = write(fd[1], b, left);
            if (w <= 0)
                _exit(125);
            b += w;
            left -= (size_t)w;
        }
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got < size && (r = read(fd[0], (char *)dst + got, size - got)) > 0)
        got += (size_t)r;
    close(fd[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s failed: status %d", what,
                  status);
    ck_assert_uint_eq(got, size);
}

/* Two CPUs of this host (the first two it lets us use), for the native
 * machine's tests. */
static inline host_t *tu_two_host_cpus(void)
{
    err_t e = {{0}};
    host_t *h = host_open(NULL, &e);
    ck_assert_msg(h != NULL, "%s", e.msg);
    ck_assert_msg(host_platform(h)->ncpus >= 2, "the native test needs 2 CPUs, the host has %d",
                  host_platform(h)->ncpus);
    char list[64];
    snprintf(list, sizeof list, "%d,%d", host_os_cpu(h, 0), host_os_cpu(h, 1));
    host_close(h);
    h = host_open(list, &e);
    ck_assert_msg(h != NULL, "%s", e.msg);
    return h;
}

/* The temp dir of tu_tmp_setup. */
static inline char *tu_tmp(void)
{
    static char dir[256];
    return dir;
}

/* Fixture: makes a fresh, empty temp dir (checked: one per test; unchecked:
 * one per TCase, made in the runner, so it goes even when a test fails). */
static inline void tu_tmp_setup(void)
{
    snprintf(tu_tmp(), 256, "/tmp/numasim_test.XXXXXX");
    ck_assert_msg(mkdtemp(tu_tmp()) != NULL, "mkdtemp: %s", strerror(errno));
}

/* Removes path and, for a directory, everything below it; 0 or -1. */
static inline int tu_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return -1;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d)
            return -1;
        int rc = 0;
        for (struct dirent *f; (f = readdir(d));) {
            if (!strcmp(f->d_name, ".") || !strcmp(f->d_name, ".."))
                continue;
            char sub[4096];
            if (snprintf(sub, sizeof sub, "%s/%s", path, f->d_name) >= (int)sizeof sub)
                rc = -1; /* too deep for us: the rmdir below fails too */
            else
                rc |= tu_remove_tree(sub);
        }
        closedir(d);
        return rc | rmdir(path);
    }
    return unlink(path);
}

/* Fixture: removes the temp dir. No assertion: it may run in the runner (an
 * unchecked fixture), where a failed ck_assert would end the whole run. */
static inline void tu_tmp_teardown(void)
{
    tu_remove_tree(tu_tmp());
}

/* Checked fixture: removes the temp dir; the test fails if it cannot. */
static inline void tu_tmp_teardown_checked(void)
{
    ck_assert_msg(tu_remove_tree(tu_tmp()) == 0, "cannot remove %s", tu_tmp());
}

/* TMP/rel. */
static inline const char *tu_tmp_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", tu_tmp(), rel);
    return buf;
}

/* Writes text to TMP/rel, making its missing directories; returns the path
 * (tu_tmp_path's buffer). */
static inline const char *tu_tmp_write(const char *rel, const char *text)
{
    char *path = (char *)tu_tmp_path(rel);
    char *s = path + strlen(tu_tmp()) + 1;
    while ((s = strchr(s, '/'))) {
        *s = '\0'; /* path up to this slash: a directory */
        ck_assert_msg(mkdir(path, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", path,
                      strerror(errno));
        *s++ = '/';
    }
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

/* The rest of stream f, NUL-terminated (malloc'd); *n gets its length
 * (without the NUL) unless n is NULL. */
static inline char *tu_read_stream(FILE *f, size_t *n)
{
    size_t cap = 1 << 16, len = 0, k;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    while ((k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += k;
        if (len + 1 == cap) {
            buf = realloc(buf, cap *= 2);
            ck_assert_ptr_nonnull(buf);
        }
    }
    buf[len] = '\0';
    if (n)
        *n = len;
    return buf;
}

/* The whole file at path, as tu_read_stream gives it. */
static inline char *tu_slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *buf = tu_read_stream(f, n);
    ck_assert_msg(!ferror(f), "cannot read %s", path);
    fclose(f);
    return buf;
}

/* An err_t message as the error contract wants it: it starts with prefix,
 * contains part, and is one line. */
static inline void tu_assert_err(const char *msg, const char *prefix, const char *part)
{
    ck_assert_msg(!strncmp(msg, prefix, strlen(prefix)), "'%s' does not start with '%s'", msg,
                  prefix);
    ck_assert_msg(strstr(msg, part) != NULL, "'%s' does not contain '%s'", msg, part);
    ck_assert_msg(!strchr(msg, '\n'), "'%s' is not one line", msg);
}

/* The same for an error in a file: prefix "PATH:LINE: ", or "PATH: " when
 * line is 0. */
static inline void tu_assert_err_at(const char *msg, const char *path, int line, const char *part)
{
    char prefix[4200];
    if (line > 0)
        snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    else
        snprintf(prefix, sizeof prefix, "%s: ", path);
    tu_assert_err(msg, prefix, part);
}

#endif
