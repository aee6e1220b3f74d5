/* host_topo: this host's CPUs, NUMA nodes, packages, cache line, cache
 * levels, clock and SLIT distances, read through hwloc, for a platform file
 * describing the host (study/hostplat.h writes it). HWLOC_XMLFILE=FILE makes
 * hwloc read a saved or synthetic topology instead of this machine. Also the
 * sizes of functions in an ELF file's symbol table (libelf), for the code
 * sizes of that file.
 */
#ifndef NUMASIM_HOST_TOPO_H
#define NUMASIM_HOST_TOPO_H

#include "err.h"
#include "platform.h"

#include <stddef.h>

/* The cache levels a platform file names (contract of issue 18). */
typedef enum { HOST_L1I, HOST_L1D, HOST_L2, HOST_L3, HOST_NLEVELS } host_level_t;

/* Who shares one instance of a level, from its cpuset: one PU (or the PUs
 * of one core: SMT siblings; the model has no core scope), a NUMA node's
 * PUs, or a package's. */
typedef enum { HOST_SCOPE_CPU, HOST_SCOPE_NODE, HOST_SCOPE_PACKAGE } host_scope_t;

typedef struct {
    int present;              /* hwloc reports the level with a size > 0 */
    unsigned long long bytes; /* of one instance (the one holding the first PU) */
    int linesize;             /* 0 when unknown */
    int associativity;        /* hwloc's: ways, -1 fully associative, 0 unknown */
    host_scope_t scope;       /* the narrowest scope holding the instance */
    int exact;                /* the cpuset is exactly that scope's (or one core's) */
    int sharing;              /* PUs of the instance */
    int scope_pus;            /* PUs of its scope (1 for cpu) */
    int instances;            /* objects of this level */
    int uniform;              /* all instances have the same size and ways */
    int inclusive;            /* hwloc's "Inclusive" info (x86 CPUID): 1, 0, -1 unknown */
} host_cache_t;

typedef struct {
    int ncpus, nnodes, npackages;
    int *cpu_os;       /* [ncpus] OS index of each PU (for pinning) */
    int *cpu_node;     /* [ncpus] node (0..nnodes-1) of each PU */
    int *node_os;      /* [nnodes] OS index of each node */
    int *node_package; /* [nnodes] package (logical index), -1 if none */
    int *cpu_package;  /* [ncpus] package (logical index) of each PU, -1 if none */
    double *dist;      /* [nnodes*nnodes] SLIT distances, or NULL */
    int line_bytes;    /* 0 when hwloc reports no cache */
    double clock_mhz;  /* 0 when unknown */
    char clock_origin[128];
    char cpu_model[128];
    int this_system;   /* 0 when read from HWLOC_XMLFILE */
    int dropped_nodes; /* NUMA nodes without CPUs, left out */
    host_cache_t cache[HOST_NLEVELS];
} host_topo_t;

/* Reads the topology through hwloc. Returns 0 with t filled (free with
 * host_topo_free), or -1 with e. */
int host_topo_read(host_topo_t *t, err_t *e);
void host_topo_free(host_topo_t *t);

/* Sizes of functions in the ELF symbol table (.symtab) of path, read with
 * libelf. names[i] is "fn" (any FUNC symbol of that name) or "file.c:fn"
 * (only the local symbols that follow the STT_FILE symbol "file.c": a static
 * function of that source file). The compiler's out-of-line parts and clones
 * count with their function ("fn.cold", "fn.isra.0", "fn.part.0", ...).
 * sizes[i] gets the sum of the sizes found, 0 when the name is absent (a
 * static function inlined into its callers). Returns 0, or -1 with e when
 * the file cannot be read, is not ELF, or has no symbol table (stripped). */
int host_topo_symbol_sizes(const char *path, const char *const *names, int n,
                           unsigned long long *sizes, err_t *e);

/* One function symbol that host_topo_symbol_ranges matched: names[name],
 * at addr (its st_value: the address in the file, which is what objdump of
 * that file wants, not the running process's when the file is PIE), size
 * bytes long. */
typedef struct {
    int name;
    unsigned long long addr, size;
} host_symbol_t;

/* The symbols that host_topo_symbol_sizes adds up, one by one (a clone or
 * a cold part is a symbol of its own): *syms (xmalloc'd, free it) gets them
 * in symbol table order and *nsyms their count. Returns 0, or -1 with e
 * (then *syms is NULL and *nsyms 0) for the same errors. */
int host_topo_symbol_ranges(const char *path, const char *const *names, int n, host_symbol_t **syms,
                            int *nsyms, err_t *e);

/* host_tlb.c: this host's TLBs for 4 KiB pages, from CPUID (hwloc has
 * none). Fills tlb (all zero when none is found) and why with the source;
 * returns 1 when a first-level data TLB was found, else 0. */
int host_topo_tlbs(platform_tlb_t tlb[TLB_NLEVELS], char *why, size_t n);

/* host_tlb.c: the levels of the page table a walk reads on this host (4, or
 * 5 where Linux runs 5-level paging; 0 when not known: not x86-64), and
 * why the source. */
int host_topo_walk_levels(char *why, size_t n);

#endif
