/* bench_native: what the native machine itself adds (`numasim bench
 * --native`). Every figure is measured here and now on the host's CPU 0
 * (the other CPUs used idle), in cycles of the host's counter:
 *
 *   1. accesses: a loop of cpu_read (cpu_write, cpu_xchg) on a line CPU 0
 *      holds, against the same loop of bare loads (stores, exchanges) on the
 *      same word; the difference per access is the backend's overhead (one
 *      call through the ops table, the access count, the freed-line check).
 *      The host is shared: the best of many short loops is the figure, the
 *      median says how noisy it was;
 *   2. ticks: CPU 0 reads the counter in a tight loop for BENCH_SPAN_MS,
 *      with and without the timer core's tick on an empty wheel, and
 *      records every gap between two reads above GAP_CYCLES (ticks, and
 *      whatever else interrupts the host: a shared VM is interrupted often),
 *      and the native machine's own count of the tick handler's cycles,
 *      from entry to exit (the gap a tick leaves adds the signal's delivery).
 */
#include "bench_native.h"

#include "cpu.h"
#include "native.h"
#include "start.h"
#include "timer/timer.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define ACCESS_LOOPS  100000 /* about 2 ms a loop: most loops see no preemption */
#define REPEATS       101
#define BENCH_SPAN_MS 500
#define GAP_CYCLES    400
#define MAX_GAPS      100000

typedef struct {
    double best, median;
} loop_t;

typedef struct {
    int with_tick, hz;
    maddr_t word;
    loop_t acc[6]; /* read, bare read, write, bare write, xchg, bare xchg */
    uint64_t *gaps;
    int ngaps;
    uint64_t span;
    cpu_anatomy_t an; /* ticks taken during the loop, and their handlers' cycles */
    tcore_t *tc;
} bench_t;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The best and median over REPEATS of the cycles per iteration of one loop
 * kind. */
static loop_t per_access(cpu_t *c, maddr_t a, int kind)
{
    double r[REPEATS];
    volatile uint64_t *p = native_ptr(a);
    for (int k = 0; k < REPEATS; k++) {
        uint64_t t0 = cpu_now(c), sink = 0;
        switch (kind) {
        case 0:
            for (int i = 0; i < ACCESS_LOOPS; i++)
                sink += cpu_read(c, a);
            break;
        case 1:
            for (int i = 0; i < ACCESS_LOOPS; i++)
                sink += __atomic_load_n(p, __ATOMIC_ACQUIRE);
            break;
        case 2:
            for (int i = 0; i < ACCESS_LOOPS; i++)
                cpu_write(c, a, (uint64_t)i);
            break;
        case 3:
            for (int i = 0; i < ACCESS_LOOPS; i++)
                __atomic_store_n(p, (uint64_t)i, __ATOMIC_RELEASE);
            break;
        case 4:
            for (int i = 0; i < ACCESS_LOOPS; i++)
                sink += cpu_xchg(c, a, (uint64_t)i);
            break;
        default:
            for (int i = 0; i < ACCESS_LOOPS; i++)
                sink += __atomic_exchange_n(p, (uint64_t)i, __ATOMIC_SEQ_CST);
            break;
        }
        r[k] = (double)(cpu_now(c) - t0) / ACCESS_LOOPS;
        __asm__ volatile("" ::"r"(sink));
    }
    qsort(r, REPEATS, sizeof *r, cmp_double);
    loop_t l = {r[0], r[REPEATS / 2]};
    return l;
}

static void measure(cpu_t *c, void *arg)
{
    bench_t *b = arg;
    if (!b->with_tick)
        for (int k = 0; k < 6; k++)
            b->acc[k] = per_access(c, b->word, k);
    b->span = (uint64_t)(machine_platform(cpu_machine(c))->clock_mhz * 1000.0 * BENCH_SPAN_MS);
    cpu_anatomy_t a0;
    cpu_anatomy(c, &a0);
    uint64_t start = cpu_now(c), last = start;
    for (;;) {
        uint64_t t = cpu_now(c);
        if (t - last > GAP_CYCLES && b->ngaps < MAX_GAPS)
            b->gaps[b->ngaps++] = t - last;
        last = t;
        if (t - start >= b->span)
            break;
        cpu_progress(c);
    }
    cpu_anatomy(c, &b->an);
    b->an.ticks -= a0.ticks;
    b->an.tick_cycles -= a0.tick_cycles;
    machine_stop(cpu_machine(c));
}

