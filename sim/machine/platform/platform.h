/* platform: a machine's description, read from a SimGrid platform file.
 *
 * Two halves. platform_read() (platform_xml.c) parses and validates the XML
 * with libxml2 (no SimGrid: every error becomes "FILE:LINE: message").
 * platform_boot() (simgrid/platform_simgrid.h) hands the same file to
 * SimGrid, and platform_routes() fills the node-to-node latency matrix from
 * SimGrid's routes. The native machine builds its platform_t from the host
 * (native/host.h) instead.
 *
 * Units: every latency is in CPU cycles. SimGrid's time unit is one cycle
 * (hosts have speed "1f", link latencies are written "Ns" = N cycles).
 */
#ifndef NUMASIM_PLATFORM_H
#define NUMASIM_PLATFORM_H

#include "err.h"

#include <stddef.h>
#include <stdint.h>

/* Costs of the memory model, in cycles; names match the <prop> ids. */
typedef struct {
    double hit_cycles;          /* access to a line this CPU holds (L2) */
    double atomic_cycles;       /* read-modify-write on a line held exclusive */
    double mem_local_cycles;    /* miss served by this node's memory */
    double c2c_node_cycles;     /* line modified in another cache on this bus */
    double remote_dirty_cycles; /* extra for a line modified in a remote cache */
    double inval_node_cycles;   /* bus invalidation of sharers in this node */
    double relax_cycles;        /* one cpu_relax() in a spin loop */
    double barrier_cycles;      /* one memory barrier (mf on IA-64); optional, default 0 */
    double insn_cycles;         /* optional (0): plain instructions per access */
    double inval_queue_cycles;  /* optional (0): an invalidation waits this long in the
                                   receiver's queue (memory_model weak only) */
} mem_costs_t;

/* The cache levels a platform may describe (props NAME_bytes, NAME_ways,
 * NAME_cycles, NAME_scope with NAME = l1i, l1d, l2, l3). A level is present
 * when bytes > 0. Every level uses the coherence line (line_bytes). */
typedef enum { CACHE_L1I, CACHE_L1D, CACHE_L2, CACHE_L3, CACHE_NLEVELS } cache_level_t;
typedef enum { SCOPE_CPU, SCOPE_NODE, SCOPE_PACKAGE } cache_scope_t;

typedef struct {
    uint64_t bytes; /* 0: the platform has no such level */
    int ways;
    double cycles; /* load-to-use latency of a hit */
    cache_scope_t scope;
} platform_cache_t;

/* The TLBs a platform may describe (props NAME_entries, NAME_ways,
 * NAME_cycles, NAME = dtlb1 itlb1 dtlb2 itlb2; page_bytes, walk_cycles,
 * walk_levels).
 * A level is present when entries > 0. tlb.h says how they are used. */
typedef enum { TLB_DTLB1, TLB_ITLB1, TLB_DTLB2, TLB_ITLB2, TLB_NLEVELS } tlb_level_id_t;

typedef struct {
    int entries;   /* 0: the platform has no such TLB */
    int ways;      /* entries when fully associative */
    double cycles; /* a translation found here after missing the level above */
} platform_tlb_t;

/* What fills the caches between calls (all 0 by default); see mem.h. */
typedef struct {
    double tick_lines;       /* tick_footprint_lines: per tick, the same lines each tick */
    double work_per_mcycle;  /* work_lines_per_mcycle: fresh lines per 10^6 cycles of cpu_work */
    double noise_per_mcycle; /* noise_lines_per_mcycle: fresh lines per 10^6 cycles of time */
    int noise_private;       /* noise_scope = cpu: no shared level, not the last */
} platform_footprint_t;
/* The platform's memory model (prop memory_model, default sc); see
 * machine/order.h for what each leaves unordered. */
typedef enum { PLATFORM_SC, PLATFORM_TSO, PLATFORM_WEAK } platform_model_t;

/* The core that executes the instructions (props core, core_*; see
 * machine/simgrid/core.h). CORE_NONE: every access stalls the CPU until it
 * completes, and plain instructions are free, as numasim always did. */
typedef enum { CORE_NONE, CORE_INORDER, CORE_OOO } platform_core_kind_t;

/* The largest values of the core's fitted properties (the least: 1, and 0
 * for core_fetch_ahead): the platform's check and numasim tune's clamp. */
enum { CORE_WIDTH_MAX = 64, CORE_MSHR_MAX = 256, CORE_FETCH_AHEAD_MAX = 64 };

