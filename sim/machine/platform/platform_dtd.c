/* platform_dtd: the part of SimGrid's platform format numasim accepts.
 *
 * Split from platform_xml.c: platform_read() calls platform_check_simgrid()
 * on every file before anything reaches SimGrid. */
#include "platform_dtd.h"
#include "platform_xmlnode.h"
#include "xalloc.h"

#include <libxml/parser.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

/* --- what SimGrid's parser accepts --------------------------------------- */

/* SimGrid reads the file again with its own parser (FleXML, generated from
 * simgrid.dtd) and aborts with a backtrace on whatever it does not take:
 * text between elements, CDATA, entities, unknown elements or attributes,
 * elements out of the DTD's order, a link or node that is not declared
 * before its use, a name given twice, a route given twice, ... (each case
 * was tried on SimGrid 3.32). numasim's platforms use a subset of the DTD;
 * check_simgrid() accepts that subset only, so that a file that passes here
 * loads in SimGrid too. */

/* A set of strings with a value each (open addressing, FNV-1a). */
typedef struct {
    char **keys;
    const void **vals;
    size_t cap, n;
} smap_t;

static size_t smap_hash(const char *k)
{
    size_t h = 1469598103934665603u;
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 1099511628211u;
    return h;
}

static const void *smap_get(const smap_t *m, const char *k)
{
    if (!m->cap)
        return NULL;
    for (size_t i = smap_hash(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return NULL;
        if (strcmp(m->keys[i], k) == 0)
            return m->vals[i];
    }
}

/* Adds k (copied) with value v unless present; returns the value already
 * there, or NULL when added. */
static const void *smap_add(smap_t *m, const char *k, const void *v)
{
    if (2 * (m->n + 1) > m->cap) {
        smap_t g = {NULL, NULL, m->cap ? 2 * m->cap : 64, 0};
        g.keys = xcalloc(g.cap, sizeof *g.keys);
        g.vals = xcalloc(g.cap, sizeof *g.vals);
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t j = smap_hash(m->keys[i]) & (g.cap - 1);
                while (g.keys[j])
                    j = (j + 1) & (g.cap - 1);
                g.keys[j] = m->keys[i];
                g.vals[j] = m->vals[i];
                g.n++;
            }
        free(m->keys);
        free((void *)m->vals);
        *m = g;
    }
    size_t i = smap_hash(k) & (m->cap - 1);
    for (; m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (strcmp(m->keys[i], k) == 0)
            return m->vals[i];
    m->keys[i] = xstrdup(k);
    m->vals[i] = v;
    m->n++;
    return NULL;
}

static void smap_free(smap_t *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free((void *)m->vals);
}

/* The elements accepted, their attributes (space-separated) and the
 * required ones; AS and ASroute are the old names of zone and zoneRoute. */
static const struct {
    const char *name, *attrs, *required;
} kElems[] = {
    {"platform", "version", "version"},
    {"zone", "id routing", "id routing"},
    {"AS", "id routing", "id routing"},
    {"host", "id speed core", "id speed"},
    {"router", "id", "id"},
    {"link", "id bandwidth latency sharing_policy", "id bandwidth latency"},
    {"route", "src dst symmetrical", "src dst"},
    {"zoneRoute", "src dst gw_src gw_dst symmetrical", "src dst gw_src gw_dst"},
    {"ASroute", "src dst gw_src gw_dst symmetrical", "src dst gw_src gw_dst"},
    {"link_ctn", "id direction", "id"},
    {"prop", "id value", "id value"},
};
#define NELEMS (sizeof kElems / sizeof kElems[0])

/* Whether word is one of the space-separated words of list. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *c = list; *c;) {
        size_t w = strcspn(c, " ");
        if (w == n && strncmp(c, word, n) == 0)
            return 1;
        c += w;
        c += *c == ' ';
    }
    return 0;
}

typedef struct {
    const char *path;
    err_t *e;
    smap_t nodes;  /* host, router and zone names -> the xmlNode */
    smap_t links;  /* link ids */
    smap_t routes; /* "ZONE\1SRC\1DST" of every route given */
} simgrid_ctx_t;

static int is_zone(const xmlNode *n)
{
    return is_elem(n, "zone") || is_elem(n, "AS");
}

