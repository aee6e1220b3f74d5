/* results: the statistics of a combination's calls (GSL) and its CSV row. */
#include "results.h"
#include "xalloc.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <string.h>

const char *const results_header =
    "scenario,platform,cpus,nodes,strategy,cache,calls,mean_cycles,median_cycles,p95_cycles,"
    "min_cycles,max_cycles,violations,oopses,seed,seeds,seeds_violating,use_after_free,bugs,"
    "sweep_key,sweep_value,sim_cycles,accesses,"
    "hits,upgrades,miss_local,miss_remote,c2c_node,c2c_remote,hits_cycles,upgrades_cycles,"
    "miss_local_cycles,miss_remote_cycles,c2c_node_cycles,c2c_remote_cycles,relax_cycles,"
    "work_cycles,ticks,tick_cycles,"
    "hit_l1,hit_l2,hit_l3,code_lines,code_misses,code_remote,code_cycles,evictions,"
    "footprint_evictions,tlb2_hits,tlb_walks,tlb_cycles,"
    "issue_cycles,stall_cycles,hidden_cycles,overlapped,code_streamed";

void results_stats(result_row_t *row, uint64_t *cycles, size_t n)
{
    row->calls = (int)n;
    if (n == 0) {
        row->mean = row->median = row->p95 = row->p99 = row->min = row->max = 0;
        return;
    }
    double *d = xmalloc(sizeof *d * n);
    for (size_t i = 0; i < n; i++)
        d[i] = (double)cycles[i];
    gsl_sort(d, 1, n);
    row->mean = gsl_stats_mean(d, 1, n);
    row->median = gsl_stats_median_from_sorted_data(d, 1, n);
    row->p95 = gsl_stats_quantile_from_sorted_data(d, 1, n, 0.95);
    row->p99 = gsl_stats_quantile_from_sorted_data(d, 1, n, 0.99);
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
    for (int k = 0; k < ACCESS_NKINDS; k++)
        fprintf(f, ",%.2f", (double)a->n[k] / n);
    for (int k = 0; k < ACCESS_NKINDS; k++)
        fprintf(f, ",%.2f", (double)a->cycles[k] / n);
    fprintf(f, ",%.2f,%.2f,%.2f,%.2f", (double)a->relax_cycles / n, (double)a->work_cycles / n,
            (double)a->ticks / n, (double)a->tick_cycles / n);
    /* appended with the cache levels */
    for (int k = 0; k < 3; k++)
        fprintf(f, ",%.2f", (double)a->hit_level[k] / n);
    fprintf(f, ",%.2f,%.2f,%.2f,%.2f,%.2f,%.2f", (double)a->code_lines / n,
            (double)a->code_misses / n, (double)a->code_remote / n, (double)a->code_cycles / n,
            (double)a->evictions / n, (double)a->footprint_evictions / n);
    /* appended with the TLBs */
    fprintf(f, ",%.2f,%.2f,%.2f", (double)a->tlb2_hits / n, (double)a->tlb_walks / n,
            (double)a->tlb_cycles / n);
    /* appended with the core (0 with core none) */
    fprintf(f, ",%.2f,%.2f,%.2f,%.2f,%.2f", (double)a->issue_cycles / n,
            (double)a->stall_cycles / n, (double)a->hidden_cycles / n, (double)a->overlapped / n,
            (double)a->code_streamed / n);
    const run_extra_t *x = &r->extra;
    if (r->cols == EXTRA_TICK)
        fprintf(f, ",%.1f,%.2f,%.2f,%llu,%.4f,%llu,%llu", r->p99, (double)x->fired / n,
                x->fired ? (double)x->late_sum / (double)x->fired : 0.0,
                (unsigned long long)x->late_max, (double)x->late_ppm / 1e6,
                (unsigned long long)x->early, (unsigned long long)x->overdue);
    else if (r->cols == EXTRA_CONTEND)
        fprintf(f, ",%.1f,%llu,%.1f,%.4f", r->p99, (unsigned long long)x->ops,
                x->ops ? (double)x->window / (double)x->ops : 0.0,
                x->ops_sq && x->contenders
                    ? (double)x->ops * (double)x->ops / ((double)x->ops_sq * (double)x->contenders)
                    : 0.0);
    fputc('\n', f);
}

void results_add_extra(run_extra_t *sum, const run_extra_t *x)
{
    sum->fired += x->fired;
    sum->late_sum += x->late_sum;
    sum->late_max = x->late_max > sum->late_max ? x->late_max : sum->late_max;
    sum->late_ppm = x->late_ppm > sum->late_ppm ? x->late_ppm : sum->late_ppm;
    sum->overdue += x->overdue;
    sum->early += x->early;
    sum->ops += x->ops;
    sum->ops_sq += x->ops_sq;
    sum->contenders += x->contenders;
    sum->window += x->window;
}

void results_print_header(FILE *f, extra_cols_t cols)
{
    fputs(results_header, f);
    if (cols == EXTRA_TICK)
        fputs(",p99_cycles,fired_per_tick,late_mean_jiffies,late_max_jiffies,late_max_share,"
              "fired_early,fired_overdue",
              f);
    else if (cols == EXTRA_CONTEND)
        fputs(",p99_cycles,ops,cycles_per_op,fairness", f);
    fputc('\n', f);
}

void results_add_anatomy(result_row_t *row, const cpu_anatomy_t *a)
{
    cpu_anatomy_accumulate(&row->anatomy, NULL, a);
}
