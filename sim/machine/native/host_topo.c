/* host_topo: what a platform file needs of this host, read through hwloc,
 * and the sizes and addresses of functions in an ELF file (libelf).
 *
 * hwloc 2.x: NUMA nodes are memory children, so a PU's node is found by
 * testing the node cpusets, and its package through the PU's ancestors. The
 * topology is released before host_topo_read() returns.
 *
 * Caches: instruction caches are filtered out by hwloc unless asked for, so
 * they are kept before the load. Each level is described by the instance
 * that holds the first PU (a platform file gives one size per level); its
 * cpuset says who shares it, matched against the model's scopes from the
 * narrowest up: a PU or one core's PUs (cpu), the PU's NUMA node (node), its
 * package (package). What the writer does with a cache that matches no scope
 * exactly (an AMD CCX's L3 inside a node) is hostplat's business.
 *
 * Symbols: .symtab lists a source file's local symbols after its STT_FILE
 * symbol, which is how "file.c:fn" finds a static function whose name other
 * files also use. A stripped binary has no .symtab: an error, not zeros.
 */
#include "host_topo.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <hwloc.h>
#include <libelf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static const hwloc_obj_type_t kLevelType[HOST_NLEVELS] = {HWLOC_OBJ_L1ICACHE, HWLOC_OBJ_L1CACHE,
                                                          HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE};

/* Fills c from the instance of level type ty holding pu. node_set is the
 * cpuset of pu's NUMA node (the whole machine without NUMA information). */
static void read_cache(hwloc_topology_t topo, hwloc_obj_type_t ty, hwloc_obj_t pu,
                       hwloc_const_cpuset_t node_set, host_cache_t *c)
{
    int n = hwloc_get_nbobjs_by_type(topo, ty);
    hwloc_obj_t o = n > 0 ? hwloc_get_ancestor_obj_by_type(topo, ty, pu) : NULL;
    if (!o || !o->attr || o->attr->cache.size == 0 || !o->cpuset)
        return;
    c->present = 1;
    c->bytes = (unsigned long long)o->attr->cache.size;
    c->linesize = (int)o->attr->cache.linesize;
    c->associativity = o->attr->cache.associativity;
    c->instances = n;
    c->uniform = 1;
    const char *incl = hwloc_obj_get_info_by_name(o, "Inclusive");
    c->inclusive = incl ? incl[0] == '1' : -1;
    for (int i = 0; i < n; i++) {
        hwloc_obj_t x = hwloc_get_obj_by_type(topo, ty, (unsigned)i);
        if (x->attr->cache.size != o->attr->cache.size ||
            x->attr->cache.associativity != o->attr->cache.associativity)
            c->uniform = 0;
    }
    c->sharing = hwloc_bitmap_weight(o->cpuset);
    hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
    hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu);
    if (c->sharing == 1 || (core && hwloc_bitmap_isincluded(o->cpuset, core->cpuset))) {
        c->scope = HOST_SCOPE_CPU;
        c->exact = c->sharing == 1 || hwloc_bitmap_isequal(o->cpuset, core->cpuset);
        c->scope_pus = 1;
    } else if (hwloc_bitmap_isincluded(o->cpuset, node_set)) {
        c->scope = HOST_SCOPE_NODE;
        c->exact = hwloc_bitmap_isequal(o->cpuset, node_set);
        c->scope_pus = hwloc_bitmap_weight(node_set);
    } else {
        c->scope = HOST_SCOPE_PACKAGE;
        c->exact = pkg && hwloc_bitmap_isequal(o->cpuset, pkg->cpuset);
        c->scope_pus = pkg ? hwloc_bitmap_weight(pkg->cpuset) : c->sharing;
    }
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
    hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
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
    t->cpu_package = xcalloc((size_t)npu, sizeof *t->cpu_package);
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
        t->cpu_package[i] = pkg ? (int)pkg->logical_index : -1;
        if (pkg && t->node_package[t->cpu_node[i]] < 0)
            t->node_package[t->cpu_node[i]] = (int)pkg->logical_index;
    }
    t->npackages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    t->line_bytes = read_line_size(topo);
    hwloc_obj_t pu0 = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, 0);
    hwloc_const_cpuset_t node_set = nodes[t->cpu_node[0]]
                                        ? nodes[t->cpu_node[0]]->cpuset
                                        : hwloc_topology_get_topology_cpuset(topo);
    for (int l = 0; l < HOST_NLEVELS; l++)
        read_cache(topo, kLevelType[l], pu0, node_set, &t->cache[l]);
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
    free(t->cpu_package);
    free(t->node_os);
    free(t->node_package);
    free(t->dist);
    memset(t, 0, sizeof *t);
}

