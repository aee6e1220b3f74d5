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
#include "platform_caches.h"
#include "platform_dtd.h"
#include "platform_xmlnode.h"
#include "xalloc.h"

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
    {"barrier_cycles", 0, offsetof(mem_costs_t, barrier_cycles)},
    {"insn_cycles", 0, offsetof(mem_costs_t, insn_cycles)},
    {"inval_queue_cycles", 0, offsetof(mem_costs_t, inval_queue_cycles)},
};
#define NREQUIRED (sizeof kRequired / sizeof kRequired[0])

/* Props a file may leave out, and the value they then take. barrier_cycles
 * came after the first platform files: without it barriers cost nothing,
 * which is what numasim charged before it existed. */
static const struct {
    const char *name, *value;
} kDefaults[] = {
    {"barrier_cycles", "0"},
    {"insn_cycles", "0"}, /* measured hosts only (scripts/validate) */
    /* The memory model came later still: sequentially consistent, as numasim
     * always was, and no invalidate queue. */
    {"memory_model", "sc"},
    {"inval_queue_cycles", "0"},
};
#define NDEFAULTS (sizeof kDefaults / sizeof kDefaults[0])

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
    return (platform_param_t *)platform_param(p, name);
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
    int kline = line;
    char *pkg = child_prop(n, "package", &kline);
    long v, pk = -1;
    if (!id)
        *failed = err_set(e, path, line, "host without an id");
    else if (!speed || strcmp(speed, "1f") != 0)
        *failed =
            err_set(e, path, line, "host '%s': speed must be \"1f\" (one cycle per second)", id);
    else if (!node)
        *failed = err_set(e, path, line, "host '%s': missing required property 'numa_node'", id);
    else if (err_parse_long(node, &v) < 0 || v < 0 || v > 1000000)
        *failed = err_set(e, path, pline,
                          "host '%s': property 'numa_node' must be a whole number >= 0, not '%s'",
                          id, node);
    else if (pkg && (err_parse_long(pkg, &pk) < 0 || pk < 0 || pk > 1000000))
        *failed =
            err_set(e, path, kline,
                    "host '%s': property 'package' must be a whole number >= 0, not '%s'", id, pkg);
    if (!*failed) {
        p->cpu_host = xrealloc(p->cpu_host, sizeof(char *) * (size_t)(p->ncpus + 1));
        p->cpu_node = xrealloc(p->cpu_node, sizeof(int) * (size_t)(p->ncpus + 1));
        p->cpu_package = xrealloc(p->cpu_package, sizeof(int) * (size_t)(p->ncpus + 1));
        p->cpu_host[p->ncpus] = xstrdup(id);
        p->cpu_node[p->ncpus] = (int)v;
        p->cpu_package[p->ncpus] = pkg ? (int)pk : -1; /* -1: the node's, set below */
        p->ncpus++;
    }
    free(id);
    free(speed);
    free(node);
    free(pkg);
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
                err_set(e, path, 0, "platform file is larger than %ld bytes", PLATFORM_MAX_BYTES);
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
        err_set(e, path, 1,
                "byte order mark at the start of the file (SimGrid's parser "
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
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                    XML_PARSE_NOBLANKS | XML_PARSE_COMPACT);
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
                return err_set(e, src, line,
                               "property 'line_bytes' must be a power of two <= 4096");
            p->line_bytes = (int)v;
        }
    }
    platform_param_t *q = find_param(p, "memory_model");
    static const char *const names[] = {"sc", "tso", "weak"};
    int k = 0;
    while (k < 3 && strcmp(q->value, names[k]) != 0)
        k++;
    if (k == 3)
        return err_set(e, q->overridden ? "--set" : p->path, q->overridden ? 0 : q->line,
                       "property 'memory_model' must be sc, tso or weak, not '%s'", q->value);
    p->memory_model = (platform_model_t)k;
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
    for (int i = 0; i < p->ncpus; i++)
        if (p->cpu_package[i] < 0)
            p->cpu_package[i] = p->cpu_node[i];
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

platform_t *platform_read(const char *path, const platform_override_t *ov, int nov, err_t *e)
{
    int doctype = 0;
    xmlDoc *doc = load_doc(path, &doctype, e);
    if (!doc)
        return NULL;
    platform_t *p = xcalloc(1, sizeof *p);
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
    for (size_t i = 0; !failed && i < NDEFAULTS; i++)
        if (!find_param(p, kDefaults[i].name))
            add_param(p, kDefaults[i].name, kDefaults[i].value, 0);
    if (!failed)
        failed = apply_overrides(p, ov, nov, e);
    if (!failed)
        failed = check_values(p, e);
    if (!failed)
        failed = check_cpus(p, e);
    if (!failed)
        failed = platform_check_caches(p, e);
    if (!failed)
        failed = mark_tunable(p, e);
    if (!failed)
        failed = platform_check_simgrid(doc, doctype, path, e);
    xmlFreeDoc(doc);
    if (failed) {
        platform_free(p);
        return NULL;
    }
    return p;
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
