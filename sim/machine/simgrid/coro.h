/* coro: coroutines for the simulated CPUs, on Boost.Context's fcontext.
 *
 * The baton scheduler runs exactly one CPU at a time, so the CPUs need
 * stacks and a way to jump between them, not actors: a jump here costs a
 * few nanoseconds where a SimGrid semaphore pass costs about 430 ns. Every
 * coroutine runs inside the one SimGrid actor that called the first
 * coro_switch, which SimGrid sees as that actor running: no SimGrid call
 * that blocks or switches actors may be made from a coroutine.
 */
#ifndef NUMASIM_CORO_H
#define NUMASIM_CORO_H

#include <stddef.h>

typedef struct coro {
    void *ctx;   /* the saved context while it is not running */
    void *base;  /* its mapping, guard page included; NULL for a caller's own stack */
    size_t size; /* of the mapping */
    void (*fn)(void *arg);
    void *arg;
    const void *sbottom; /* the stack's bounds, for AddressSanitizer */
    size_t ssize;
    unsigned vg_id; /* its id for Valgrind */
} coro_t;

/* Makes co a coroutine that will run fn(arg) on a stack of stack_bytes
 * (rounded up to pages, plus a guard page) when first switched to. fn must
 * never return: it ends by switching away for good. Returns 0, or -1 when
 * the stack cannot be mapped. */
int coro_init(coro_t *co, size_t stack_bytes, void (*fn)(void *arg), void *arg);

/* Saves the running code into from (a zeroed coro_t stands for the
 * caller's own stack) and resumes to. Returns when some coroutine
 * switches back to from. */
void coro_switch(coro_t *from, coro_t *to);

/* Unmaps co's stack. co must not be running or be resumed again. */
void coro_free(coro_t *co);

#endif
