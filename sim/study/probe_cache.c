/* probe_cache: the probes that see caches fill and forget. Theory of
 * operation.
 *
 * chase_S (lmbench's lat_mem_rd): a ring of S / line_bytes elements, one per
 * line, each holding the address of the next, so that every cpu_read waits
 * for the one before (a dependent chain: no two loads overlap). The ring
 * visits the lines of the whole working set in one random order, so that
 * no prefetcher helps. lmbench's mem_initialize visits a page's lines
 * together (in a random order), and a region prefetcher that fetches a page
 * once a few of its lines are read then hides the next level: natively
 * (EPYC guest) that order gave 6.7-8.5 cycles a load from 48 KiB to 512 KiB
 * where this one gives 10.4-19.7 (docs/caches-validation.md). Beyond the
 * first-level TLB's reach the loads also pay translations, in both
 * machines. CPU 0 walks the whole
 * ring once to warm it, then times PROBE_CHASE_BATCH loads per sample; the
 * row is the median cycles per load. Every size uses the start of one
 * buffer, homed on CPU 0's node and allocated by the first chase (not in
 * setup: a native cpu_flush_cache flushes every allocated byte, and the
 * load_mem cells before it flush at every repetition). A chase of S bytes
 * mostly hits the first level whose capacity is >= S, so the rows are a
 * staircase: its steps are the level sizes, its treads their latencies.
 *
 * timer_ops_pause_P: the timer_ops pair (mod_timer + del_timer of a warm
 * timer, 2.6.6 core), timed once after P cycles of cpu_work. What the pause
 * brings into the caches (the work's own lines, other software, the tick
 * when it is on) evicts what the pair needs, and the pair pays the misses:
 * the rows are a decay curve against P. The _tick_ rows run with interrupts
 * enabled, so the timer core's tick comes at hz; the others with them off.
 * Where the tick falls in a pause would depend on everything that ran
 * before (a fit would see the rows jump as a parameter moves the phase), so
 * each repetition r of n starts its pause (r + 1/2) / n of a tick period
 * before a tick: the CPU idles to that phase before the warm pair. A pause
 * of P cycles then holds a tick in about P / period of the repetitions, as
 * at a random phase, on either machine.
 * A row takes PAUSE_MAX_REPS repetitions at most, and fewer at long pauses
 * (PAUSE_BUDGET cycles of pause per row at most, but at least
 * PAUSE_MIN_REPS), so that the native probe stays within seconds.
 *
 * The simulated caches evict by LRU. The tick's footprint fills them in
 * order, so a level loses the pair's lines at once when the tick reaches
 * its capacity; the noise's and the work's pages lie at random frames, so
 * they evict set by set (coherence.c). Either way the curve is sampled only at
 * the pauses (--pauses), and a fit places a footprint no finer.
 *
 * pages_N: the same chase through N pages, one line in each (at a random
 * place in its page, so that the lines spread over the cache sets), the
 * pages in a random order: every load needs a translation of its own. Its
 * rows are a second staircase whose steps are the TLBs' entries and whose
 * treads add their costs to the lines' (the chase rows of N lines give
 * those). Only where the platform describes a TLB (dtlb1_entries; natively,
 * what CPUID says), up to 4x its largest level's entries, and at least up
 * to PROBE_PAGES_FAR pages (or 128x those entries, if fewer); natively up
 * to PROBE_PAGES_FAR also where CPUID names no TLB (a KVM guest's leaf 18H
 * may be all zeros), so that the rows alone can show the levels. A virtual
 * machine's CPUID may give a second level smaller than the hardware's
 * (the development guest says 128 entries; its rows show no walk up to
 * 4,096 pages, the second level of its AMD Zen 5 host, and a walk of about
 * 110 cycles from 6,144 on), and only rows past the real one show where it
 * ends and what a walk costs.
 *
 * Order: the pause cells come before the chase, so that they see the same
 * history whatever the chase's largest size (tune --probe-target shortens the
 * chase to the target's sizes), and the chase runs with interrupts off
 * again (no tick lands in its samples). A chase row does not depend on the
 * sizes before it: its warm pass makes its lines the newest of every set.
 */
#include "probe_internal.h"
#include "xalloc.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_BYTES     4096
#define PAUSE_BUDGET   2e9
#define PAUSE_MIN_REPS 25
#define PAUSE_MAX_REPS 200

