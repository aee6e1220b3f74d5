/* host: the machine numasim runs on, read with hwloc (see host.h). */
#define _GNU_SOURCE
#include "host.h"
#include "xalloc.h"

#include "cycles.h"
#include "host_topo.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

struct host {
    hwloc_topology_t topo;
    platform_t *p;
    int *os_cpu;           /* [ncpus] */
    hwloc_obj_t *node_obj; /* [nnodes] the hwloc NUMA node of each node */
    char model[256];
    char kernel[128];
    double mhz;
};

/* The counter's rate against CLOCK_MONOTONIC_RAW over about 50 ms. */
static double measure_mhz(void)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC_RAW, &a);
    uint64_t c0 = cycles_now();
    do
        clock_gettime(CLOCK_MONOTONIC_RAW, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 50000000L);
    uint64_t c1 = cycles_now();
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    /* to 0.1 MHz: the last digits are noise */
    return (double)(long)((double)(c1 - c0) / ns * 1e4 + 0.5) / 10.0;
}

typedef struct {
    hwloc_const_bitmap_t allowed;
    hwloc_bitmap_t set;
    err_t *e;
} cpus_ctx_t;

static int add_cpu(long c, void *ctx)
{
    cpus_ctx_t *x = ctx;
    if (!hwloc_bitmap_isset(x->allowed, (unsigned)c)) {
        char *s = NULL;
        hwloc_bitmap_list_asprintf(&s, x->allowed);
        err_set(x->e, NULL, 0, "--cpus: CPU %ld is not available on this host (it has %s)", c,
                s ? s : "?");
        free(s);
        return -1;
    }
    hwloc_bitmap_set(x->set, (unsigned)c);
    return 0;
}

/* Parses "0,2-3" into set; returns 0 or -1 with e. */
static int parse_cpus(const char *list, hwloc_const_bitmap_t allowed, hwloc_bitmap_t set, err_t *e)
{
    cpus_ctx_t x = {allowed, set, e};
    return err_parse_cpus(list, add_cpu, &x, e);
}

static int line_size(hwloc_topology_t t)
{
    for (hwloc_obj_type_t ty = HWLOC_OBJ_L1CACHE; ty <= HWLOC_OBJ_L3CACHE; ty++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t, ty, 0);
        if (o && o->attr && o->attr->cache.linesize)
            return (int)o->attr->cache.linesize;
    }
    return 64; /* hwloc does not know: the common size on x86 and arm64 */
}

host_t *host_open(const char *cpus, err_t *e)
{
    if (!CYCLES_AVAILABLE) {
        err_set(e, NULL, 0, "native: this processor has no cycle counter numasim can read");
        return NULL;
    }
    host_t *h = xcalloc(1, sizeof *h);
    if (hwloc_topology_init(&h->topo) < 0 || hwloc_topology_load(h->topo) < 0) {
        err_set(e, NULL, 0, "native: hwloc cannot read this host's topology");
        free(h);
        return NULL;
    }
    hwloc_bitmap_t allowed = hwloc_bitmap_alloc(), set = hwloc_bitmap_alloc();
    /* The CPUs this process may run on (a cgroup or taskset may narrow them). */
    if (hwloc_get_cpubind(h->topo, allowed, HWLOC_CPUBIND_PROCESS) < 0)
        hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(h->topo));
    if (cpus) {
        if (parse_cpus(cpus, allowed, set, e) < 0) {
            hwloc_bitmap_free(allowed);
            hwloc_bitmap_free(set);
            host_close(h);
            return NULL;
        }
    } else {
        hwloc_bitmap_copy(set, allowed);
    }
    int n = hwloc_bitmap_weight(set);
    if (n < 1) {
        err_set(e, NULL, 0, "native: no CPU to run on");
        hwloc_bitmap_free(allowed);
        hwloc_bitmap_free(set);
        host_close(h);
        return NULL;
    }
    platform_t *p = h->p = xcalloc(1, sizeof *p);
    p->path = xstrdup("host");
    p->name = xstrdup("host");
    p->ncpus = n;
    p->cpu_host = xcalloc((size_t)n, sizeof *p->cpu_host);
    p->cpu_node = xcalloc((size_t)n, sizeof *p->cpu_node);
    h->os_cpu = xcalloc((size_t)n, sizeof *h->os_cpu);
    int nhw = hwloc_get_nbobjs_by_type(h->topo, HWLOC_OBJ_NUMANODE);
    h->node_obj = xcalloc((size_t)(nhw > 0 ? nhw : 1), sizeof *h->node_obj);
    p->node_first_cpu = xcalloc((size_t)(nhw > 0 ? nhw : 1), sizeof *p->node_first_cpu);
    int i = 0;
    unsigned os;
    hwloc_bitmap_foreach_begin(os, set)
    {
        char name[32];
        snprintf(name, sizeof name, "cpu%u", os);
        p->cpu_host[i] = xstrdup(name);
        h->os_cpu[i] = (int)os;
        hwloc_obj_t nd = NULL;
        while ((nd = hwloc_get_next_obj_by_type(h->topo, HWLOC_OBJ_NUMANODE, nd)))
            if (hwloc_bitmap_isset(nd->cpuset, os))
                break;
        int k = 0;
        while (k < p->nnodes && h->node_obj[k] != nd)
            k++;
        if (k == p->nnodes) {
            h->node_obj[k] = nd; /* NULL when hwloc shows no NUMA node: one node */
            p->node_first_cpu[k] = i;
            p->nnodes++;
        }
        p->cpu_node[i] = k;
        i++;
    }
    hwloc_bitmap_foreach_end();
    hwloc_bitmap_free(allowed);
    hwloc_bitmap_free(set);
    p->node_lat = xcalloc((size_t)p->nnodes * (size_t)p->nnodes, sizeof *p->node_lat);
    p->line_bytes = line_size(h->topo);
    char why[200];
    host_topo_tlbs(p->tlb, why, sizeof why); /* the pages_N probe rows need them */
    long pg = sysconf(_SC_PAGESIZE);
    p->page_bytes = pg > 0 ? pg : 4096;
    h->mhz = measure_mhz();
    p->clock_mhz = h->mhz;

    hwloc_obj_t pkg = hwloc_get_obj_by_type(h->topo, HWLOC_OBJ_PACKAGE, 0);
    const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
    snprintf(h->model, sizeof h->model, "%s", model ? model : "unknown");
    struct utsname u;
    snprintf(h->kernel, sizeof h->kernel, "%s", uname(&u) == 0 ? u.release : "unknown");
    return h;
}

