/* coro: coroutines on Boost.Context's fcontext (libboost_context).
 *
 * make_fcontext and jump_fcontext are Boost.Context's lowest layer, written
 * in assembly and declared extern "C" in boost/context/detail/fcontext.hpp
 * (a C++ header). Their C prototypes are repeated below; a struct of two
 * pointers comes back in two registers in the x86-64 and AArch64 C ABIs,
 * as Boost returns its transfer_t.
 *
 * A jump carries one pointer. coro_switch passes a hop (from, to) that
 * lives on the jumping stack, which stays frozen until it is resumed: the
 * resumed side stores the context it was handed into hop->from, which is
 * how every suspended coroutine's ctx stays current.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, MAP_STACK */
#include "coro.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
    void *fctx;
    void *data;
} fctx_transfer_t;

fctx_transfer_t jump_fcontext(void *const to, void *vp);
void *make_fcontext(void *sp, size_t size, void (*fn)(fctx_transfer_t));

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
/* A stack's frames leave poison in ASan's shadow, which munmap keeps: the
 * next mapping at those addresses (a simulation after this one, in the same
 * worker) would read as a stack overflow. */
#define ASAN_FORGET(base, size) __asan_unpoison_memory_region((base), (size))
#define ASAN_START(fake, co)    __sanitizer_start_switch_fiber((fake), (co)->sbottom, (co)->ssize)
#define ASAN_FINISH(fake, co)   __sanitizer_finish_switch_fiber((fake), &(co)->sbottom, &(co)->ssize)
#else
#define ASAN_START(fake, co)    ((void)(fake), (void)(co))
#define ASAN_FINISH(fake, co)   ((void)(fake), (void)(co))
#define ASAN_FORGET(base, size) ((void)(base), (void)(size))
#endif

/* Valgrind must be told where the stacks are, or it takes a jump for a
 * shrinking stack and every read of the frozen one for an error. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define STACK_REGISTER(lo, hi) VALGRIND_STACK_REGISTER((lo), (hi))
#define STACK_DEREGISTER(id)   VALGRIND_STACK_DEREGISTER(id)
#endif
#endif
#ifndef STACK_REGISTER
#define STACK_REGISTER(lo, hi) ((void)(lo), (void)(hi), 0u)
#define STACK_DEREGISTER(id)   ((void)(id))
#endif

typedef struct {
    coro_t *from, *to;
} hop_t;

static void coro_entry(fctx_transfer_t t)
{
    hop_t *h = t.data;
    h->from->ctx = t.fctx;
    ASAN_FINISH(NULL, h->from);
    coro_t *self = h->to;
    self->fn(self->arg);
    fprintf(stderr, "numasim: a coroutine returned instead of switching away\n");
    abort();
}

/* Freed stacks, kept for the next machine of this process (a worker runs
 * one after another, cli/loader.h): their touched pages stay mapped, so a
 * new coroutine's first frames fault no page in. A stack's old contents do
 * not matter. Not under ASan, whose shadow of an old stack would be stale. */
#if defined(__SANITIZE_ADDRESS__)
enum { SPARE_MAX = 0 };
#else
enum { SPARE_MAX = 8192 };
#endif
typedef struct {
    void *base;
    size_t size;
} spare_t;
static spare_t g_spare[SPARE_MAX ? SPARE_MAX : 1];
static int g_nspare;

int coro_init(coro_t *co, size_t stack_bytes, void (*fn)(void *arg), void *arg)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = (stack_bytes + page - 1) / page * page + page;
    void *base = NULL;
    for (int i = g_nspare - 1; i >= 0 && !base; i--)
        if (g_spare[i].size == size) {
            base = g_spare[i].base;
            g_spare[i] = g_spare[--g_nspare];
        }
    if (!base) {
        base = mmap(NULL, size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (base == MAP_FAILED)
            return -1;
        if (mprotect(base, page, PROT_NONE) < 0) { /* the guard: an overflow faults */
            munmap(base, size);
            return -1;
        }
    }
    *co = (coro_t){.base = base, .size = size, .fn = fn, .arg = arg};
    co->sbottom = (char *)base + page;
    co->ssize = size - page;
    co->vg_id = STACK_REGISTER((char *)base + page, (char *)base + size);
    co->ctx = make_fcontext((char *)base + size, size - page, coro_entry);
    return 0;
}

void coro_switch(coro_t *from, coro_t *to)
{
    hop_t h = {from, to};
    void *fake = NULL;
    ASAN_START(&fake, to);
    fctx_transfer_t t = jump_fcontext(to->ctx, &h);
    hop_t *back = t.data; /* whoever resumed us */
    back->from->ctx = t.fctx;
    ASAN_FINISH(fake, back->from);
}

void coro_free(coro_t *co)
{
    if (co->base) {
        STACK_DEREGISTER(co->vg_id);
        if (g_nspare < SPARE_MAX)
            g_spare[g_nspare++] = (spare_t){co->base, co->size};
        else {
            ASAN_FORGET(co->base, co->size);
            munmap(co->base, co->size);
        }
    }
    co->base = NULL;
}
