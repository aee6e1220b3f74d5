/* host_topo: what a platform file needs of this host, read through hwloc.
 *
 * hwloc 2.x: NUMA nodes are memory children, so a PU's node is found by
 * testing the node cpusets, and its package through the PU's ancestors. The
 * topology is released before host_topo_read() returns.
 */
#include "host_topo.h"

#include <errno.h>
#include <hwloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s);
    if (!p)
        abort();
    return p;
}

/* The core clock: cpufreq's maximum, else the first "cpu MHz" of
 * /proc/cpuinfo (a VM often shows its TSC rate there). */
static void read_clock(host_topo_t *t)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq",
             t->cpu_os[0]);
    FILE *f = fopen(path, "r");
    double khz = 0;
    if (f) {
        if (fscanf(f, "%lf", &khz) == 1 && khz > 0) {
            t->clock_mhz = round(khz / 1000);
            snprintf(t->clock_origin, sizeof t->clock_origin, "%s", path + 21);
        }
        fclose(f);
        if (t->clock_mhz > 0)
            return;
    }
    f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        double mhz;
        if (!strncmp(line, "cpu MHz", 7) && sscanf(strchr(line, ':') + 1, "%lf", &mhz) == 1 &&
            mhz > 0) {
            t->clock_mhz = round(mhz);
            snprintf(t->clock_origin, sizeof t->clock_origin,
                     "/proc/cpuinfo 'cpu MHz' of the first CPU when generated");
            break;
        }
    }
    fclose(f);
}

static int read_line_size(hwloc_topology_t topo)
{
    static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
                                             HWLOC_OBJ_L3CACHE};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        hwloc_obj_t c = hwloc_get_obj_by_type(topo, types[i], 0);
        if (c && c->attr && c->attr->cache.linesize > 0)
            return (int)c->attr->cache.linesize;
    }
    return 0;
}

/* Fills t->dist from the "NUMALatency" matrix (or any latency matrix of the
 * nodes), when it covers every node kept. */
static void read_slit(hwloc_topology_t topo, host_topo_t *t, hwloc_obj_t *nodes)
{
    unsigned nr = 1;
    struct hwloc_distances_s *d = NULL;
    if (hwloc_distances_get_by_name(topo, "NUMALatency", &nr, &d, 0) < 0 || nr < 1) {
        nr = 1;
        if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, &d,
                                        HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) < 0 ||
            nr < 1)
            return;
    }
    int n = t->nnodes, ok = 1;
    double *m = xcalloc((size_t)n * (size_t)n, sizeof *m);
    for (int a = 0; a < n && ok; a++)
        for (int b = 0; b < n && ok; b++) {
            int ia = hwloc_distances_obj_index(d, nodes[a]);
            int ib = hwloc_distances_obj_index(d, nodes[b]);
            if (ia < 0 || ib < 0)
                ok = 0;
            else
                m[a * n + b] = (double)d->values[(unsigned)ia * d->nbobjs + (unsigned)ib];
        }
    hwloc_distances_release(topo, d);
    if (ok)
        t->dist = m;
    else
        free(m);
}

int host_topo_read(host_topo_t *t, err_t *e)
{
    memset(t, 0, sizeof *t);
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) < 0)
        return err_set(e, NULL, 0, "hwloc: cannot initialise a topology");
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    if (hwloc_topology_load(topo) < 0) {
        hwloc_topology_destroy(topo);
        const char *x = getenv("HWLOC_XMLFILE");
        return err_set(e, x && *x ? x : NULL, 0, "hwloc cannot load the topology");
    }
    t->this_system = hwloc_topology_is_thissystem(topo);
    /* hwloc falls back to this machine, silently, when HWLOC_XMLFILE cannot
     * be read: that would describe the wrong machine. */
    const char *xml = getenv("HWLOC_XMLFILE");
    if (xml && *xml && t->this_system && !getenv("HWLOC_THISSYSTEM")) {
        hwloc_topology_destroy(topo);
        FILE *f = fopen(xml, "r");
        if (!f)
            return err_set(e, xml, 0, "cannot read HWLOC_XMLFILE: %s", strerror(errno));
        fclose(f);
        return err_set(e, xml, 0, "hwloc cannot read this topology file (HWLOC_XMLFILE)");
    }
    int npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    int nall = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    if (npu < 1) {
        hwloc_topology_destroy(topo);
        return err_set(e, NULL, 0, "hwloc reports no CPU");
    }
    hwloc_obj_t *nodes = xcalloc((size_t)(nall > 0 ? nall : 1), sizeof *nodes);
    t->node_os = xcalloc((size_t)(nall > 0 ? nall : 1), sizeof *t->node_os);
    t->node_package = xcalloc((size_t)(nall > 0 ? nall : 1), sizeof *t->node_package);
    for (int i = 0; i < nall; i++) {
        hwloc_obj_t n = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (!n->cpuset || hwloc_bitmap_iszero(n->cpuset)) {
            t->dropped_nodes++;
            continue;
        }
        nodes[t->nnodes] = n;
        t->node_os[t->nnodes++] = (int)n->os_index;
    }
    if (t->nnodes == 0) { /* no NUMA information: one node */
        t->nnodes = 1;
        nodes[0] = NULL;
    }
    t->ncpus = npu;
    t->cpu_os = xcalloc((size_t)npu, sizeof *t->cpu_os);
    t->cpu_node = xcalloc((size_t)npu, sizeof *t->cpu_node);
    for (int i = 0; i < t->nnodes; i++)
        t->node_package[i] = -1;
    for (int i = 0; i < npu; i++) {
        hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
        t->cpu_os[i] = (int)pu->os_index;
        for (int k = 0; k < t->nnodes; k++)
            if (nodes[k] && hwloc_bitmap_isset(nodes[k]->cpuset, pu->os_index)) {
                t->cpu_node[i] = k;
                break;
            }
        hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu);
        if (pkg && t->node_package[t->cpu_node[i]] < 0)
            t->node_package[t->cpu_node[i]] = (int)pkg->logical_index;
    }
    t->npackages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    t->line_bytes = read_line_size(topo);
    hwloc_obj_t pkg0 = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
    const char *model = pkg0 ? hwloc_obj_get_info_by_name(pkg0, "CPUModel") : NULL;
    snprintf(t->cpu_model, sizeof t->cpu_model, "%s", model ? model : "unknown CPU model");
    if (t->nnodes > 1)
        read_slit(topo, t, nodes);
    free(nodes);
    hwloc_topology_destroy(topo);
    if (t->this_system)
        read_clock(t);
    return 0;
}

void host_topo_free(host_topo_t *t)
{
    free(t->cpu_os);
    free(t->cpu_node);
    free(t->node_os);
    free(t->node_package);
    free(t->dist);
    memset(t, 0, sizeof *t);
}