typedef struct {
    platform_core_kind_t kind; /* prop core: none (default), inorder, ooo */
    double width;              /* core_width: instructions issued a cycle, a fraction
                                  allowed (counter cycles: the host's TSC) (1) */
    int rob;                   /* core_rob: ooo window in instructions (width, rounded up) */
    int mshr;                  /* core_mshr: misses outstanding at once (1) */
    double serialize_cycles;   /* core_serialize_cycles: a serialising instruction (0) */
    int fetch_ahead;           /* core_fetch_ahead: code lines streamed ahead (0) */
    double insn_bytes;         /* core_insn_bytes: code bytes an instruction, for a unit
                                  without code_UNIT_insns (4) */
    int irq_serialize;         /* core_irq_serialize: local_irq_restore serialises (0) */
    int rmw_overlap;           /* core_rmw_overlap: ooo, a locked RMW issues as a load (0) */
    int clock_cycles;          /* core_clock_cycles: ooo, the clock read's own latency, which
                                  later instructions run beside (0) */
} platform_core_t;

typedef struct {
    char *name;     /* prop id, e.g. "mem_local_cycles", or "link.exit" */
    char *value;    /* textual value as resolved (file or override) */
    int line;       /* line in the file, 0 when not from the file */
    int tunable;    /* listed in the zone's "tunable" prop */
    int overridden; /* set by an override, not the file */
} platform_param_t;

typedef struct {
    char *id;
    char *cls;      /* value of the link's "class" prop, or NULL */
    double latency; /* cycles */
    int line;
} platform_link_t;

typedef struct {
    char *path; /* as given */
    char *name; /* id of the top zone, e.g. "numa32" */
    int ncpus, nnodes;
    char **cpu_host;     /* [ncpus] SimGrid host names, in file order */
    int *cpu_node;       /* [ncpus] NUMA node of each CPU */
    int *node_first_cpu; /* [nnodes] a representative CPU per node */
    double clock_mhz;
    int line_bytes;
    mem_costs_t costs;
    platform_cache_t cache[CACHE_NLEVELS]; /* all bytes 0: infinite caches */
    int ncache_levels;                     /* levels present */
    int l1d_write_through; /* stores are served by l2 (Itanium 2: l1d caches integer loads) */
    int last_noninclusive; /* prop last_level_inclusive = 0: the last level's victims stay above */
    int *cpu_package;      /* [ncpus] host prop "package", else the node */
    int text_node;         /* kernel text's home (prop text_node, default 0) */
    platform_footprint_t footprint;
    platform_tlb_t tlb[TLB_NLEVELS]; /* all entries 0: translation is free */
    long page_bytes;                 /* prop page_bytes (default 4096) */
    double walk_cycles;              /* a walk, besides reading its page-table lines */
    int walk_levels;                 /* page-table levels a walk reads (default 1) */
    int footprint_lines_per_page;    /* a footprint's lines in one page (default: all of it) */
    platform_model_t memory_model;
    platform_core_t core;
    int nparams;
    platform_param_t *params; /* every zone prop and link class, resolved */
    int nlinks;
    platform_link_t *links;
    uint32_t *node_lat; /* [nnodes*nnodes] round-trip cycles; NULL before routes */
} platform_t;

/* One "NAME=VALUE" override (from --set platform.NAME=VALUE). NAME is a zone
 * prop or "link.CLASS" (the latency of every link of that class). */
typedef struct {
    const char *name;
    const char *value;
} platform_override_t;

/* Reads and validates FILE. Returns a platform the caller frees with
 * platform_free(), or NULL with e filled. Overrides replace prop values
 * before validation; an override naming nothing in the file is an error. */
platform_t *platform_read(const char *path, const platform_override_t *ov, int nov, err_t *e);
void platform_free(platform_t *p);

/* The name of a cache level ("l1i", "l1d", "l2", "l3") and of a scope. */
const char *platform_cache_name(cache_level_t l);
const char *platform_scope_name(cache_scope_t s);

/* The size in bytes of kernel code unit NAME (prop code_NAME_bytes), 0 when
 * the platform gives none (its code is then not fetched). */
uint64_t platform_code_bytes(const platform_t *p, const char *unit);
/* The instructions the core issues for code unit `unit`: prop
 * code_UNIT_insns, else its bytes / core_insn_bytes rounded up; 0 with core
 * none or without bytes. */
uint64_t platform_code_insns(const platform_t *p, const char *unit);

/* Looks up a resolved parameter by name; NULL if absent. */
const platform_param_t *platform_param(const platform_t *p, const char *name);

/* Writes a copy of the platform file at in_path to out_path with the named
 * parameters set to the given values (props' value, or the latency of every
 * link of a class), and a comment at the top. Returns 0, or -1 with e. */
int platform_write_with(const char *in_path, const char *out_path, int n, const char *const *names,
                        const double *values, const char *comment, err_t *e);

/* "sc", "tso" or "weak". */
const char *platform_model_name(platform_model_t m);

/* Round-trip latency between two nodes, in cycles (0 on the diagonal). */
static inline uint32_t platform_node_lat(const platform_t *p, int a, int b)
{
    return p->node_lat[(size_t)a * (size_t)p->nnodes + (size_t)b];
}

#endif
