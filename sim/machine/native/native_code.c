/* native_code: generated code units and the flush of lines (native_code.h).
 *
 * A unit of n lines is a function of n * line bytes in a mapping of its
 * own, written with PROT_READ | PROT_WRITE, then made PROT_READ | PROT_EXEC
 * (never both writable and executable).
 *
 *   x86     8-byte NOPs (0F 1F 84 00 00 00 00 00, nopl 0(%rax,%rax)): 8
 *           instructions a 64-byte line, decoded as any code; the last 8
 *           bytes are the 7-byte NOP and ret (C3).
 *   aarch64 nop (d503201f) words, the last one ret (d65f03c0); then
 *           __builtin___clear_cache, which makes the new instructions
 *           visible to the instruction side (dc cvau, ic ivau).
 *
 * Flushing a unit. x86: clflush of each line evicts it from every level
 * of every CPU's caches, the instruction cache included, then mfence
 * (whether a core's decoded-op cache keeps the ops of an evicted line is
 * its own business; on Intel it is included in the instruction cache). aarch64: dc civac cleans and
 * invalidates each line to the point of coherence (every data and unified level a CPU can name, all
 * CPUs of the shareable domain), ic ivau invalidates it from the instruction caches to the point of
 * unification, then dsb ish and isb. That is all an unprivileged program can do: a system cache
 * past the point of coherence may keep the line, and the core may keep instructions it fetched
 * ahead; so on aarch64 a unit's lines may be less cold than on x86.
 */
#define _GNU_SOURCE
#include "native_code.h"
#include "xalloc.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define NCODE_HOST 1
#elif defined(__aarch64__)
#define NCODE_HOST 1
#else
#define NCODE_HOST 0
#endif

#define NCODE_MAX 256 /* units of a machine (the probe makes 20) */

typedef struct {
    char *unit;
    uint8_t *text; /* the mapping, len bytes: whole lines */
    size_t len;
    void (*fn)(void);
} unit_t;

struct ncode {
    int line;
    int n;      /* units published (atomic: release by the maker, acquire by readers) */
    int warned; /* the host refused executable memory: said once */
    pthread_mutex_t lock;
    unit_t units[NCODE_MAX];
};

ncode_t *ncode_new(int line)
{
    ncode_t *s = xcalloc(1, sizeof *s);
    s->line = line;
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

void ncode_free(ncode_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        munmap(s->units[i].text, s->units[i].len);
        free(s->units[i].unit);
    }
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Writes the function: NOPs, the return at the end. */
static void fill(uint8_t *t, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
    static const uint8_t nop8[8] = {0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00};
    static const uint8_t nop7_ret[8] = {0x0F, 0x1F, 0x80, 0x00, 0x00, 0x00, 0x00, 0xC3};
    for (size_t o = 0; o + 8 < len; o += 8)
        memcpy(t + o, nop8, 8);
    memcpy(t + len - 8, nop7_ret, 8);
#elif defined(__aarch64__)
    uint32_t nop = 0xd503201fu, ret = 0xd65f03c0u;
    for (size_t o = 0; o + 4 < len; o += 4)
        memcpy(t + o, &nop, 4);
    memcpy(t + len - 4, &ret, 4);
#else
    (void)t, (void)len;
#endif
}

/* Maps and writes a unit of len bytes; -1 when the host refuses. */
static int make(ncode_t *s, unit_t *u, size_t len)
{
    void *t = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t == MAP_FAILED)
        return -1;
    fill(t, len);
    if (mprotect(t, len, PROT_READ | PROT_EXEC) < 0) {
        if (!s->warned++)
            fprintf(stderr,
                    "numasim: native: no executable memory for code units (%s): "
                    "cpu_exec does nothing\n",
                    strerror(errno));
        munmap(t, len);
        return -1;
    }
#if defined(__aarch64__)
    __builtin___clear_cache((char *)t, (char *)t + len);
#endif
    u->text = t;
    u->len = len;
    memcpy(&u->fn, &t, sizeof u->fn); /* object to function pointer: POSIX allows it */
    return 0;
}

int ncode_get(ncode_t *s, const char *unit, uint64_t bytes)
{
    if (!NCODE_HOST || bytes == 0)
        return -1;
    pthread_mutex_lock(&s->lock);
    int h = -1, n = s->n;
    for (int i = 0; i < n; i++)
        if (strcmp(s->units[i].unit, unit) == 0)
            h = i;
    size_t len = (size_t)(bytes + (uint64_t)s->line - 1) & ~((size_t)s->line - 1);
    if (h < 0 && n < NCODE_MAX && make(s, &s->units[n], len) == 0) {
        s->units[n].unit = xstrdup(unit);
        h = n;
        __atomic_store_n(&s->n, n + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&s->lock);
    return h;
}

void ncode_exec(const ncode_t *s, int h)
{
    if (h >= 0 && h < __atomic_load_n(&s->n, __ATOMIC_ACQUIRE))
        s->units[h].fn();
}

void native_flush_lines(const void *p, size_t len, int line)
{
    const uint8_t *b = p;
    for (size_t off = 0; off < len; off += (size_t)line) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_clflush(b + off);
#elif defined(__aarch64__)
        __asm__ volatile("dc civac, %0" ::"r"(b + off) : "memory");
#else
        (void)b;
#endif
    }
}

void ncode_flush(const ncode_t *s)
{
    int n = __atomic_load_n(&s->n, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++) {
        const unit_t *u = &s->units[i];
        native_flush_lines(u->text, u->len, s->line);
#if defined(__aarch64__)
        __asm__ volatile("dsb ish" ::: "memory"); /* cleaned to PoC before the ic */
        for (size_t off = 0; off < u->len; off += (size_t)s->line)
            __asm__ volatile("ic ivau, %0" ::"r"(u->text + off) : "memory");
#endif
    }
}

void native_flush_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_mfence();
#elif defined(__aarch64__)
    __asm__ volatile("dsb ish\n\tisb" ::: "memory");
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}
