/* cli_litmus: `numasim litmus`, litmus tests in the kernel's C format run
 * on a simulated platform or on this host (study/litmus.h). Each test runs
 * in a child process of its own (one SimGrid engine per process); its
 * report goes to standard output, its error to standard error, its counts
 * back to this process through a shared page. A directory stands for every
 * .litmus file under it (sorted). All files are parsed first, so that a bad
 * one stops the command before any run. Several tests end with a summary
 * that compares each outcome with the kernel's "Result:" comment (--expect:
 * the table; -o: the table as CSV). SIGINT or SIGTERM ends the running child
 * with the command (child.h). */
#define _GNU_SOURCE /* sched_getaffinity, MAP_ANONYMOUS */
#include "cli.h"

#include "child.h"
#include "err.h"
#include "litmus.h"
#include "outfile.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the command line asks beyond the runs' options. */
typedef struct {
    int grace;       /* --grace-period: measure one, run no test */
    int expect;      /* print the comparison table */
    const char *csv; /* write it there */
    int summary;     /* several tests or a directory: print the summary */
} cli_lit_t;

/* One test's outcome, written by its child into a shared page. */
typedef struct {
    uint64_t pos, neg;
    int done;    /* the child counted it */
    int skipped; /* natively: more processes than the host's CPUs */
} lit_outcome_t;

static void usage(FILE *f)
{
    fprintf(f, "usage: numasim litmus [--runs N] [--platform FILE.xml] [--seed N]\n"
               "                      [--cpus LIST] [--set NAME=VALUE]... [--expect]\n"
               "                      [-o CSV] TEST.litmus|DIR...\n"
               "       numasim litmus --native [--cpus LIST] [--runs N] [--expect]\n"
               "                      [-o CSV] TEST.litmus|DIR...\n"
               "       numasim litmus --grace-period [--platform FILE.xml | --native]\n"
               "\n"
               "Runs each litmus test (the C format of the Linux kernel memory model,\n"
               "tools/memory-model/litmus-tests; see docs/memory-ordering.md for the\n"
               "dialect) N times and prints the histogram of final states and the line\n"
               "'Observation NAME Never|Sometimes|Always POSITIVE NEGATIVE', as herd7 and\n"
               "klitmus7 do. POSITIVE counts the runs whose final state satisfies the\n"
               "proposition of the exists/~exists/forall clause. A directory stands for\n"
               "every .litmus file under it. With several tests, a summary follows: how\n"
               "many ran, and how many agree with the kernel's 'Result:' comment (Never:\n"
               "the outcome must not show; Sometimes: it may; Always: it must hold). A\n"
               "Never that showed, or an Always that failed, is an error (exit 1).\n"
               "Natively, a test with more processes than the CPUs is skipped then.\n"
               "\n"
               "  --runs N          runs per test (default 10000)\n"
               "  --platform FILE   the simulated machine, a file or a name (default numa32);\n"
               "                    its memory_model (sc, tso, weak) decides what may show\n"
               "  --set NAME=VALUE  override a platform property, e.g. memory_model=tso\n"
               "  --seed N          seeds the start offsets and the jitter (default 1)\n"
               "  --cpus LIST       the CPUs, e.g. 0,2-3: process i runs on the i-th of them\n"
               "                    in ascending order (default: simulated, spread evenly\n"
               "                    over the platform's CPUs; native, all the host's)\n"
               "  --native          run on this host's CPUs instead of a simulated platform\n"
               "  --expect          print the table: each test's Result, its observation\n"
               "                    and the verdict (agrees, not seen, FORBIDDEN)\n"
               "  -o, --output CSV  write that table as CSV (test, file, machine, runs,\n"
               "                    result, observation, positive, negative, verdict)\n"
               "  --grace-period    run no test: measure synchronize_rcu (the tests' RCU,\n"
               "                    on the machine API) with every CPU a reader that has\n"
               "                    just left its critical section, and print its cycles\n"
               "\n"
               "Exit code 0; 1 when a forbidden outcome showed or a run failed; 2 for bad\n"
               "input (one line FILE:LINE: message).\n");
}

/* Parses the options into o. Returns 0, 1 when --help was printed, or -1
 * with e (empty when the usage was printed to standard error). */
