/* generate: fat-tree NUMA platform files (`numasim platform --generate`).
 *
 * The topology is described in generate.h. The file is written in one pass
 * through platform_emit.h; nothing is read (not even numa32.xml: the values
 * below are constants equal to numa32's, see kProps and the GEN_LAT_*
 * macros).
 */
#include "generate.h"

#include "platform_emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Link latencies (ONE-WAY cycles) and bandwidths: constants equal to the
 * current platforms/numa32.xml (link.exit as fitted there by numasim tune).
 * If numa32 is re-tuned, update these and kProps, and regenerate
 * platforms/fat*.xml (tests/e2e/generate.sh compares fat32 with numa32). */
#define GEN_LAT_EXIT   122.0
#define GEN_LAT_BRICK  0.0
#define GEN_LAT_UPLINK 18.75
#define GEN_LAT_SPINE  37.5
#define GEN_BW_BUS     "6.4GBps"
#define GEN_BW_LINK    "3.2GBps"

/* Zone props: numa32's memory model, values and source comments copied (the
 * fitted values too: they were fitted on numa32, and are kept as they are).
 * An entry without an id is a comment alone. */
static const struct {
    const char *comment, *id, *value;
} kProps[] = {
    {"1.5 GHz Itanium 2 \"Madison\" (docs/hardware-sources.md: cycles assume 1.5 GHz)", "clock_mhz",
     "1500"},
    {"coherence unit: L2/L3 line and Altix directory block (published)", "line_bytes", "128"},
    {"L2 hit, 5-6 cycles (published: 7-cpu.com, TAMU)", "hit_cycles", "6"},
    {"atomic on a held line: executes in L2, ~12 (estimate, owchallie.com)", "atomic_cycles", "12"},
    {"local memory, ~240 cycles = 160 ns (derived: NUMAlink local 132 ns best case)",
     "mem_local_cycles", "240"},
    {"line modified in the other CPU's cache on this bus (HITM): ~memory + 10% (estimate)",
     "c2c_node_cycles", "270"},
    {"extra for a line modified in a remote CPU's cache (the intervention of a\n"
     "3-hop miss). docs/hardware-sources.md estimate: +120. FITTED: 554, by\n"
     "numasim tune (params link.exit and remote_dirty_cycles) to the scan baseline\n"
     "(results/reference/measurements-baseline.csv, numa32 warm and cold)",
     "remote_dirty_cycles", "554"},
    {"invalidating sharers on this node's bus: one bus transaction, 30 cycles per\n"
     "128-byte line at 6.4 GB/s (derived)",
     "inval_node_cycles", "30"},
    {"one cpu_relax (hint @pause) in a spin loop (estimate)", "relax_cycles", "20"},
    {"one memory barrier (smp_mb, smp_wmb and smp_rmb are all \"mf\" on IA-64,\n"
     "Linux 2.6 include/asm-ia64/system.h). ESTIMATE: no published cycle count\n"
     "found; mf waits until earlier accesses are visible, which in this model\n"
     "they always are (each access completes before the next step), so only its\n"
     "own pass through L2 is charged, as for an atomic (12)",
     "barrier_cycles", "12"},
    /* a comment alone (no id): the caches' heading, as in numa32.xml */
    {"Caches: one Itanium 2 \"Madison\" at 1.5 GHz, hence the 6 MB L3 part\n"
     "(docs/hardware-sources.md, \"Caches\", which gives every source). All\n"
     "levels are private to the CPU. 64-byte L1 lines are counted as 128-byte\n"
     "lines (line_bytes): same bytes, half as many lines.",
     NULL, NULL},
    {"L1I 16 KB (published [7CPU, OWC])", "l1i_bytes", "16384"},
    {"L1I 4-way (published [7CPU, OWC])", "l1i_ways", "4"},
    {"L1I hit, 1 cycle (published [7CPU, OWC])", "l1i_cycles", "1"},
    {"private to the CPU (published: one L1I per core [7CPU])", "l1i_scope", "cpu"},
    {"L1D 16 KB (published [7CPU, OWC, TAMU]). It caches integer loads only and\n"
     "is write-through: stores and FP loads go to L2 (l1d_write_through below;\n"
     "where the model still departs: docs/hardware-sources.md, \"Caches\")",
     "l1d_bytes", "16384"},
    {"L1D 4-way (published [7CPU, OWC])", "l1d_ways", "4"},
    {"L1D hit, 2 cycles as a load address (published: 7-cpu's pointer chase\n"
     "[7CPU]); 1 cycle when an ALU op consumes it [LYON02]",
     "l1d_cycles", "2"},
    {"private to the CPU (published [7CPU])", "l1d_scope", "cpu"},
    {"L1D write-through, no write-allocate: a store completes in L2 (published\n"
     "[7CPU, OWC, TAMU])",
     "l1d_write_through", "1"},
    {"L2 256 KB (published [7CPU, OWC, TAMU])", "l2_bytes", "262144"},
    {"L2 8-way (published [7CPU, OWC, TAMU])", "l2_ways", "8"},
    {"L2 hit, 6 cycles: 7-cpu's pointer chase [7CPU]; 5 (McKinley [EWEEK]) or 5/7\n"
     "load/store (Madison [TAMU]). The same figure as hit_cycles above",
     "l2_cycles", "6"},
    {"private to the CPU (published [7CPU])", "l2_scope", "cpu"},
    {"L3 6 MB: the 1.5 GHz Madison of 2003-04 (published [GECKO]; 3 MB at 1.3 GHz,\n"
     "4 MB at 1.4 GHz)",
     "l3_bytes", "6291456"},
    {"L3 24-way: UNVERIFIED (the 3 MB parts are 12-way [OWC, TAMU]; no primary\n"
     "source for the 6 MB part's 24 ways)",
     "l3_ways", "24"},
    {"L3 hit, 16 cycles: derived from 7-cpu's pointer chase, L2 + 10 [7CPU], on a\n"
     "1.3 GHz Madison, as for L1D and L2; 14 load-to-use [TAMU]. The 6 MB\n"
     "part's own figure was not found (unverified)",
     "l3_cycles", "16"},
    {"private to the CPU: on the die, one per CPU (published [OWC, TAMU])", "l3_scope", "cpu"},
    {"kernel text on node 0: 2.6 had no IA-64 text replication, the text stays\n"
     "where elilo loaded it (published [KTR06])",
     "text_node", "0"},
    {"Code sizes: ESTIMATES, twice the i386 size (IA-64 code density [PJ06]).\n"
     "docs/hardware-sources.md, \"Caches\", \"Code sizes\" gives each derivation.\n"
     "tick: lower bound, only the tick handler numasim models, 2 x 70",
     "code_tick_bytes", "140"},
    {"run_timer_softirq with __run_timers inlined: 2 x 363 (i386 2.6.3 [FL04])",
     "code_run_timers_bytes", "726"},
    {"__mod_timer: 2 x 268 (i386 2.6.2 [PM04])", "code_mod_timer_bytes", "536"},
    {"del_timer: 2 x 158 (i386 140-175, rough [LKML-RP]: midpoint)", "code_del_timer_bytes", "316"},
    {"try_to_del_timer_sync: 2 x 123 (scaled from del_timer by numasim's sizes)",
     "code_try_to_del_timer_sync_bytes", "246"},
    {"del_timer_sync of 2.6.6 (the scan): 2 x 276 (i386 2.6.2 [PM04])",
     "code_del_timer_sync_scan_bytes", "552"},
    {"the May 2004 patch: 2 x 207 (scaled from the scan by numasim's sizes)",
     "code_del_timer_sync_last_running_bytes", "414"},
    {"del_singleshot_timer_sync: 2 x 83 (scaled from the scan by numasim's sizes)",
     "code_del_singleshot_timer_sync_bytes", "166"},
    {"naive: 2 x 46 (scaled from the scan by numasim's sizes)", "code_del_timer_sync_naive_bytes",
     "92"},
    {"shortcut: 2 x 46 (scaled from the scan by numasim's sizes)",
     "code_del_timer_sync_shortcut_bytes", "92"},
    {"2.6.13's del_timer_sync: 2 x 43 (scaled from the scan by numasim's sizes)",
     "code_del_timer_sync_base_tracking_bytes", "86"},
    {"The 6.1 units: ESTIMATES, numasim's own x86-64 sizes of them (the host's\n"
     "file) scaled by this file's 2.6 units over numasim's (1964 of 5055 bytes for\n"
     "tick, run_timers, mod_timer, del_timer, try_to_del_timer_sync)",
     "code_tick61_bytes", "396"},
    {"the 6.1 unit run_timers61 (see above)", "code_run_timers61_bytes", "980"},
    {"the 6.1 unit mod_timer61 (see above)", "code_mod_timer61_bytes", "1098"},
    {"the 6.1 unit del_timer61 (see above)", "code_del_timer61_bytes", "424"},
    {"the 6.1 unit try_to_del_timer_sync61 (see above)", "code_try_to_del_timer_sync61_bytes",
     "420"},
    {"the 6.1 unit timer_delete_sync (see above)", "code_timer_delete_sync_bytes", "135"},
    {"the 6.1 unit timer_delete_sync_rt (see above)", "code_timer_delete_sync_rt_bytes", "206"},
    {"the 6.1 unit timer_shutdown_sync (see above)", "code_timer_shutdown_sync_bytes", "136"},
    {"memory_model weak: Itanium 2 orders only ld.acq, st.rel, mf and the\n"
     "semaphores (Intel, Itanium Architecture Software Developer's Manual\n"
     "vol. 2, 4.4.7; numasim's weak model after McKenney 2010, see\n"
     "docs/memory-ordering.md)",
     "memory_model", "weak"},
    {"how long a received invalidation waits in the queue before it is\n"
     "applied: estimate (no published figure), one bus transaction\n"
     "(c2c_node_cycles)",
     "inval_queue_cycles", "270"},
    {"The core: Itanium 2 is in order; a load that misses stalls the first\n"
     "instruction that uses it, not the load (the scoreboard: McNairy and\n"
     "Soltis, IEEE Micro 23(2) 2003). docs/model.md, \"The core\"",
     "core", "inorder"},
    {"issue: 3 slots a cycle, one bundle. ESTIMATE: dispersal takes up to two\n"
     "bundles (6 slots) a cycle [McNairy and Soltis 2003], but operating-system\n"
     "code has a stop in about every bundle and little ILP (Gray et al.,\n"
     "\"Itanium - A System Implementor's Tale\", USENIX ATC 2005)",
     "core_width", "3"},
    {"instructions a unit issues: its code bytes / 5.33, three slots in a\n"
     "16-byte bundle (IA-64's encoding; nop slots issue too)",
     "core_insn_bytes", "5.3333"},
    {"misses outstanding at once: 8. ESTIMATE (the L2's queue holds 32\n"
     "requests [McNairy and Soltis 2003]; in order, a miss is mostly used\n"
     "before the next is issued, so the bound is rarely reached)",
     "core_mshr", "8"},
    {"srlz.d after ssm psr.i: 5 cycles. ESTIMATE (no published cycle count;\n"
     "a pipeline flush of Itanium 2's 8 stages is of that order)",
     "core_serialize_cycles", "5"},
    {"local_irq_enable is ssm psr.i then srlz.d (Linux 6.1,\n"
     "arch/ia64/include/asm/irqflags.h; 2.6's system.h the same)",
     "core_irq_serialize", "1"},
    {"the front end fetches the next line ahead (ESTIMATE: Itanium 2's L1I\n"
     "has a streaming prefetch [McNairy and Soltis 2003]; its depth is not\n"
     "published)",
     "core_fetch_ahead", "1"},
    {"parameters numasim tune fits by default", "tunable",
     "link.exit,remote_dirty_cycles,c2c_node_cycles"},
};