long probe_chase_max(const platform_t *p, long requested, err_t *e)
{
    long line = p->line_bytes > 0 ? p->line_bytes : 64;
    if (requested) {
        if (requested < 1024 || requested > PROBE_CHASE_CAP || requested % line)
            return err_set(e, "--chase-max", 0,
                           "expected bytes from 1024 to %ld, a multiple of the line (%ld), "
                           "not %ld",
                           PROBE_CHASE_CAP, line, requested);
        return requested;
    }
    /* the data levels (the native host's come from hwloc, not from props) */
    double largest = 0;
    for (int l = CACHE_L1D; l < CACHE_NLEVELS; l++)
        if ((double)p->cache[l].bytes > largest)
            largest = (double)p->cache[l].bytes;
    if (largest <= 0)
        return PROBE_CHASE_NOLEVEL;
    return 4 * largest < (double)PROBE_CHASE_CAP ? (long)(4 * largest) / line * line
                                                 : PROBE_CHASE_CAP;
}

/* Chase cells of kind (K_CHASE: bytes, K_PAGES: pages) from first up to
 * max in x2 steps with x1.5 midpoints, the sizes that are multiples of
 * unit. */
static void add_sized(probe_ctx_t *X, machine_t *m, kind_t kind, uint64_t first, uint64_t max,
                      uint64_t unit)
{
    for (uint64_t s = first; s <= max; s *= 2) {
        uint64_t sizes[2] = {s, s * 3 / 2};
        for (int i = 0; i < 2; i++)
            if (sizes[i] <= max && sizes[i] % unit == 0) {
                cell_t *k = probe_add_cell(X, m, kind, 0, 0, X->p->cpu_node[0], 0, 0);
                k->bytes = sizes[i];
                k->batch = PROBE_CHASE_BATCH;
            }
    }
}

void probe_cache_cells(probe_ctx_t *X, machine_t *m)
{
    const platform_t *p = X->p;
    int n0 = p->cpu_node[0];
    uint64_t line = (uint64_t)p->line_bytes;
    X->section = machine_alloc(m, n0, (size_t)line); /* after the other cells' lines */
    if (X->only_core) {
        probe_core_cells(X, m);
        return;
    }
    for (int ticks = 0; ticks < 2; ticks++) {
        for (int i = 0; i < X->npauses; i++) {
            uint64_t pause = X->pauses[i];
            cell_t *k = probe_add_cell(X, m, K_PAUSE, 0, 0, n0, 0, 0);
            k->pause = pause;
            k->ticks = ticks;
            double fit = pause ? PAUSE_BUDGET / (double)pause : PAUSE_MAX_REPS;
            if (fit > PAUSE_MAX_REPS)
                fit = PAUSE_MAX_REPS;
            if (fit < k->reps)
                k->reps = fit > PAUSE_MIN_REPS ? (int)fit : PAUSE_MIN_REPS;
            if (k->reps > X->reps)
                k->reps = X->reps;
        }
    }
    add_sized(X, m, K_PAGES, 8, probe_pages_max(p, X->chase_max, X->native), 1);
    add_sized(X, m, K_CHASE, 1024, X->chase_max, line);
}

int probe_parse_pauses(const char *list, uint64_t *out, err_t *e)
{
    int n = 0;
    for (const char *s = list;;) {
        char item[32];
        size_t len = strcspn(s, ",");
        long v;
        snprintf(item, sizeof item, "%.*s", (int)(len < 31 ? len : 31), s);
        if (n == PROBE_PAUSES_MAX || len >= 31 || err_parse_long(item, &v) < 0 || v < 0 ||
            (uint64_t)v > PROBE_PAUSE_MAX || (n && (uint64_t)v <= out[n - 1]))
            return err_set(e, "--pauses", 0,
                           "expected at most %d ascending whole numbers of cycles from 0 to %llu, "
                           "'%.40s' is not one",
                           PROBE_PAUSES_MAX, (unsigned long long)PROBE_PAUSE_MAX, item);
        out[n++] = (uint64_t)v;
        if (!s[len])
            return n;
        s += len + 1;
    }
}

/* Before repetition rep of a ticks-on pause cell (before the warm pair):
 * idles until the phase of the tick at which this repetition's pause
 * starts. */
