/* hostplat_exec: the instructions a code unit executes per call, counted by
 * callgrind on this host (`numasim platform --from-host --executed`).
 * Theory of operation.
 *
 * objdump counts every instruction of a unit's functions, taken or not; a
 * call runs one path through them. A warm last_running delete, for one,
 * runs about two thirds of its unit's instructions, and base_tracking's
 * nearly all, so static counts charge the first about a hundred
 * instructions it never runs.
 *
 * The capture runs numasim itself (the binary running: /proc/PID/exe) under
 * valgrind's callgrind: `numasim run --native` of paper-table and of
 * modern-table, EXEC_CALLS measured calls of every strategy, warm (a cold
 * call runs the same instructions), with --separate-callers, so that a function's own cost is kept
 * apart for each chain of its callers.
 *
 * The attribution (hostplat_exec_parse): a function's own instructions
 * count for unit U when the function is one of U's (the unit table of
 * hostplat_code.c) and its callers, followed up through U's functions,
 * reach U's first function, its entry. A lock helper counts for del_timer
 * when del_timer (or its helpers) called it, for run_timers when run_timers
 * did; another unit's functions, the machine API (cpu_*), the oracle and
 * the native backend are not U's and do not count. U's instructions over
 * its entry's calls are its instructions per call. Names are compared
 * without the compiler's suffixes (".lto_priv.0", ".isra.0") and without
 * a unit table's "file.c:" prefix.
 *
 * The costs are kept twice: of every call, and of the calls the measured
 * program makes (those with kMeasured among their callers: the arm and
 * the strategy's delete of each measured call). The background's timer
 * operations take other paths (a del_timer of a timer that is not pending
 * returns early), and the cells time the measured path.
 */
#include "child.h"
#include "hostplat_internal.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
    EXEC_CALLS = 20,  /* measured calls per cell of each captured run */
    EXEC_CONTEXT = 12 /* callers kept per cost (--separate-callers) */
};

/* The scenarios whose native runs enter every unit: paper-table the 2.6
 * ones, modern-table the 6.1 ones. */
static const char *const kCaptureScenarios[] = {"paper-table", "modern-table"};
/* The measured program of a run (sim/study/run.c). */
static const char kMeasured[] = "caller_program";

/* name without a table's "file.c:" prefix or a compiler suffix, into buf. */
static void base_name(const char *name, size_t len, char *buf, size_t cap)
{
    const char *colon = memchr(name, ':', len);
    if (colon) {
        len -= (size_t)(colon + 1 - name);
        name = colon + 1;
    }
    const char *dot = memchr(name, '.', len);
    if (dot)
        len = (size_t)(dot - name);
    if (len >= cap)
        len = cap - 1;
    memcpy(buf, name, len);
    buf[len] = '\0';
}

static int in_unit(const hostplat_unit_t *u, const char *fn)
{
    char b[128];
    for (int k = 0; k < HOSTPLAT_UNIT_FNS && u->fns[k]; k++) {
        base_name(u->fns[k], strlen(u->fns[k]), b, sizeof b);
        if (!strcmp(b, fn))
            return 1;
    }
    return 0;
}

static int is_entry(const hostplat_unit_t *u, const char *fn)
{
    char b[128];
    base_name(u->fns[0], strlen(u->fns[0]), b, sizeof b);
    return !strcmp(b, fn);
}

/* The segments of a callgrind context "f'caller'caller2" (a segment of
 * digits is a recursion depth, not a caller), as base names. Returns how
 * many, at most max. */
static int context(const char *s, char seg[][128], int max)
{
    int n = 0;
    while (*s && n < max) {
        const char *q = strchr(s, '\'');
        size_t len = q ? (size_t)(q - s) : strlen(s);
        if (len && strspn(s, "0123456789") < len)
            base_name(s, len, seg[n++], sizeof seg[0]);
        if (!q)
            break;
        s = q + 1;
    }
    return n;
}

/* Whether a cost of context seg[0..n) is unit u's (theory of operation). */
static int counts_for(const hostplat_unit_t *u, char seg[][128], int n)
{
    if (n == 0 || !in_unit(u, seg[0]))
        return 0;
    for (int i = 0; i < n; i++) {
        if (is_entry(u, seg[i]))
            return 1;
        if (!in_unit(u, seg[i]))
            return 0;
    }
    return 0; /* the chain ran out of kept callers: not known to be u's */
}

