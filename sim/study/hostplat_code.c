/* hostplat_code: the code sizes and instruction counts of this host's
 * platform file. Theory of operation.
 *
 * The units of the platform contract are mapped to numasim's own functions
 * (kCodeUnits) and their sizes read from this very binary (/proc/self/exe)
 * with libelf (host_topo_symbol_ranges); the comment of each value lists the
 * functions found and those absent (inlined by the compiler).
 *
 * The instructions of the same functions are counted from the same file by
 * binutils' objdump: one `objdump -d` over the span from the first function
 * to the end of the last (one run: the binary is disassembled once, not once
 * per function), each listed instruction counted with every function whose
 * bytes hold its address. The symbols' addresses are the file's (a PIE's
 * link-time ones), which objdump of the file lists: no load base is added.
 * The file is /proc/PID/exe, PID numasim's: the very binary running, even if
 * it was rebuilt since (objdump's own /proc/self/exe would be objdump).
 * Without objdump (not installed, failed, or a function it does not list),
 * every unit's count is an estimate, its bytes / 4 rounded up (x86-64's
 * average instruction length; arm64's fixed one), and said so.
 */
#include "child.h"
#include "hostplat_internal.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Each code unit of the platform contract and the numasim functions that
 * implement it, on the 2.6.6 (classic) path, 2.6.13 for the tracking units.
 * A unit counts the helpers its call runs (locks, list operations: the
 * kernel inlines them) but not another unit it calls (a strategy's del_timer
 * is fetched as del_timer, the tick's run_timers as run_timers), nor the
 * machine API (cpu_*) and the oracle's hooks, which are the model, not the
 * kernel. "file.c:fn" names a static function.
 *
 * The 6.1 units (the "61" ones, then the 6.1 strategies) are timer61/'s
 * functions. What numasim picks at run time and Linux at build time is left
 * out: timer_ops.c's mod_timer and del_timer (which core) and lock.c's
 * klock_* (which lock kind). The bases' lock is counted as the queued
 * spinlock (x86's and arm64's, as modern-table runs it) without its slow
 * path (qspin_queue, Linux's queued_spin_lock_slowpath: contention only).
 * The RT strategy's wait (wait_running, inlined into timer61_delete_sync)
 * counts the sleeping lock it takes. */
#define MAX_UNIT_FNS HOSTPLAT_UNIT_FNS
static const hostplat_unit_t kCodeUnits[] = {
    {"tick", {"timer_core.c:tick", "native.c:on_tick", "native.c:take_tick"}},
    {"run_timers",
     {"wheel_run", "timer_wheel.c:cascade", "timer_wheel.c:splice_init", "timer_wheel.c:tv_head",
      "timer_wheel.c:time_after_eq", "wheel_add", "tlist_add_tail", "tlist_unlink", "tlock_irq",
      "tunlock_irq", "spin_lock", "spin_unlock"}},
    {"mod_timer",
     {"mod_timer", "timer_ops.c:mod_classic", "timer_ops.c:is_pending", "timer_ops.c:check_timer",
      "timer_ops.c:unlink_classic", "tlist_unlink", "wheel_add", "timer_wheel.c:tv_head",
      "tlist_add_tail", "spin_lock", "spin_unlock"}},
    {"del_timer",
     {"del_timer", "timer_ops.c:del_classic", "timer_ops.c:check_timer",
      "timer_ops.c:unlink_classic", "tlist_unlink", "tlock_irq", "tunlock_irq", "spin_lock",
      "spin_unlock"}},
    {"try_to_del_timer_sync",
     {"try_to_del_timer_sync", "timer_ops.c:lock_timer_base", "detach_tracking", "tlist_unlink",
      "tlock_irq", "tunlock_irq", "spin_lock", "spin_unlock"}},
    {"del_timer_sync_scan",
     {"del_timer_sync_scan", "timer_pending", "timer_ops.c:is_pending", "tcore_base",
      "tcore_machine"}},
    {"del_timer_sync_last_running",
     {"del_timer_sync_last_running", "timer_pending", "timer_ops.c:is_pending"}},
    {"del_singleshot_timer_sync", {"del_singleshot_timer_sync"}},
    {"del_timer_sync_naive", {"del_timer_sync_naive"}},
    {"del_timer_sync_shortcut", {"del_timer_sync_shortcut"}},
    {"del_timer_sync_base_tracking", {"del_timer_sync_base_tracking"}},
    {"tick61",
     {"base61.c:tick61", "base61.c:due", "base61_at", "native.c:on_tick", "native.c:take_tick"}},
    {"run_timers61",
     {"base61.c:run_timers", "wheel61_run_hooks", "wheel61.c:collect_expired_timers",
      "wheel61.c:expire_timers", "wheel61.c:next_timer_interrupt", "wheel61.c:next_pending_bucket",
      "wheel61.c:detach_timer", "base61.c:call_fn", "base61.c:sync_wait_running", "base61_unlock",
      "qspin_lock", "qspin_unlock"}},
    {"mod_timer61",
     {"mod61", "wheel61_timer_pending", "base61_lock_timer", "base61_at", "ops61.c:forward",
      "wheel61_forward", "wheel61_calc_index", "wheel61_detach_if_pending",
      "wheel61.c:detach_timer", "ops61.c:target_base", "ops61.c:nohz_timer_target",
      "ops61.c:idle_cpu", "wheel61_enqueue", "base61_unlock", "qspin_lock", "qspin_unlock"}},
    {"del_timer61",
     {"del61", "wheel61_timer_pending", "base61_lock_timer", "base61_at",
      "wheel61_detach_if_pending", "wheel61.c:detach_timer", "base61_unlock", "qspin_lock",
      "qspin_unlock"}},
    {"try_to_del_timer_sync61",
     {"try_del61", "base61_lock_timer", "base61_at", "wheel61_detach_if_pending",
      "wheel61.c:detach_timer", "base61_unlock", "qspin_lock", "qspin_unlock"}},
    {"timer_delete_sync", {"timer_delete_sync", "timer61_delete_sync"}},
    {"timer_delete_sync_rt",
     {"timer_delete_sync_rt", "timer61_delete_sync", "ops61.c:wait_running", "base61_at",
      "base61_rt_lock", "qspin_trylock", "qspin_unlock"}},
    {"timer_shutdown_sync", {"timer_shutdown_sync", "timer61_delete_sync"}},
};
#define NCODE_UNITS (int)(sizeof kCodeUnits / sizeof *kCodeUnits)

/* A unit's count is the measured program's when it made at least this
 * many calls of it: a tick or its run_timers shows up under the program
 * only where an interrupt landed in it, once or twice. */
enum { MEASURED_MIN_CALLS = 10 };

struct host_executed {
    hostplat_count_t all[NCODE_UNITS], meas[NCODE_UNITS];
};

host_executed_t *host_count_executed(err_t *e)
{
    host_executed_t *x = xcalloc(1, sizeof *x);
    char why[640] = "";
    if (hostplat_exec_count(kCodeUnits, NCODE_UNITS, x->all, x->meas, why, sizeof why) < 0) {
        free(x);
        err_set(e, NULL, 0, "numasim platform --from-host --executed: %s", why);
        return NULL;
    }
    return x;
}

void host_executed_free(host_executed_t *x)
{
    free(x);
}

/* The address of an instruction line of `objdump -d --no-show-raw-insn`
 * ("  4a3b0:\tpush   %r15"), or -1 for any other line (headers, labels,
 * "..."). */
static long long insn_address(const char *line)
{
    if (*line != ' ' && *line != '\t')
        return -1;
    while (*line == ' ' || *line == '\t')
        line++;
    char *end;
    unsigned long long a = strtoull(line, &end, 16);
    if (end == line || end[0] != ':' || end[1] != '\t')
        return -1;
    return (long long)a;
}

/* Counts the instructions of each of the ns symbols of exe into insns[k],
 * with one objdump over their span (theory of operation). Returns 0, or -1
 * with why (objdump missing or failed, or a symbol without instructions). */
static int count_insns(const char *exe, const host_symbol_t *s, int ns, unsigned long long *insns,
                       char *why, size_t nwhy)
{
    unsigned long long lo = ~0ULL, hi = 0;
    for (int k = 0; k < ns; k++) {
        insns[k] = 0;
        if (s[k].addr < lo)
            lo = s[k].addr;
        if (s[k].addr + s[k].size > hi)
            hi = s[k].addr + s[k].size;
    }
    if (ns == 0)
        return 0;
    char start[40], stop[40];
    snprintf(start, sizeof start, "--start-address=0x%llx", lo);
    snprintf(stop, sizeof stop, "--stop-address=0x%llx", hi);
    int fds[2];
    if (pipe(fds) < 0) {
        snprintf(why, nwhy, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = child_try_fork();
    if (pid < 0) {
        snprintf(why, nwhy, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(fds[1], STDOUT_FILENO);
        if (null >= 0)
            dup2(null, STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execlp("objdump", "objdump", "-d", "--no-show-raw-insn", start, stop, exe, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    char *line = NULL;
    size_t cap = 0;
    if (f) {
        while (getline(&line, &cap, f) >= 0) {
            long long a = insn_address(line);
            if (a >= 0)
                for (int k = 0; k < ns; k++)
                    if ((unsigned long long)a >= s[k].addr &&
                        (unsigned long long)a < s[k].addr + s[k].size)
                        insns[k]++;
        }
        fclose(f);
    } else {
        close(fds[0]);
    }
    free(line);
    int st = child_wait(pid);
    if (!f) {
        snprintf(why, nwhy, "fdopen: %s", strerror(errno));
        return -1;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) == 127) {
        snprintf(why, nwhy, "objdump unavailable");
        return -1;
    }
    if (WEXITSTATUS(st) != 0) {
        snprintf(why, nwhy, "objdump failed (exit %d)", WEXITSTATUS(st));
        return -1;
    }
    for (int k = 0; k < ns; k++)
        if (insns[k] == 0) {
            snprintf(why, nwhy, "objdump listed no instruction at 0x%llx", s[k].addr);
            return -1;
        }
    return 0;
}

void hostplat_write_code(pemit_t *e, const host_executed_t *x)
{
    const char *names[NCODE_UNITS * MAX_UNIT_FNS];
    unsigned long long sizes[NCODE_UNITS * MAX_UNIT_FNS] = {0},
                                           counts[NCODE_UNITS * MAX_UNIT_FNS] = {0};
    int n = 0;
    for (int u = 0; u < NCODE_UNITS; u++)
        for (int k = 0; k < MAX_UNIT_FNS && kCodeUnits[u].fns[k]; k++)
            names[n++] = kCodeUnits[u].fns[k];
    err_t err = {{0}};
    host_symbol_t *syms;
    int nsyms;
    if (host_topo_symbol_ranges("/proc/self/exe", names, n, &syms, &nsyms, &err) < 0) {
        pemit_comment(e, "code sizes left out (no code fetched): %s", err.msg);
        return;
    }
    char exe[64], why[160] = "";
    snprintf(exe, sizeof exe, "/proc/%ld/exe", (long)getpid());
    unsigned long long *insns = xmalloc((size_t)(nsyms ? nsyms : 1) * sizeof *insns);
    int counted = count_insns(exe, syms, nsyms, insns, why, sizeof why) == 0;
    for (int k = 0; k < nsyms; k++) {
        sizes[syms[k].name] += syms[k].size;
        counts[syms[k].name] += counted ? insns[k] : 0;
    }
    free(insns);
    free(syms);
    /* per unit: bytes, then instructions (counted, or the estimate) */
    unsigned long long ubytes[NCODE_UNITS] = {0}, uinsns[NCODE_UNITS] = {0}, tb = 0, ti = 0;
    n = 0;
    for (int u = 0; u < NCODE_UNITS; u++) {
        for (int k = 0; k < MAX_UNIT_FNS && kCodeUnits[u].fns[k]; k++, n++) {
            ubytes[u] += sizes[n];
            uinsns[u] += counts[n];
        }
        if (!counted)
            uinsns[u] = (ubytes[u] + 3) / 4;
        tb += ubytes[u];
        ti += uinsns[u];
    }
    if (counted)
        pemit_comment(e,
                      "code units: %llu bytes in %llu instructions (objdump -d of this binary), "
                      "%.2f bytes per instruction on average (core_insn_bytes' estimate)",
                      tb, ti, ti ? (double)tb / (double)ti : 0.0);
    else
        pemit_comment(e,
                      "code units: %llu bytes; instructions an estimate, %s: bytes / 4 rounded "
                      "up (x86-64's average instruction length)",
                      tb, why);
    n = 0;
    for (int u = 0; u < NCODE_UNITS; u++) {
        char found[1000] = "", absent[600] = "", id[80];
        for (int k = 0; k < MAX_UNIT_FNS && kCodeUnits[u].fns[k]; k++, n++) {
            const char *colon = strchr(names[n], ':');
            const char *fn = colon ? colon + 1 : names[n];
            char *buf = sizes[n] ? found : absent;
            size_t cap = sizes[n] ? sizeof found : sizeof absent, len = strlen(buf);
            if (len + 1 < cap)
                snprintf(buf + len, cap - len, "%s%s", len ? (sizes[n] ? "+" : ", ") : "",
                         sizes[n] ? names[n] : fn);
        }
        pemit_comment(e, "numasim binary: %s (nm -S)%s%s", found[0] ? found : "nothing",
                      absent[0] ? "; absent (inlined): " : "", absent);
        snprintf(id, sizeof id, "code_%s_bytes", kCodeUnits[u].unit);
        pemit_prop(e, id, "%llu", ubytes[u]);
        if (x && (x->meas[u].calls >= MEASURED_MIN_CALLS || x->all[u].calls)) {
            int m = x->meas[u].calls >= MEASURED_MIN_CALLS;
            const hostplat_count_t *k = m ? &x->meas[u] : &x->all[u];
            unsigned long long run = (k->ir + k->calls / 2) / k->calls;
            pemit_comment(e,
                          "instructions executed per call, callgrind: %llu in %llu calls of "
                          "%s by %s (objdump counts %llu in the functions)",
                          k->ir, k->calls, kCodeUnits[u].fns[0],
                          m ? "the measured program"
                            : "any caller (the measured program made too few)",
                          uinsns[u]);
            uinsns[u] = run ? run : 1;
        } else if (x)
            pemit_comment(e, "instructions counted by objdump -d over the same functions: "
                             "callgrind's runs did not call this unit");
        else if (counted)
            pemit_comment(e, "instructions counted by objdump -d over the same functions");
        else
            pemit_comment(e,
                          "estimate, %s: bytes / 4 rounded up (x86-64's average "
                          "instruction length)",
                          why);
        snprintf(id, sizeof id, "code_%s_insns", kCodeUnits[u].unit);
        pemit_prop(e, id, "%llu", uinsns[u]);
    }
}