static void pause_phase(cpu_t *c, const probe_ctx_t *X, const cell_t *k, int rep)
{
    uint64_t period = X->period;
    if (!k->ticks || !period)
        return;
    uint64_t now = cpu_now(c), next = cpu_next_tick(c);
    /* Natively the ticks missed while interrupts were off were taken as one:
     * the next tick is on the same grid, some periods later. */
    if (next <= now)
        next += ((now - next) / period + 1) * period;
    uint64_t lead = (uint64_t)(((double)rep + 0.5) / k->reps * (double)period);
    cpu_idle_until(c, next > now + lead ? next - lead : next + period - lead);
}

uint64_t probe_pages_max(const platform_t *p, uint64_t chase_max, int native)
{
    uint64_t most = 0;
    for (int l = TLB_DTLB1; l < TLB_NLEVELS; l += 2)
        if ((uint64_t)p->tlb[l].entries > most)
            most = (uint64_t)p->tlb[l].entries;
    uint64_t page = p->page_bytes > 0 ? (uint64_t)p->page_bytes : PAGE_BYTES;
    uint64_t fit = chase_max / page > 0 ? chase_max / page - 1 : 0; /* one spare: alignment */
    uint64_t want = 4 * most;
    uint64_t far = 128 * most < PROBE_PAGES_FAR ? 128 * most : PROBE_PAGES_FAR;
    if (native && !most) /* a host has TLBs, whether or not CPUID says so */
        far = PROBE_PAGES_FAR;
    if (want < far) /* what CPUID says may be less than the TLB holds */
        want = far;
    return want < fit ? want : fit;
}

void probe_cache_name(const cell_t *k, char *buf, size_t n)
{
    if (k->kind >= K_MLP)
        probe_core_name(k, buf, n);
    else if (k->kind == K_PAGES)
        snprintf(buf, n, "pages_%llu", (unsigned long long)k->bytes);
    else if (k->kind == K_CHASE)
        snprintf(buf, n, "chase_%llu", (unsigned long long)k->bytes);
    else
        snprintf(buf, n, "timer_ops_pause_%s%llu", k->ticks ? "tick_" : "",
                 (unsigned long long)k->pause);
}

/* Shuffles v[0..n) (Fisher-Yates). */
static void shuffle(gsl_rng *r, uint32_t *v, uint32_t n)
{
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)gsl_rng_uniform_int(r, i);
        uint32_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* Links the first `bytes` of buf into the ring (at no cost: lmbench does not
 * time its initialisation either) and returns its first element: every line
 * once, in a random order over the whole working set. The order depends on
 * the size only, so a run is reproducible. */
static maddr_t build_ring(machine_t *m, maddr_t buf, uint64_t bytes, uint32_t line)
{
    uint32_t nlines = (uint32_t)(bytes / line);
    uint32_t *order = xmalloc(sizeof *order * nlines);
    gsl_rng *r = xcheck(gsl_rng_alloc(gsl_rng_mt19937));
    gsl_rng_set(r, (unsigned long)bytes);
    for (uint32_t i = 0; i < nlines; i++)
        order[i] = i;
    shuffle(r, order, nlines);
    for (uint32_t i = 0; i < nlines; i++)
        machine_poke(m, buf + (maddr_t)order[i] * line,
                     buf + (maddr_t)order[(i + 1) % nlines] * line);
    maddr_t start = buf + (maddr_t)order[0] * line;
    gsl_rng_free(r);
    free(order);
    return start;
}

/* The ring of a pages_N cell: one line in each of n pages of page bytes,
 * at a random line of the page, the pages in a random order. */
static maddr_t build_page_ring(machine_t *m, maddr_t buf, uint64_t n, uint64_t page, uint32_t line)
{
    uint32_t *order = xmalloc(sizeof *order * n);
    gsl_rng *r = xcheck(gsl_rng_alloc(gsl_rng_mt19937));
    gsl_rng_set(r, (unsigned long)n + 1);
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    shuffle(r, order, (uint32_t)n);
    uint32_t per_page = (uint32_t)(page / line);
    maddr_t *at = xmalloc(sizeof *at * n);
    for (uint32_t i = 0; i < n; i++)
        at[i] = buf + (maddr_t)order[i] * page +
                (maddr_t)gsl_rng_uniform_int(r, per_page ? per_page : 1) * line;
    for (uint32_t i = 0; i < n; i++)
        machine_poke(m, at[i], at[(i + 1) % n]);
    maddr_t start = at[0];
    gsl_rng_free(r);
    free(order);
    free(at);
    return start;
}

