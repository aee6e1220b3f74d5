/* platform_xml: reading, validating and rewriting platform files (libxml2).
 *
 * SimGrid aborts with a backtrace on a malformed file, so every file is read
 * here first; only a file that passes goes to SimGrid. Conventions checked:
 *   - <platform version="4.1"> holding one top <zone>; its id is the name;
 *   - hosts (one per CPU) have speed="1f" and a "numa_node" prop, with the
 *     nodes numbered 0..N-1 without gaps;
 *   - the top zone's props give the memory model's costs (see kRequired);
 *   - link latencies are in cycles, written "Ns"; a link may carry a "class"
 *     prop, which makes "link.CLASS" a parameter (all its links share it);
 *   - the file is one SimGrid's own parser takes (check_simgrid): a regular
 *     file without NUL bytes or byte order mark, the SimGrid DOCTYPE, only
 *     the elements and attributes numasim uses, in the DTD's order, every
 *     name declared once and before its use, no empty or repeated route,
 *     and graph-routed zones connected.
 */
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Zone props every platform must give, with the lowest value accepted. */
static const struct {
    const char *name;
    double min;
    size_t offset; /* into mem_costs_t, or SIZE_MAX */
} kRequired[] = {
    {"clock_mhz", 1, SIZE_MAX},
    {"line_bytes", 8, SIZE_MAX},
    {"hit_cycles", 0, offsetof(mem_costs_t, hit_cycles)},
    {"atomic_cycles", 0, offsetof(mem_costs_t, atomic_cycles)},
    {"mem_local_cycles", 0, offsetof(mem_costs_t, mem_local_cycles)},
    {"c2c_node_cycles", 0, offsetof(mem_costs_t, c2c_node_cycles)},
    {"remote_dirty_cycles", 0, offsetof(mem_costs_t, remote_dirty_cycles)},
    {"inval_node_cycles", 0, offsetof(mem_costs_t, inval_node_cycles)},
    {"relax_cycles", 0, offsetof(mem_costs_t, relax_cycles)},
};
#define NREQUIRED (sizeof kRequired / sizeof kRequired[0])

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        abort();
    return d;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

static int is_elem(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* Returns the attribute as a malloc'd string (caller frees), or NULL. */
static char *attr(const xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    if (!v)
        return NULL;
    char *s = xstrdup((const char *)v);
    xmlFree(v);
    return s;
}

/* The value of child <prop id=ID>, malloc'd, or NULL; *line gets its line. */
static char *child_prop(const xmlNode *n, const char *id, int *line)
{
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (!is_elem(c, "prop"))
            continue;
        char *pid = attr(c, "id");
        int match = pid && strcmp(pid, id) == 0;
        free(pid);
        if (match) {
            if (line)
                *line = (int)xmlGetLineNo(c);
            return attr(c, "value");
        }
    }
    return NULL;
}

static void add_param(platform_t *p, const char *name, const char *value, int line)
{
    p->params = xrealloc(p->params, sizeof *p->params * (size_t)(p->nparams + 1));
    platform_param_t *q = &p->params[p->nparams++];
    memset(q, 0, sizeof *q);
    q->name = xstrdup(name);
    q->value = xstrdup(value);
    q->line = line;
}

static platform_param_t *find_param(platform_t *p, const char *name)
{
    for (int i = 0; i < p->nparams; i++)
        if (strcmp(p->params[i].name, name) == 0)
            return &p->params[i];
    return NULL;
}

const platform_param_t *platform_param(const platform_t *p, const char *name)
{
    return find_param((platform_t *)p, name);
}

/* Parses "12.5s" (cycles). Returns 0 or -1. */
static int parse_latency(const char *s, double *out)
{
    size_t n = s ? strlen(s) : 0;
    if (n < 2 || s[n - 1] != 's')
        return -1;
    char buf[64];
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, s, n - 1);
    buf[n - 1] = '\0';
    if (err_parse_double(buf, out) < 0 || *out < 0)
        return -1;
    return 0;
}

