#include "results.h"

#include <errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const results_header =
    "scenario,platform,cpus,nodes,strategy,cache,calls,mean_cycles,median_cycles,p95_cycles,"
    "min_cycles,max_cycles,violations,oopses,seed,seeds,seeds_violating,use_after_free,bugs,"
    "sweep_key,sweep_value,sim_cycles,accesses,"
    "hits,upgrades,miss_local,miss_remote,c2c_node,c2c_remote,hits_cycles,upgrades_cycles,"
    "miss_local_cycles,miss_remote_cycles,c2c_node_cycles,c2c_remote_cycles,relax_cycles,"
    "work_cycles,ticks,tick_cycles";

void results_stats(result_row_t *row, uint64_t *cycles, size_t n)
{
    row->calls = (int)n;
    if (n == 0) {
        row->mean = row->median = row->p95 = row->min = row->max = 0;
        return;
    }
    double *d = malloc(sizeof *d * n);
    if (!d)
        abort();
    for (size_t i = 0; i < n; i++)
        d[i] = (double)cycles[i];
    gsl_sort(d, 1, n);
    row->mean = gsl_stats_mean(d, 1, n);
    row->median = gsl_stats_median_from_sorted_data(d, 1, n);
    row->p95 = gsl_stats_quantile_from_sorted_data(d, 1, n, 0.95);
    row->min = d[0];
    row->max = d[n - 1];
    free(d);
}

void results_print_row(FILE *f, const result_row_t *r)
{
    fprintf(f,
            "%s,%s,%d,%d,%s,%s,%d,%.1f,%.1f,%.1f,%.0f,%.0f,%llu,%llu,%lu,%d,%d,%llu,%llu,%s,%s,%"
            "llu,%llu",
            r->scenario, r->platform, r->cpus, r->nodes, r->strategy, r->cache, r->calls, r->mean,
            r->median, r->p95, r->min, r->max, (unsigned long long)r->violations,
            (unsigned long long)r->oopses, r->seed, r->seeds, r->seeds_violating,
            (unsigned long long)r->uaf, (unsigned long long)r->bugs, r->sweep_key, r->sweep_value,
            (unsigned long long)r->sim_cycles, (unsigned long long)r->accesses);
    /* The anatomy: means per call, two decimals (sums are exact integers). */
    const cpu_anatomy_t *a = &r->anatomy;
    double n = r->calls > 0 ? (double)r->calls : 1.0;
    for (int k = 0; k < MEM_NKINDS; k++)
        fprintf(f, ",%.2f", (double)a->n[k] / n);
    for (int k = 0; k < MEM_NKINDS; k++)
        fprintf(f, ",%.2f", (double)a->cycles[k] / n);
    fprintf(f, ",%.2f,%.2f,%.2f,%.2f\n", (double)a->relax_cycles / n, (double)a->work_cycles / n,
            (double)a->ticks / n, (double)a->tick_cycles / n);
}

void results_add_anatomy(result_row_t *row, const cpu_anatomy_t *a)
{
    cpu_anatomy_t *s = &row->anatomy;
    for (int k = 0; k < MEM_NKINDS; k++) {
        s->n[k] += a->n[k];
        s->cycles[k] += a->cycles[k];
    }
    s->relax_cycles += a->relax_cycles;
    s->work_cycles += a->work_cycles;
    s->ticks += a->ticks;
    s->tick_cycles += a->tick_cycles;
}

/* The temporary files open now, for results_cleanup(). */
#define MAX_OPEN 8
static char g_tmp[MAX_OPEN][4200];

static void tmp_name(char *buf, size_t n, const char *path)
{
    snprintf(buf, n, "%s.tmp.%ld", path, (long)getpid());
}

FILE *results_open(const char *path, err_t *e)
{
    char tmp[4200];
    tmp_name(tmp, sizeof tmp, path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        err_set(e, path, 0, "cannot write: %s", strerror(errno));
        return NULL;
    }
    for (int i = 0; i < MAX_OPEN; i++)
        if (!g_tmp[i][0]) {
            snprintf(g_tmp[i], sizeof g_tmp[i], "%s", tmp);
            break;
        }
    return f;
}

static void forget(const char *tmp)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (!strcmp(g_tmp[i], tmp))
            g_tmp[i][0] = '\0';
}

int results_commit(FILE *f, const char *path, err_t *e)
{
    char tmp[4200];
    tmp_name(tmp, sizeof tmp, path);
    int bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
    int saved = errno;
    bad |= fclose(f) != 0;
    if (!bad && rename(tmp, path) != 0) {
        saved = errno;
        bad = 1;
    }
    if (bad) {
        unlink(tmp);
        forget(tmp);
        return err_set(e, path, 0, "cannot write: %s", strerror(saved ? saved : EIO));
    }
    forget(tmp);
    return 0;
}

void results_abort(FILE *f, const char *path)
{
    char tmp[4200];
    tmp_name(tmp, sizeof tmp, path);
    if (f)
        fclose(f);
    unlink(tmp);
    forget(tmp);
}

void results_cleanup(void)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (g_tmp[i][0])
            unlink(g_tmp[i]);
}

int results_ensure_dir(const char *path, err_t *e)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    if (!*dir)
        return 0;
    struct stat st;
    if (stat(dir, &st) == 0)
        return S_ISDIR(st.st_mode) ? 0 : err_set(e, path, 0, "'%s' is not a directory", dir);
    if (mkdir(dir, 0777) != 0)
        return err_set(e, path, 0, "cannot create directory '%s': %s", dir, strerror(errno));
    return 0;
}