static void chase(cpu_t *c, probe_ctx_t *X, cell_t *k)
{
    machine_t *m = cpu_machine(c);
    uint32_t line = (uint32_t)X->p->line_bytes;
    probe_chase_buf(c, X);
    uint64_t page = X->p->page_bytes > 0 ? (uint64_t)X->p->page_bytes : PAGE_BYTES;
    /* the buffer starts on a page boundary natively (the arena is page
     * aligned, a slice of it line aligned): the rings use whole pages */
    maddr_t buf = (X->chase_buf + page - 1) / page * page;
    maddr_t a = k->kind == K_PAGES ? build_page_ring(m, buf, k->bytes, page, line)
                                   : build_ring(m, X->chase_buf, k->bytes, line);
    uint64_t nlines = k->kind == K_PAGES ? k->bytes : k->bytes / line;
    for (uint64_t i = 0; i < nlines; i++) {
        a = cpu_read(c, a);
        if ((i & 0xffff) == 0xffff)
            cpu_progress(c); /* the native watchdog */
    }
    for (int r = 0; r < k->reps; r++) {
        uint64_t t0 = cpu_now(c);
        for (int i = 0; i < PROBE_CHASE_BATCH; i++)
            a = cpu_read(c, a);
        uint64_t t1 = cpu_now(c);
        k->sample[r] = (double)(t1 - t0);
        cpu_progress(c);
    }
}

/* One repetition of a pause cell: the warm pair, the pause, the timed pair
 * (once: a pause evicts what one pair needs). */
static void pause_rep(cpu_t *c, const probe_ctx_t *X, cell_t *k, int rep)
{
    pause_phase(c, X, k, rep);
    probe_timer_pair(c, X);
    cpu_work(c, k->pause);
    uint64_t t0 = cpu_now(c);
    probe_timer_pair(c, X);
    uint64_t t1 = cpu_now(c);
    k->sample[rep] = (double)(t1 - t0);
    cpu_progress(c);
}

enum { SEC_QUIET, SEC_TICKS, SEC_CHASE, SEC_DONE };

/* The CPUs but 0 wait for the end of the section, polling the section word
 * every POLL_CYCLES: a spin would be simulated read by read once a
 * footprint can evict the line it spins on, for 10^8 cycles and more. They
 * follow CPU 0's interrupts, so that every CPU ticks in the ticks-on cells
 * (as in a run) and none elsewhere. */
#define POLL_CYCLES 1000000

void probe_cache_section(cpu_t *c, probe_ctx_t *X, int first)
{
    int state = SEC_QUIET;
    if (cpu_id(c) != 0) {
        while (state != SEC_DONE) {
            int s = (int)cpu_read(c, X->section);
            if (s == SEC_TICKS && state == SEC_QUIET)
                cpu_irq_enable(c);
            if (s != SEC_TICKS && state == SEC_TICKS)
                cpu_irq_disable(c);
            state = s;
            if (state != SEC_DONE)
                cpu_idle_until(c, cpu_now(c) + POLL_CYCLES);
        }
        return;
    }
    /* the same start whatever ran before (tune --probe-target runs the
     * section alone, --only-cache) */
    cpu_flush_cache(c, 1);
    for (int i = first; i < X->ncells; i++) {
        cell_t *k = &X->cells[i];
        int want = k->kind != K_PAUSE ? SEC_CHASE : k->ticks ? SEC_TICKS : SEC_QUIET;
        if (want != state) {
            if (want == SEC_TICKS)
                cpu_irq_enable(c);
            else if (state == SEC_TICKS)
                cpu_irq_disable(c);
            cpu_write(c, X->section, (uint64_t)want);
            state = want;
        }
        if (k->kind >= K_MLP)
            probe_core_run(c, X, k);
        else if (k->kind == K_CHASE || k->kind == K_PAGES)
            chase(c, X, k);
        else
            for (int r = 0; r < k->reps; r++)
                pause_rep(c, X, k, r);
    }
    if (state == SEC_TICKS)
        cpu_irq_disable(c);
    cpu_write(c, X->section, SEC_DONE);
}