int gen_tree_init(gen_tree_t *t, int ncpus, int cpus_per_node, err_t *e)
{
    memset(t, 0, sizeof *t);
    if (cpus_per_node < 1 || cpus_per_node > GEN_MAX_CPUS_PER_NODE)
        return err_set(e, NULL, 0, "--cpus-per-node must be in 1..%d, not %d",
                       GEN_MAX_CPUS_PER_NODE, cpus_per_node);
    if (ncpus < 2 || ncpus > GEN_MAX_CPUS)
        return err_set(e, NULL, 0, "--cpus must be in 2..%d, not %d", GEN_MAX_CPUS, ncpus);
    if (ncpus % cpus_per_node != 0)
        return err_set(e, NULL, 0, "--cpus %d is not a multiple of --cpus-per-node %d", ncpus,
                       cpus_per_node);
    t->ncpus = ncpus;
    t->cpus_per_node = cpus_per_node;
    t->nnodes = ncpus / cpus_per_node;
    t->nbricks = (t->nnodes + GEN_NODES_PER_BRICK - 1) / GEN_NODES_PER_BRICK;
    t->nleaves = (t->nbricks + GEN_BRICKS_PER_LEAF - 1) / GEN_BRICKS_PER_LEAF;
    t->nlevels = 1;
    while ((1 << (t->nlevels - 1)) < t->nleaves)
        t->nlevels++;
    /* Zones of >= sqrt(nodes) nodes: about as many zones as nodes per zone,
     * which minimises the route look-ups of platform_routes(). */
    const int per_leaf = GEN_NODES_PER_BRICK * GEN_BRICKS_PER_LEAF;
    t->zone_level = 1;
    while (t->zone_level < t->nlevels &&
           (per_leaf << (t->zone_level - 1)) * (per_leaf << (t->zone_level - 1)) < t->nnodes)
        t->zone_level++;
    t->nzones = gen_groups_at(t, t->zone_level);
    if (t->nzones == 1)
        t->zone_level = t->nlevels;
    return 0;
}