static void walk(platform_t *p, const xmlNode *n, const char *path, err_t *e, int *failed);

static void read_host(platform_t *p, const xmlNode *n, const char *path, err_t *e, int *failed)
{
    int line = (int)xmlGetLineNo(n);
    char *id = attr(n, "id");
    char *speed = attr(n, "speed");
    int pline = line;
    char *node = child_prop(n, "numa_node", &pline);
    long v;
    if (!id)
        *failed = err_set(e, path, line, "host without an id");
    else if (!speed || strcmp(speed, "1f") != 0)
        *failed = err_set(e, path, line, "host '%s': speed must be \"1f\" (one cycle per second)",
                          id);
    else if (!node)
        *failed = err_set(e, path, line, "host '%s': missing required property 'numa_node'", id);
    else if (err_parse_long(node, &v) < 0 || v < 0 || v > 1000000)
        *failed = err_set(e, path, pline,
                          "host '%s': property 'numa_node' must be a whole number >= 0, not '%s'",
                          id, node);
    if (!*failed) {
        p->cpu_host = xrealloc(p->cpu_host, sizeof(char *) * (size_t)(p->ncpus + 1));
        p->cpu_node = xrealloc(p->cpu_node, sizeof(int) * (size_t)(p->ncpus + 1));
        p->cpu_host[p->ncpus] = xstrdup(id);
        p->cpu_node[p->ncpus] = (int)v;
        p->ncpus++;
    }
    free(id);
    free(speed);
    free(node);
}

static void read_link(platform_t *p, const xmlNode *n, const char *path, err_t *e, int *failed)
{
    int line = (int)xmlGetLineNo(n);
    char *id = attr(n, "id");
    char *lat = attr(n, "latency");
    char *cls = child_prop(n, "class", NULL);
    double v = 0;
    if (!id)
        *failed = err_set(e, path, line, "link without an id");
    else if (!lat)
        *failed = err_set(e, path, line, "link '%s': missing latency", id);
    else if (parse_latency(lat, &v) < 0)
        *failed = err_set(e, path, line,
                          "link '%s': latency must be a number >= 0 of cycles written \"Ns\", "
                          "not '%s'",
                          id, lat);
    if (!*failed) {
        p->links = xrealloc(p->links, sizeof *p->links * (size_t)(p->nlinks + 1));
        platform_link_t *l = &p->links[p->nlinks++];
        l->id = xstrdup(id);
        l->cls = cls ? xstrdup(cls) : NULL;
        l->latency = v;
        l->line = line;
    }
    free(id);
    free(lat);
    free(cls);
}

static void walk(platform_t *p, const xmlNode *n, const char *path, err_t *e, int *failed)
{
    for (const xmlNode *c = n->children; c && !*failed; c = c->next) {
        if (is_elem(c, "host"))
            read_host(p, c, path, e, failed);
        else if (is_elem(c, "link"))
            read_link(p, c, path, e, failed);
        else if (is_elem(c, "zone") || is_elem(c, "AS"))
            walk(p, c, path, e, failed);
    }
}

/* Largest platform file read (numa32.xml is 16 KiB). */
#define PLATFORM_MAX_BYTES (16L << 20)

/* Reads the whole file into a malloc'd buffer: a regular file of at most
 * PLATFORM_MAX_BYTES without NUL bytes. SimGrid reads the file again with
 * its own parser, which fails where libxml2 would have stopped quietly at a
 * NUL byte or decompressed a gzip file; so the bytes are read here and
 * handed to libxml2 as they are. Returns NULL with e. */