static int at(simgrid_ctx_t *v, const xmlNode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int at(simgrid_ctx_t *v, const xmlNode *n, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return err_set(v->e, v->path, n ? (int)xmlGetLineNo(n) : 0, "%s", msg);
}

/* A bandwidth as SimGrid writes it: a decimal number and a unit. */
static int bandwidth_ok(const char *s)
{
    static const char *const units[] = {"Bps",   "kBps",  "MBps",  "GBps",  "TBps",  "PBps", "EBps",
                                        "KiBps", "MiBps", "GiBps", "TiBps", "bps",   "kbps", "Mbps",
                                        "Gbps",  "Tbps",  "Kibps", "Mibps", "Gibps", "Tibps"};
    size_t d = strspn(s, "0123456789");
    if (s[d] == '.')
        d += 1 + strspn(s + d + 1, "0123456789");
    if (d == 0 || (d == 1 && s[0] == '.'))
        return 0;
    if (s[d] == 'e' || s[d] == 'E') {
        size_t x = d + 1 + (s[d + 1] == '+' || s[d + 1] == '-');
        size_t k = strspn(s + x, "0123456789");
        if (k == 0)
            return 0;
        d = x + k;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(s + d, units[i]) == 0)
            return 1;
    return 0;
}

/* Registers a host, router or zone name (one namespace in SimGrid). */
static int add_node(simgrid_ctx_t *v, const xmlNode *n, const char *id)
{
    const xmlNode *old = smap_add(&v->nodes, id, n);
    if (old)
        return at(v, n, "<%s> '%s': the name is taken by the <%s> of line %d", n->name, id,
                  old->name, (int)xmlGetLineNo(old));
    return 0;
}

/* A host or router declared before as a child of zone (for a route), or a
 * zone declared before as a child of zone (for a zoneRoute). */
static int endpoint(simgrid_ctx_t *v, const xmlNode *n, const char *attr_name, const char *id,
                    const xmlNode *zone, int want_zone)
{
    const xmlNode *t = smap_get(&v->nodes, id);
    const char *what = want_zone ? "a <zone>" : "a <host> or <router>";
    if (!t || is_zone(t) != want_zone)
        return at(v, n, "<%s> %s='%s' names no %s declared before it", n->name, attr_name, id,
                  what + 2);
    if (t->parent != zone) {
        char *zid = attr(zone, "id");
        int rc = at(v, n, "<%s> %s='%s' is not %s of zone '%s'", n->name, attr_name, id, what,
                    zid ? zid : "");
        free(zid);
        return rc;
    }
    return 0;
}

/* Records the route zone:src->dst (and back when symmetrical). */
static int add_route(simgrid_ctx_t *v, const xmlNode *n, const xmlNode *zone, const char *src,
                     const char *dst, int symmetrical)
{
    /* the key: the zone's address in 16 hex digits, then the names, built
     * by hand (a 4096-CPU platform has some 10^5 routes: snprintf would be
     * a fifth of its check) */
    size_t ls = strlen(src), ld = strlen(dst);
    char small[256];
    char *key = 16 + ls + ld + 3 <= sizeof small ? small : xrealloc(NULL, 16 + ls + ld + 3);
    uintptr_t z = (uintptr_t)zone;
    for (int i = 15; i >= 0; i--, z >>= 4)
        key[i] = "0123456789abcdef"[z & 15];
    key[16] = '\1';
    const xmlNode *old = NULL;
    int back = 0;
    for (; !old && back <= (symmetrical && strcmp(src, dst) != 0); back++) {
        const char *a = back ? dst : src, *b = back ? src : dst;
        size_t la = back ? ld : ls;
        memcpy(key + 17, a, la);
        key[17 + la] = '\1';
        strcpy(key + 18 + la, b);
        old = smap_add(&v->routes, key, n);
    }
    if (key != small)
        free(key);
    back--;
    if (old)
        return at(v, n, "<%s> from '%s' to '%s': that route is already given at line %d%s", n->name,
                  back ? dst : src, back ? src : dst, (int)xmlGetLineNo(old),
                  back ? " (routes are symmetrical unless symmetrical=\"NO\")" : "");
    return 0;
}

/* Checks one element's own attributes and registers what it declares. */
static int check_element(simgrid_ctx_t *v, const xmlNode *n, const xmlNode *zone)
{
    size_t k = 0;
    while (k < NELEMS && strcmp(kElems[k].name, (const char *)n->name) != 0)
        k++;
    if (k == NELEMS)
        return at(v, n, "element <%s> is not supported in numasim platform files", n->name);
    if (n->ns || n->nsDef)
        return at(v, n, "<%s>: XML namespaces are not supported", n->name);
    for (const xmlAttr *a = n->properties; a; a = a->next) {
        if (a->ns || !has_word(kElems[k].attrs, (const char *)a->name))
            return at(v, n, "<%s>: attribute '%s' is not supported (allowed: %s)", n->name, a->name,
                      kElems[k].attrs);
        for (const xmlNode *c = a->children; c; c = c->next)
            if (c->type != XML_TEXT_NODE)
                return at(v, n,
                          "<%s>: attribute '%s': entity references other than &lt; "
                          "&gt; &amp; &quot; &apos; and &#N; are not supported",
                          n->name, a->name);
    }
    for (const char *w = kElems[k].required; *w;) {
        char word[32];
        size_t len = strcspn(w, " ");
        memcpy(word, w, len);
        word[len] = '\0';
        if (!xmlHasProp(n, (const xmlChar *)word))
            return at(v, n, "<%s> needs the attribute '%s'", n->name, word);
        w += len;
        w += *w == ' ';
    }

    int rc = 0;
    char *id = attr(n, "id");
    if (is_zone(n)) {
        char *r = attr(n, "routing");
        if (!has_word("Full Floyd Dijkstra DijkstraCache None", r))
            rc = at(v, n,
                    "<%s> '%s': routing must be Full, Floyd, Dijkstra, DijkstraCache or "
                    "None, not '%s'",
                    n->name, id, r);
        free(r);
        if (!rc)
            rc = add_node(v, n, id);
    } else if (is_elem(n, "host") || is_elem(n, "router")) {
        char *core = attr(n, "core");
        long c;
        if (core &&
            (err_parse_long(core, &c) < 0 || c < 1 || c > 1024 || core[0] == '+' || core[0] == ' '))
            rc = at(v, n, "<host> '%s': core must be a whole number from 1 to 1024, not '%s'", id,
                    core);
        free(core);
        if (!rc)
            rc = add_node(v, n, id);
    } else if (is_elem(n, "link")) {
        char *bw = attr(n, "bandwidth"), *sp = attr(n, "sharing_policy");
        if (!bandwidth_ok(bw))
            rc = at(v, n,
                    "<link> '%s': bandwidth must be a number and a unit such as 6.4GBps, "
                    "not '%s'",
                    id, bw);
        else if (sp && !has_word("SHARED FATPIPE", sp))
            rc =
                at(v, n, "<link> '%s': sharing_policy must be SHARED or FATPIPE, not '%s'", id, sp);
        else {
            const xmlNode *old = smap_add(&v->links, id, n);
            if (old)
                rc = at(v, n, "<link> '%s' is already declared at line %d", id,
                        (int)xmlGetLineNo(old));
        }
        free(bw);
        free(sp);
    } else if (is_elem(n, "link_ctn")) {
        char *dir = attr(n, "direction");
        if (!smap_get(&v->links, id))
            rc = at(v, n, "<link_ctn> names link '%s', which is not declared before it", id);
        else if (dir && strcmp(dir, "NONE") != 0)
            rc = at(v, n,
                    "<link_ctn> '%s': direction must be NONE (no SPLITDUPLEX links), "
                    "not '%s'",
                    id, dir);
        free(dir);
    } else if (is_elem(n, "route") || is_elem(n, "zoneRoute") || is_elem(n, "ASroute")) {
        int zr = !is_elem(n, "route");
        char *src = attr(n, "src"), *dst = attr(n, "dst"), *sym = attr(n, "symmetrical");
        int nctn = 0;
        for (const xmlNode *c = n->children; c; c = c->next)
            nctn += is_elem(c, "link_ctn");
        if (sym && !has_word("YES NO yes no", sym))
            rc = at(v, n, "<%s>: symmetrical must be YES or NO, not '%s'", n->name, sym);
        else if (nctn == 0)
            rc = at(v, n,
                    "<%s> from '%s' to '%s' has no <link_ctn> (SimGrid forbids empty "
                    "routes)",
                    n->name, src, dst);
        if (!rc)
            rc = endpoint(v, n, "src", src, zone, zr);
        if (!rc)
            rc = endpoint(v, n, "dst", dst, zone, zr);
        for (int g = 0; zr && !rc && g < 2; g++) {
            char *gw = attr(n, g ? "gw_dst" : "gw_src");
            rc = endpoint(v, n, g ? "gw_dst" : "gw_src", gw, smap_get(&v->nodes, g ? dst : src), 0);
            free(gw);
        }
        if (!rc)
            rc =
                add_route(v, n, zone, src, dst, !sym || !strcmp(sym, "YES") || !strcmp(sym, "yes"));
        free(src);
        free(dst);
        free(sym);
    }
    free(id);
    return rc;
}

/* Which elements may be inside which. */
static int allowed_in(const xmlNode *parent, const xmlNode *c)
{
    if (is_elem(parent, "platform"))
        return is_zone(c);
    if (is_zone(parent))
        return is_zone(c) || is_elem(c, "prop") || is_elem(c, "host") || is_elem(c, "router") ||
               is_elem(c, "link") || is_elem(c, "route") || is_elem(c, "zoneRoute") ||
               is_elem(c, "ASroute");
    if (is_elem(parent, "host") || is_elem(parent, "link"))
        return is_elem(c, "prop");
    if (is_elem(parent, "route") || is_elem(parent, "zoneRoute") || is_elem(parent, "ASroute"))
        return is_elem(c, "link_ctn");
    return 0;
}

/* Marks in seen[] the points reachable from point 0 along the edges
 * (from[k] -> to[k]); adjacency in CSR form, built here. */
static void reach(int npts, int nedges, const int *from, const int *to, char *seen)
{
    int *start = xcalloc((size_t)npts + 1, sizeof *start);
    int *adj = xcalloc((size_t)nedges + 1, sizeof *adj);
    int *stack = xcalloc((size_t)npts, sizeof *stack);
    for (int k = 0; k < nedges; k++)
        start[from[k] + 1]++;
    for (int i = 0; i < npts; i++)
        start[i + 1] += start[i];
    int *fill = xcalloc((size_t)npts, sizeof *fill);
    for (int k = 0; k < nedges; k++)
        adj[start[from[k]] + fill[from[k]]++] = to[k];
    free(fill);
    int top = 0;
    memset(seen, 0, (size_t)npts);
    seen[0] = 1;
    stack[top++] = 0;
    while (top > 0) {
        int a = stack[--top];
        for (int k = start[a]; k < start[a + 1]; k++)
            if (!seen[adj[k]]) {
                seen[adj[k]] = 1;
                stack[top++] = adj[k];
            }
    }
    free(start);
    free(adj);
    free(stack);
}

/* SimGrid's Dijkstra, DijkstraCache and Floyd routings crash (a NULL
 * dereference, an uncaught exception or an endless loop) on a route to a
 * point that no route reaches: in such a zone, the routes must connect every
 * host and router (or every zone, in a zone of zones) both ways. Full and
 * None zones report a missing route themselves. */
static int check_connected(simgrid_ctx_t *v, const xmlNode *zone)
{
    char *routing = attr(zone, "routing");
    int graph = routing && has_word("Dijkstra DijkstraCache Floyd", routing);
    free(routing);
    if (!graph)
        return 0;
    int npts = 0, nedges = 0, cap = 0, rc = 0;
    smap_t idx = {0};
    const xmlNode **pts = NULL;
    int *from = NULL, *to = NULL;
    for (const xmlNode *c = zone->children; c; c = c->next)
        if (is_zone(c) || is_elem(c, "host") || is_elem(c, "router")) {
            char *id = attr(c, "id");
            pts = xrealloc(pts, sizeof *pts * (size_t)(npts + 1));
            pts[npts++] = c;
            smap_add(&idx, id, (const void *)(uintptr_t)npts); /* index + 1 */
            free(id);
        }
    for (const xmlNode *c = zone->children; c && npts >= 2; c = c->next) {
        if (!is_elem(c, "route") && !is_elem(c, "zoneRoute") && !is_elem(c, "ASroute"))
            continue;
        char *src = attr(c, "src"), *dst = attr(c, "dst"), *sym = attr(c, "symmetrical");
        int a = (int)(uintptr_t)smap_get(&idx, src) - 1,
            b = (int)(uintptr_t)smap_get(&idx, dst) - 1;
        int both = !sym || !strcmp(sym, "YES") || !strcmp(sym, "yes");
        free(src);
        free(dst);
        free(sym);
        if (a < 0 || b < 0) /* cannot be: checked before */
            continue;
        if (nedges + 2 > cap) {
            cap = cap ? 2 * cap : 64;
            from = xrealloc(from, sizeof *from * (size_t)cap);
            to = xrealloc(to, sizeof *to * (size_t)cap);
        }
        from[nedges] = a;
        to[nedges++] = b;
        if (both) {
            from[nedges] = b;
            to[nedges++] = a;
        }
    }
    if (npts >= 2) {
        char *seen = xrealloc(NULL, (size_t)npts);
        for (int dir = 0; dir < 2 && !rc; dir++) {
            reach(npts, nedges, dir ? to : from, dir ? from : to, seen);
            for (int i = 0; i < npts && !rc; i++)
                if (!seen[i]) {
                    char *zid = attr(zone, "id"), *pid = attr(pts[i], "id"),
                         *p0 = attr(pts[0], "id");
                    rc = at(v, pts[i],
                            "<%s> '%s': no route %s '%s' in zone '%s' (its routing "
                            "needs every point connected)",
                            pts[i]->name, pid, dir ? "leads from it to" : "leads to it from", p0,
                            zid);
                    free(zid);
                    free(pid);
                    free(p0);
                }
        }
        free(seen);
    }
    smap_free(&idx);
    free(pts);
    free(from);
    free(to);
    return rc;
}

/* Checks n's children (then theirs), in document order. */
static int check_children(simgrid_ctx_t *v, const xmlNode *n)
{
    /* Inside a zone, in this order: props; then either zones or hosts and
     * routers, with links; then routes (zoneRoutes between zones). */
    int phase = 0, zones = 0, points = 0, nzones = 0;
    for (const xmlNode *c = n->children; c; c = c->next) {
        switch (c->type) {
        case XML_ELEMENT_NODE:
            break;
        case XML_TEXT_NODE:
            if (c->content &&
                ((const char *)c->content)[strspn((const char *)c->content, " \t\r\n")])
                return at(v, c, "text is not allowed inside <%s>", n->name);
            continue;
        case XML_COMMENT_NODE:
        case XML_PI_NODE:
            continue;
        case XML_CDATA_SECTION_NODE:
            return at(v, c, "CDATA sections are not supported (inside <%s>)", n->name);
        case XML_ENTITY_REF_NODE:
            return at(v, n,
                      "entity references other than &lt; &gt; &amp; &quot; &apos; and "
                      "&#N; are not supported (inside <%s>)",
                      n->name);
        default:
            return at(v, n, "unsupported XML content inside <%s>", n->name);
        }
        if (!allowed_in(n, c))
            return at(v, c, "<%s> is not allowed inside <%s>", c->name, n->name);
        if (is_elem(n, "platform") && ++nzones > 1)
            return at(v, c, "a second top-level <%s>: a platform has one top zone", c->name);
        if (is_zone(n)) {
            int group = is_elem(c, "prop") ? 0
                        : (is_elem(c, "route") || is_elem(c, "zoneRoute") || is_elem(c, "ASroute"))
                            ? 2
                            : 1;
            if (group < phase)
                return at(v, c, "<%s> must come before the %s of its zone", c->name,
                          phase == 2 ? "routes" : "zones, hosts, routers and links");
            phase = group;
            zones |= is_zone(c);
            points |= is_elem(c, "host") || is_elem(c, "router");
            if (zones && points)
                return at(v, c, "<%s>: a zone holds either zones or hosts and routers, not both",
                          c->name);
            if ((is_elem(c, "route") && zones) || (!is_elem(c, "route") && group == 2 && points))
                return at(v, c, "<%s> inside a zone of %s: use <%s>", c->name,
                          zones ? "zones" : "hosts", zones ? "zoneRoute" : "route");
        }
        if (check_element(v, c, n) < 0 || check_children(v, c) < 0)
            return -1;
    }
    return is_zone(n) ? check_connected(v, n) : 0;
}

int platform_check_simgrid(const xmlDoc *doc, int doctype, const char *path, err_t *e)
{
    const xmlDtd *d = doc->intSubset;
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!doctype || !d || !d->name || strcmp((const char *)d->name, "platform") != 0 ||
        d->ExternalID || !d->SystemID ||
        (strcmp((const char *)d->SystemID, SIMGRID_DTD) != 0 &&
         strcmp((const char *)d->SystemID, SIMGRID_OLD_DTD) != 0))
        return err_set(e, path, 0,
                       "the file must declare " SIMGRID_DOCTYPE
                       " before <platform> (SimGrid's parser needs it)");
    if (d->children)
        return err_set(e, path, 0, "declarations inside <!DOCTYPE> are not supported");
    simgrid_ctx_t v = {path, e, {0}, {0}, {0}};
    int rc = check_element(&v, root, NULL);
    if (!rc)
        rc = check_children(&v, root);
    smap_free(&v.nodes);
    smap_free(&v.links);
    smap_free(&v.routes);
    return rc;
}