void host_close(host_t *h)
{
    if (!h)
        return;
    platform_free(h->p);
    free(h->os_cpu);
    free(h->node_obj);
    hwloc_topology_destroy(h->topo);
    free(h);
}

platform_t *host_platform(host_t *h)
{
    return h->p;
}

int host_os_cpu(const host_t *h, int cpu)
{
    return h->os_cpu[cpu];
}

const char *host_model(const host_t *h)
{
    return h->model;
}

const char *host_kernel(const host_t *h)
{
    return h->kernel;
}

const char *host_clock_name(const host_t *h)
{
    (void)h;
    return CYCLES_CLOCK_NAME;
}

double host_clock_mhz(const host_t *h)
{
    return h->mhz;
}

int host_bind_thread(host_t *h, int cpu, err_t *e)
{
    hwloc_bitmap_t s = hwloc_bitmap_alloc();
    hwloc_bitmap_only(s, (unsigned)h->os_cpu[cpu]);
    int rc = hwloc_set_cpubind(h->topo, s, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
    if (rc < 0)
        rc = hwloc_set_cpubind(h->topo, s, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(s);
    if (rc < 0)
        return err_set(e, NULL, 0, "native: cannot pin a thread to CPU %d", h->os_cpu[cpu]);
    return 0;
}

int host_bind_memory(host_t *h, void *addr, size_t len, int node, err_t *e)
{
    hwloc_obj_t nd = h->node_obj[node];
    if (!nd || hwloc_get_nbobjs_by_type(h->topo, HWLOC_OBJ_NUMANODE) <= 1)
        return 0; /* one node: all memory is local */
    if (hwloc_set_area_membind(h->topo, addr, len, nd->nodeset, HWLOC_MEMBIND_BIND,
                               HWLOC_MEMBIND_BYNODESET) < 0)
        return err_set(e, NULL, 0, "native: cannot bind memory to NUMA node %u", nd->os_index);
    return 0;
}

void host_describe(const host_t *h, FILE *f)
{
    const platform_t *p = h->p;
    fprintf(f, ";   model = %s\n;   kernel = %s\n;   cpus = ", h->model, h->kernel);
    for (int i = 0; i < p->ncpus; i++)
        fprintf(f, "%s%d", i ? "," : "", h->os_cpu[i]);
    fprintf(f, " (OS numbers; scenario CPU i is the i-th)\n;   nodes = %d", p->nnodes);
    for (int k = 0; k < p->nnodes; k++)
        fprintf(f, "%s%u", k ? "," : " (OS numbers ",
                h->node_obj[k] ? h->node_obj[k]->os_index : 0u);
    fprintf(f, ")\n;   clock = %s at %.1f MHz (measured)\n;   line_bytes = %d\n", CYCLES_CLOCK_NAME,
            h->mhz, p->line_bytes);
}
