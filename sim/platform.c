/* platform (SimGrid half): engine start-up and the latency matrix.
 *
 * Only this file and cpu.c call SimGrid. SimGrid allows one engine per
 * process, so platform_boot() is called at most once per process; numasim
 * runs each simulation in a child process.
 */
#include "platform.h"

#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdlib.h>
#include <xbt/log.h>

XBT_LOG_NEW_CATEGORY(numasim, "numasim");
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(numasim_platform, numasim, "platform loading and routes");

void platform_boot(platform_t *p, const char *argv0)
{
    /* SimGrid's own chatter (config changes, end-of-run notes) is silenced;
     * --log on the command line is not offered: numasim has --trace. */
    char *argv[] = {(char *)argv0, "--log=root.thres:warning", "--log=xbt_cfg.thres:warning",
                    "--cfg=contexts/stack-size:256", NULL};
    int argc = 4;
    simgrid_init(&argc, argv);
    simgrid_load_platform(p->path);
    for (int i = 0; i < p->nlinks; i++) {
        sg_link_t l = sg_link_by_name(p->links[i].id);
        if (l)
            sg_link_set_latency(l, p->links[i].latency);
    }
    XBT_DEBUG("loaded %s: %d CPUs in %d nodes", p->name, p->ncpus, p->nnodes);
}

int platform_routes(platform_t *p, err_t *e)
{
    size_t n = (size_t)p->nnodes;
    free(p->node_lat);
    p->node_lat = calloc(n * n, sizeof *p->node_lat);
    sg_host_t *rep = malloc(sizeof *rep * n);
    if (!p->node_lat || !rep)
        abort();
    for (size_t a = 0; a < n; a++)
        rep[a] = sg_host_by_name(p->cpu_host[p->node_first_cpu[a]]);
    int rc = 0;
    for (size_t a = 0; a < n && rc == 0; a++) {
        for (size_t b = a + 1; b < n; b++) {
            double lat = sg_host_get_route_latency(rep[a], rep[b]);
            if (!(lat > 0) || lat > 1e9) {
                rc = err_set(e, p->path, 0,
                             "no route with a latency > 0 between node %zu and node %zu", a, b);
                break;
            }
            uint32_t c = (uint32_t)lround(2 * lat); /* one way -> round trip */
            p->node_lat[a * n + b] = c;
            p->node_lat[b * n + a] = c;
        }
    }
    free(rep);
    return rc;
}
