/* probe_core: the probes of the core that executes. Theory of operation.
 *
 * mlp_K (lmbench 3's par_mem; Chou, Fahs and Abraham, ISCA 2004): K
 * independent pointer chases, interleaved in one loop, through the lines of
 * the chase buffer (chase_max bytes: 4x the last level where the platform
 * has levels, so that nearly every load misses), in one random order that
 * K chains share out (chain j takes every K-th line of it). Each load names
 * the load before it in its own chain as its dependence (cpu_read_dep), so
 * a core may overlap the K chains but never two loads of one chain. A
 * sample times PROBE_CHASE_BATCH loads (rounded down to a multiple of K)
 * and the row is the median cycles per load: about one miss at K = 1,
 * falling as 1/K while the core has miss registers and window for K
 * misses, flat beyond. Without cache levels a simulated line, once read,
 * stays (infinite caches): each sample then starts from cpu_flush_cache,
 * outside the timing. Natively the host's own core overlaps the chains and
 * nothing is flushed: a sample's 512 loads come back to a line only after
 * the whole buffer, so every sample is cold, as on a platform with levels.
 *
 * code_N: a code unit of N lines (machine_code_bytes), run once after
 * cpu_flush_cache(c, 1): the front end fetches N cold lines. In series that
 * is N misses; a front end with F lines on their way ahead of the one it
 * consumes pays one miss per F + 1 lines (a step of the rows at N = F + 2).
 * Natively the unit is a function the machine generated, N lines of NOPs
 * and a return, evicted from every cache by the flush (clflush; on aarch64
 * dc civac and ic ivau, which may leave a system cache holding it): the
 * rows are how the host's own front end streams cold code.
 *
 * rmw_load: after cpu_flush_cache(c, 0), a fetch-and-add of one line and a
 * load of another (in the next page), both cold, timed
 * together, their pages' translations warm (a load of another line of each
 * first). A core whose locked RMW drains (a full fence) pays
 * two misses in series; one that issues it as a load (core_rmw_overlap)
 * pays about one. Natively it is x86's lock xadd then a mov.
 */
#include "probe_internal.h"
#include "xalloc.h"

#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>

#define MLP_MAX_K 16
#define RMW_PAGE  4096 /* rmw_load's lines lie in two pages of this size */

/* every N to 16, where a stream of up to 15 lines ahead shows as a step;
 * then its slope */
static const uint64_t kCodeLines[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                      11, 12, 13, 14, 15, 16, 24, 32, 48, 64};

void probe_core_cells(probe_ctx_t *X, machine_t *m)
{
    int n0 = X->p->cpu_node[0];
    for (uint64_t n = 0; n < sizeof kCodeLines / sizeof *kCodeLines; n++) {
        cell_t *k = probe_add_cell(X, m, K_CODE, 0, 0, n0, 0, 0);
        k->bytes = kCodeLines[n];
    }
    /* before the chase buffer exists: a flush is then of a few pages only
     * (natively a flush of the whole buffer leaves the memory busy and the
     * TLBs empty) */
    cell_t *w = probe_add_cell(X, m, K_RMW_LOAD, 0, 0, n0, 0, 0);
    w->line = machine_alloc(m, n0, 3 * RMW_PAGE) / RMW_PAGE * RMW_PAGE + RMW_PAGE;
    for (int kk = 1; kk <= MLP_MAX_K; kk++) {
        cell_t *k = probe_add_cell(X, m, K_MLP, 0, 0, n0, 0, 0);
        k->bytes = (uint64_t)kk;
        k->batch = PROBE_CHASE_BATCH / kk * kk;
    }
}

void probe_core_name(const cell_t *k, char *buf, size_t n)
{
    if (k->kind == K_RMW_LOAD)
        snprintf(buf, n, "rmw_load");
    else
        snprintf(buf, n, "%s_%llu", k->kind == K_MLP ? "mlp" : "code",
                 (unsigned long long)k->bytes);
}

/* Links the buffer's lines into k chains of one random order (at no cost)
 * and puts each chain's first element in start[]. */
