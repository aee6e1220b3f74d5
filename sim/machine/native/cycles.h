/* cycles: the host's cycle counter, for the native machine.
 *
 * x86-64: the time-stamp counter (rdtsc after an lfence, so that earlier
 * instructions have completed). It ticks at a constant rate (the CPU's
 * nominal clock, "constant_tsc"), not at the core's current clock, which
 * turbo and power states move. aarch64: the generic timer's virtual count
 * (cntvct_el0), usually 25 MHz to 1 GHz: far coarser than a cycle.
 * Elsewhere there is no counter and the native machine refuses to start.
 */
#ifndef NUMASIM_CYCLES_H
#define NUMASIM_CYCLES_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define CYCLES_AVAILABLE  1
#define CYCLES_CLOCK_NAME "TSC (rdtsc)"
static inline uint64_t cycles_now(void)
{
    _mm_lfence();
    return __rdtsc();
}
static inline void cycles_pause(void)
{
    _mm_pause();
}
#elif defined(__aarch64__)
#define CYCLES_AVAILABLE  1
#define CYCLES_CLOCK_NAME "generic timer (cntvct_el0)"
static inline uint64_t cycles_now(void)
{
    uint64_t v;
    __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
}
static inline void cycles_pause(void)
{
    __asm__ volatile("yield" ::: "memory");
}
#else
#define CYCLES_AVAILABLE  0
#define CYCLES_CLOCK_NAME "none"
static inline uint64_t cycles_now(void)
{
    return 0;
}
static inline void cycles_pause(void) {}
#endif

/* n counter cycles at mhz, in nanoseconds (the tick's period: POSIX timers
 * take time, not cycles) */
static inline uint64_t cycles_to_ns(uint64_t n, double mhz)
{
    return (uint64_t)((double)n * 1000.0 / mhz);
}

static inline struct timespec ns_to_ts(uint64_t ns)
{
    struct timespec t = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    return t;
}

#endif
