#define _DEFAULT_SOURCE /* wait4 */
/* cli_bench: `numasim bench` - what the simulator itself costs.
 *
 * Every figure comes from child processes run here and now:
 *   1. paper-table: wall seconds and peak memory of `numasim run` on it;
 *   2. the simulation rate: memory accesses simulated per wall second in one
 *      simulation (numa32, scan, warm), timed around machine_run only;
 *   3. the same rate for a bare SimGrid loop of sleeps on the same platform,
 *      in the same run: the ratio of 2 to 3 is the figure to quote;
 *   4. scaling: wall seconds and peak memory of each platform of the scaling
 *      scenario, and seconds per (CPU x call), to show how cost grows.
 */
#include "bench_native.h"
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

/* Runs argv (argv[0] = this program) in a child, output to /dev/null.
 * Returns the exit status; *wall and *rss_mb get its wall time and the peak
 * resident memory of it and its descendants. */
static int run_child(char *const argv[], double *wall, double *rss_mb)
{
    double t0 = now_s();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) < 0)
        return -1;
    *wall = now_s() - t0;
    *rss_mb = (double)ru.ru_maxrss / 1024.0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

typedef struct {
    double seconds, accesses, batched, switches;
    int rc;
} rate_t;

/* Times one simulation in a child; the child reports through a pipe. */
static rate_t sim_rate(const char *scenario_path, int bare, long bare_sleeps)
{
    rate_t r = {0, 0, 0, 0, -1};
    int fd[2];
    if (pipe(fd) < 0)
        return r;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        err_t e = {{0}};
        rate_t out = {0, 0, 0, 0, 1};
        scenario_t *s = scenario_load(scenario_path, NULL, 0, &e);
        platform_t *p =
            s ? platform_read(s->platforms[0], s->platform_sets, s->nplatform_sets, &e) : NULL;
        if (p && bare) {
            double t0 = now_s();
            out.accesses = (double)machine_bare_sleeps(p, "numasim", bare_sleeps);
            out.seconds = now_s() - t0;
            out.rc = 0;
        } else if (p) {
            run_t run;
            memset(&run, 0, sizeof run);
            run.s = s;
            run.p = p;
            run.strategy = STRAT_SCAN;
            run.cache = CACHE_WARM;
            run.seed = s->seed;
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
        waitpid(pid, NULL, 0);
    }
    close(fd[0]);
    return r;
}

static void bench_usage(FILE *f)
{
    fprintf(f, "usage: numasim bench [--paper SCENARIO] [--scaling SCENARIO] [--no-scaling]\n"
               "       numasim bench --native [--cpus LIST] [--hz N]\n"
               "\n"
               "Measures the simulator's own speed on this machine: wall time and peak\n"
               "memory of the paper-table scenario, simulated memory accesses per wall\n"
               "second against a bare SimGrid loop of sleeps (same run, same platform),\n"
               "and the wall time and memory of every point of the scaling scenario.\n"
               "Defaults: the scenarios paper-table and scaling, files or names as for\n"
               "numasim run (./scenarios/paper-table.ini from the source tree).\n"
               "\n"
               "--native measures the native machine's own costs instead: cycles per\n"
               "cpu_read/cpu_write/cpu_xchg of a held line against bare accesses, and\n"
               "the interruptions of a CPU by the tick (at --hz, default 1000) with an\n"
               "empty timer wheel, against those without a tick. --cpus as for run.\n");
}

