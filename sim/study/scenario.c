/* scenario: the key table of scenario files, and what one value means.
 *
 * One table, scenario_keys, drives everything: each key's section, name,
 * type, default, range and the scenario_t field it fills. Defaults are
 * strings parsed by the same code as file values; the resolved listing
 * follows the table's order. This file parses one value into its field,
 * formats it back and frees it; scenario_file.c reads whole files and
 * overrides through it.
 */
#define _GNU_SOURCE /* strverscmp, for version-ordered glob matches */
#include "scenario_internal.h"

#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lock.h"

_Static_assert(sizeof(unsigned long) == sizeof(uint64_t), "seed is stored as 64 bits");
_Static_assert(sizeof(workload_t) == sizeof(int), "enums are stored as int");
_Static_assert(sizeof(strategy_id_t) == sizeof(int), "enums are stored as int");
_Static_assert(sizeof(cache_state_t) == sizeof(int), "enums are stored as int");
_Static_assert(sizeof(cold_flush_t) == sizeof(int), "enums are stored as int");

static const char *const kCaches[] = {"warm", "cold"};
static const char *const kColdFlush[] = {"data", "all"};
static const char *const kWorkloads[] = {
    "schedule_timeout", "rearm", "overlap", "first_run", "hop", "tick", "contend"};
static const char *const kCores[] = {"2.6", "6.1"};                           /* kernel_core_t */
static const char *const kLocks[] = {"tas", "ticket", "qspinlock"};           /* lock_kind_t */
static const char *const kBarriers[] = {"run_wmb", "del_wmb", "scan_rmb"};    /* TBAR_* bits */
static const char *const kBools[] = {"false", "true", "no", "yes", "0", "1"}; /* odd: true */
static const char *const kSections[] = {"scenario", "measure", "kernel", "background",
                                        "function", "overlap", "wheel",  "contend"};

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
_Static_assert(NELEM(kCaches) == 2, "a name per cache state");
_Static_assert(NELEM(kLocks) == LOCK_NKINDS, "a name per lock kind, in lock_kind_t's order");
_Static_assert(NELEM(kCores) == KERNEL_NCORES, "a name per timer core");

#define FLD(f)   offsetof(scenario_t, f)
#define NAMES(a) a, NELEM(a)
#define NOMAX    18446744073709551616.0 /* 2^64: no upper bound for uint64 */
#define CPU_MAX  65535

#define KINT(sec, key, f, def, lo, hi)                                                             \
    {                                                                                              \
        sec, key, T_INT, def, lo, hi, FLD(f), 0, NULL, 0, 0                                        \
    }
#define KU64(sec, key, f, def, hi)                                                                 \
    {                                                                                              \
        sec, key, T_U64, def, 0, hi, FLD(f), 0, NULL, 0, 0                                         \
    }
#define KDBL(sec, key, f, def, lo, hi)                                                             \
    {                                                                                              \
        sec, key, T_DOUBLE, def, lo, hi, FLD(f), 0, NULL, 0, 0                                     \
    }
#define KBOOL(sec, key, f, def)                                                                    \
    {                                                                                              \
        sec, key, T_BOOL, def, 0, 1, FLD(f), 0, NULL, 0, 0                                         \
    }
#define KSTR(sec, key, f, def, fl)                                                                 \
    {                                                                                              \
        sec, key, T_STRING, def, 0, 0, FLD(f), 0, NULL, 0, fl                                      \
    }
#define KENUM(sec, key, f, def, nm)                                                                \
    {                                                                                              \
        sec, key, T_ENUM, def, 0, 0, FLD(f), 0, NAMES(nm), 0                                       \
    }
#define KLIST(sec, key, t, f, n, def, fl)                                                          \
    {                                                                                              \
        sec, key, t, def, 0, 0, FLD(f), offsetof(scenario_t, n), NULL, 0, fl                       \
    }
#define KELIST(sec, key, f, n, def, nm, fl)                                                        \
    {                                                                                              \
        sec, key, T_ENUM_LIST, def, 0, 0, FLD(f), offsetof(scenario_t, n), NAMES(nm), fl           \
    }

