/* platform_xmlnode: the libxml2 helpers and SimGrid DOCTYPE that the
 * reader (platform_xml.c) and the DTD check (platform_dtd.c) share. */
#ifndef NUMASIM_PLATFORM_XMLNODE_H
#define NUMASIM_PLATFORM_XMLNODE_H

#include "xalloc.h"

#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

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

#endif