int cli_bench(int argc, char **argv)
{
    static const struct option opts[] = {
        {"paper", required_argument, NULL, 'p'}, {"scaling", required_argument, NULL, 's'},
        {"no-scaling", no_argument, NULL, 'n'},  {"native", no_argument, NULL, 'N'},
        {"cpus", required_argument, NULL, 'C'},  {"hz", required_argument, NULL, 'z'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    const char *paper = "paper-table", *scaling = "scaling"; /* names: see cli_find */
    int o, no_scaling = 0, native = 0;
    const char *native_cpus = NULL;
    long hz = 1000;
    optind = 1;
    while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (o == 'p')
            paper = optarg;
        else if (o == 's')
            scaling = optarg;
        else if (o == 'n')
            no_scaling = 1;
        else if (o == 'N')
            native = 1;
        else if (o == 'C')
            native_cpus = optarg;
        else if (o == 'z') {
            if (err_parse_long(optarg, &hz) < 0 || hz < 1 || hz > 100000) {
                fprintf(stderr, "--hz: expected a whole number from 1 to 100000, not '%s'\n",
                        optarg);
                return ERR_EXIT;
            }
        } else if (o == 'h') {
            bench_usage(stdout);
            return 0;
        } else {
            bench_usage(stderr);
            return ERR_EXIT;
        }
    }
    if (optind != argc) {
        bench_usage(stderr);
        return ERR_EXIT;
    }
    err_t e = {{0}};
    if (native) {
        if (bench_native(native_cpus, (int)hz, stdout, &e) < 0) {
            fprintf(stderr, "%s\n", e.msg);
            return ERR_EXIT;
        }
        return 0;
    }
    char paper_path[4400], scaling_path[4400];
    char *found = cli_find(paper, "scenario", &e);
    if (!found) {
        fprintf(stderr, "%s\n", e.msg);
        return ERR_EXIT;
    }
    snprintf(paper_path, sizeof paper_path, "%s", found);
    free(found);
    paper = paper_path;
    if (!no_scaling) {
        if (!(found = cli_find(scaling, "scenario", &e))) {
            fprintf(stderr, "%s\n", e.msg);
            return ERR_EXIT;
        }
        snprintf(scaling_path, sizeof scaling_path, "%s", found);
        free(found);
        scaling = scaling_path;
    }
    scenario_t *ps = scenario_load(paper, NULL, 0, &e);
    if (!ps) {
        fprintf(stderr, "%s\n", e.msg);
        return ERR_EXIT;
    }
    scenario_free(ps);
    char tmpdir[] = "/tmp/numasim-bench-XXXXXX";
    if (!mkdtemp(tmpdir)) {
        perror("numasim bench: mkdtemp");
        return 1;
    }
    char out[512];
    snprintf(out, sizeof out, "%s/out.csv", tmpdir);

    printf("numasim %s bench on %ld CPUs\n\n", NUMASIM_VERSION, sysconf(_SC_NPROCESSORS_ONLN));
    double wall, rss;
    char *run_argv[] = {"numasim", "run", "-q", "-o", out, (char *)paper, NULL};
    int rc = run_child(run_argv, &wall, &rss);
    printf("paper-table (%s): %.3f s wall, %.1f MiB peak memory%s\n", paper, wall, rss,
           rc ? "  [FAILED]" : "");

    rate_t sim = sim_rate(paper, 0, 0);
    long sleeps = sim.accesses > 0 ? (long)sim.accesses : 1000000;
    rate_t bare = sim_rate(paper, 1, sleeps);
    if (sim.rc == 0 && bare.rc == 0 && sim.seconds > 0 && bare.seconds > 0) {
        double rs = sim.accesses / sim.seconds, rb = bare.accesses / bare.seconds;
        printf("simulation (first platform of %s, scan, warm): %.0f accesses in %.3f s = %.2f M "
               "accesses/s\n  (%.0f actor switches; %.0f of the accesses are spin reads "
               "skipped by the fast-forward)\n",
               paper, sim.accesses, sim.seconds, rs / 1e6, sim.switches, sim.batched);
        printf("bare SimGrid loop (same platform, one sg_actor_sleep_for per step): %.0f sleeps "
               "in %.3f s = %.2f M sleeps/s\n",
               bare.accesses, bare.seconds, rb / 1e6);
        printf("ratio numasim / bare SimGrid: %.0f%%\n", 100.0 * rs / rb);
    } else {
        printf("simulation rate: FAILED\n");
        rc = 1;
    }

    if (!no_scaling) {
        scenario_t *ss = scenario_load(scaling, NULL, 0, &e);
        if (!ss) {
            fprintf(stderr, "%s\n", e.msg);
            rmdir(tmpdir);
            return ERR_EXIT;
        }
        printf("\nscaling (%s): one `numasim run` per platform, %d calls x %d strategies x %d "
               "cache states\n",
               scaling, ss->calls, ss->nstrategies, ss->ncaches);
        printf("%8s %10s %12s %22s\n", "cpus", "wall_s", "peak_MiB", "us per (cpu x call)");
        for (int i = 0; i < ss->nplatforms; i++) {
            char set[4200];
            snprintf(set, sizeof set, "scenario.platforms=%s", ss->platforms[i]);
            char *argv2[] = {"numasim", "run",           "-q", "-o", out, "--set",
                             set,       (char *)scaling, NULL};
            platform_t *p = platform_read(ss->platforms[i], NULL, 0, &e);
            int cpus = p ? p->ncpus : 0;
            platform_free(p);
            int r2 = run_child(argv2, &wall, &rss);
            printf("%8d %10.3f %12.1f %22.3f%s\n", cpus, wall, rss,
                   cpus ? wall * 1e6 / ((double)cpus * ss->calls * ss->nstrategies * ss->ncaches)
                        : 0.0,
                   r2 ? "  [FAILED]" : "");
            fflush(stdout);
            rc |= r2 != 0;
        }
        scenario_free(ss);
    }
    unlink(out);
    char conf[600];
    snprintf(conf, sizeof conf, "%s/out.resolved.ini", tmpdir);
    unlink(conf);
    rmdir(tmpdir);
    return rc ? 1 : 0;
}