int gen_group_level(int a, int b)
{
    int la = gen_node_leaf(a), lb = gen_node_leaf(b), k = 1;
    while ((la >> (k - 1)) != (lb >> (k - 1)))
        k++;
    return k;
}

int gen_routers_crossed(int a, int b)
{
    if (a == b || gen_node_brick(a) == gen_node_brick(b))
        return 0;
    int k = gen_group_level(a, b);
    return k == 1 ? 1 : 2 * k - 2;
}

double gen_round_trip(int a, int b)
{
    if (a == b)
        return 0;
    double exit = GEN_LAT_EXIT, up = GEN_LAT_UPLINK, spine = GEN_LAT_SPINE;
    int c = gen_routers_crossed(a, b);
    double one_way = 2 * exit + (c > 0 ? 2 * up + spine * (c - 1) : 0);
    return 2 * one_way;
}

int gen_groups_at(const gen_tree_t *t, int k)
{
    int span = 1 << (k - 1);
    return (t->nleaves + span - 1) / span;
}

int gen_top_routers(const gen_tree_t *t)
{
    int n = 0;
    for (int k = 2; k < t->nlevels; k++)
        n += gen_groups_at(t, k);
    return n;
}

/* The name of group (k, g)'s top router: its leaf router at level 1. */
static const char *top_name(char *buf, size_t n, int k, int g)
{
    if (k == 1)
        snprintf(buf, n, "router%d", g);
    else
        snprintf(buf, n, "top%d_%d", k, g);
    return buf;
}

