/* platform: the platform_t object that platform_xml.c fills (its
 * properties, its memory model's name, freeing it). The files that read or
 * check a platform file use it; it uses none of them. */
#include "platform.h"

#include <stdlib.h>
#include <string.h>

const platform_param_t *platform_param(const platform_t *p, const char *name)
{
    for (int i = 0; i < p->nparams; i++)
        if (strcmp(p->params[i].name, name) == 0)
            return &p->params[i];
    return NULL;
}

const char *platform_model_name(platform_model_t m)
{
    return m == PLATFORM_TSO ? "tso" : m == PLATFORM_WEAK ? "weak" : "sc";
}

void platform_free(platform_t *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->ncpus; i++)
        free(p->cpu_host[i]);
    for (int i = 0; i < p->nparams; i++) {
        free(p->params[i].name);
        free(p->params[i].value);
    }
    for (int i = 0; i < p->nlinks; i++) {
        free(p->links[i].id);
        free(p->links[i].cls);
    }
    free(p->cpu_host);
    free(p->cpu_node);
    free(p->cpu_package);
    free(p->node_first_cpu);
    free(p->params);
    free(p->links);
    free(p->node_lat);
    free(p->path);
    free(p->name);
    free(p);
}
