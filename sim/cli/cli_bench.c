/* cli_bench: `numasim bench` - what the simulator itself costs.
 *
 * Every figure comes from child processes run here and now:
 *   1. paper-table: wall seconds and peak memory of `numasim run` on it;
 *      every `numasim run` here is a fork of this process, not an exec:
 *      the start-up of a new numasim process (the dynamic linking of
 *      libsimgrid's 38 libraries) is measured once, apart;
 *   2. the simulation rate: memory accesses simulated per wall second in one
 *      simulation (numa32, scan, warm), timed around run_one only, after
 *      SimGrid has loaded the platform (as a loader does once for all of a
 *      platform's simulations);
 *   3. the same rate for a bare SimGrid loop of sleeps on the same platform,
 *      loaded first too, in the same run: the ratio of 2 to 3, for the
 *      simulation whole (its set-up and its first touch of memory included)
 *      and at the margin (the difference of that simulation and one of
 *      RATE_LONGER times its calls, against that of the two loops of as many
 *      sleeps: fixed costs cancel); and the
 *      cost of the common access, a read or a write of a line the CPU holds
 *      (the difference of two loop lengths, so fixed costs cancel too);
 *   4. scaling: wall seconds and peak memory of each platform of the scaling
 *      scenario, in two runs that grow differently: the O(1) strategies,
 *      whose simulated work is CPUs x calls (their cost per CPU x call should
 *      stay flat), and the scan, whose work is CPUs^2 x calls (its cost per
 *      simulated access should stay flat); the O(1) strategies again with
 *      MARGIN_WORK more CPU x calls, whose difference is their cost at the
 *      margin, without the run's fixed costs (forks, SimGrid's start, the
 *      outputs). A run of a few milliseconds is repeated
 *      (run_child_median). -o writes these rows as CSV.
 */
#include "bench_native.h"
#include "child.h"
#include "outfile.h"
#include "cli.h"
#include "cpu.h"
#include "simulated.h"
#include "run.h"
#include "scenario.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs argv (argv[0] = this program, argv[1] = "run", NULL-terminated) in
 * a child, output to /dev/null: a fork that calls cli_run, or with
 * exec_it an exec of this program. Returns the exit status; *wall and
 * *rss_mb get its wall time and the peak resident memory of it and its
 * descendants. */
static int run_child(char *argv[], int exec_it, double *wall, double *rss_mb)
{
    double t0 = now_s();
    pid_t pid = child_try_fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        if (exec_it) {
            execv("/proc/self/exe", argv);
            _exit(127);
        }
        int argc = 0;
        while (argv[argc])
            argc++;
        optind = 0; /* getopt starts again, for cli_run */
        int rc = cli_run(argc - 1, argv + 1);
        fflush(NULL);
        _exit(rc);
    }
    struct rusage ru;
    int st = child_wait_usage(pid, &ru);
    *wall = now_s() - t0;
    *rss_mb = (double)ru.ru_maxrss / 1024.0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

typedef struct {
    double seconds, accesses, batched, switches;
    int rc;
} rate_t;

/* The held-line loop: CPU 0 alone, no ticks, n reads (or writes) of one
 * word, which it holds after the first. */
typedef struct {
    maddr_t a;
    long n;
    int write;
    uint64_t sink;
} held_t;

static void held_prog(cpu_t *c, void *arg)
{
    held_t *h = arg;
    for (long i = 0; i < h->n; i++)
        if (h->write)
            cpu_write(c, h->a, (uint64_t)i);
        else
            h->sink += cpu_read(c, h->a);
}

static void held_setup(machine_t *m, void *arg)
{
    held_t *h = arg;
    h->a = machine_alloc(m, 0, 64);
    machine_set_program(m, 0, held_prog, h);
}

enum { RATE_SIM, RATE_BARE, RATE_READ, RATE_WRITE };
enum { HELD_SHORT = 1000000, HELD_LONG = 4000000 };
enum { RATE_PAIRS = 5, RATE_LONGER = 3 };
/* A difference of two runs that noise turned negative is measured again,
 * this many times at most. */