static int parse_opts(int argc, char **argv, lit_opts_t *o, cli_lit_t *cl, err_t *e)
{
    static const struct option opts[] = {{"runs", required_argument, NULL, 'r'},
                                         {"platform", required_argument, NULL, 'p'},
                                         {"seed", required_argument, NULL, 's'},
                                         {"set", required_argument, NULL, 'S'},
                                         {"native", no_argument, NULL, 'n'},
                                         {"cpus", required_argument, NULL, 'c'},
                                         {"expect", no_argument, NULL, 'x'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"grace-period", no_argument, NULL, 'g'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    long v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'x':
            cl->expect = 1;
            break;
        case 'g':
            cl->grace = 1;
            break;
        case 'o':
            cl->csv = optarg;
            break;
        case 'r':
            if (err_parse_long(optarg, &v) < 0 || v < 1 || v > 1000000000)
                return err_set(e, NULL, 0, "--runs: '%s' is not a number of runs >= 1", optarg);
            o->runs = (uint64_t)v;
            break;
        case 's':
            if (err_parse_long(optarg, &v) < 0 || v < 0)
                return err_set(e, NULL, 0, "--seed: '%s' is not a number >= 0", optarg);
            o->seed = (unsigned long)v;
            break;
        case 'p':
            o->platform = optarg;
            break;
        case 'S':
            if (o->nset == 16 || !strchr(optarg, '=') || strchr(optarg, '=') == optarg)
                return err_set(e, NULL, 0, "--set: '%s' is not NAME=VALUE (at most 16)", optarg);
            o->set[o->nset++] = strncmp(optarg, "platform.", 9) ? optarg : optarg + 9;
            break;
        case 'n':
            o->native = 1;
            break;
        case 'c':
            o->cpus = optarg;
            break;
        case 'h':
            usage(stdout);
            return 1;
        default:
            usage(stderr);
            return cli_err_printed(e);
        }
    }
    if (cl->grace && optind < argc)
        return err_set(e, NULL, 0, "numasim litmus: --grace-period runs no test, '%s' given",
                       argv[optind]);
    if (optind >= argc && !cl->grace)
        return err_set(e, NULL, 0, "numasim litmus: no test given (see --help)");
    if (o->cpus && !o->native) { /* the syntax now; the platform's range in the run */
        int first, highest;
        if (litmus_parse_cpus(o->cpus, &first, 1, &highest, e) < 0)
            return -1;
    }
    return 0;
}

/* Runs test t in a child; its report goes to standard output, followed by
 * an empty line unless it is the last; its counts to *out. Returns 0, 1
 * (the child failed) or -1 with e (a user error, printed by the child, or
 * fork failed). */