/* The zone of the top zone holding group (k, g)'s top router (k >= zone_level). */
static const char *zone_name(char *buf, size_t n, const gen_tree_t *t, int k, int g)
{
    if (k == t->zone_level)
        snprintf(buf, n, "group%d_%d", k, g);
    else
        snprintf(buf, n, "ztop%d_%d", k, g);
    return buf;
}

static void write_header(pemit_t *e, const gen_tree_t *t, const char *name, const char *command)
{
    char zones[400] = "";
    if (t->nzones > 1)
        snprintf(zones, sizeof zones,
                 "\n\n"
                 "SimGrid zones change no latency, only the cost of routing: the top zone\n"
                 "(Floyd) holds %d zones group%d_G of one level-%d group each (DijkstraCache)\n"
                 "and one zone per top router above them, so that route look-ups stay cheap.",
                 t->nzones, t->zone_level, t->zone_level);
    pemit_comment(
        e,
        "%s: generated by sim/machine/platform/generate.c (do not edit by hand), with the "
        "command\n"
        "below, where each \"- -\" stands for two hyphens (which an XML comment\n"
        "cannot hold):\n"
        "  %s\n"
        "\n"
        "A %d-CPU, %d-node machine built like numa32 (an SGI Altix 3700/350, see\n"
        "numa32.xml), with numa32's memory model and link latencies. %d Itanium 2\n"
        "CPU%s per SHUB node; two nodes form a C-brick; four C-bricks hang off one\n"
        "8-port NUMAlink leaf router (%d here). Leaf routers join in levels: two\n"
        "groups of one level are wired top router to top router (a spine link), as\n"
        "numa32's two routers are; a group that is not the whole machine has a top\n"
        "router above its two halves (spine up-links). %d level%s of groups.\n"
        "Routers crossed between two nodes: 0 in the same C-brick, 1 under the same\n"
        "leaf router, 2 across the two routers of a pair (as numa32), and each\n"
        "further level adds 2 (4, 6, ...). Round trip: 4 x exit + 75 x routers\n"
        "crossed = %g + 75 x routers crossed cycles.%s\n"
        "\n"
        "Units (numasim convention, see docs/platforms.md): one simulated second is one CPU\n"
        "cycle. Hosts have speed 1f; link latencies are ONE-WAY cycles written\n"
        "\"Ns\"; numasim doubles a route's latency into the round trip it adds to a\n"
        "remote miss. Memory-model figures below are in cycles at 1.5 GHz.",
        name, command ? command : "numasim platform --generate", t->ncpus, t->nnodes,
        t->cpus_per_node, t->cpus_per_node > 1 ? "s" : "", t->nleaves, t->nlevels,
        t->nlevels > 1 ? "s" : "", 4 * GEN_LAT_EXIT, zones);
}