static void setup(machine_t *m, void *arg)
{
    bench_t *b = arg;
    const platform_t *p = machine_platform(m);
    b->word = machine_alloc(m, 0, 64);
    if (b->with_tick)
        b->tc = tcore_create(m, TIMER_TRACKING, 0, (uint64_t)(p->clock_mhz * 1e6 / b->hz + 0.5), 0);
    machine_set_program(m, 0, measure, b);
}

static int one(host_t *h, bench_t *b, err_t *e)
{
    b->gaps = xcalloc(MAX_GAPS, sizeof *b->gaps);
    machine_hooks_t hooks = {setup, NULL, b};
    start_t st = {.host = h, .seed = 1, .hooks = &hooks};
    st.native.timeout_s = 30;
    int rc = start_machine(&st, e);
    tcore_destroy(b->tc);
    b->tc = NULL;
    return rc;
}

static void print_gaps(FILE *f, const char *what, bench_t *b, double mhz)
{
    uint64_t sum = 0;
    for (int i = 0; i < b->ngaps; i++)
        sum += b->gaps[i];
    qsort(b->gaps, (size_t)b->ngaps, sizeof *b->gaps, cmp_u64);
    fprintf(f,
            "  %-26s %6d gaps over %d cycles in %d ms: median %llu, mean %.0f cycles (%.2f us); "
            "%.3f%% of the time\n",
            what, b->ngaps, GAP_CYCLES, BENCH_SPAN_MS,
            b->ngaps ? (unsigned long long)b->gaps[b->ngaps / 2] : 0ull,
            b->ngaps ? (double)sum / b->ngaps : 0.0, b->ngaps ? (double)sum / b->ngaps / mhz : 0.0,
            100.0 * (double)sum / (double)b->span);
}

int bench_native(const char *cpus, int hz, FILE *f, err_t *e)
{
    host_t *h = host_open(cpus, e);
    if (!h)
        return -1;
    const platform_t *p = host_platform(h);
    fprintf(f, "native machine on %s: %d CPUs in %d nodes, %s at %.1f MHz, kernel %s\n",
            host_model(h), p->ncpus, p->nnodes, host_clock_name(h), host_clock_mhz(h),
            host_kernel(h));
    bench_t plain, ticked;
    memset(&plain, 0, sizeof plain);
    memset(&ticked, 0, sizeof ticked);
    ticked.with_tick = 1;
    ticked.hz = hz;
    int rc = one(h, &plain, e);
    if (rc == 0)
        rc = one(h, &ticked, e);
    if (rc == 0) {
        fprintf(f,
                "\naccesses on a line CPU 0 holds, cycles per access (best and median of %d "
                "loops of %d):\n",
                REPEATS, ACCESS_LOOPS);
        fprintf(f, "  %-6s %18s %18s %10s\n", "", "cpu_* best/median", "bare best/median",
                "overhead");
        static const char *const names[3] = {"read", "write", "xchg"};
        for (int k = 0; k < 3; k++) {
            const loop_t *a = &plain.acc[2 * k], *b = &plain.acc[2 * k + 1];
            fprintf(f, "  %-6s %8.2f / %7.2f %8.2f / %7.2f %10.2f\n", names[k], a->best, a->median,
                    b->best, b->median, a->best - b->best);
        }
        fprintf(f, "\ninterruptions of CPU 0 (counter read in a loop):\n");
        print_gaps(f, "no tick:", &plain, host_clock_mhz(h));
        char what[64];
        snprintf(what, sizeof what, "tick at %d Hz, empty wheel:", hz);
        print_gaps(f, what, &ticked, host_clock_mhz(h));
        fprintf(f,
                "  tick handler (entry to exit, empty wheel): %llu ticks, mean %.0f cycles "
                "(%.2f us); the gap a tick leaves adds the signal's delivery and return\n",
                (unsigned long long)ticked.an.ticks,
                ticked.an.ticks ? (double)ticked.an.tick_cycles / (double)ticked.an.ticks : 0.0,
                ticked.an.ticks
                    ? (double)ticked.an.tick_cycles / (double)ticked.an.ticks / host_clock_mhz(h)
                    : 0.0);
    }
    free(plain.gaps);
    free(ticked.gaps);
    host_close(h);
    return rc;
}