enum { BENCH_TRIES = 3 };
/* The CPU x calls a scaling point's second O(1) run adds (4096 CPUs x 20). */
enum { MARGIN_WORK = 81920 };

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values (n odd); sorts a copy. */
static double median(const double *v, int n)
{
    double c[RATE_PAIRS];
    memcpy(c, v, sizeof *c * (size_t)n);
    qsort(c, (size_t)n, sizeof *c, cmp_double);
    return c[n / 2];
}

/* Times, in a child, one simulation (RATE_SIM: the scenario's first
 * platform, scan, warm, with n times its calls), the bare SimGrid loop of n
 * sleeps, or the held-line loop of n reads or writes; the child reports
 * through a pipe. */
static rate_t sim_rate(const char *scenario_path, int what, long n)
{
    rate_t r = {0, 0, 0, 0, -1};
    int fd[2];
    if (pipe(fd) < 0)
        return r;
    pid_t pid = child_try_fork();
    if (pid == 0) {
        close(fd[0]);
        err_t e = {{0}};
        rate_t out = {0, 0, 0, 0, 1};
        scenario_t *s = scenario_load(scenario_path, NULL, 0, &e);
        platform_t *p =
            s ? platform_read(s->platforms[0], s->platform_sets, s->nplatform_sets, &e) : NULL;
        /* SimGrid loads the platform before either clock starts, as a
         * loader does once for all of a platform's simulations. */
        if (p && sim_preload(p, "numasim", &e) < 0)
            p = NULL;
        if (p && what == RATE_BARE) {
            double t0 = now_s();
            out.accesses = (double)sim_bare_sleeps(p, "numasim", n);
            out.seconds = now_s() - t0;
            out.rc = 0;
        } else if (p && (what == RATE_READ || what == RATE_WRITE)) {
            held_t h = {.n = n, .write = what == RATE_WRITE};
            machine_hooks_t hooks = {.setup = held_setup, .arg = &h};
            double t0 = now_s();
            out.rc = sim_run(p, "numasim", 1, &hooks, &e);
            out.seconds = now_s() - t0;
            out.accesses = (double)n;
        } else if (p) {
            run_t run;
            memset(&run, 0, sizeof run);
            s->calls *= (int)n;
            run.s = s;
            run.p = p;
            run.strategy = STRAT_SCAN;
            run.cache = CACHE_WARM;
            run.seed = s->seed;
            sim_exit_after(); /* as a worker's last job: this child exits */
            double t0 = now_s();
            out.rc = run_one(&run, "numasim", &e);
            out.seconds = now_s() - t0;
            out.accesses = (double)run.accesses;
            out.batched = (double)run.batched;
            out.switches = (double)run.switches;
            free(run.cycles);
        }
        if (!p)
            fprintf(stderr, "%s\n", e.msg);
        if (write(fd[1], &out, sizeof out) != (ssize_t)sizeof out)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (pid > 0) {
        if (read(fd[0], &r, sizeof r) != (ssize_t)sizeof r)
            r.rc = -1;
        child_wait(pid);
    }
    close(fd[0]);
    return r;
}

/* The sum of the `accesses` column of a result CSV, or -1. */
static double csv_accesses(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[8192];
    int col = -1;
    double sum = 0;
    if (fgets(line, sizeof line, f)) {
        int i = 0;
        for (char *save = NULL, *t = strtok_r(line, ",\n", &save); t;
             t = strtok_r(NULL, ",\n", &save), i++)
            if (strcmp(t, "accesses") == 0)
                col = i;
    }
    while (col >= 0 && fgets(line, sizeof line, f)) {
        char *t = line;
        for (int i = 0; i < col && t; i++)
            t = strchr(t, ',') ? strchr(t, ',') + 1 : NULL;
        if (t)
            sum += strtod(t, NULL);
    }
    fclose(f);
    return col >= 0 ? sum : -1;
}

/* Runs argv as run_child does, again while the runs took under
 * SHORT_TOTAL_S in all, up to SHORT_RUNS times: a run of a few
 * milliseconds moves by half on a shared machine. *wall gets the median
 * wall time, *rss_mb the largest peak. Returns 0, or the first failure. */
enum { SHORT_RUNS = 5 };
#define SHORT_TOTAL_S 0.5
static int run_child_median(char *argv[], double *wall, double *rss_mb)
{
    double w[SHORT_RUNS], total = 0;
    int n = 0, rc = 0;
    *rss_mb = 0;
    while (n < SHORT_RUNS && total < SHORT_TOTAL_S && !rc) {
        double r = 0;
        rc = run_child(argv, 0, &w[n], &r);
        total += w[n++];
        if (r > *rss_mb)
            *rss_mb = r;
    }
    qsort(w, (size_t)n, sizeof *w, cmp_double);
    *wall = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
    return rc;
}

/* One point of the scaling scenario: the O(1) strategies, then the scan,
 * each in a `numasim run` of its own on platform (run_child_median). Prints
 * a row (and writes it to csv when not NULL); returns 0, or 1 when a run
 * failed. */
static int scaling_point(const scenario_t *ss, const char *scaling, const char *platform,
                         const char *out, FILE *csv)
{
    char set[4200], strat[512] = "scenario.strategies=";
    int has_scan = 0, no1 = 0;
    for (int k = 0; k < ss->nstrategies; k++) {
        if (ss->strategies[k] == STRAT_SCAN) {
            has_scan = 1;
            continue;
        }
        snprintf(strat + strlen(strat), sizeof strat - strlen(strat), "%s%s", no1 ? "," : "",
                 strategy_name(ss->strategies[k]));
        no1++;
    }
    snprintf(set, sizeof set, "scenario.platforms=%s", platform);
    err_t e;
    platform_t *p = platform_read(platform, NULL, 0, &e);
    int cpus = p ? p->ncpus : 0;
    platform_free(p);
    double w1 = 0, r1 = 0, w1l = 0, r1l = 0, ws = 0, rs = 0, acc = 0;
    long extra = 0;
    int rc = 0;
    if (no1) {
        char *argv[] = {"numasim", "run",           "-q", "-o", (char *)out, "--set", set, "--set",
                        strat,     (char *)scaling, NULL};
        rc |= run_child_median(argv, &w1, &r1) != 0;
        /* again with MARGIN_WORK more CPU x calls (at least twice the
         * calls): the difference is the simulation's own cost, the run's
         * fixed costs cancelling; the same extra work at every point, so
         * that the noise of a small point's fixed costs stays small */
        extra = (MARGIN_WORK + cpus - 1) / (cpus ? cpus : 1);
        if (extra < 2 * ss->calls)
            extra = 2 * ss->calls;
        char longer[64];
        snprintf(longer, sizeof longer, "measure.calls=%ld", ss->calls + extra);
        char *argvl[] = {"numasim", "run", "-q",    "-o",   (char *)out,     "--set", set,
                         "--set",   strat, "--set", longer, (char *)scaling, NULL};
        rc |= run_child_median(argvl, &w1l, &r1l) != 0;
        if (r1l > r1)
            r1 = r1l;
    }
    if (has_scan) {
        char *argv[] = {"numasim",
                        "run",
                        "-q",
                        "-o",
                        (char *)out,
                        "--set",
                        set,
                        "--set",
                        "scenario.strategies=scan",
                        (char *)scaling,
                        NULL};
        rc |= run_child_median(argv, &ws, &rs) != 0;
        acc = csv_accesses(out);
    }
    double calls = (double)ss->calls * ss->ncaches;
    double o1 = no1 && cpus ? w1 * 1e6 / ((double)cpus * calls * no1) : 0;
    double o1m =
        no1 && extra ? (w1l - w1) * 1e6 / ((double)cpus * (double)extra * ss->ncaches * no1) : 0;
    double per_acc = acc > 0 ? ws * 1e9 / acc : 0;
    printf("%8d %10.3f %10.1f %12.3f %14.3f %14.3f %12.3f %14.0f %12.1f%s\n", cpus, w1 + ws,
           r1 > rs ? r1 : rs, w1, o1, o1m, ws, acc, per_acc, rc ? "  [FAILED]" : "");
    if (csv)
        fprintf(csv, "%d,%.3f,%.1f,%.3f,%.3f,%.3f,%.0f,%.1f,%.3f\n", cpus, w1 + ws,
                r1 > rs ? r1 : rs, w1, o1, ws, acc, per_acc, o1m);
    fflush(stdout);
    return rc;
}

static void bench_usage(FILE *f)
{
    fprintf(f, "usage: numasim bench [--paper SCENARIO] [--scaling SCENARIO] [--no-scaling]\n"
               "                     [-o SCALING.csv]\n"
               "       numasim bench --native [--cpus LIST] [--hz N]\n"
               "\n"
               "Measures the simulator's own speed on this machine: wall time and peak\n"
               "memory of the paper-table scenario, simulated memory accesses per wall\n"
               "second against a bare SimGrid loop of sleeps (same run, same platform,\n"
               "both timed once SimGrid has loaded the platform), for the simulation\n"
               "whole and at the margin (against runs of 3 times the calls and sleeps:\n"
               "the differences, where fixed costs cancel), the nanoseconds of a\n"
               "simulated read and write of a line the CPU holds, and the wall time and\n"
               "memory of every point of the scaling scenario, in runs of the O(1)\n"
               "strategies (microseconds per CPU x call: of the run whole, and at the\n"
               "margin, from a second run with 81,920 CPU x calls more, at least twice\n"
               "the calls) and of the scan (nanoseconds per simulated access); a run is\n"
               "repeated up to 5 times while the repeats take under 0.5 s, and its\n"
               "median counts (a run of a few milliseconds moves by half on a shared\n"
               "machine). -o writes the scaling rows as CSV (cpus,wall_s,peak_mib,\n"
               "o1_wall_s,o1_us_per_cpu_call,scan_wall_s,scan_accesses,\n"
               "scan_ns_per_access,o1_margin_us_per_cpu_call): wall times of this\n"
               "machine, not deterministic. Each `numasim run` is a fork of bench, not\n"
               "a new process: the start-up of one (its dynamic linking) is printed\n"
               "apart, first.\n"
               "Defaults: the scenarios paper-table and scaling, files or names as for\n"
               "numasim run (./scenarios/paper-table.ini from the source tree).\n"
               "\n"
               "--native measures the native machine's own costs instead: cycles per\n"
               "cpu_read/cpu_write/cpu_xchg of a held line against bare accesses, and\n"
               "the interruptions of a CPU by the tick (at --hz, default 1000) with an\n"
               "empty timer wheel, against those without a tick. --cpus as for run.\n");
}

/* The options of `numasim bench`. */
typedef struct {
    const char *csv_path;        /* -o, or NULL */
    const char *paper, *scaling; /* files or names (cli_find), then paths */
    int no_scaling, native, hz_set;
    const char *native_cpus;
    long hz;
    char paper_path[4400], scaling_path[4400];
} bench_opts_t;

/* Parses the options into o. Returns 0, 1 when --help was printed, or -1
 * with e (empty: the usage was printed). */
static int bench_parse_opts(int argc, char **argv, bench_opts_t *o, err_t *e)
{
    static const struct option opts[] = {{"paper", required_argument, NULL, 'p'},
                                         {"scaling", required_argument, NULL, 's'},
                                         {"no-scaling", no_argument, NULL, 'n'},
                                         {"native", no_argument, NULL, 'N'},
                                         {"cpus", required_argument, NULL, 'C'},
                                         {"hz", required_argument, NULL, 'z'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"output", required_argument, NULL, 'o'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        if (c == 'o')
            o->csv_path = optarg;
        else if (c == 'p')
            o->paper = optarg;
        else if (c == 's')
            o->scaling = optarg;
        else if (c == 'n')
            o->no_scaling = 1;
        else if (c == 'N')
            o->native = 1;
        else if (c == 'C')
            o->native_cpus = optarg;
        else if (c == 'z') {
            if (err_parse_long(optarg, &o->hz) < 0 || o->hz < 1 || o->hz > 100000)
                return err_set(e, NULL, 0,
                               "--hz: expected a whole number from 1 to 100000, not '%s'", optarg);
            o->hz_set = 1;
        } else if (c == 'h') {
            bench_usage(stdout);
            return 1;
        } else {
            bench_usage(stderr);
            return cli_err_printed(e);
        }
    }
    if (optind != argc) {
        bench_usage(stderr);
        return cli_err_printed(e);
    }
    if (!o->native && (o->native_cpus || o->hz_set))
        return err_set(e, NULL, 0, "numasim bench: %s applies to --native only",
                       o->native_cpus ? "--cpus" : "--hz");
    return 0;
}

/* Finds the scenario arg into path[4400]. Returns 0, or -1 with e. */
static int find_scenario(const char *arg, char *path, err_t *e)
{
    char *found = cli_find(arg, "scenario", e);
    if (!found)
        return -1;
    snprintf(path, 4400, "%s", found);
    free(found);
    return 0;
}

/* Finds the two scenarios and checks that paper-table loads. Returns 0, or
 * -1 with e. */
static int bench_find_inputs(bench_opts_t *o, err_t *e)
{
    if (find_scenario(o->paper, o->paper_path, e) < 0)
        return -1;
    o->paper = o->paper_path;
    if (!o->no_scaling) {
        if (find_scenario(o->scaling, o->scaling_path, e) < 0)
            return -1;
        o->scaling = o->scaling_path;
    }
    scenario_t *ps = scenario_load(o->paper, NULL, 0, e);
    if (!ps)
        return -1;
    scenario_free(ps);
    return 0;
}

/* The start-up of a numasim process, then paper-table's wall time and
 * memory (its output to out). Returns 0, or 1 when the run failed. */
static int bench_paper(const char *paper, char *out)
{
    double wall, rss;
    char *help_argv[] = {"numasim", "--help", NULL};
    double start = 1e9;
    for (int i = 0; i < 3; i++) /* the least of three: start-up is short and noisy */
        if (run_child(help_argv, 1, &wall, &rss) == 0 && wall < start)
            start = wall;
    printf("start-up of a numasim process (exec, dynamic linking): %.3f s, not included below\n",
           start);
    char *run_argv[] = {"numasim", "run", "-q", "-o", out, (char *)paper, NULL};
    int rc = run_child(run_argv, 0, &wall, &rss);
    printf("paper-table (%s): %.3f s wall, %.1f MiB peak memory%s\n", paper, wall, rss,
           rc ? "  [FAILED]" : "");
    return rc != 0;
}

/* The rounds of bench_rates: each a simulation, the bare loop of as many
 * sleeps, then both RATE_LONGER times as long. */
typedef struct {
    rate_t sim[RATE_PAIRS], bare[RATE_PAIRS], siml[RATE_PAIRS], barel[RATE_PAIRS];
    double ts[RATE_PAIRS], tb[RATE_PAIRS], ratio[RATE_PAIRS], tsl[RATE_PAIRS], tbl[RATE_PAIRS];
} rounds_t;

/* Runs the rounds; returns whether every one succeeded. */
static int run_rounds(const char *paper, rounds_t *R)
{
    int ok = 1;
    for (int i = 0; i < RATE_PAIRS && ok; i++) {
        R->sim[i] = sim_rate(paper, RATE_SIM, 1);
        long sleeps = R->sim[i].accesses > 0 ? (long)R->sim[i].accesses : 1000000;
        R->bare[i] = sim_rate(paper, RATE_BARE, sleeps);
        R->siml[i] = sim_rate(paper, RATE_SIM, RATE_LONGER);
        long sleepsl = R->siml[i].accesses > 0 ? (long)R->siml[i].accesses : 1000000;
        R->barel[i] = sim_rate(paper, RATE_BARE, sleepsl);
        ok = R->sim[i].rc == 0 && R->bare[i].rc == 0 && R->sim[i].seconds > 0 &&
             R->bare[i].seconds > 0 && R->siml[i].rc == 0 && R->barel[i].rc == 0 &&
             R->siml[i].accesses > R->sim[i].accesses;
        if (ok) {
            R->ts[i] = R->sim[i].seconds;
            R->tb[i] = R->bare[i].seconds;
            R->tsl[i] = R->siml[i].seconds;
            R->tbl[i] = R->barel[i].seconds;
            R->ratio[i] =
                R->bare[i].seconds / R->bare[i].accesses / (R->sim[i].seconds / R->sim[i].accesses);
        }
    }
    return ok;
}

/* The simulation rate against the bare SimGrid loop, whole and at the
 * margin. Five rounds, interleaved, each figure the median of its five: a
 * simulation lasts some 20 ms here, and single runs of it moved the ratio
 * by half on this shared machine. Returns 0, or 1 when a figure failed. */
static int bench_rates(const char *paper)
{
    rounds_t R;
    double ms = 0, mb = 0, da = 0, ns_sim = 0, ns_bare = 0;
    /* On a loaded machine the longer runs' medians can still come out no
     * slower than the short ones' (a few milliseconds apart): such rounds
     * measured the load, not the simulator, and are taken again. */
    for (int tries = 0; tries < BENCH_TRIES && !(ns_sim > 0 && ns_bare > 0); tries++) {
        if (!run_rounds(paper, &R)) {
            printf("simulation rate: FAILED\n");
            return 1;
        }
        ms = median(R.ts, RATE_PAIRS);
        mb = median(R.tb, RATE_PAIRS);
        da = R.siml[0].accesses - R.sim[0].accesses;
        ns_sim = (median(R.tsl, RATE_PAIRS) - ms) * 1e9 / da;
        ns_bare = (median(R.tbl, RATE_PAIRS) - mb) * 1e9 / da;
    }
    const rate_t *sim = R.sim, *bare = R.bare;
    double rs = sim[0].accesses / ms, rb = bare[0].accesses / mb;
    qsort(R.ratio, RATE_PAIRS, sizeof *R.ratio, cmp_double);
    printf("simulation (first platform of %s, scan, warm): %.0f accesses in %.3f s = %.2f M "
           "accesses/s\n  (%.0f baton passes between CPUs; %.0f of the accesses are spin reads "
           "skipped by the fast-forward)\n",
           paper, sim[0].accesses, ms, rs / 1e6, sim[0].switches, sim[0].batched);
    printf("bare SimGrid loop (same platform, one sg_actor_sleep_for per step): %.0f sleeps "
           "in %.3f s = %.2f M sleeps/s\n",
           bare[0].accesses, mb, rb / 1e6);
    printf("  (times: the medians of %d runs of each, interleaved; the pairs' ratios went from "
           "%.0f%% to %.0f%%)\n",
           RATE_PAIRS, 100.0 * R.ratio[0], 100.0 * R.ratio[RATE_PAIRS - 1]);
    printf("ratio numasim / bare SimGrid: %.0f%%\n  (the simulation whole: its set-up and "
           "its first touch of memory included)\n",
           100.0 * rs / rb);
    if (ns_sim > 0 && ns_bare > 0) {
        printf("ratio at the margin: %.0f%%\n  (%d times the calls: %.0f accesses more at "
               "%.1f ns each, against as many sleeps more at %.1f ns; fixed costs cancel)\n",
               100.0 * ns_bare / ns_sim, RATE_LONGER, da, ns_sim, ns_bare);
        return 0;
    }
    printf("ratio at the margin: FAILED (a longer run was not slower, %d times)\n", BENCH_TRIES);
    return 1;
}

/* The common access alone: the difference of two loop lengths removes the
 * run's fixed costs (SimGrid, the memory, the first miss). Returns 0, or 1
 * when it failed. */
static int bench_held(const char *paper)
{
    double held_ns[2] = {0, 0};
    for (int w = 0; w < 2; w++)
        for (int tries = 0; tries < BENCH_TRIES && !(held_ns[w] > 0); tries++) {
            rate_t a = sim_rate(paper, w ? RATE_WRITE : RATE_READ, HELD_SHORT);
            rate_t b = sim_rate(paper, w ? RATE_WRITE : RATE_READ, HELD_LONG);
            if (a.rc || b.rc)
                break; /* a failed run: no second try */
            held_ns[w] = (b.seconds - a.seconds) * 1e9 / (double)(HELD_LONG - HELD_SHORT);
        }
    if (held_ns[0] > 0 && held_ns[1] > 0) {
        printf("an access to a held line (same platform, CPU 0 alone, no ticks): read %.1f ns, "
               "write %.1f ns\n",
               held_ns[0], held_ns[1]);
        return 0;
    }
    printf("an access to a held line: FAILED\n");
    return 1;
}

/* Every point of the scaling scenario (runs' output to out), its rows also
 * into csv (may be NULL), which is committed when every point succeeded and
 * removed otherwise. Returns 0, 1 when a point failed, or -1 with e. */
static int bench_scaling(const char *scaling, char *out, FILE *csv, const char *csv_path, err_t *e)
{
    scenario_t *ss = scenario_load(scaling, NULL, 0, e);
    if (!ss) {
        if (csv)
            outfile_abort(csv, csv_path);
        return -1;
    }
    if (csv)
        fprintf(csv, "cpus,wall_s,peak_mib,o1_wall_s,o1_us_per_cpu_call,scan_wall_s,"
                     "scan_accesses,scan_ns_per_access,o1_margin_us_per_cpu_call\n");
    printf("\nscaling (%s): per platform, one `numasim run` of the O(1) strategies and one "
           "of the scan,\n%d calls x %d cache states each (a run repeated up to %d times "
           "while the repeats take under %.1f s: the median); margin_us: the O(1)\n"
           "strategies' cost per CPU x call from a second run with %d CPU x calls more "
           "(at least twice the calls): the difference\n",
           scaling, ss->calls, ss->ncaches, SHORT_RUNS, SHORT_TOTAL_S, MARGIN_WORK);
    printf("%8s %10s %10s %12s %14s %14s %12s %14s %12s\n", "cpus", "wall_s", "peak_MiB",
           "o1_wall_s", "us/(cpu*call)", "margin_us", "scan_wall_s", "scan_accesses", "ns/access");
    int rc = 0;
    for (int i = 0; i < ss->nplatforms; i++)
        rc |= scaling_point(ss, scaling, ss->platforms[i], out, csv);
    scenario_free(ss);
    if (csv && rc) /* a failed point: no CSV that looks complete */
        outfile_abort(csv, csv_path);
    else if (csv && outfile_commit(csv, csv_path, e) < 0) {
        fprintf(stderr, "%s\n", e->msg);
        rc = 1;
    }
    return rc;
}

/* The simulated benchmarks, in a temporary directory for the runs'
 * outputs. Returns 0, 1 when one failed, or -1 with e. */
static int bench_sim(const bench_opts_t *o, err_t *e)
{
    FILE *csv = NULL; /* opened first: an unwritable path fails before the runs */
    if (o->csv_path && !o->no_scaling && !(csv = outfile_open(o->csv_path, e)))
        return -1;
    char tmpdir[] = "/tmp/numasim-bench-XXXXXX";
    if (!mkdtemp(tmpdir)) {
        perror("numasim bench: mkdtemp");
        if (csv)
            outfile_abort(csv, o->csv_path);
        return 1;
    }
    char out[512], conf[600];
    snprintf(out, sizeof out, "%s/out.csv", tmpdir);
    snprintf(conf, sizeof conf, "%s/out.resolved.ini", tmpdir);
    printf("numasim %s bench on %ld CPUs\n\n", NUMASIM_VERSION, sysconf(_SC_NPROCESSORS_ONLN));
    int rc = bench_paper(o->paper, out);
    rc |= bench_rates(o->paper);
    rc |= bench_held(o->paper);
    if (!o->no_scaling) {
        int sc = bench_scaling(o->scaling, out, csv, o->csv_path, e);
        rc = sc < 0 ? -1 : rc | sc;
    }
    unlink(out);
    unlink(conf);
    rmdir(tmpdir);
    return rc;
}

int cli_bench(int argc, char **argv)
{
    bench_opts_t o = {.paper = "paper-table", .scaling = "scaling", .hz = 1000};
    err_t e = {{0}};
    int rc = bench_parse_opts(argc, argv, &o, &e);
    if (rc == 1)
        return 0; /* --help */
    if (rc == 0 && o.native)
        rc = bench_native(o.native_cpus, (int)o.hz, stdout, &e);
    else if (rc == 0 && (rc = bench_find_inputs(&o, &e)) == 0)
        rc = bench_sim(&o, &e);
    return cli_exit_code(rc, &e);
}
