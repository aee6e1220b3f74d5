/* platform_simgrid: engine start-up and the latency matrix.
 *
 * Only the files of machine/simgrid/ call SimGrid. SimGrid allows one engine per
 * process, so platform_boot() is called at most once per process; numasim
 * runs each simulation in a child process.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "platform_simgrid.h"
#include "child.h"
#include "xalloc.h"

#include "paje.h"

#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/zone.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/dict.h>
#include <xbt/dynar.h>
#include <xbt/log.h>

XBT_LOG_NEW_CATEGORY(numasim, "numasim");
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(numasim_platform, numasim, "platform loading and routes");

static const platform_t *g_booted; /* the platform this process loaded */

void platform_boot(platform_t *p, const char *argv0)
{
    if (g_booted == p)
        return; /* sim_preload did it, before this process forked */
    g_booted = p;
    /* SimGrid's own chatter (config changes, end-of-run notes) is silenced;
     * --log on the command line is not offered: numasim has --trace. */
    char *argv[] = {(char *)argv0, "--log=root.thres:warning", "--log=xbt_cfg.thres:warning",
                    "--cfg=contexts/stack-size:256", NULL};
    int argc = 4;
    simgrid_init(&argc, argv);
    paje_configure(); /* a trace must be switched on before the platform loads */
    simgrid_load_platform(p->path);
    for (int i = 0; i < p->nlinks; i++) {
        sg_link_t l = sg_link_by_name(p->links[i].id);
        if (l)
            sg_link_set_latency(l, p->links[i].latency);
    }
    XBT_DEBUG("loaded %s: %d CPUs in %d nodes", p->name, p->ncpus, p->nnodes);
}

/* --- The node-to-node latency matrix ---
 *
 * The simple way asks SimGrid for the route of every pair of nodes: n^2/2
 * look-ups of a few microseconds each, too slow at 2048 nodes (2.1 M
 * look-ups, 10-16 s). Hierarchical platforms need far fewer, exactly.
 *
 * SimGrid routes hierarchically (NetZoneImpl::get_global_route): between
 * hosts a in child zone A and b in child zone B != A of the root zone, the
 * route is route(a -> gA) + route(A -> B in the root) + route(gB -> b), where
 * the gateways gA, gB and the middle part depend on (A, B) only. So, with
 * latencies L, for a0 in A and b0 in B:
 *     L(a, b) = L(a, b0) + L(a0, b) - L(a0, b0)
 * and the block A x B costs |A| + |B| - 1 look-ups instead of |A| x |B|. This
 * holds unless a bypass route is declared between two hosts of A and B;
 * one more look-up per block checks the formula on a second pair, and a
 * block that fails the check (or has a missing route) is looked up pair by
 * pair. Pairs in the same child zone, and hosts directly in the root (all of
 * them in a flat platform such as numa32), are looked up one by one as
 * before, so a flat platform's matrix is computed exactly as it always was.
 *
 * At 2048 nodes in 32 zones that is still some 128,000 look-ups (0.3 s),
 * so on a machine with several CPUs forked copies of this process share
 * them (route_procs): each computes the rows of its zones into a shared
 * matrix. Any trouble (a missing route, a failed helper) and the matrix is
 * computed again by this process alone, which names the pair it always
 * named.
 */

/* Look-ups and blocks, for the debug log. */
static long g_lookups, g_blocks_formula, g_blocks_direct;

static double lookup(sg_host_t a, sg_host_t b)
{
    g_lookups++;
    return sg_host_get_route_latency(a, b);
}

/* One-way route latency, or a negative value when there is no usable route
 * (the check the matrix has always made: > 0 and <= 1e9). */
static double route_lat(sg_host_t a, sg_host_t b)
{
    double lat = lookup(a, b);
    return lat > 0 && lat <= 1e9 ? lat : -1;
}

typedef struct {
    sg_host_t host;
    int node;
} rep_t;

static int cmp_rep(const void *x, const void *y)
{
    const rep_t *a = x, *b = y;
    return (a->host > b->host) - (a->host < b->host);
}

/* group[n]: which child zone of the root holds node n's host; nodes whose
 * host is in none (hosts of the root zone itself) all go to the last group,
 * *loose. Returns the number of groups (the loose one included, if used). */