static void spine_link(pemit_t *e, const char *kind, int k, int g)
{
    char id[48];
    snprintf(id, sizeof id, "%s%d_%d", kind, k, g);
    pemit_link(e, id, GEN_BW_LINK, GEN_LAT_SPINE, "spine");
}

/* Writes everything inside group (k, g): its CPUs, SHUBs, ports, routers (its
 * own top router when it has one), links and routes; comments when first. */
static void write_group(pemit_t *e, const gen_tree_t *t, int k, int g, int first)
{
    char a[48], b[48], id[48];
    int span = 1 << (k - 1);
    int l0 = g * span, l1 = (g + 1) * span < t->nleaves ? (g + 1) * span : t->nleaves;
    const int per_leaf = GEN_NODES_PER_BRICK * GEN_BRICKS_PER_LEAF;
    int n0 = l0 * per_leaf, n1 = l1 * per_leaf < t->nnodes ? l1 * per_leaf : t->nnodes;
    int K = t->cpus_per_node;
    /* group range at level j inside (k, g) */
#define GROUPS(j, lo, hi)                                                                          \
    int lo = g << (k - (j)), hi = (g + 1) << (k - (j));                                            \
    if (hi > gen_groups_at(t, j))                                                                  \
        hi = gen_groups_at(t, j);

    for (int c = n0 * K; c < n1 * K; c++)
        pemit_cpu(e, c, &(pemit_iprop_t){"numa_node", c / K}, 1);
    if (first)
        pemit_comment(e, "one SHUB node controller per node, its NUMAlink port, one leaf router\n"
                         "per four C-bricks, and the top router of each group of routers");
    for (int n = n0; n < n1; n++) {
        snprintf(id, sizeof id, "shub%d", n);
        pemit_router(e, id, NULL);
    }
    for (int n = n0; n < n1; n++) {
        snprintf(id, sizeof id, "port%d", n);
        pemit_router(e, id, NULL);
    }
    for (int j = 1; j <= k && (j == 1 || j < t->nlevels); j++) {
        GROUPS(j, lo, hi)
        for (int h = lo; h < hi; h++)
            pemit_router(e, top_name(a, sizeof a, j, h), NULL);
    }

    if (first)
        pemit_comment(e, "the front-side bus of each node: no latency here, the memory model\n"
                         "charges bus traffic (mem_local, c2c_node, inval_node)");
    for (int n = n0; n < n1; n++) {
        snprintf(id, sizeof id, "bus%d", n);
        pemit_link(e, id, GEN_BW_BUS, 0, NULL);
    }
    if (first)
        pemit_comment(
            e, "leaving the node: remote SHUB + directory, +225 to +450 cycles round trip\n"
               "(estimate from HP Superdome: local 243 ns, 1 hop 423 ns). A remote access\n"
               "crosses two exits (requester's and home's) each way: 4 x exit round trip.\n"
               "FITTED: 122 one way = 488 round trip (8%% above the estimate's top), by\n"
               "numasim tune (params link.exit and remote_dirty_cycles) to the scan baseline");
    for (int n = n0; n < n1; n++) {
        snprintf(id, sizeof id, "exit%d", n);
        pemit_link(e, id, GEN_BW_LINK, GEN_LAT_EXIT, "exit");
    }
    if (first && t->nnodes > 1)
        pemit_comment(e, "the two nodes of a C-brick are wired together: no router crossed");
    for (int n = n0; n + 1 < n1; n += 2) {
        snprintf(id, sizeof id, "brick%d", n / 2);
        pemit_link(e, id, GEN_BW_LINK, GEN_LAT_BRICK, "brick");
    }
    if (first)
        pemit_comment(e,
                      "port to router: a router crossed costs +75 cycles round trip (published:\n"
                      "50 ns per NUMAlink router, TAMU and SGI pages); node-router-node crosses "
                      "two\n"
                      "of these links each way: 4 x 18.75 = 75");
    for (int n = n0; n < n1; n++) {
        snprintf(id, sizeof id, "up%d", n);
        pemit_link(e, id, GEN_BW_LINK, GEN_LAT_UPLINK, "uplink");
    }
    if (first && t->nlevels > 1)
        pemit_comment(e,
                      "router to router: each spine link on a route is one more router crossed,\n"
                      "+75 round trip (published). spineK_G joins the two halves of group G of\n"
                      "level K, trunkK_G goes up from group G of level K to its top router");
    for (int j = 2; j <= k; j++) {
        GROUPS(j, lo, hi)
        for (int h = lo; h < hi; h++)
            if (2 * h + 1 < gen_groups_at(t, j - 1))
                spine_link(e, "spine", j, h);
    }
    for (int j = 1; j < k && j + 1 < t->nlevels; j++) {
        GROUPS(j, lo, hi)
        for (int h = lo; h < hi; h++)
            spine_link(e, "trunk", j, h);
    }

    for (int c = n0 * K; c < n1 * K; c++) {
        snprintf(a, sizeof a, "cpu%d", c);
        snprintf(b, sizeof b, "shub%d", c / K);
        snprintf(id, sizeof id, "bus%d", c / K);
        pemit_route(e, a, b, id);
    }
    for (int n = n0; n < n1; n++) {
        snprintf(a, sizeof a, "shub%d", n);
        snprintf(b, sizeof b, "port%d", n);
        snprintf(id, sizeof id, "exit%d", n);
        pemit_route(e, a, b, id);
    }
    for (int n = n0; n + 1 < n1; n += 2) {
        snprintf(a, sizeof a, "port%d", n);
        snprintf(b, sizeof b, "port%d", n + 1);
        snprintf(id, sizeof id, "brick%d", n / 2);
        pemit_route(e, a, b, id);
    }
    for (int n = n0; n < n1; n++) {
        snprintf(a, sizeof a, "port%d", n);
        snprintf(b, sizeof b, "router%d", gen_node_leaf(n));
        snprintf(id, sizeof id, "up%d", n);
        pemit_route(e, a, b, id);
    }
    for (int j = 2; j <= k; j++) {
        GROUPS(j, lo, hi)
        for (int h = lo; h < hi; h++)
            if (2 * h + 1 < gen_groups_at(t, j - 1)) {
                snprintf(id, sizeof id, "spine%d_%d", j, h);
                pemit_route(e, top_name(a, sizeof a, j - 1, 2 * h),
                            top_name(b, sizeof b, j - 1, 2 * h + 1), id);
            }
    }
    for (int j = 1; j < k && j + 1 < t->nlevels; j++) {
        GROUPS(j, lo, hi)
        for (int h = lo; h < hi; h++) {
            snprintf(id, sizeof id, "trunk%d_%d", j, h);
            pemit_route(e, top_name(a, sizeof a, j, h), top_name(b, sizeof b, j + 1, h / 2), id);
        }
    }
#undef GROUPS
}