const keydef_t scenario_keys[] = {
    KSTR("scenario", "name", name, "", F_NAME | F_BASENAME),
    KSTR("scenario", "description", description, "", 0),
    KBOOL("scenario", "default", is_default, "false"),
    KLIST("scenario", "platforms", T_PATH_LIST, platforms, nplatforms, NULL, F_NONEMPTY),
    KELIST("scenario", "strategies", strategies, nstrategies,
           "scan,last_running,singleshot,naive,base_tracking", strategy_names, F_NONEMPTY),
    KELIST("scenario", "cache", caches, ncaches, "warm,cold", kCaches, F_NONEMPTY | F_BOTH),
    KU64("scenario", "seed", seed, "1", NOMAX),
    KINT("scenario", "seeds", seeds, "1", 1, 100000),
    KINT("scenario", "jitter_cycles", jitter_cycles, "0", 0, 1000000),
    KSTR("scenario", "sweep", sweep_key, "", F_SWEEP),
    KLIST("scenario", "sweep_values", T_STRING_LIST, sweep_values, nsweep, "", 0),
    KSTR("scenario", "sweep2", sweep2_key, "", F_SWEEP),
    KLIST("scenario", "sweep2_values", T_STRING_LIST, sweep2_values, nsweep2, "", 0),

    {"measure", "workload", T_ENUM, "schedule_timeout", 0, 0, FLD(workload), 0, NAMES(kWorkloads),
     F_NOSWEEP},
    KINT("measure", "calls", calls, "1000", 1, 10000000),
    KINT("measure", "warmup_calls", warmup_calls, "10", 0, 1000000),
    KINT("measure", "cpu", cpu, "0", 0, CPU_MAX),
    KINT("measure", "timer_node", timer_node, "-1", -1, CPU_MAX),
    KINT("measure", "arm_cpu", arm_cpu, "-1", -1, CPU_MAX),
    KU64("measure", "spacing_cycles", spacing_cycles, "20000", 1e12),
    KU64("measure", "spacing_jitter_cycles", spacing_jitter_cycles, "0", 1e12),
    KINT("measure", "expires_jiffies", expires_jiffies, "10", 1, 1000000),
    KENUM("measure", "cold_flush", cold_flush, "data", kColdFlush),
    KBOOL("measure", "arm_idle", arm_idle, "false"),
    KBOOL("measure", "wait_start", wait_start, "false"),

    KELIST("kernel", "core", cores, ncores, "2.6", kCores, F_NONEMPTY | F_NOSWEEP),
    {"kernel", "hz", T_INT, "1024", 1, 100000, FLD(hz), 0, NULL, 0, F_HZ},
    KINT("kernel", "timekeeper_cpu", timekeeper_cpu, "0", 0, CPU_MAX),
    KELIST("kernel", "omit_barriers", omit_barriers, nomit, "", kBarriers, F_NONE),
    KENUM("kernel", "lock", lock, "qspinlock", kLocks),
    KBOOL("kernel", "timers_migration", timers_migration, "false"),

    KDBL("background", "ops_per_tick", ops_per_tick, "0", 0, 1e6),
    KINT("background", "timers_per_cpu", timers_per_cpu, "8", 1, 100000),
    KDBL("background", "del_fraction", del_fraction, "0.5", 0, 1),
    KDBL("background", "sync_fraction", sync_fraction, "0", 0, 1),
    KBOOL("background", "on_caller", on_caller, "false"),
    KBOOL("background", "idle_caller_node", idle_caller_node, "false"),

    KU64("function", "cycles", fn_cycles, "1000", 1e12),
    KBOOL("function", "rearm", fn_rearm, "false"),
    KDBL("function", "rearm_at", fn_rearm_at, "0.5", 0, 1),
    KINT("function", "rearm_jiffies", fn_rearm_jiffies, "1", 1, 1000000),
    KBOOL("function", "free", fn_free, "false"),

    KINT("overlap", "first_cpu", overlap_first_cpu, "1", 0, CPU_MAX),
    KINT("overlap", "second_cpu", overlap_second_cpu, "2", 0, CPU_MAX),
    KU64("overlap", "first_cycles", overlap_first_cycles, "3000000", 1e12),
    KU64("overlap", "second_cycles", overlap_second_cycles, "100000", 1e12),

    KINT("wheel", "timers", wheel_timers, "1000", 0, 10000000),
    KINT("wheel", "timeout_min_jiffies", wheel_timeout_min, "10", 1, 1 << 30),
    KINT("wheel", "timeout_max_jiffies", wheel_timeout_max, "60000", 1, 1 << 30),

    KINT("contend", "cpus", contend_cpus, "2", 1, CPU_MAX),
};
_Static_assert(NELEM(scenario_keys) == SCENARIO_NKEYS, "SCENARIO_NKEYS counts the key table");

static int index_of(const char *const *names, int n, const char *v)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], v))
            return i;
    return -1;
}

