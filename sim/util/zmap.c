/* zmap: zero-filled mappings reused within a process (see zmap.h).
 *
 * The pool is a small array searched linearly: a machine holds a few dozen
 * mappings (per cache level two or three, the memory's two; the CPUs'
 * stacks are kept by coro.c). A request takes the smallest mapping that is
 * large enough. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, MADV_HUGEPAGE */
#include "zmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { ZMAP_SLOTS = 256 };
/* A larger mapping is unmapped: a sparse one (the set pointers of
 * thousands of CPUs' caches) would keep the pages every run touched, and
 * resident memory would grow run after run; and a large machine's runs are
 * long enough that its page faults matter little. */
#define ZMAP_KEEP_MAX   ((size_t)4 << 20)
#define ZMAP_POOL_BYTES ((size_t)256 << 20) /* all kept mappings */

static struct {
    void *p;
    size_t bytes;
} g_pool[ZMAP_SLOTS];
static int g_n;
static size_t g_bytes;

void *zmap_get(size_t bytes, size_t *got, int flags)
{
    int best = -1;
    for (int i = 0; i < g_n; i++)
        if (g_pool[i].bytes >= bytes && (best < 0 || g_pool[i].bytes < g_pool[best].bytes))
            best = i;
    if (best >= 0) {
        void *p = g_pool[best].p;
        if (got)
            *got = g_pool[best].bytes;
        g_bytes -= g_pool[best].bytes;
        g_pool[best] = g_pool[--g_n];
        return p;
    }
    size_t page = 4096;
    bytes = bytes ? (bytes + page - 1) / page * page : page;
    void *p =
        mmap(NULL, bytes, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | ((flags & ZMAP_NORESERVE) ? MAP_NORESERVE : 0), -1, 0);
    if (p == MAP_FAILED)
        abort();
    if (flags & ZMAP_HUGE)
        madvise(p, bytes, MADV_HUGEPAGE);
    if (got)
        *got = bytes;
    return p;
}

void zmap_put(void *p, size_t bytes, size_t dirty)
{
    if (!p)
        return;
    if (g_n == ZMAP_SLOTS || bytes > ZMAP_KEEP_MAX || g_bytes + bytes > ZMAP_POOL_BYTES) {
        munmap(p, bytes);
        return;
    }
    memset(p, 0, dirty < bytes ? dirty : bytes);
    g_pool[g_n].p = p;
    g_pool[g_n].bytes = bytes;
    g_n++;
    g_bytes += bytes;
}
