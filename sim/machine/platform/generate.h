/* generate: fat-tree NUMA platforms (`numasim platform --generate`).
 *
 * A generated platform "fatN" is numa32 grown to N CPUs (platforms/numa32.xml
 * is the model; its memory-model props and link latencies are copied here as
 * constants). K CPUs share one node (SHUB and front-side bus); two nodes form
 * a C-brick (wired together, no router); four C-bricks hang off one 8-port
 * leaf router. Leaf routers then join in levels, as a binary tree of groups:
 *
 *   - a level-1 group is one leaf router, which is also its "top" router;
 *   - a level-k group (k >= 2) is two level-(k-1) groups whose top routers
 *     are joined by one spine link (numa32 is one level-2 group: two routers
 *     and its "spine" link). Unless it is the whole machine, a level-k group
 *     has a top router of its own, with a spine up-link from each of the two
 *     tops below it.
 *
 * Routers crossed between two nodes (fewest hops, as SimGrid routes):
 *   0 in the same C-brick, 1 under the same leaf router, and 2k-2 when the
 *   smallest group holding both is of level k >= 2 (2 as numa32 across its
 *   two routers, then 4, 6, ...: each further level adds 2).
 * Round trip = 4 x exit + (crossed > 0 ? 4 x uplink + 2 x spine x (crossed-1) : 0)
 *            = 488 + 75 x crossed cycles with numa32's current latencies
 *              (exit 122, uplink 18.75, spine 37.5 cycles one way).
 *
 * Nodes are numbered in CPU order (node n holds CPUs nK .. nK+K-1), bricks
 * pair nodes 2b and 2b+1, leaf router r holds bricks 4r .. 4r+3.
 */
#ifndef NUMASIM_GENERATE_H
#define NUMASIM_GENERATE_H

#include "err.h"

#include <stdint.h>
#include <stdio.h>

#define GEN_MAX_CPUS          8192
#define GEN_MAX_CPUS_PER_NODE 64
#define GEN_NODES_PER_BRICK   2
#define GEN_BRICKS_PER_LEAF   4

typedef struct {
    int ncpus, cpus_per_node;
    int nnodes;     /* ncpus / cpus_per_node */
    int nbricks;    /* ceil(nnodes / 2); with an odd count the last holds one node */
    int nleaves;    /* leaf routers: ceil(nbricks / 4) */
    int nlevels;    /* levels of groups: smallest L with 2^(L-1) >= nleaves */
    int zone_level; /* SimGrid zones: one per group of this level (see below) */
    int nzones;     /* groups of level zone_level; 1 = one flat zone */
} gen_tree_t;

/* SimGrid zones (they change no latency, only the cost of routing): when the
 * machine has more than one group of level zone_level, the top zone (Floyd)
 * holds one sub-zone (DijkstraCache) per such group plus one small zone per
 * top router above them, so that route look-ups stay cheap; zone_level is
 * the smallest level whose groups hold >= sqrt(nodes) nodes. */

/* Checks N (2..8192) and K (1..64, dividing N) and fills t. Returns 0, or -1
 * with a one-line message in e. */
int gen_tree_init(gen_tree_t *t, int ncpus, int cpus_per_node, err_t *e);

/* The C-brick of a node. */
static inline int gen_node_brick(int node)
{
    return node / GEN_NODES_PER_BRICK;
}

/* The leaf router of a node. */
static inline int gen_node_leaf(int node)
{
    return node / (GEN_NODES_PER_BRICK * GEN_BRICKS_PER_LEAF);
}

/* Level of the smallest group holding both nodes' leaf routers: 1 under the
 * same leaf router, k >= 2 otherwise. */
int gen_group_level(int a, int b);

/* Routers crossed between nodes a != b (0 for a == b). */
int gen_routers_crossed(int a, int b);

/* Round-trip latency in cycles between nodes a and b (0 for a == b), as
 * numasim computes it from the generated platform's routes. */
double gen_round_trip(int a, int b);

/* Groups of level k (1 = leaf routers). */
int gen_groups_at(const gen_tree_t *t, int k);

/* Top routers of the generated platform: one per group of levels
 * 2 .. nlevels-1 (the whole machine has none). */
int gen_top_routers(const gen_tree_t *t);

/* Writes the platform XML for t to f. command (may be NULL) is recorded in
 * the header comment. Returns 0, or -1 when a write failed. */
int gen_write(FILE *f, const gen_tree_t *t, const char *command);

#endif