static int node_groups(size_t n, sg_host_t *rep, int *group, int *loose)
{
    rep_t *sorted = xmalloc(sizeof *sorted * n);
    for (size_t a = 0; a < n; a++) {
        sorted[a].host = rep[a];
        sorted[a].node = (int)a;
        group[a] = -1;
    }
    qsort(sorted, n, sizeof *sorted, cmp_rep);
    int ngroups = 0;
    xbt_dict_t sons = xbt_dict_new_homogeneous(NULL);
    sg_zone_get_sons(sg_zone_get_root(), sons);
    xbt_dict_cursor_t cursor = NULL;
    char *key;
    sg_netzone_t zone;
    xbt_dict_foreach(sons, cursor, key, zone)
    {
        xbt_dynar_t hosts = xbt_dynar_new(sizeof(sg_host_t), NULL);
        sg_zone_get_hosts(zone, hosts);
        unsigned i;
        sg_host_t h;
        int used = 0;
        xbt_dynar_foreach(hosts, i, h)
        {
            rep_t k = {h, 0};
            rep_t *r = bsearch(&k, sorted, n, sizeof *sorted, cmp_rep);
            if (r && group[r->node] < 0) {
                group[r->node] = ngroups;
                used = 1;
            }
        }
        ngroups += used;
        xbt_dynar_free(&hosts);
    }
    xbt_dict_free(&sons);
    *loose = -1;
    for (size_t a = 0; a < n; a++)
        if (group[a] < 0) {
            if (*loose < 0)
                *loose = ngroups++;
            group[a] = *loose;
        }
    free(sorted);
    return ngroups;
}

/* Sets the pair (a, b) from a one-way latency; a bad one is remembered as the
 * bad pair first in row-major order (a < b). */
static void set_pair(platform_t *p, size_t a, size_t b, double lat, size_t *bad)
{
    size_t n = (size_t)p->nnodes;
    if (a > b) {
        size_t t = a;
        a = b;
        b = t;
    }
    if (!(lat > 0) || lat > 1e9) {
        if (a * n + b < *bad)
            *bad = a * n + b;
        return;
    }
    uint32_t c = (uint32_t)lround(2 * lat); /* one way -> round trip */
    p->node_lat[a * n + b] = c;
    p->node_lat[b * n + a] = c;
}

/* The block of nodes A x B (child zones A != B), by the formula above when
 * the check passes, else (or when direct) pair by pair. col, row: scratch of
 * |A|, |B|. */
static void block(platform_t *p, sg_host_t *rep, const int *A, int na, const int *B, int nb,
                  int direct, double *col, double *row, size_t *bad)
{
    int ok = !direct;
    for (int i = 0; i < na && ok; i++)
        ok = (col[i] = route_lat(rep[A[i]], rep[B[0]])) > 0;
    for (int j = 1; j < nb && ok; j++)
        ok = (row[j] = route_lat(rep[A[0]], rep[B[j]])) > 0;
    row[0] = ok ? col[0] : 0;
    if (ok && na > 1 && nb > 1) {
        double want = col[na - 1] + row[nb - 1] - row[0];
        double got = route_lat(rep[A[na - 1]], rep[B[nb - 1]]);
        ok = fabs(got - want) <= 1e-9 * fabs(got);
    }
    if (ok)
        g_blocks_formula++;
    else
        g_blocks_direct++;
    for (int i = 0; i < na && *bad == SIZE_MAX; i++)
        for (int j = 0; j < nb; j++) {
            double lat;
            if (!ok)
                lat = lookup(rep[A[i]], rep[B[j]]);
            else if (j == 0)
                lat = col[i]; /* looked up: exact */
            else if (i == 0)
                lat = row[j];
            else
                lat = col[i] + row[j] - row[0];
            set_pair(p, (size_t)A[i], (size_t)B[j], lat, bad);
        }
}

/* The entries of group g's nodes: its pairs, then its blocks with the later
 * groups. Stops at the first missing route (*bad). */
static void group_rows(platform_t *p, sg_host_t *rep, const int *members, const int *start,
                       int ngroups, int loose, int g, double *scratch, size_t *bad)
{
    size_t n = (size_t)p->nnodes;
    const int *A = members + start[g];
    int na = start[g + 1] - start[g];
    for (int i = 0; i < na && *bad == SIZE_MAX; i++)
        for (int j = i + 1; j < na && *bad == SIZE_MAX; j++)
            set_pair(p, (size_t)A[i], (size_t)A[j], lookup(rep[A[i]], rep[A[j]]), bad);
    for (int h = g + 1; h < ngroups && *bad == SIZE_MAX; h++)
        block(p, rep, A, na, members + start[h], start[h + 1] - start[h], g == loose || h == loose,
              scratch, scratch + n, bad);
}

/* Processes that share the look-ups: on a platform of hundreds of nodes in
 * several zones they take most of a loader's start (0.3 s at 2048 nodes),
 * and each process forked here (its SimGrid engine is a copy) takes the
 * groups g = k mod P. One process on a small platform or a single CPU. */