/* A callgrind name field: "(id) name" defines id, "(id)" names it again,
 * anything else is the name itself. Returns the name (in names[] or line). */
static const char *field_name(char *v, char ***names, int *nnames)
{
    if (*v != '(')
        return v;
    char *end;
    long id = strtol(v + 1, &end, 10);
    if (*end != ')' || id < 0 || id > 1000000)
        return v;
    if (end[1] == ' ') {
        if (id >= *nnames) {
            int n = (int)id + 64;
            *names = xrealloc(*names, (size_t)n * sizeof **names);
            memset(*names + *nnames, 0, (size_t)(n - *nnames) * sizeof **names);
            *nnames = n;
        }
        free((*names)[id]);
        (*names)[id] = xstrdup(end + 2);
        return (*names)[id];
    }
    return id < *nnames && (*names)[id] ? (*names)[id] : "";
}

/* Whether seg[0..n) holds the measured program. */
static int measured(char seg[][128], int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(seg[i], kMeasured))
            return 1;
    return 0;
}

int hostplat_exec_parse(FILE *f, const hostplat_unit_t *units, int nunits, hostplat_count_t *all,
                        hostplat_count_t *meas)
{
    char *line = NULL, **names = NULL;
    size_t cap = 0;
    int nnames = 0, npos = 1, after_calls = 0, ok = 0, col = 0; /* col: Ir's among the events */
    uint64_t mine = 0, callee = 0; /* bits: the units of the current fn, of the callee */
    int mine_meas = 0, callee_meas = 0;
    char seg[EXEC_CONTEXT + 1][128];
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (!strncmp(line, "events:", 7)) {
            ok = 0;
            int i = 0;
            for (char *t = strtok(line + 7, " "); t && !ok; t = strtok(NULL, " "), i++)
                if (!strcmp(t, "Ir")) {
                    ok = 1;
                    col = i;
                }
        } else if (!strncmp(line, "positions:", 10)) {
            npos = 0;
            for (char *t = strtok(line + 10, " "); t; t = strtok(NULL, " "))
                npos++;
        } else if (!strncmp(line, "fn=", 3)) {
            int n = context(field_name(line + 3, &names, &nnames), seg, EXEC_CONTEXT + 1);
            mine_meas = measured(seg, n);
            mine = 0;
            for (int u = 0; u < nunits && u < 64; u++)
                mine |= (uint64_t)counts_for(&units[u], seg, n) << u;
        } else if (!strncmp(line, "cfn=", 4)) {
            int n = context(field_name(line + 4, &names, &nnames), seg, EXEC_CONTEXT + 1);
            callee_meas = measured(seg, n);
            callee = 0;
            for (int u = 0; u < nunits && u < 64; u++)
                callee |= (uint64_t)(n && is_entry(&units[u], seg[0])) << u;
        } else if (!strncmp(line, "calls=", 6)) {
            unsigned long long c = strtoull(line + 6, NULL, 10);
            for (int u = 0; u < nunits && u < 64; u++)
                if (callee >> u & 1) {
                    all[u].calls += c;
                    meas[u].calls += callee_meas ? c : 0;
                }
            after_calls = 1;
        } else if ((line[0] >= '0' && line[0] <= '9') || line[0] == '+' || line[0] == '-' ||
                   line[0] == '*') {
            if (after_calls) { /* the call's inclusive cost: the callee's, not this fn's */
                after_calls = 0;
                continue;
            }
            char *p = line;
            for (int i = 0; i < npos + col && p; i++) {
                p = strchr(p, ' ');
                p = p ? p + 1 : NULL;
            }
            unsigned long long v = p ? strtoull(p, NULL, 10) : 0;
            for (int u = 0; u < nunits && u < 64; u++)
                if (mine >> u & 1) {
                    all[u].ir += v;
                    meas[u].ir += mine_meas ? v : 0;
                }
        }
    }
    free(line);
    for (int i = 0; i < nnames; i++)
        free(names[i]);
    free(names);
    return ok ? 0 : -1;
}

/* The last non-empty line of the file at path (without its newline) into
 * out, or "" when there is none. */
