/* platform_xml_internal: what the two files of the platform reader share
 * (platform_xml.c and platform_dtd.c); not an API. */
#ifndef NUMASIM_PLATFORM_XML_INTERNAL_H
#define NUMASIM_PLATFORM_XML_INTERNAL_H

#include "err.h"
#include "platform.h"

#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

static inline char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        abort();
    return d;
}

static inline void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

static inline int is_elem(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* Returns the attribute as a malloc'd string (caller frees), or NULL. */
static inline char *attr(const xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    if (!v)
        return NULL;
    char *s = xstrdup((const char *)v);
    xmlFree(v);
    return s;
}

/* The DOCTYPE SimGrid's parser needs (the old URL is accepted too). */
#define SIMGRID_DTD     "https://simgrid.org/simgrid.dtd"
#define SIMGRID_OLD_DTD "http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd"
#define SIMGRID_DOCTYPE "<!DOCTYPE platform SYSTEM \"" SIMGRID_DTD "\">"

/* Accepts only the subset of SimGrid 3.32's platform DTD that numasim uses,
 * checked as SimGrid's parser does, so that a file that passes loads in
 * SimGrid without an abort. doctype: the file declared SimGrid's DOCTYPE.
 * Returns 0, or -1 with e ("PATH:LINE: message"). */
int platform_check_simgrid(const xmlDoc *doc, int doctype, const char *path, err_t *e);

/* Reads and checks the optional cache, code and footprint properties into
 * p (platform_caches.c), after the required ones and the CPUs. Returns 0,
 * or -1 with e. */
int platform_check_caches(platform_t *p, err_t *e);

#endif