static char *read_bytes(const char *path, size_t *len, err_t *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        err_set(e, path, 0, "cannot read platform file");
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        err_set(e, path, 0, "platform file is not a regular file");
        return NULL;
    }
    if (st.st_size > PLATFORM_MAX_BYTES) {
        close(fd);
        err_set(e, path, 0, "platform file is larger than %ld bytes", PLATFORM_MAX_BYTES);
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = xrealloc(NULL, cap);
    for (;;) {
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            close(fd);
            free(buf);
            err_set(e, path, 0, "cannot read platform file");
            return NULL;
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n == cap) { /* the file grew while read */
            if (cap > (size_t)PLATFORM_MAX_BYTES) {
                close(fd);
                free(buf);
                err_set(e, path, 0, "platform file is larger than %ld bytes",
                        PLATFORM_MAX_BYTES);
                return NULL;
            }
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    close(fd);
    const char *nul = memchr(buf, '\0', n);
    if (nul) {
        int line = 1;
        for (const char *c = buf; c < nul; c++)
            line += *c == '\n';
        free(buf);
        err_set(e, path, line, "NUL byte in the platform file");
        return NULL;
    }
    *len = n;
    return buf;
}

/* The document type declaration SimGrid's parser requires, word for word
 * (SimGrid 3.32 also takes the DTD's old address, and single quotes). */
#define SIMGRID_DTD "https://simgrid.org/simgrid.dtd"
#define SIMGRID_OLD_DTD "http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd"
#define SIMGRID_DOCTYPE "<!DOCTYPE platform SYSTEM \"" SIMGRID_DTD "\">"
static const char *const kDoctypes[] = {
    SIMGRID_DOCTYPE,
    "<!DOCTYPE platform SYSTEM '" SIMGRID_DTD "'>",
    "<!DOCTYPE platform SYSTEM \"" SIMGRID_OLD_DTD "\">",
    "<!DOCTYPE platform SYSTEM '" SIMGRID_OLD_DTD "'>",
};

/* Loads the document, or fills e with the parser's first error. When
 * doctype is not NULL, *doctype tells whether one of kDoctypes is in the
 * text (check_simgrid() checks that it is the document's). */
static xmlDoc *load_doc(const char *path, int *doctype, err_t *e)
{
    size_t len;
    char *bytes = read_bytes(path, &len, e);
    if (!bytes)
        return NULL;
    if (len >= 3 && memcmp(bytes, "\xef\xbb\xbf", 3) == 0) {
        free(bytes);
        err_set(e, path, 1, "byte order mark at the start of the file (SimGrid's parser "
                            "does not accept it)");
        return NULL;
    }
    if (doctype) {
        *doctype = 0;
        for (const char *c = bytes; !*doctype && (c = memchr(c, '<', len - (size_t)(c - bytes)));
             c++)
            for (size_t i = 0; i < sizeof kDoctypes / sizeof kDoctypes[0]; i++) {
                size_t dl = strlen(kDoctypes[i]);
                if (len - (size_t)(c - bytes) >= dl && memcmp(c, kDoctypes[i], dl) == 0)
                    *doctype = 1;
            }
    }
    if (len > INT_MAX) /* cannot be: PLATFORM_MAX_BYTES */
        abort();
    xmlResetLastError();
    xmlDoc *doc = xmlReadMemory(bytes, (int)len, path, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    free(bytes);
    if (!doc) {
        const xmlError *x = xmlGetLastError();
        char msg[256] = "not well-formed XML";
        if (x && x->message) {
            snprintf(msg, sizeof msg, "malformed XML: %s", x->message);
            msg[strcspn(msg, "\n")] = '\0';
        }
        err_set(e, path, x ? x->line : 0, "%s", msg);
    }
    return doc;
}

static const xmlNode *top_zone(const xmlDoc *doc, const char *path, err_t *e)
{
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || !is_elem(root, "platform")) {
        err_set(e, path, root ? (int)xmlGetLineNo(root) : 0, "root element must be <platform>");
        return NULL;
    }
    char *ver = attr(root, "version");
    int ok = ver && strcmp(ver, "4.1") == 0;
    free(ver);
    if (!ok) {
        err_set(e, path, (int)xmlGetLineNo(root), "<platform> must have version=\"4.1\"");
        return NULL;
    }
    for (const xmlNode *c = root->children; c; c = c->next)
        if (is_elem(c, "zone"))
            return c;
    err_set(e, path, (int)xmlGetLineNo(root), "no <zone> inside <platform>");
    return NULL;
}

static int apply_overrides(platform_t *p, const platform_override_t *ov, int nov, err_t *e)
{
    for (int i = 0; i < nov; i++) {
        platform_param_t *q = find_param(p, ov[i].name);
        if (!q || strcmp(q->name, "tunable") == 0)
            return err_set(e, "--set", 0, "platform.%s: %s has no such parameter", ov[i].name,
                           p->path);
        free(q->value);
        q->value = xstrdup(ov[i].value);
        q->overridden = 1;
        if (strncmp(q->name, "link.", 5) == 0) {
            double v;
            if (err_parse_double(q->value, &v) < 0 || v < 0)
                return err_set(e, "--set", 0, "platform.%s: '%s' is not a number >= 0", q->name,
                               q->value);
            for (int k = 0; k < p->nlinks; k++)
                if (p->links[k].cls && strcmp(p->links[k].cls, q->name + 5) == 0)
                    p->links[k].latency = v;
        }
    }
    return 0;
}

/* Turns link classes into "link.CLASS" parameters; a class is one latency. */
static int link_params(platform_t *p, err_t *e)
{
    for (int i = 0; i < p->nlinks; i++) {
        const platform_link_t *l = &p->links[i];
        if (!l->cls)
            continue;
        char name[256];
        snprintf(name, sizeof name, "link.%s", l->cls);
        platform_param_t *q = find_param(p, name);
        char val[64];
        snprintf(val, sizeof val, "%.17g", l->latency);
        if (!q) {
            add_param(p, name, val, l->line);
        } else {
            double prev = strtod(q->value, NULL);
            if (prev != l->latency)
                return err_set(e, p->path, l->line,
                               "link '%s' of class '%s' has latency %g, but line %d gave %g", l->id,
                               l->cls, l->latency, q->line, prev);
        }
    }
    return 0;
}

static int check_values(platform_t *p, err_t *e)
{
    for (size_t i = 0; i < NREQUIRED; i++) {
        platform_param_t *q = find_param(p, kRequired[i].name);
        double v;
        const char *src = q && q->overridden ? "--set" : p->path;
        int line = q && !q->overridden ? q->line : 0;
        if (!q)
            return err_set(e, p->path, 0, "missing required property '%s' in the top zone",
                           kRequired[i].name);
        if (err_parse_double(q->value, &v) < 0)
            return err_set(e, src, line, "property '%s' must be a number, not '%s'", q->name,
                           q->value);
        if (v < kRequired[i].min)
            return err_set(e, src, line, "property '%s' must be >= %g, not %s", q->name,
                           kRequired[i].min, q->value);
        if (kRequired[i].offset != SIZE_MAX)
            *(double *)((char *)&p->costs + kRequired[i].offset) = v;
        else if (strcmp(q->name, "clock_mhz") == 0)
            p->clock_mhz = v;
        else if (strcmp(q->name, "line_bytes") == 0) {
            if (v != floor(v) || v > 4096 || ((long)v & ((long)v - 1)) != 0)
                return err_set(e, src, line, "property 'line_bytes' must be a power of two <= 4096");
            p->line_bytes = (int)v;
        }
    }
    return 0;
}

static int check_cpus(platform_t *p, err_t *e)
{
    if (p->ncpus < 1)
        return err_set(e, p->path, 0, "no <host> (CPU) in the platform");
    int maxn = -1;
    for (int i = 0; i < p->ncpus; i++)
        maxn = p->cpu_node[i] > maxn ? p->cpu_node[i] : maxn;
    if (maxn >= p->ncpus)
        return err_set(e, p->path, 0, "numa_node %d is not below the number of CPUs (%d)", maxn,
                       p->ncpus);
    p->nnodes = maxn + 1;
    p->node_first_cpu = xrealloc(NULL, sizeof(int) * (size_t)p->nnodes);
    for (int n = 0; n < p->nnodes; n++)
        p->node_first_cpu[n] = -1;
    for (int i = p->ncpus - 1; i >= 0; i--)
        p->node_first_cpu[p->cpu_node[i]] = i;
    for (int n = 0; n < p->nnodes; n++)
        if (p->node_first_cpu[n] < 0)
            return err_set(e, p->path, 0, "NUMA node %d has no CPU (nodes must be 0..%d)", n,
                           p->nnodes - 1);
    return 0;
}

static int mark_tunable(platform_t *p, err_t *e)
{
    platform_param_t *t = find_param(p, "tunable");
    if (!t)
        return 0;
    char *list = xstrdup(t->value), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        platform_param_t *q = find_param(p, tok);
        if (!q || q == t) {
            rc = err_set(e, p->path, t->line, "'tunable' names '%s', which is no parameter", tok);
            break;
        }
        q->tunable = 1;
    }
    free(list);
    return rc;
}

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
        g.keys = calloc(g.cap, sizeof *g.keys);
        g.vals = calloc(g.cap, sizeof *g.vals);
        if (!g.keys || !g.vals)
            abort();
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
    static const char *const units[] = {
        "Bps",   "kBps",  "MBps",  "GBps", "TBps", "PBps", "EBps",  "KiBps", "MiBps",
        "GiBps", "TiBps", "bps",   "kbps", "Mbps", "Gbps", "Tbps",  "Kibps", "Mibps",
        "Gibps", "Tibps"};
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
    char zid[32];
    snprintf(zid, sizeof zid, "%p", (const void *)zone);
    for (int back = 0; back <= (symmetrical && strcmp(src, dst) != 0); back++) {
        size_t len = strlen(zid) + strlen(src) + strlen(dst) + 3;
        char *key = xrealloc(NULL, len);
        snprintf(key, len, "%s\1%s\1%s", zid, back ? dst : src, back ? src : dst);
        const xmlNode *old = smap_add(&v->routes, key, n);
        free(key);
        if (old)
            return at(v, n, "<%s> from '%s' to '%s': that route is already given at line %d%s",
                      n->name, back ? dst : src, back ? src : dst, (int)xmlGetLineNo(old),
                      back ? " (routes are symmetrical unless symmetrical=\"NO\")" : "");
    }
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
            return at(v, n, "<%s>: attribute '%s' is not supported (allowed: %s)", n->name,
                      a->name, kElems[k].attrs);
        for (const xmlNode *c = a->children; c; c = c->next)
            if (c->type != XML_TEXT_NODE)
                return at(v, n, "<%s>: attribute '%s': entity references other than &lt; "
                                "&gt; &amp; &quot; &apos; and &#N; are not supported",
                          n->name, a->name);
    }
    char req[64];
    snprintf(req, sizeof req, "%s", kElems[k].required);
    for (char *save = NULL, *w = strtok_r(req, " ", &save); w; w = strtok_r(NULL, " ", &save))
        if (!xmlHasProp(n, (const xmlChar *)w))
            return at(v, n, "<%s> needs the attribute '%s'", n->name, w);

    int rc = 0;
    char *id = attr(n, "id");
    if (is_zone(n)) {
        char *r = attr(n, "routing");
        if (!has_word("Full Floyd Dijkstra DijkstraCache None", r))
            rc = at(v, n, "<%s> '%s': routing must be Full, Floyd, Dijkstra, DijkstraCache or "
                          "None, not '%s'",
                    n->name, id, r);
        free(r);
        if (!rc)
            rc = add_node(v, n, id);
    } else if (is_elem(n, "host") || is_elem(n, "router")) {
        char *core = attr(n, "core");
        long c;
        if (core && (err_parse_long(core, &c) < 0 || c < 1 || c > 1024 || core[0] == '+' ||
                     core[0] == ' '))
            rc = at(v, n, "<host> '%s': core must be a whole number from 1 to 1024, not '%s'",
                    id, core);
        free(core);
        if (!rc)
            rc = add_node(v, n, id);
    } else if (is_elem(n, "link")) {
        char *bw = attr(n, "bandwidth"), *sp = attr(n, "sharing_policy");
        if (!bandwidth_ok(bw))
            rc = at(v, n, "<link> '%s': bandwidth must be a number and a unit such as 6.4GBps, "
                          "not '%s'",
                    id, bw);
        else if (sp && !has_word("SHARED FATPIPE", sp))
            rc = at(v, n, "<link> '%s': sharing_policy must be SHARED or FATPIPE, not '%s'", id,
                    sp);
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
            rc = at(v, n, "<link_ctn> '%s': direction must be NONE (no SPLITDUPLEX links), "
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
            rc = at(v, n, "<%s> from '%s' to '%s' has no <link_ctn> (SimGrid forbids empty "
                          "routes)",
                    n->name, src, dst);
        if (!rc)
            rc = endpoint(v, n, "src", src, zone, zr);
        if (!rc)
            rc = endpoint(v, n, "dst", dst, zone, zr);
        for (int g = 0; zr && !rc && g < 2; g++) {
            char *gw = attr(n, g ? "gw_dst" : "gw_src");
            rc = endpoint(v, n, g ? "gw_dst" : "gw_src", gw, smap_get(&v->nodes, g ? dst : src),
                          0);
            free(gw);
        }
        if (!rc)
            rc = add_route(v, n, zone, src, dst, !sym || !strcmp(sym, "YES") || !strcmp(sym, "yes"));
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
    int *start = calloc((size_t)npts + 1, sizeof *start);
    int *adj = calloc((size_t)nedges + 1, sizeof *adj);
    int *stack = calloc((size_t)npts, sizeof *stack);
    if (!start || !adj || !stack)
        abort();
    for (int k = 0; k < nedges; k++)
        start[from[k] + 1]++;
    for (int i = 0; i < npts; i++)
        start[i + 1] += start[i];
    int *fill = calloc((size_t)npts, sizeof *fill);
    if (!fill)
        abort();
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
        int a = (int)(uintptr_t)smap_get(&idx, src) - 1, b = (int)(uintptr_t)smap_get(&idx, dst) - 1;
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
                    rc = at(v, pts[i], "<%s> '%s': no route %s '%s' in zone '%s' (its routing "
                                       "needs every point connected)",
                            pts[i]->name, pid, dir ? "leads from it to" : "leads to it from",
                            p0, zid);
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
            if (c->content && ((const char *)c->content)[strspn((const char *)c->content,
                                                                " \t\r\n")])
                return at(v, c, "text is not allowed inside <%s>", n->name);
            continue;
        case XML_COMMENT_NODE:
        case XML_PI_NODE:
            continue;
        case XML_CDATA_SECTION_NODE:
            return at(v, c, "CDATA sections are not supported (inside <%s>)", n->name);
        case XML_ENTITY_REF_NODE:
            return at(v, n, "entity references other than &lt; &gt; &amp; &quot; &apos; and "
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
                        : (is_elem(c, "route") || is_elem(c, "zoneRoute") ||
                           is_elem(c, "ASroute"))
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

static int check_simgrid(const xmlDoc *doc, int doctype, const char *path, err_t *e)
{
    const xmlDtd *d = doc->intSubset;
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!doctype || !d || !d->name || strcmp((const char *)d->name, "platform") != 0 ||
        d->ExternalID || !d->SystemID ||
        (strcmp((const char *)d->SystemID, SIMGRID_DTD) != 0 &&
         strcmp((const char *)d->SystemID, SIMGRID_OLD_DTD) != 0))
        return err_set(e, path, 0, "the file must declare " SIMGRID_DOCTYPE
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

platform_t *platform_read(const char *path, const platform_override_t *ov, int nov, err_t *e)
{
    int doctype = 0;
    xmlDoc *doc = load_doc(path, &doctype, e);
    if (!doc)
        return NULL;
    platform_t *p = calloc(1, sizeof *p);
    if (!p)
        abort();
    p->path = xstrdup(path);
    int failed = 0;
    const xmlNode *zone = top_zone(doc, path, e);
    if (!zone)
        failed = -1;
    if (!failed) {
        char *id = attr(zone, "id");
        if (!id || !*id)
            failed = err_set(e, path, (int)xmlGetLineNo(zone), "the top zone needs an id");
        p->name = id ? id : xstrdup("");
    }
    if (!failed) {
        for (const xmlNode *c = zone->children; c; c = c->next) {
            if (!is_elem(c, "prop"))
                continue;
            char *id = attr(c, "id"), *val = attr(c, "value");
            if (!id || !val)
                failed = err_set(e, path, (int)xmlGetLineNo(c), "<prop> needs id and value");
            else if (find_param(p, id))
                failed = err_set(e, path, (int)xmlGetLineNo(c), "property '%s' given twice", id);
            else
                add_param(p, id, val, (int)xmlGetLineNo(c));
            free(id);
            free(val);
            if (failed)
                break;
        }
    }
    if (!failed)
        walk(p, zone, path, e, &failed);
    if (!failed)
        failed = link_params(p, e);
    if (!failed)
        failed = apply_overrides(p, ov, nov, e);
    if (!failed)
        failed = check_values(p, e);
    if (!failed)
        failed = check_cpus(p, e);
    if (!failed)
        failed = mark_tunable(p, e);
    if (!failed)
        failed = check_simgrid(doc, doctype, path, e);
    xmlFreeDoc(doc);
    if (failed) {
        platform_free(p);
        return NULL;
    }
    return p;
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
    free(p->node_first_cpu);
    free(p->params);
    free(p->links);
    free(p->node_lat);
    free(p->path);
    free(p->name);
    free(p);
}

/* Sets <prop id=NAME> under zone, or the latency of every link of a class. */
static int set_in_tree(xmlNode *n, const char *name, const char *val, int *hits)
{
    for (xmlNode *c = n->children; c; c = c->next) {
        if (is_elem(c, "zone") || is_elem(c, "AS")) {
            set_in_tree(c, name, val, hits);
        } else if (is_elem(c, "prop") && n->parent && is_elem(n, "zone")) {
            char *id = attr(c, "id");
            if (id && strcmp(id, name) == 0) {
                xmlSetProp(c, (const xmlChar *)"value", (const xmlChar *)val);
                (*hits)++;
            }
            free(id);
        } else if (is_elem(c, "link") && strncmp(name, "link.", 5) == 0) {
            char *cls = child_prop(c, "class", NULL);
            if (cls && strcmp(cls, name + 5) == 0) {
                char lat[80];
                snprintf(lat, sizeof lat, "%ss", val);
                xmlSetProp(c, (const xmlChar *)"latency", (const xmlChar *)lat);
                (*hits)++;
            }
            free(cls);
        }
    }
    return 0;
}

int platform_write_with(const char *in_path, const char *out_path, int n, const char *const *names,
                        const double *values, const char *comment, err_t *e)
{
    xmlDoc *doc = load_doc(in_path, NULL, e);
    if (!doc)
        return -1;
    const xmlNode *zone = top_zone(doc, in_path, e);
    if (!zone) {
        xmlFreeDoc(doc);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char val[64];
        snprintf(val, sizeof val, "%.6g", values[i]);
        int hits = 0;
        set_in_tree(xmlDocGetRootElement(doc), names[i], val, &hits);
        if (!hits) {
            xmlFreeDoc(doc);
            return err_set(e, in_path, 0, "no parameter '%s' to write", names[i]);
        }
    }
    if (comment) {
        xmlNode *c = xmlNewDocComment(doc, (const xmlChar *)comment);
        xmlAddPrevSibling(xmlDocGetRootElement(doc), c);
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
    int rc = xmlSaveFile(tmp, doc);
    xmlFreeDoc(doc);
    if (rc < 0 || rename(tmp, out_path) != 0) {
        unlink(tmp);
        return err_set(e, out_path, 0, "cannot write the platform file");
    }
    return 0;
}