static void last_line(const char *path, char *out, size_t nout)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(out, nout, "%s", line);
    }
    fclose(f);
}

/* Runs `numasim run --native` of scenario name under callgrind, its files
 * in dir: the program's standard error in dir/NAME.err (valgrind's own
 * messages in dir/NAME.vg), whose last line, the program's error when it
 * fails, goes into why. Returns 0, or -1 with why. */
static int capture(const char *exe, const char *dir, const char *name, char *why, size_t nwhy)
{
    char out[4200], vglog[4200], err[4200], csv[4200], calls[64], ctx[40];
    snprintf(out, sizeof out, "--callgrind-out-file=%s/callgrind.%%p", dir);
    snprintf(vglog, sizeof vglog, "--log-file=%s/%s.vg", dir, name);
    snprintf(err, sizeof err, "%s/%s.err", dir, name);
    snprintf(csv, sizeof csv, "%s/%s.csv", dir, name);
    snprintf(calls, sizeof calls, "measure.calls=%d", EXEC_CALLS);
    snprintf(ctx, sizeof ctx, "--separate-callers=%d", EXEC_CONTEXT);
    const char *argv[] = {"valgrind",
                          "--tool=callgrind",
                          "--trace-children=yes",
                          ctx,
                          "--compress-strings=no",
                          "--compress-pos=no",
                          out,
                          vglog,
                          exe,
                          "run",
                          "--native",
                          "-q",
                          "--timeout",
                          "3600",
                          "-o",
                          csv,
                          "--set",
                          calls,
                          "--set",
                          "measure.warmup_calls=2",
                          "--set",
                          "scenario.cache=warm",
                          name,
                          NULL};
    int st = child_run("valgrind", (char *const *)argv, err, 1);
    if (st < 0) {
        snprintf(why, nwhy, "fork: %s", strerror(errno));
        return -1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
        snprintf(why, nwhy, "valgrind unavailable");
        return -1;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char said[512];
        last_line(err, said, sizeof said);
        if (WIFEXITED(st))
            snprintf(why, nwhy, "valgrind's run of %s failed (exit %d)%s%s", name, WEXITSTATUS(st),
                     said[0] ? ": " : "", said);
        else
            snprintf(why, nwhy, "valgrind's run of %s failed (signal %d)", name, WTERMSIG(st));
        return -1;
    }
    return 0;
}

/* Parses every callgrind file of dir into ir and calls, removing them and
 * dir. Returns 0, or -1 with why. */
static int parse_dir(const char *dir, const hostplat_unit_t *units, int nunits,
                     hostplat_count_t *all, hostplat_count_t *meas, char *why, size_t nwhy)
{
    DIR *d = opendir(dir);
    int rc = d ? 0 : -1, files = 0;
    if (!d)
        snprintf(why, nwhy, "%s: %s", dir, strerror(errno));
    for (struct dirent *de; d && (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        FILE *f = strncmp(de->d_name, "callgrind.", 10) ? NULL : fopen(path, "r");
        if (f) {
            if (hostplat_exec_parse(f, units, nunits, all, meas) == 0)
                files++;
            fclose(f);
        }
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    if (rc == 0 && files == 0) {
        snprintf(why, nwhy, "callgrind wrote no file with instruction counts");
        rc = -1;
    }
    return rc;
}

int hostplat_exec_count(const hostplat_unit_t *units, int nunits, hostplat_count_t *all,
                        hostplat_count_t *meas, char *why, size_t nwhy)
{
    memset(all, 0, (size_t)nunits * sizeof *all);
    memset(meas, 0, (size_t)nunits * sizeof *meas);
    char dir[] = "/tmp/numasim-executed-XXXXXX", exe[64];
    if (!mkdtemp(dir)) {
        snprintf(why, nwhy, "mkdtemp: %s", strerror(errno));
        return -1;
    }
    snprintf(exe, sizeof exe, "/proc/%ld/exe", (long)getpid());
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof kCaptureScenarios / sizeof *kCaptureScenarios; i++)
        rc = capture(exe, dir, kCaptureScenarios[i], why, nwhy);
    char w2[160] = "";
    if (parse_dir(dir, units, nunits, all, meas, w2, sizeof w2) < 0 && rc == 0) {
        snprintf(why, nwhy, "%s", w2);
        rc = -1;
    }
    return rc;
}