static void build_chains(machine_t *m, maddr_t buf, uint32_t nlines, uint32_t line, int k,
                         maddr_t *start)
{
    uint32_t *order = xmalloc(sizeof *order * nlines);
    gsl_rng *r = xcheck(gsl_rng_alloc(gsl_rng_mt19937));
    gsl_rng_set(r, (unsigned long)nlines * 31 + (unsigned long)k);
    for (uint32_t i = 0; i < nlines; i++)
        order[i] = i;
    for (uint32_t i = nlines; i > 1; i--) { /* Fisher-Yates */
        uint32_t j = (uint32_t)gsl_rng_uniform_int(r, i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    uint32_t per = nlines / (uint32_t)k; /* each chain's length */
    for (int j = 0; j < k; j++) {
        for (uint32_t i = 0; i < per; i++) {
            uint32_t here = order[i * (uint32_t)k + (uint32_t)j];
            uint32_t next = order[((i + 1) % per) * (uint32_t)k + (uint32_t)j];
            machine_poke(m, buf + (maddr_t)here * line, buf + (maddr_t)next * line);
        }
        start[j] = buf + (maddr_t)order[j] * line;
    }
    gsl_rng_free(r);
    free(order);
}

static void mlp(cpu_t *c, probe_ctx_t *X, cell_t *k)
{
    machine_t *m = cpu_machine(c);
    uint32_t line = (uint32_t)X->p->line_bytes;
    /* only a simulated machine without levels keeps every line it read:
     * the host's platform lists no levels, but its caches forget */
    int kk = (int)k->bytes, keeps = !X->native && X->p->cache[CACHE_L1D].bytes == 0;
    maddr_t p[MLP_MAX_K];
    cpu_tok_t t[MLP_MAX_K] = {0};
    build_chains(m, probe_chase_buf(c, X), (uint32_t)(X->chase_max / line), line, kk, p);
    int rounds = k->batch / kk;
    for (int r = 0; r < k->reps; r++) {
        if (keeps)
            cpu_flush_cache(c, 0);
        uint64_t t0 = cpu_now(c);
        for (int i = 0; i < rounds; i++)
            for (int j = 0; j < kk; j++)
                p[j] = cpu_read_dep(c, p[j], t[j], &t[j]);
        for (int j = 0; j < kk; j++)
            cpu_use(c, t[j]);
        uint64_t t1 = cpu_now(c);
        k->sample[r] = (double)(t1 - t0);
        cpu_progress(c);
    }
}

static void code(cpu_t *c, probe_ctx_t *X, cell_t *k)
{
    char unit[32];
    snprintf(unit, sizeof unit, "probe_code_%llu", (unsigned long long)k->bytes);
    int u = machine_code_bytes(cpu_machine(c), unit, k->bytes * (uint64_t)X->p->line_bytes);
    for (int r = 0; r < k->reps; r++) {
        cpu_flush_cache(c, 1);
        uint64_t t0 = cpu_now(c);
        cpu_exec(c, u);
        uint64_t t1 = cpu_now(c);
        k->sample[r] = (double)(t1 - t0);
        cpu_progress(c);
    }
}

static void rmw_load(cpu_t *c, cell_t *k)
{
    /* k->line: two pages, the RMW's line at the start of the first, the
     * load's in the second; their other lines warm the translations */
    maddr_t a = k->line, b = k->line + RMW_PAGE + 64;
    for (int r = 0; r < k->reps; r++) {
        cpu_flush_cache(c, 0);
        cpu_read(c, a + RMW_PAGE / 2);
        cpu_read(c, b + RMW_PAGE / 2);
        uint64_t t0 = cpu_now(c);
        cpu_fetch_add(c, a, 1);
        cpu_read(c, b);
        uint64_t t1 = cpu_now(c);
        k->sample[r] = (double)(t1 - t0);
        cpu_progress(c);
    }
}

void probe_core_run(cpu_t *c, probe_ctx_t *X, cell_t *k)
{
    if (k->kind == K_MLP)
        mlp(c, X, k);
    else if (k->kind == K_CODE)
        code(c, X, k);
    else
        rmw_load(c, k);
}