int scenario_find_section(const char *section)
{
    return index_of(kSections, NELEM(kSections), section);
}

#define enum_index(k, v) index_of((k)->names, (k)->nnames, v)

int scenario_find_key(const char *section, const char *name)
{
    for (int i = 0; i < SCENARIO_NKEYS; i++)
        if (!strcmp(scenario_keys[i].section, section) && !strcmp(scenario_keys[i].name, name))
            return i;
    return -1;
}

/* "section.key" -> index, or -1. */
int scenario_find_dotted(const char *dotted)
{
    char section[64];
    size_t n = strcspn(dotted, ".");
    if (!dotted[n] || n >= sizeof section)
        return -1;
    memcpy(section, dotted, n);
    section[n] = '\0';
    return scenario_find_key(section, dotted + n + 1);
}

/* An optional sign and digits, nothing else. */
static int is_whole(const char *v)
{
    v += *v == '+' || *v == '-';
    return *v && strspn(v, "0123456789") == strlen(v);
}

static int out_of_range(const keydef_t *k, const char *v, err_t *e)
{
    char b[80], lo[32], hi[32];
    const char *fmt = k->type == T_DOUBLE ? "%.15g" : "%.0f";
    snprintf(lo, sizeof lo, fmt, k->min);
    if (k->max >= NOMAX)
        snprintf(hi, sizeof hi, "%" PRIu64, UINT64_MAX);
    else
        snprintf(hi, sizeof hi, fmt, k->max);
    return err_set(e, NULL, 0, "%s is out of range [%s, %s]", shown(v, b, sizeof b), lo, hi);
}

static const char *enum_choices(const keydef_t *k, char *b, size_t n)
{
    size_t used = 0;
    b[0] = '\0';
    for (int i = 0; i < k->nnames && used < n; i++)
        used += (size_t)snprintf(b + used, n - used, "%s%s", i ? ", " : "", k->names[i]);
    return b;
}