int gen_write(FILE *f, const gen_tree_t *t, const char *command)
{
    char name[64], a[48], b[48], za[48], zb[48], id[48];
    if (t->cpus_per_node == 2)
        snprintf(name, sizeof name, "fat%d", t->ncpus);
    else
        snprintf(name, sizeof name, "fat%d-k%d", t->ncpus, t->cpus_per_node);
    pemit_t e;
    pemit_begin(&e, f);
    write_header(&e, t, name, command);
    /* One zone: DijkstraCache computes routes when asked (Floyd would cost
     * O(V^3) at load time). Several: see generate.h. */
    pemit_platform_open(&e);
    pemit_zone_open(&e, name, t->nzones > 1 ? "Floyd" : "DijkstraCache");
    for (size_t i = 0; i < sizeof kProps / sizeof kProps[0]; i++) {
        pemit_comment(&e, "%s", kProps[i].comment);
        if (kProps[i].id)
            pemit_prop(&e, kProps[i].id, "%s", kProps[i].value);
    }
    if (t->nzones == 1) {
        write_group(&e, t, t->nlevels, 0, 1);
        pemit_zone_close(&e);
        pemit_platform_close(&e);
        return pemit_end(&e);
    }
    const int J = t->zone_level, H = t->nlevels;
    for (int g = 0; g < t->nzones; g++) {
        pemit_zone_open(&e, zone_name(za, sizeof za, t, J, g), "DijkstraCache");
        write_group(&e, t, J, g, g == 0);
        pemit_zone_close(&e);
    }
    pemit_comment(&e, "the top routers above the zones, one zone each");
    for (int k = J + 1; k < H; k++)
        for (int g = 0; g < gen_groups_at(t, k); g++)
            pemit_router_zone(&e, zone_name(za, sizeof za, t, k, g), top_name(a, sizeof a, k, g));
    pemit_comment(&e, "the spine links above the zones (see the first zone)");
    for (int k = J + 1; k <= H; k++)
        for (int g = 0; 2 * g + 1 < gen_groups_at(t, k - 1); g++)
            spine_link(&e, "spine", k, g);
    for (int k = J; k + 1 < H; k++)
        for (int g = 0; g < gen_groups_at(t, k); g++)
            spine_link(&e, "trunk", k, g);
    for (int k = J + 1; k <= H; k++)
        for (int g = 0; 2 * g + 1 < gen_groups_at(t, k - 1); g++) {
            snprintf(id, sizeof id, "spine%d_%d", k, g);
            pemit_zone_route(&e, zone_name(za, sizeof za, t, k - 1, 2 * g),
                             zone_name(zb, sizeof zb, t, k - 1, 2 * g + 1),
                             top_name(a, sizeof a, k - 1, 2 * g),
                             top_name(b, sizeof b, k - 1, 2 * g + 1), id);
        }
    for (int k = J; k + 1 < H; k++)
        for (int g = 0; g < gen_groups_at(t, k); g++) {
            snprintf(id, sizeof id, "trunk%d_%d", k, g);
            pemit_zone_route(&e, zone_name(za, sizeof za, t, k, g),
                             zone_name(zb, sizeof zb, t, k + 1, g / 2), top_name(a, sizeof a, k, g),
                             top_name(b, sizeof b, k + 1, g / 2), id);
        }
    pemit_zone_close(&e);
    pemit_platform_close(&e);
    return pemit_end(&e);
}
