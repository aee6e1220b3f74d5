/* host-checks: two measurements of this host's caches that the project's
 * documents cite (docs/caches-validation.md), outside the machine API so
 * that nothing but the loads themselves is timed.
 *
 *   order  cycles per load of a dependent pointer chase through S bytes,
 *          with the lines visited a page at a time (lmbench's
 *          mem_initialize) and in one random order over the whole set:
 *          a region prefetcher helps the first and not the second.
 *   decay  median cycles of 32 dependent loads (32 lines of one page) and
 *          of 32 calls of small functions (a line each) after a spin of P
 *          cycles on the time-stamp counter: how fast other software
 *          evicts them, and how much of the code's misses overlap.
 *
 * x86-64 only (rdtsc); pinned to CPU 0. Cycles are TSC cycles.
 * Usage: host-checks [order|decay]   (default: both)
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__x86_64__)
int main(void)
{
    fprintf(stderr, "host-checks: x86-64 only (rdtsc)\n");
    return 2;
}
#else
#include <x86intrin.h>

#define LINE  64
#define PAGE  4096
#define NLINE 32

static inline uint64_t now(void)
{
    _mm_lfence();
    return __rdtsc();
}

static void spin(uint64_t n)
{
    uint64_t s = now();
    while (now() - s < n)
        ;
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static void shuffle(uint32_t *v, uint32_t n)
{
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = rnd(i), t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    return v[n / 2];
}

/* Cycles per load of 4096 dependent loads through the ring of order[]. */
static double chase(char *buf, const uint32_t *order, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        *(void **)(buf + (size_t)order[i] * LINE) = buf + (size_t)order[(i + 1) % n] * LINE;
    void **p = (void **)(buf + (size_t)order[0] * LINE);
    for (uint32_t i = 0; i < n; i++)
        p = *p;
    uint64_t t[9];
    for (int r = 0; r < 9; r++) {
        uint64_t t0 = now();
        for (int i = 0; i < 4096; i++)
            p = *p;
        t[r] = now() - t0;
    }
    __asm__ volatile("" ::"r"(p));
    return (double)median(t, 9) / 4096.0;
}

static int check_order(void)
{
    static const size_t sizes[] = {16 << 10, 48 << 10, 128 << 10, 512 << 10, 2 << 20, 6 << 20};
    size_t max = 6 << 20;
    char *buf = aligned_alloc(PAGE, max);
    if (!buf)
        return 2;
    memset(buf, 1, max);
    printf("working set   a page at a time   one random order   (cycles per load)\n");
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        uint32_t n = (uint32_t)(sizes[si] / LINE), per = PAGE / LINE, np = n / per;
        uint32_t *order = malloc(sizeof *order * n), *pages = malloc(sizeof *pages * np);
        uint32_t in[PAGE / LINE];
        if (!order || !pages)
            return 2;
        for (uint32_t i = 0; i < np; i++)
            pages[i] = i;
        shuffle(pages, np);
        for (uint32_t i = 0, k = 0; i < np; i++) {
            for (uint32_t j = 0; j < per; j++)
                in[j] = pages[i] * per + j;
            shuffle(in, per);
            for (uint32_t j = 0; j < per; j++)
                order[k++] = in[j];
        }
        double paged = chase(buf, order, n);
        for (uint32_t i = 0; i < n; i++)
            order[i] = i;
        shuffle(order, n);
        double random = chase(buf, order, n);
        printf("%7zu KiB   %16.1f   %16.1f\n", sizes[si] >> 10, paged, random);
        free(order);
        free(pages);
    }
    free(buf);
    return 0;
}

static void **g_chain;
static uint64_t load32(void)
{
    void **p = g_chain;
    for (int i = 0; i < NLINE; i++)
        p = *p;
    return (uint64_t)(uintptr_t)p;
}

/* 32 functions, each alone in a 128-byte slot, with a branch each. */
#define FN(i)                                                                                      \
    __attribute__((noinline, aligned(128))) static int fn##i(int x)                                \
    {                                                                                              \
        return (x & (1 << (i % 8))) ? x + i * 3 : x ^ i;                                           \
    }
FN(0)
FN(1) FN(2) FN(3) FN(4) FN(5) FN(6) FN(7) FN(8) FN(9) FN(10) FN(11) FN(12) FN(13) FN(14) FN(15)
    FN(16) FN(17) FN(18) FN(19) FN(20) FN(21) FN(22) FN(23) FN(24) FN(25) FN(26) FN(27) FN(28)
        FN(29) FN(30) FN(31)

            static int call32(int x)
{
    x = fn0(x), x = fn1(x), x = fn2(x), x = fn3(x), x = fn4(x), x = fn5(x), x = fn6(x);
    x = fn7(x), x = fn8(x), x = fn9(x), x = fn10(x), x = fn11(x), x = fn12(x), x = fn13(x);
    x = fn14(x), x = fn15(x), x = fn16(x), x = fn17(x), x = fn18(x), x = fn19(x);
    x = fn20(x), x = fn21(x), x = fn22(x), x = fn23(x), x = fn24(x), x = fn25(x);
    x = fn26(x), x = fn27(x), x = fn28(x), x = fn29(x), x = fn30(x), x = fn31(x);
    return x;
}

static int check_decay(void)
{
    char *page = aligned_alloc(PAGE, PAGE);
    if (!page)
        return 2;
    memset(page, 0, PAGE);
    uint32_t order[NLINE];
    for (uint32_t i = 0; i < NLINE; i++)
        order[i] = (i * 13) % NLINE; /* each line its own l1d set, not in address order */
    for (uint32_t i = 0; i < NLINE; i++)
        *(void **)(page + order[i] * LINE) = page + order[(i + 1) % NLINE] * LINE;
    g_chain = (void **)(page + order[0] * LINE);
    static const uint64_t pauses[] = {0, 1000, 10000, 100000, 1000000, 10000000};
    static uint64_t d[200], c[200];
    volatile uint64_t sink = 0;
    printf("pause (cycles)   32 dependent loads   32 small functions   (median cycles)\n");
    for (size_t pi = 0; pi < sizeof pauses / sizeof *pauses; pi++) {
        int reps = pauses[pi] >= 10000000 ? 60 : 200;
        for (int r = 0; r < reps; r++) {
            sink += load32() + (uint64_t)call32(r);
            spin(pauses[pi]);
            uint64_t t0 = now();
            sink += load32();
            d[r] = now() - t0;
            spin(pauses[pi]);
            t0 = now();
            sink += (uint64_t)call32(r);
            c[r] = now() - t0;
        }
        printf("%14llu   %18llu   %18llu\n", (unsigned long long)pauses[pi],
               (unsigned long long)median(d, reps), (unsigned long long)median(c, reps));
    }
    free(page);
    return 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "both";
    if (strcmp(what, "order") && strcmp(what, "decay") && strcmp(what, "both")) {
        fprintf(stderr, "usage: host-checks [order|decay]\n");
        return 2;
    }
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(0, &s);
    sched_setaffinity(0, sizeof s, &s);
    int rc = 0;
    if (strcmp(what, "decay"))
        rc |= check_order();
    if (strcmp(what, "order"))
        rc |= check_decay();
    return rc;
}
#endif