static int run_test(const litmus_t *t, const lit_opts_t *o, int last, lit_outcome_t *out, err_t *e)
{
    pid_t pid = child_try_fork();
    if (pid < 0)
        return err_set(e, NULL, 0, "numasim litmus: fork: %s", strerror(errno));
    if (pid == 0) {
        lit_hist_t h;
        if (litmus_run(t, o, &h, e) < 0) {
            fprintf(stderr, "%s\n", e->msg);
            _exit(ERR_EXIT);
        }
        litmus_print(t, &h, stdout);
        if (!last)
            printf("\n");
        fflush(stdout);
        out->pos = h.positive;
        out->neg = h.runs - h.positive;
        out->done = 1;
        litmus_hist_free(&h);
        _exit(0);
    }
    int st = child_wait(pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == ERR_EXIT ? cli_err_printed(e) : 1;
}

static void machine_name(const lit_opts_t *o, char *buf, size_t n);

/* --grace-period: measures grace periods in a child and prints their cost.
 * Returns 0, 1 or -1 with e, as run_test. */
static int grace_period(const lit_opts_t *o, err_t *e)
{
    pid_t pid = child_try_fork();
    if (pid < 0)
        return err_set(e, NULL, 0, "numasim litmus: fork: %s", strerror(errno));
    if (pid == 0) {
        lit_gp_t gp;
        if (litmus_grace_period(o, &gp, e) < 0) {
            fprintf(stderr, "%s\n", e->msg);
            _exit(ERR_EXIT);
        }
        uint64_t min = UINT64_MAX, max = 0, sum = 0;
        for (int k = 0; k < LIT_GP_ROUNDS; k++) {
            min = gp.cycles[k] < min ? gp.cycles[k] : min;
            max = gp.cycles[k] > max ? gp.cycles[k] : max;
            sum += gp.cycles[k];
        }
        char machine[512];
        machine_name(o, machine, sizeof machine);
        printf("Grace period on %s (%d CPUs, no reader inside): mean %.0f cycles, min %llu, "
               "max %llu over %d\n",
               machine, gp.ncpus, (double)sum / LIT_GP_ROUNDS, (unsigned long long)min,
               (unsigned long long)max, LIT_GP_ROUNDS);
        fflush(stdout);
        _exit(0);
    }
    int st = child_wait(pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == ERR_EXIT ? cli_err_printed(e) : 1;
}

/* --- the files --- */

typedef struct {
    char **path;
    int n;
    int dirs; /* a directory was given */
} lit_files_t;

static void add_file(lit_files_t *f, const char *path)
{
    f->path = xrealloc(f->path, sizeof *f->path * (size_t)(f->n + 1));
    f->path[f->n++] = xstrdup(path);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds every .litmus file under dir (recursively, sorted). Returns 0 or -1
 * with e. */
static int add_dir(lit_files_t *f, const char *dir, int depth, err_t *e)
{
    DIR *d = opendir(dir);
    if (!d)
        return err_set(e, dir, 0, "cannot read the directory: %s", strerror(errno));
    char **names = NULL;
    int n = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        names = xrealloc(names, sizeof *names * (size_t)(n + 1));
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        names[n] = xmalloc(len);
        snprintf(names[n++], len, "%s/%s", dir, de->d_name);
    }
    closedir(d);
    if (n > 1) /* an empty directory has no array to sort */
        qsort(names, (size_t)n, sizeof *names, by_name);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        struct stat sb;
        size_t len = strlen(names[i]);
        if (rc == 0 && stat(names[i], &sb) == 0) {
            if (S_ISDIR(sb.st_mode) && depth < 16)
                rc = add_dir(f, names[i], depth + 1, e);
            else if (S_ISREG(sb.st_mode) && len > 7 && !strcmp(names[i] + len - 7, ".litmus"))
                add_file(f, names[i]);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

/* The arguments: files as given, directories expanded. */
static int collect(int argc, char **argv, lit_files_t *f, err_t *e)
{
    for (int i = optind; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            int before = f->n;
            f->dirs = 1;
            if (add_dir(f, argv[i], 0, e) < 0)
                return -1;
            if (f->n == before)
                return err_set(e, argv[i], 0, "no .litmus file under this directory");
        } else {
            add_file(f, argv[i]); /* a missing file: litmus_read says so */
        }
    }
    return 0;
}

/* --- the summary --- */

/* What the outcome says against the kernel's Result (NULL: none). */
static const char *verdict(const char *result, const lit_outcome_t *out, int *forbidden)
{
    *forbidden = 0;
    if (out->skipped)
        return "skipped";
    if (!out->done)
        return "failed";
    if (!result)
        return "-";
    if (!strcmp(result, "Never")) {
        *forbidden = out->pos > 0;
        return out->pos ? "FORBIDDEN" : "agrees";
    }
    if (!strcmp(result, "Always")) {
        *forbidden = out->neg > 0;
        return out->neg ? "FORBIDDEN" : "agrees";
    }
    if (!strcmp(result, "Sometimes"))
        return out->pos ? "agrees" : "not seen";
    return "-";
}

static const char *observation(const lit_outcome_t *out)
{
    return !out->done ? "-" : out->pos == 0 ? "Never" : out->neg == 0 ? "Always" : "Sometimes";
}

/* The machine, as the CSV names it: "native" or the platform and its --set. */
static void machine_name(const lit_opts_t *o, char *buf, size_t n)
{
    if (o->native) {
        snprintf(buf, n, "native");
        return;
    }
    const char *base = strrchr(o->platform, '/');
    base = base ? base + 1 : o->platform;
    size_t k = (size_t)snprintf(buf, n, "%.*s", (int)strcspn(base, "."), base);
    for (int i = 0; i < o->nset && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, " %s", o->set[i]);
}

/* Writes s as one CSV field and then sep: quoted (RFC 4180) when it holds a
 * comma, a quote or a line break (a path may). */
static void csv_field(FILE *fp, const char *s, char sep)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fprintf(fp, "%s%c", s, sep);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fprintf(fp, "\"%c", sep);
}

static int write_csv(const cli_lit_t *cl, const lit_opts_t *o, litmus_t **t, const lit_files_t *f,
                     const lit_outcome_t *out, err_t *e)
{
    FILE *fp = outfile_open(cl->csv, e);
    if (!fp)
        return -1;
    char machine[512];
    machine_name(o, machine, sizeof machine);
    fprintf(fp, "test,file,machine,runs,result,observation,positive,negative,verdict\n");
    for (int i = 0; i < f->n; i++) {
        int forbidden;
        const char *v = verdict(t[i]->result, &out[i], &forbidden);
        csv_field(fp, t[i]->name, ',');
        csv_field(fp, f->path[i], ',');
        csv_field(fp, machine, ',');
        fprintf(fp, "%llu,%s,%s,%llu,%llu,%s\n", (unsigned long long)o->runs,
                t[i]->result ? t[i]->result : "", out[i].skipped ? "skipped" : observation(&out[i]),
                (unsigned long long)out[i].pos, (unsigned long long)out[i].neg, v);
    }
    return outfile_commit(fp, cl->csv, e);
}

/* Prints the table (--expect) and the summary; returns how many forbidden
 * outcomes showed. */
static int summarize(const cli_lit_t *cl, litmus_t **t, int n, const lit_outcome_t *out)
{
    int ran = 0, skipped = 0, failed = 0, with = 0, agree = 0, unseen = 0, forb = 0;
    if (cl->expect)
        printf("\n%-56s %-9s %-9s %10s %10s  %s\n", "Test", "Result", "Observed", "Positive",
               "Negative", "Verdict");
    for (int i = 0; i < n; i++) {
        int forbidden;
        const char *v = verdict(t[i]->result, &out[i], &forbidden);
        ran += out[i].done;
        skipped += out[i].skipped;
        failed += !out[i].done && !out[i].skipped;
        with += out[i].done && t[i]->result;
        agree += !strcmp(v, "agrees");
        unseen += !strcmp(v, "not seen");
        forb += forbidden;
        if (cl->expect)
            printf("%-56s %-9s %-9s %10llu %10llu  %s\n", t[i]->name,
                   t[i]->result ? t[i]->result : "-", observation(&out[i]),
                   (unsigned long long)out[i].pos, (unsigned long long)out[i].neg, v);
    }
    printf("\nSummary: %d tests, %d run", n, ran);
    if (skipped)
        printf(", %d skipped (more processes than CPUs)", skipped);
    if (failed)
        printf(", %d failed", failed);
    printf("; %d with a Result: %d agree, %d Sometimes not seen, %d forbidden seen\n", with, agree,
           unseen, forb);
    return forb;
}

/* The CPUs a native run has (its --cpus, else this process's affinity). */
static int native_cpus(const lit_opts_t *o)
{
    if (o->cpus) {
        int first, highest;
        err_t e;
        int n = litmus_parse_cpus(o->cpus, &first, 1, &highest, &e);
        return n > 0 ? n : 1;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Reads every test, then runs each in turn. Returns 0, 1 (a child failed,
 * or a forbidden outcome showed) or -1 with e (empty when the child printed
 * it). */
static int litmus_main(int argc, char **argv, lit_opts_t *o, cli_lit_t *cl, err_t *e)
{
    char *platform = NULL; /* a file, or a name looked up as run does (cli_find) */
    if (!o->native) {
        if (!(platform = cli_find(o->platform, "platform", e)))
            return -1;
        o->platform = platform;
    }
    if (cl->grace) {
        child_catch_signals();
        int rc = grace_period(o, e);
        free(platform);
        return rc;
    }
    lit_files_t f = {0};
    int rc = collect(argc, argv, &f, e);
    int n = f.n;
    litmus_t **t = xcalloc((size_t)(n ? n : 1), sizeof *t);
    for (int i = 0; i < n && rc == 0; i++)
        if (!(t[i] = litmus_read(f.path[i], e)))
            rc = -1;
    cl->summary = n > 1 || f.dirs || cl->expect || cl->csv;
    size_t bytes = sizeof(lit_outcome_t) * (size_t)(n ? n : 1);
    lit_outcome_t *out = MAP_FAILED;
    if (rc == 0) {
        out = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (out == MAP_FAILED)
            rc = err_set(e, NULL, 0, "numasim litmus: mmap: %s", strerror(errno));
    }
    child_catch_signals();
    int failed = 0, ncpus = o->native ? native_cpus(o) : 0;
    for (int i = 0; i < n && rc >= 0; i++) {
        if (o->native && cl->summary && t[i]->nprocs > ncpus) {
            out[i].skipped = 1;
            printf("Skipped %s: needs %d CPUs, the host gives %d\n%s", t[i]->name, t[i]->nprocs,
                   ncpus, i + 1 == n ? "" : "\n");
            fflush(stdout);
            continue;
        }
        rc = run_test(t[i], o, i + 1 == n, &out[i], e);
        failed |= rc == 1;
    }
    if (rc >= 0 && cl->summary) {
        failed |= summarize(cl, t, n, out) > 0;
        fflush(stdout);
        if (cl->csv && write_csv(cl, o, t, &f, out, e) < 0)
            rc = -1;
    }
    if (rc >= 0) {
        for (int i = 0; i < n; i++) { /* a forbidden outcome is an error */
            int forbidden;
            verdict(t[i]->result, &out[i], &forbidden);
            failed |= forbidden;
        }
        rc = failed ? 1 : 0;
    }
    if (out != MAP_FAILED)
        munmap(out, bytes);
    for (int i = 0; i < n; i++) {
        litmus_free(t[i]);
        free(f.path[i]);
    }
    free(f.path);
    free(t);
    free(platform);
    return rc;
}

int cli_litmus(int argc, char **argv)
{
    lit_opts_t o = {.runs = 10000, .seed = 1, .platform = "numa32", .argv0 = argv[0]};
    cli_lit_t cl = {0};
    err_t e = {{0}};
    int rc = parse_opts(argc, argv, &o, &cl, &e);
    if (rc == 1)
        return 0; /* --help */
    if (rc == 0)
        rc = litmus_main(argc, argv, &o, &cl, &e);
    return cli_exit_code(rc, &e);
}