static void free_strs(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Releases what the key's field owns and empties it. */
void scenario_clear_field(scenario_t *s, const keydef_t *k)
{
    void *p = (char *)s + k->off;
    if (k->type == T_STRING) {
        free(*(char **)p);
        *(char **)p = NULL;
    } else if (k->type == T_PATH_LIST || k->type == T_STRING_LIST) {
        int *count = (int *)((char *)s + k->count_off);
        free_strs(*(char ***)p, *count);
        *(char ***)p = NULL;
        *count = 0;
    }
}

/* Splits v at commas into trimmed, malloc'd items. Returns their number
 * (0 for a blank value), or -1 with e on an empty item. */
static int split_list(const char *v, char ***out, err_t *e)
{
    *out = NULL;
    if (!v[strspn(v, " \t")])
        return 0;
    int cap = 1, m = 0;
    for (const char *p = v; *p; p++)
        cap += *p == ',';
    char **items = xcalloc((size_t)cap, sizeof *items);
    for (const char *p = v;;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        items[m++] = trimmed(p, end);
        if (!*items[m - 1]) {
            free_strs(items, m);
            return err_set(e, NULL, 0, "item %d of the list is empty", m);
        }
        if (!*end)
            break;
        p = end + 1;
    }
    *out = items;
    return m;
}

static int parse_enum_list(const keydef_t *k, char **items, int m, scenario_t *s, err_t *e)
{
    char b[80], c[160];
    int idx[STRAT_COUNT + 1]; /* repeats are caught before it could overflow */
    if ((k->flags & F_BOTH) && m == 1 && !strcmp(items[0], "both")) {
        for (m = 0; m < k->nnames; m++)
            idx[m] = m;
    } else if ((k->flags & F_NONE) && m == 1 && !strcmp(items[0], "none")) {
        m = 0;
    } else {
        for (int i = 0; i < m; i++) {
            idx[i] = enum_index(k, items[i]);
            if (idx[i] < 0)
                return err_set(e, NULL, 0, "unknown item '%s' (expected %s%s)",
                               shown(items[i], b, sizeof b), enum_choices(k, c, sizeof c),
                               k->flags & F_BOTH   ? ", or both"
                               : k->flags & F_NONE ? ", or none"
                                                   : "");
            for (int j = 0; j < i; j++)
                if (idx[j] == idx[i])
                    return err_set(e, NULL, 0, "'%s' is listed twice", items[i]);
        }
    }
    memcpy((char *)s + k->off, idx, (size_t)m * sizeof(int));
    *(int *)((char *)s + k->count_off) = m;
    return 0;
}

static int by_version(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Resolves relative paths against dir (the scenario's directory), expands
 * glob patterns (`fat*.xml`: the matches in version order, fat2 before
 * fat16) and checks that each names an existing file. *items and *m may
 * change. */
static int resolve_paths(char ***itemsp, int *mp, const char *dir, err_t *e)
{
    char b[200];
    char **items = *itemsp;
    for (int i = 0; i < *mp; i++) {
        if (items[i][0] != '/' && *dir) {
            char *p = xprintf("%s%s", dir, items[i]);
            free(items[i]);
            items[i] = p;
        }
        if (strpbrk(items[i], "*?[")) {
            glob_t g;
            if (glob(items[i], 0, NULL, &g) != 0 || g.gl_pathc == 0) {
                globfree(&g);
                return err_set(e, NULL, 0, "no platform file matches '%s'",
                               shown(items[i], b, sizeof b));
            }
            qsort(g.gl_pathv, g.gl_pathc, sizeof *g.gl_pathv, by_version);
            int k = (int)g.gl_pathc;
            items = xrealloc(items, sizeof *items * (size_t)(*mp + k - 1));
            free(items[i]);
            memmove(items + i + k, items + i + 1, sizeof *items * (size_t)(*mp - i - 1));
            for (int j = 0; j < k; j++)
                items[i + j] = xstrdup(g.gl_pathv[j]);
            globfree(&g);
            *mp += k - 1;
            *itemsp = items;
            i += k - 1;
            continue;
        }
        struct stat st;
        if (stat(items[i], &st))
            return err_set(e, NULL, 0, "platform file '%s' does not exist",
                           shown(items[i], b, sizeof b));
        if (S_ISDIR(st.st_mode))
            return err_set(e, NULL, 0, "platform file '%s' is a directory",
                           shown(items[i], b, sizeof b));
    }
    return 0;
}

static int check_sweep(const char *v, err_t *e)
{
    char b[80];
    int i = scenario_find_dotted(v);
    if (i < 0)
        return err_set(e, NULL, 0, "'%s' is not a key (expected section.key)",
                       shown(v, b, sizeof b));
    if (!strcmp(scenario_keys[i].section, "scenario"))
        return err_set(e, NULL, 0, "'%s' cannot be swept (only keys outside [scenario] can)", v);
    if (scenario_keys[i].flags & F_NOSWEEP)
        return err_set(e, NULL, 0, "'%s' cannot be swept (run one scenario per value)", v);
    return 0;
}

/* Parses v as the value of key k into s (replacing the field's old value
 * only on success). dir resolves relative paths. Returns 0, or -1 with a
 * one-line message in e (no file or line: the caller adds them). */
int scenario_parse_value(const keydef_t *k, const char *v, const char *dir, scenario_t *s, err_t *e)
{
    char b[80], c[160];
    void *p = (char *)s + k->off;
    for (const char *q = v; *q; q++)
        if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f)
            return err_set(e, NULL, 0, "contains a control character");
    switch (k->type) {
    case T_INT:
    case T_U64: {
        if (!is_whole(v))
            return err_set(e, NULL, 0, "expected a whole number, got '%s'", shown(v, b, sizeof b));
        errno = 0;
        long long ll = 0;
        uint64_t u64 = 0;
        double x = k->type == T_INT ? (double)(ll = strtoll(v, NULL, 10))
                                    : (double)(u64 = strtoull(v, NULL, 10));
        if (errno == ERANGE || (k->type == T_U64 && *v == '-') || x < k->min || x > k->max)
            return out_of_range(k, v, e);
        if ((k->flags & F_HZ) && ll != 100 && ll != 250 && ll != 300 && ll != 1000 && ll != 1024)
            return err_set(e, NULL, 0,
                           "%s is not one of the kernel's HZ values (100, 250, 300, 1000; "
                           "1024 on the 2.6 ia64 core)",
                           shown(v, b, sizeof b));
        int32_t i32 = (int32_t)ll; /* T_INT fields are int or uint32_t */
        if (k->type == T_INT)
            memcpy(p, &i32, sizeof i32);
        else
            memcpy(p, &u64, sizeof u64);
        return 0;
    }
    case T_DOUBLE: {
        double x;
        if (err_parse_double(v, &x))
            return err_set(e, NULL, 0, "expected a number, got '%s'", shown(v, b, sizeof b));
        if (x < k->min || x > k->max)
            return out_of_range(k, v, e);
        memcpy(p, &x, sizeof x);
        return 0;
    }
    case T_BOOL: {
        int x = index_of(kBools, NELEM(kBools), v) % 2;
        if (x < 0)
            return err_set(e, NULL, 0, "expected true or false, got '%s'", shown(v, b, sizeof b));
        memcpy(p, &x, sizeof x);
        return 0;
    }
    case T_STRING:
        if ((k->flags & F_NAME) && (!*v || strchr(v, '/')))
            return err_set(e, NULL, 0, "must be non-empty and must not contain '/'");
        if ((k->flags & F_SWEEP) && *v && check_sweep(v, e))
            return -1;
        free(*(char **)p);
        *(char **)p = (*v || !(k->flags & F_SWEEP)) ? xstrdup(v) : NULL;
        return 0;
    case T_ENUM: {
        int x = enum_index(k, v);
        if (x < 0)
            return err_set(e, NULL, 0, "unknown value '%s' (expected one of %s)",
                           shown(v, b, sizeof b), enum_choices(k, c, sizeof c));
        memcpy(p, &x, sizeof x);
        return 0;
    }
    case T_ENUM_LIST:
    case T_PATH_LIST:
    case T_STRING_LIST: {
        char **items;
        int m = split_list(v, &items, e), rc = 0;
        if (m < 0)
            return -1;
        if (m == 0 && (k->flags & F_NONEMPTY))
            rc = err_set(e, NULL, 0, "must list at least one item");
        else if (k->type == T_ENUM_LIST)
            rc = parse_enum_list(k, items, m, s, e);
        else if (k->type == T_PATH_LIST)
            rc = resolve_paths(&items, &m, dir, e);
        if (rc || k->type == T_ENUM_LIST) {
            free_strs(items, m);
            return rc;
        }
        scenario_clear_field(s, k);
        *(char ***)p = items;
        *(int *)((char *)s + k->count_off) = m;
        return 0;
    }
    }
    return err_set(e, NULL, 0, "internal error: bad key type");
}

/* The field's value as text (malloc'd), in the syntax the file accepts. */
char *scenario_format_value(const scenario_t *s, const keydef_t *k)
{
    char *out = NULL, b[40];
    size_t len = 0;
    FILE *f = xcheck(open_memstream(&out, &len));
    const void *p = (const char *)s + k->off;
    int count = k->count_off ? *(const int *)((const char *)s + k->count_off) : 0;
    int32_t i32; /* every field is at least 4 bytes */
    uint64_t u64;
    double x, back;
    memcpy(&i32, p, sizeof i32);
    switch (k->type) {
    case T_INT:
        fprintf(f, "%" PRId32, i32);
        break;
    case T_U64:
        memcpy(&u64, p, sizeof u64);
        fprintf(f, "%" PRIu64, u64);
        break;
    case T_DOUBLE:
        memcpy(&x, p, sizeof x);
        snprintf(b, sizeof b, "%.15g", x);
        if (err_parse_double(b, &back) || back != x)
            snprintf(b, sizeof b, "%.17g", x);
        fputs(b, f);
        break;
    case T_BOOL:
        fputs(i32 ? "true" : "false", f);
        break;
    case T_STRING:
        fputs(*(char *const *)p ? *(char *const *)p : "", f);
        break;
    case T_ENUM:
        fputs(k->names[i32], f);
        break;
    case T_ENUM_LIST:
        for (int i = 0; i < count; i++)
            fprintf(f, "%s%s", i ? "," : "", k->names[((const int *)p)[i]]);
        break;
    case T_PATH_LIST:
    case T_STRING_LIST:
        for (int i = 0; i < count; i++)
            fprintf(f, "%s%s", i ? "," : "", (*(char **const *)p)[i]);
        break;
    }
    fclose(f);
    return out;
}

const char *cache_state_name(cache_state_t c)
{
    return (int)c >= 0 && (int)c < NELEM(kCaches) ? kCaches[c] : "?";
}

const char *kernel_core_name(kernel_core_t core)
{
    return (int)core >= 0 && (int)core < NELEM(kCores) ? kCores[core] : "?";
}

kernel_core_t strategy_core(strategy_id_t id)
{
    timer_design_t d = strategy_design(id);
    return d == TIMER_CLASSIC || d == TIMER_TRACKING ? KERNEL_CORE_26 : KERNEL_CORE_61;
}

const char *workload_name(workload_t w)
{
    return (int)w >= 0 && (int)w < NELEM(kWorkloads) ? kWorkloads[w] : "?";
}