static int route_procs(const platform_t *p, int ngroups)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (p->nnodes < 256 || ngroups < 2 || cpus < 2)
        return 1;
    return cpus < 4 ? (int)cpus : 4;
}

/* Every group's entries, shared among procs processes: the matrix and each
 * process's first bad pair in shared memory. Returns 0, or -1 when a helper
 * failed or a route is missing (the caller then computes it alone, which
 * names the pair it always named). */
static int routes_shared(platform_t *p, sg_host_t *rep, const int *members, const int *start,
                         int ngroups, int loose, int procs, double *scratch)
{
    size_t n = (size_t)p->nnodes, bytes = sizeof *p->node_lat * n * n;
    size_t at = (bytes + 7) / 8 * 8; /* where the bad pairs go, aligned */
    uint32_t *shared = mmap(NULL, at + sizeof(size_t) * (size_t)procs, PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED)
        return -1;
    size_t *bads = (size_t *)((char *)shared + at);
    uint32_t *own = p->node_lat;
    p->node_lat = shared; /* set_pair writes here, in every process */
    pid_t pid[4];
    int started = 0, ok = 1;
    for (int k = 1; k < procs; k++) {
        pid[k] = child_try_fork(); /* dies with this process */
        if (pid[k] == 0) {
            size_t bad = SIZE_MAX;
            for (int g = k; g < ngroups && bad == SIZE_MAX; g += procs)
                group_rows(p, rep, members, start, ngroups, loose, g, scratch, &bad);
            bads[k] = bad;
            _exit(0);
        }
        if (pid[k] < 0) {
            ok = 0;
            break;
        }
        started = k;
    }
    bads[0] = SIZE_MAX;
    for (int g = 0; ok && g < ngroups && bads[0] == SIZE_MAX; g += procs)
        group_rows(p, rep, members, start, ngroups, loose, g, scratch, &bads[0]);
    for (int k = 1; k <= started; k++) {
        int st = child_wait(pid[k]);
        ok &= WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    for (int k = 0; ok && k < procs; k++)
        ok = bads[k] == SIZE_MAX;
    p->node_lat = own;
    if (ok)
        memcpy(own, shared, bytes);
    munmap(shared, at + sizeof(size_t) * (size_t)procs);
    return ok ? 0 : -1;
}

int platform_routes(platform_t *p, err_t *e)
{
    size_t n = (size_t)p->nnodes;
    free(p->node_lat);
    p->node_lat = xcalloc(n * n, sizeof *p->node_lat);
    sg_host_t *rep = xmalloc(sizeof *rep * n);
    int *group = xmalloc(sizeof *group * n);
    int *members = xmalloc(sizeof *members * n);
    int *start = xmalloc(sizeof *start * (n + 1));
    double *scratch = xmalloc(sizeof *scratch * 2 * n);
    for (size_t a = 0; a < n; a++)
        rep[a] = sg_host_by_name(p->cpu_host[p->node_first_cpu[a]]);
    int loose;
    int ngroups = node_groups(n, rep, group, &loose);
    /* members of group g, in node order: members[start[g] .. start[g+1]) */
    for (int g = 0; g <= ngroups; g++)
        start[g] = 0;
    for (size_t a = 0; a < n; a++)
        start[group[a] + 1]++;
    for (int g = 0; g < ngroups; g++)
        start[g + 1] += start[g];
    for (size_t a = 0; a < n; a++)
        members[start[group[a]]++] = (int)a;
    for (int g = ngroups; g > 0; g--)
        start[g] = start[g - 1];
    start[0] = 0;

    /* Stops at the first missing route in the order of the pairs, so that
     * the error names the same pair however the matrix is filled. */
    g_lookups = g_blocks_formula = g_blocks_direct = 0;
    size_t bad = SIZE_MAX;
    int procs = route_procs(p, ngroups);
    if (procs == 1 || routes_shared(p, rep, members, start, ngroups, loose, procs, scratch) < 0)
        for (int g = 0; g < ngroups && bad == SIZE_MAX; g++)
            group_rows(p, rep, members, start, ngroups, loose, g, scratch, &bad);
    XBT_DEBUG("routes of %zu nodes in %d zone groups, %d processes: %ld look-ups here, %ld blocks "
              "by the formula, %ld pair by pair",
              n, ngroups, procs, g_lookups, g_blocks_formula, g_blocks_direct);
    free(rep);
    free(group);
    free(members);
    free(start);
    free(scratch);
    if (bad != SIZE_MAX)
        return err_set(e, p->path, 0, "no route with a latency > 0 between node %zu and node %zu",
                       bad / n, bad % n);
    return 0;
}