/* --- function sizes from an ELF symbol table ------------------------------ */

/* Does symbol name sym belong to function fn: fn itself, or one of the
 * compiler's parts and clones of it, "fn.SUFFIX"? */
static int same_function(const char *sym, const char *fn)
{
    size_t n = strlen(fn);
    return strncmp(sym, fn, n) == 0 && (sym[n] == '\0' || sym[n] == '.');
}

int host_topo_symbol_ranges(const char *path, const char *const *names, int n, host_symbol_t **syms,
                            int *nsyms, err_t *e)
{
    *syms = NULL;
    *nsyms = 0;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return err_set(e, path, 0, "libelf: %s", elf_errmsg(-1));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(e, path, 0, "cannot open: %s", strerror(errno));
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int rc = 0;
    Elf_Scn *symtab = NULL;
    GElf_Shdr sh;
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        rc = err_set(e, path, 0, "not an ELF file");
    } else {
        for (Elf_Scn *s = elf_nextscn(elf, NULL); s; s = elf_nextscn(elf, s))
            if (gelf_getshdr(s, &sh) && sh.sh_type == SHT_SYMTAB) {
                symtab = s;
                break;
            }
        if (!symtab)
            rc = err_set(e, path, 0, "no symbol table (a stripped binary?)");
    }
    Elf_Data *d = symtab ? elf_getdata(symtab, NULL) : NULL;
    if (rc == 0 && (!d || sh.sh_entsize == 0))
        rc = err_set(e, path, 0, "libelf cannot read the symbol table");
    int cap = 0;
    if (rc == 0) {
        size_t count = sh.sh_size / sh.sh_entsize;
        const char *file = ""; /* the STT_FILE in force: local symbols follow it */
        for (size_t k = 0; k < count; k++) {
            GElf_Sym sym;
            if (!gelf_getsym(d, (int)k, &sym))
                continue;
            const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (!name)
                continue;
            if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
                file = name;
                continue;
            }
            if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_size == 0)
                continue;
            int local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
            for (int i = 0; i < n; i++) {
                const char *colon = strchr(names[i], ':');
                const char *fn = colon ? colon + 1 : names[i];
                if (colon && (!local || strlen(file) != (size_t)(colon - names[i]) ||
                              strncmp(file, names[i], (size_t)(colon - names[i])) != 0))
                    continue;
                if (!same_function(name, fn))
                    continue;
                if (*nsyms == cap) {
                    cap = cap ? 2 * cap : 64;
                    *syms = xrealloc(*syms, (size_t)cap * sizeof **syms);
                }
                (*syms)[(*nsyms)++] = (host_symbol_t){i, sym.st_value, sym.st_size};
            }
        }
    }
    if (elf)
        elf_end(elf);
    close(fd);
    if (rc < 0) {
        free(*syms);
        *syms = NULL;
        *nsyms = 0;
    }
    return rc;
}

int host_topo_symbol_sizes(const char *path, const char *const *names, int n,
                           unsigned long long *sizes, err_t *e)
{
    for (int i = 0; i < n; i++)
        sizes[i] = 0;
    host_symbol_t *syms;
    int nsyms;
    if (host_topo_symbol_ranges(path, names, n, &syms, &nsyms, e) < 0)
        return -1;
    for (int k = 0; k < nsyms; k++)
        sizes[syms[k].name] += syms[k].size;
    free(syms);
    return 0;
}
