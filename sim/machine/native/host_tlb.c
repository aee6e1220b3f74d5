/* host_tlb: this host's TLBs for 4 KiB pages, from CPUID, which hwloc does
 * not report. AMD: leaves 0x80000005 (first level) and 0x80000006 (second
 * level), AMD64 Architecture Programmer's Manual vol. 3, appendix E.4.
 * Intel: leaf 0x18 (deterministic address translation parameters), Intel
 * SDM vol. 2A, CPUID; a unified second level is given to both sides.
 * Elsewhere (other vendors, other architectures) nothing is found.
 *
 * The page table's levels: x86-64 walks four (Intel SDM vol. 3A, 4.5;
 * AMD64 APM vol. 2, 5.3), five with LA57, which Linux leaves in
 * /proc/cpuinfo's flags only when it runs 5-level paging.
 */
#include "host_topo.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* AMD's 4-bit associativity code of leaf 0x80000006; 0: reserved/none,
 * -1: fully associative. */
static int amd_l2_ways(unsigned code)
{
    static const int ways[16] = {0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, -1};
    return ways[code & 15];
}

static void put(platform_tlb_t *t, int entries, int ways)
{
    if (entries <= 0 || ways == 0)
        return;
    if (ways < 0 || ways > entries)
        ways = entries; /* fully associative */
    if (entries % ways)
        return; /* not a shape the platform rules accept: leave it out */
    t->entries = entries;
    t->ways = ways;
}

static int amd(platform_tlb_t tlb[TLB_NLEVELS], char *why, size_t n)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000006)
        return 0;
    __get_cpuid(0x80000005, &a, &b, &c, &d);
    int dw = (int)(b >> 24), iw = (int)((b >> 8) & 0xff);
    put(&tlb[TLB_DTLB1], (int)((b >> 16) & 0xff), dw == 0xff ? -1 : dw);
    put(&tlb[TLB_ITLB1], (int)(b & 0xff), iw == 0xff ? -1 : iw);
    __get_cpuid(0x80000006, &a, &b, &c, &d);
    put(&tlb[TLB_DTLB2], (int)((b >> 16) & 0xfff), amd_l2_ways(b >> 28));
    put(&tlb[TLB_ITLB2], (int)(b & 0xfff), amd_l2_ways((b >> 12) & 15));
    snprintf(why, n,
             "CPUID Fn8000_0005 and Fn8000_0006 EBX (4 KiB pages; AMD64 APM vol. 3, "
             "appendix E.4)");
    return 1;
}

static int intel(platform_tlb_t tlb[TLB_NLEVELS], char *why, size_t n)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d) || a < 0x18)
        return 0;
    unsigned max;
    __cpuid_count(0x18, 0, max, b, c, d);
    for (unsigned i = 0; i <= max && i < 64; i++) {
        __cpuid_count(0x18, i, a, b, c, d);
        unsigned type = d & 31, level = (d >> 5) & 7;
        if (!type || !(b & 1) || level < 1 || level > 2)
            continue; /* invalid, or no 4 KiB pages */
        int ways = (int)(b >> 16), entries = ways * (int)c;
        if (d & (1u << 8))
            ways = -1;
        int base = level == 1 ? TLB_DTLB1 : TLB_DTLB2;
        if (type == 1 || type == 3 || type == 4)
            put(&tlb[base], entries, ways);
        if (type == 2 || type == 3)
            put(&tlb[base + 1], entries, ways);
    }
    snprintf(why, n, "CPUID leaf 18H (4 KiB pages; Intel SDM vol. 2A, CPUID)");
    return 1;
}
#endif

int host_topo_tlbs(platform_tlb_t tlb[TLB_NLEVELS], char *why, size_t n)
{
    memset(tlb, 0, sizeof *tlb * TLB_NLEVELS);
    snprintf(why, n, "no TLB found (CPUID gives none here)");
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    char vendor[13] = "";
    if (__get_cpuid(0, &a, &b, &c, &d)) {
        memcpy(vendor, &b, 4);
        memcpy(vendor + 4, &d, 4);
        memcpy(vendor + 8, &c, 4);
    }
    int ok = strcmp(vendor, "AuthenticAMD") == 0   ? amd(tlb, why, n)
             : strcmp(vendor, "GenuineIntel") == 0 ? intel(tlb, why, n)
                                                   : 0;
    /* the platform rules: a second level needs its first, code needs data */
    if (!tlb[TLB_DTLB1].entries)
        memset(tlb, 0, sizeof *tlb * TLB_NLEVELS);
    if (!tlb[TLB_ITLB1].entries)
        tlb[TLB_ITLB2].entries = 0;
    if (!ok || !tlb[TLB_DTLB1].entries) {
        snprintf(why, n, "no TLB found (CPUID of '%s' gives none for 4 KiB pages)", vendor);
        return 0;
    }
    return 1;
#else
    return 0;
#endif
}

int host_topo_walk_levels(char *why, size_t n)
{
#if defined(__x86_64__)
    int la57 = 0;
    char line[4096];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && !la57 && fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5))
            la57 = strstr(line, " la57") != NULL;
    if (f)
        fclose(f);
    snprintf(why, n,
             "%s paging (x86-64: Intel SDM vol. 3A 4.5, AMD64 APM vol. 2 5.3; /proc/cpuinfo %s "
             "la57)",
             la57 ? "5-level" : "4-level", la57 ? "has" : "has no");
    return la57 ? 5 : 4;
#else
    snprintf(why, n, "not x86-64: the levels are not known here");
    return 0;
#endif
}
