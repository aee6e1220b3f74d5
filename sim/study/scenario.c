/* scenario: reading scenario files (INI, libinih) and --set overrides.
 *
 * One static table, KEYS, drives everything: each key's section, name, type,
 * default, range and the scenario_t field it fills. Defaults are strings
 * parsed by the same code as file values; the resolved listing follows the
 * table's order.
 *
 * Line numbers: Debian's libinih does not pass them to the handler, so the
 * file is fed through our own reader (read_line), which counts lines; when
 * the handler runs, the count is the line of its key. The reader also strips
 * leading whitespace, so an indented line is never taken for the
 * continuation of the previous value, and it reports unknown [sections] at
 * their header line.
 */
#define _GNU_SOURCE /* strverscmp, for version-ordered glob matches */
#include "scenario.h"

#include <ini.h>

#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

_Static_assert(sizeof(unsigned long) == sizeof(uint64_t), "seed is stored as 64 bits");
_Static_assert(sizeof(workload_t) == sizeof(int), "enums are stored as int");
_Static_assert(sizeof(strategy_id_t) == sizeof(int), "enums are stored as int");
_Static_assert(sizeof(cache_state_t) == sizeof(int), "enums are stored as int");

typedef enum {
    T_INT, /* whole number into an int (or uint32_t) field */
    T_U64, /* non-negative whole number into a 64-bit field */
    T_DOUBLE,
    T_BOOL,        /* true/false (yes/no, 1/0) into an int */
    T_STRING,      /* char *, as given */
    T_ENUM,        /* one of names[], stored as its index */
    T_ENUM_LIST,   /* comma-separated names, no repeats, into an int array */
    T_PATH_LIST,   /* comma-separated existing files, into char ** */
    T_STRING_LIST, /* comma-separated strings, into char ** */
} ktype_t;

enum {
    F_NONEMPTY = 1, /* list: at least one item */
    F_BOTH = 2,     /* enum list: the value "both" means every name */
    F_NAME = 4,     /* non-empty, no '/' (it names results/NAME.csv) */
    F_SWEEP = 8,    /* "" (stored as NULL) or "section.key" of a sweepable key */
    F_BASENAME = 16 /* default: the file's name without ".ini" */
};

typedef struct {
    const char *section, *name;
    ktype_t type;
    const char *def;          /* default, parsed like a file value; NULL: required */
    double min, max;          /* numbers: inclusive range */
    size_t off;               /* the scenario_t field */
    size_t count_off;         /* lists: the int field holding the count */
    const char *const *names; /* enums: value names, in enum order */
    int nnames;
    unsigned flags;
} keydef_t;

static const char *const kCaches[] = {"warm", "cold"};
static const char *const kWorkloads[] = {"schedule_timeout", "rearm", "overlap", "first_run",
                                         "hop"};
static const char *const kBools[] = {"false", "true", "no", "yes", "0", "1"}; /* odd: true */
static const char *const kSections[] = {"scenario",   "measure",  "kernel",
                                        "background", "function", "overlap"};

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
_Static_assert(NELEM(kCaches) == 2, "a name per cache state");

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

static const keydef_t KEYS[] = {
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

    KENUM("measure", "workload", workload, "schedule_timeout", kWorkloads),
    KINT("measure", "calls", calls, "1000", 1, 10000000),
    KINT("measure", "warmup_calls", warmup_calls, "10", 0, 1000000),
    KINT("measure", "cpu", cpu, "0", 0, CPU_MAX),
    KINT("measure", "timer_node", timer_node, "-1", -1, CPU_MAX),
    KINT("measure", "arm_cpu", arm_cpu, "-1", -1, CPU_MAX),
    KU64("measure", "spacing_cycles", spacing_cycles, "20000", 1e12),
    KU64("measure", "spacing_jitter_cycles", spacing_jitter_cycles, "0", 1e12),
    KINT("measure", "expires_jiffies", expires_jiffies, "10", 1, 1000000),

    KINT("kernel", "hz", hz, "1024", 1, 100000),
    KINT("kernel", "timekeeper_cpu", timekeeper_cpu, "0", 0, CPU_MAX),

    KDBL("background", "ops_per_tick", ops_per_tick, "0", 0, 1e6),
    KINT("background", "timers_per_cpu", timers_per_cpu, "8", 1, 100000),
    KDBL("background", "del_fraction", del_fraction, "0.5", 0, 1),
    KBOOL("background", "on_caller", on_caller, "false"),

    KU64("function", "cycles", fn_cycles, "1000", 1e12),
    KBOOL("function", "rearm", fn_rearm, "false"),
    KDBL("function", "rearm_at", fn_rearm_at, "0.5", 0, 1),
    KINT("function", "rearm_jiffies", fn_rearm_jiffies, "1", 1, 1000000),
    KBOOL("function", "free", fn_free, "false"),

    KINT("overlap", "first_cpu", overlap_first_cpu, "1", 0, CPU_MAX),
    KINT("overlap", "second_cpu", overlap_second_cpu, "2", 0, CPU_MAX),
    KU64("overlap", "first_cycles", overlap_first_cycles, "3000000", 1e12),
    KU64("overlap", "second_cycles", overlap_second_cycles, "100000", 1e12),
};
#define NKEYS NELEM(KEYS)

enum { O_DEFAULT, O_FILE, O_SET };

typedef struct {
    scenario_t *s;
    struct {
        int origin, line;
    } st[NKEYS];
    char *dir; /* the scenario file's directory with a trailing '/', or "" */
    /* reader */
    FILE *f;
    char *buf;
    size_t cap;
    int line;
    /* first error found by the reader or the handler */
    int err_line;
    char err[900];
} ctx_t;

static void *nonnull(void *p)
{
    if (!p)
        abort(); /* out of memory */
    return p;
}
#define xstrdup(s)       ((char *)nonnull(strdup(s)))
#define xcalloc(n, size) nonnull(calloc((n) ? (n) : 1, size))

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    size_t n = (size_t)vsnprintf(NULL, 0, fmt, ap) + 1;
    char *d = nonnull(malloc(n));
    vsnprintf(d, n, fmt, aq);
    va_end(aq);
    va_end(ap);
    return d;
}

/* A malloc'd copy of [a, b) without surrounding blanks. */
static char *trimmed(const char *a, const char *b)
{
    while (a < b && (*a == ' ' || *a == '\t'))
        a++;
    while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
        b--;
    return nonnull(strndup(a, (size_t)(b - a)));
}

static int fail(char *msg, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A value shown in a message: control characters become '?', long values
 * are cut, so that the message stays one short line. */
static const char *shown(const char *v, char *b, size_t n)
{
    size_t i = 0, len = strlen(v), keep = len < n - 1 ? len : n - 4;
    for (; i < keep; i++)
        b[i] = (unsigned char)v[i] < 0x20 || v[i] == 0x7f ? '?' : v[i];
    b[i] = '\0';
    if (keep < len)
        strcpy(b + i, "...");
    return b;
}

static int index_of(const char *const *names, int n, const char *v)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], v))
            return i;
    return -1;
}
#define find_section(sec) index_of(kSections, NELEM(kSections), sec)
#define enum_index(k, v)  index_of((k)->names, (k)->nnames, v)

static int find_key(const char *section, const char *name)
{
    for (int i = 0; i < NKEYS; i++)
        if (!strcmp(KEYS[i].section, section) && !strcmp(KEYS[i].name, name))
            return i;
    return -1;
}

/* "section.key" -> index, or -1. */
static int find_dotted(const char *dotted)
{
    char section[64];
    size_t n = strcspn(dotted, ".");
    if (!dotted[n] || n >= sizeof section)
        return -1;
    memcpy(section, dotted, n);
    section[n] = '\0';
    return find_key(section, dotted + n + 1);
}

/* An optional sign and digits, nothing else. */
static int is_whole(const char *v)
{
    v += *v == '+' || *v == '-';
    return *v && strspn(v, "0123456789") == strlen(v);
}

static int out_of_range(const keydef_t *k, const char *v, char *msg, size_t n)
{
    char b[80], lo[32], hi[32];
    const char *fmt = k->type == T_DOUBLE ? "%.15g" : "%.0f";
    snprintf(lo, sizeof lo, fmt, k->min);
    if (k->max >= NOMAX)
        snprintf(hi, sizeof hi, "%" PRIu64, UINT64_MAX);
    else
        snprintf(hi, sizeof hi, fmt, k->max);
    return fail(msg, n, "%s is out of range [%s, %s]", shown(v, b, sizeof b), lo, hi);
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
static void clear_field(scenario_t *s, const keydef_t *k)
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
 * (0 for a blank value), or -1 with msg on an empty item. */
static int split_list(const char *v, char ***out, char *msg, size_t n)
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
            return fail(msg, n, "item %d of the list is empty", m);
        }
        if (!*end)
            break;
        p = end + 1;
    }
    *out = items;
    return m;
}

static int parse_enum_list(const keydef_t *k, char **items, int m, scenario_t *s, char *msg,
                           size_t n)
{
    char b[80], c[160];
    int idx[STRAT_COUNT + 1]; /* repeats are caught before it could overflow */
    if ((k->flags & F_BOTH) && m == 1 && !strcmp(items[0], "both")) {
        for (m = 0; m < k->nnames; m++)
            idx[m] = m;
    } else {
        for (int i = 0; i < m; i++) {
            idx[i] = enum_index(k, items[i]);
            if (idx[i] < 0)
                return fail(msg, n, "unknown item '%s' (expected %s%s)",
                            shown(items[i], b, sizeof b), enum_choices(k, c, sizeof c),
                            k->flags & F_BOTH ? ", or both" : "");
            for (int j = 0; j < i; j++)
                if (idx[j] == idx[i])
                    return fail(msg, n, "'%s' is listed twice", items[i]);
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
static int resolve_paths(char ***itemsp, int *mp, const char *dir, char *msg, size_t n)
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
                return fail(msg, n, "no platform file matches '%s'", shown(items[i], b, sizeof b));
            }
            qsort(g.gl_pathv, g.gl_pathc, sizeof *g.gl_pathv, by_version);
            int k = (int)g.gl_pathc;
            items = nonnull(realloc(items, sizeof *items * (size_t)(*mp + k - 1)));
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
            return fail(msg, n, "platform file '%s' does not exist", shown(items[i], b, sizeof b));
        if (S_ISDIR(st.st_mode))
            return fail(msg, n, "platform file '%s' is a directory", shown(items[i], b, sizeof b));
    }
    return 0;
}

static int check_sweep(const char *v, char *msg, size_t n)
{
    char b[80];
    int i = find_dotted(v);
    if (i < 0)
        return fail(msg, n, "'%s' is not a key (expected section.key)", shown(v, b, sizeof b));
    if (!strcmp(KEYS[i].section, "scenario"))
        return fail(msg, n, "'%s' cannot be swept (only keys outside [scenario] can)", v);
    return 0;
}

/* Parses v as the value of key k into s (replacing the field's old value
 * only on success). dir resolves relative paths. Returns 0, or -1 with a
 * one-line message in msg. */
static int parse_value(const keydef_t *k, const char *v, const char *dir, scenario_t *s, char *msg,
                       size_t n)
{
    char b[80], c[160];
    void *p = (char *)s + k->off;
    for (const char *q = v; *q; q++)
        if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f)
            return fail(msg, n, "contains a control character");
    switch (k->type) {
    case T_INT:
    case T_U64: {
        if (!is_whole(v))
            return fail(msg, n, "expected a whole number, got '%s'", shown(v, b, sizeof b));
        errno = 0;
        long long ll = 0;
        uint64_t u64 = 0;
        double x = k->type == T_INT ? (double)(ll = strtoll(v, NULL, 10))
                                    : (double)(u64 = strtoull(v, NULL, 10));
        if (errno == ERANGE || (k->type == T_U64 && *v == '-') || x < k->min || x > k->max)
            return out_of_range(k, v, msg, n);
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
            return fail(msg, n, "expected a number, got '%s'", shown(v, b, sizeof b));
        if (x < k->min || x > k->max)
            return out_of_range(k, v, msg, n);
        memcpy(p, &x, sizeof x);
        return 0;
    }
    case T_BOOL: {
        int x = index_of(kBools, NELEM(kBools), v) % 2;
        if (x < 0)
            return fail(msg, n, "expected true or false, got '%s'", shown(v, b, sizeof b));
        memcpy(p, &x, sizeof x);
        return 0;
    }
    case T_STRING:
        if ((k->flags & F_NAME) && (!*v || strchr(v, '/')))
            return fail(msg, n, "must be non-empty and must not contain '/'");
        if ((k->flags & F_SWEEP) && *v && check_sweep(v, msg, n))
            return -1;
        free(*(char **)p);
        *(char **)p = (*v || !(k->flags & F_SWEEP)) ? xstrdup(v) : NULL;
        return 0;
    case T_ENUM: {
        int x = enum_index(k, v);
        if (x < 0)
            return fail(msg, n, "unknown value '%s' (expected one of %s)", shown(v, b, sizeof b),
                        enum_choices(k, c, sizeof c));
        memcpy(p, &x, sizeof x);
        return 0;
    }
    case T_ENUM_LIST:
    case T_PATH_LIST:
    case T_STRING_LIST: {
        char **items;
        int m = split_list(v, &items, msg, n), rc = 0;
        if (m < 0)
            return -1;
        if (m == 0 && (k->flags & F_NONEMPTY))
            rc = fail(msg, n, "must list at least one item");
        else if (k->type == T_ENUM_LIST)
            rc = parse_enum_list(k, items, m, s, msg, n);
        else if (k->type == T_PATH_LIST)
            rc = resolve_paths(&items, &m, dir, msg, n);
        if (rc || k->type == T_ENUM_LIST) {
            free_strs(items, m);
            return rc;
        }
        clear_field(s, k);
        *(char ***)p = items;
        *(int *)((char *)s + k->count_off) = m;
        return 0;
    }
    }
    return fail(msg, n, "internal error: bad key type");
}

/* The field's value as text (malloc'd), in the syntax the file accepts. */
static char *format_value(const scenario_t *s, const keydef_t *k)
{
    char *out = NULL, b[40];
    size_t len = 0;
    FILE *f = nonnull(open_memstream(&out, &len));
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

/* --- the file ------------------------------------------------------------ */

static void ctx_error(ctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ctx_error(ctx_t *c, const char *fmt, ...)
{
    if (c->err_line)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    c->err_line = c->line;
}

/* libinih's reader: fgets with a line count, leading whitespace dropped and
 * [section] headers checked. Stops the parse at the first error. */
static char *read_line(char *str, int num, void *stream)
{
    ctx_t *c = stream;
    char b[80];
    if (c->err_line || getline(&c->buf, &c->cap, c->f) < 0)
        return NULL;
    c->line++;
    const char *p = c->buf + strspn(c->buf, " \t");
    size_t len = strlen(p);
    if (len >= (size_t)num) {
        ctx_error(c, "line longer than %d characters", num - 2);
        return NULL;
    }
    memcpy(str, p, len + 1);
    const char *end = p[0] == '[' ? strchr(p, ']') : NULL;
    if (end) {
        char section[128];
        size_t n = (size_t)(end - p - 1);
        if (n >= sizeof section)
            n = sizeof section - 1;
        memcpy(section, p + 1, n);
        section[n] = '\0';
        if (find_section(section) < 0) {
            ctx_error(c, "unknown section [%s]", shown(section, b, sizeof b));
            return NULL;
        }
    }
    return str;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    ctx_t *c = user;
    char msg[700], b[80];
    if (c->err_line)
        return 1;
    int i = find_key(section, name);
    if (!*section)
        ctx_error(c, "key '%s' is outside any [section]", shown(name, b, sizeof b));
    else if (find_section(section) < 0)
        ctx_error(c, "unknown section [%s]", shown(section, b, sizeof b));
    else if (i < 0)
        ctx_error(c, "unknown key '%s' in section [%s]", shown(name, b, sizeof b), section);
    else if (c->st[i].origin == O_FILE)
        ctx_error(c, "%s.%s: given twice (first at line %d)", section, name, c->st[i].line);
    else if (parse_value(&KEYS[i], value, c->dir, c->s, msg, sizeof msg))
        ctx_error(c, "%s.%s: %s", section, name, msg);
    else {
        c->st[i].origin = O_FILE;
        c->st[i].line = c->line;
    }
    return 1; /* our own errors are kept in c; inih reports only bad syntax */
}

static int read_file(ctx_t *c, const char *path, err_t *e)
{
    c->f = fopen(path, "r");
    if (!c->f)
        return err_set(e, path, 0, "cannot read scenario file");
    int r = ini_parse_stream(read_line, c, on_key, c);
    int bad_read = ferror(c->f);
    fclose(c->f);
    free(c->buf);
    c->buf = NULL;
    if (r > 0 && (!c->err_line || r < c->err_line))
        return err_set(e, path, r, "malformed line");
    if (c->err_line)
        return err_set(e, path, c->err_line, "%s", c->err);
    if (r < 0 || bad_read)
        return err_set(e, path, 0, "cannot read scenario file");
    return 0;
}

/* --- overrides and checks ------------------------------------------------- */

/* One "section.key=value" override; a later one for the same key wins (the
 * caller appends the sweep value after the user's overrides). */
static int apply_set(ctx_t *c, const char *set, err_t *e)
{
    char msg[700], b[80], b2[80];
    const char *eq = strchr(set, '=');
    char *key = eq ? trimmed(set, eq) : NULL;
    char *dot = key ? strchr(key, '.') : NULL;
    if (!dot || dot == key || !dot[1]) {
        free(key);
        return err_set(e, "--set", 0, "'%s': expected section.key=value", shown(set, b, sizeof b));
    }
    char *value = trimmed(eq + 1, eq + strlen(eq));
    *dot = '\0';
    const char *section = key, *name = dot + 1;
    int rc = 0, i = find_key(section, name);
    scenario_t *s = c->s;
    if (!strcmp(section, "platform")) {
        s->platform_sets = nonnull(
            realloc(s->platform_sets, (size_t)(s->nplatform_sets + 1) * sizeof *s->platform_sets));
        s->platform_sets[s->nplatform_sets++] = (platform_override_t){xstrdup(name), value};
        free(key);
        return 0;
    }
    if (find_section(section) < 0)
        rc = err_set(e, "--set", 0, "%s.%s: unknown section [%s]", shown(section, b2, sizeof b2),
                     shown(name, b, sizeof b), b2);
    else if (i < 0)
        rc = err_set(e, "--set", 0, "%s.%s: unknown key '%s' in section [%s]", section,
                     shown(name, b, sizeof b), b, section);
    else if (parse_value(&KEYS[i], value, "", s, msg, sizeof msg))
        rc = err_set(e, "--set", 0, "%s.%s: %s", section, name, msg);
    else
        c->st[i].origin = O_SET;
    free(key);
    free(value);
    return rc;
}

/* An error about key i, at the place its value came from. */
static int key_error(const ctx_t *c, int i, err_t *e, const char *msg)
{
    const char *file = c->st[i].origin == O_SET ? "--set" : c->s->path;
    int line = c->st[i].origin == O_FILE ? c->st[i].line : 0;
    return err_set(e, file, line, "%s.%s: %s", KEYS[i].section, KEYS[i].name, msg);
}

/* Checks between keys, once the file and the overrides are applied. */
static int check_all(const ctx_t *c, err_t *e)
{
    const scenario_t *s = c->s;
    char msg[700], sub[600];
    for (int i = 0; i < NKEYS; i++)
        if (!KEYS[i].def && c->st[i].origin == O_DEFAULT)
            return err_set(e, s->path, 0, "%s.%s: required key is missing", KEYS[i].section,
                           KEYS[i].name);
    int ks = find_key("scenario", "sweep"), kv = find_key("scenario", "sweep_values");
    if (s->sweep_key && !s->nsweep)
        return key_error(c, ks, e, "is set but scenario.sweep_values is empty");
    if (!s->sweep_key && s->nsweep)
        return key_error(c, kv, e, "is given but scenario.sweep is not set");
    if (!s->sweep_key)
        return 0;
    const keydef_t *k = &KEYS[find_dotted(s->sweep_key)];
    for (int i = 0; i < s->nsweep; i++) {
        scenario_t scratch = {0};
        int bad = parse_value(k, s->sweep_values[i], "", &scratch, sub, sizeof sub);
        clear_field(&scratch, k);
        if (bad) {
            snprintf(msg, sizeof msg, "item %d for %s: %s", i + 1, s->sweep_key, sub);
            return key_error(c, kv, e, msg);
        }
    }
    return 0;
}

static void resolve(scenario_t *s, const ctx_t *c)
{
    s->resolved = xcalloc((size_t)NKEYS, sizeof *s->resolved);
    for (int i = 0; i < NKEYS; i++) {
        scenario_kv_t *kv = &s->resolved[s->nresolved++];
        kv->key = xprintf("%s.%s", KEYS[i].section, KEYS[i].name);
        kv->value = format_value(s, &KEYS[i]);
        if (c->st[i].origin == O_FILE)
            kv->origin = xprintf("%s:%d", s->path, c->st[i].line);
        else
            kv->origin = xstrdup(c->st[i].origin == O_SET ? "--set" : "default");
    }
}

/* --- interface ------------------------------------------------------------ */

scenario_t *scenario_load(const char *path, const char *const *sets, int nsets, err_t *e)
{
    ctx_t c;
    memset(&c, 0, sizeof c);
    scenario_t *s = c.s = xcalloc(1, sizeof *s);
    s->path = xstrdup(path);
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    c.dir = nonnull(strndup(path, slash ? (size_t)(slash - path + 1) : 0));
    char *stem = xstrdup(base);
    size_t n = strlen(stem);
    if (n > 4 && !strcmp(stem + n - 4, ".ini"))
        stem[n - 4] = '\0';

    char msg[700];
    for (int i = 0; i < NKEYS; i++) {
        const char *def = KEYS[i].flags & F_BASENAME ? stem : KEYS[i].def;
        if (def && parse_value(&KEYS[i], def, "", s, msg, sizeof msg)) {
            err_set(e, path, 0, "%s.%s: cannot use the default: %s", KEYS[i].section, KEYS[i].name,
                    msg);
            goto fail;
        }
    }
    if (read_file(&c, path, e))
        goto fail;
    for (int i = 0; i < nsets; i++)
        if (apply_set(&c, sets[i], e))
            goto fail;
    if (check_all(&c, e))
        goto fail;
    resolve(s, &c);
    free(stem);
    free(c.dir);
    return s;
fail:
    free(stem);
    free(c.dir);
    scenario_free(s);
    return NULL;
}

void scenario_free(scenario_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < NKEYS; i++)
        clear_field(s, &KEYS[i]);
    for (int i = 0; i < s->nresolved; i++) {
        free(s->resolved[i].key);
        free(s->resolved[i].value);
        free(s->resolved[i].origin);
    }
    for (int i = 0; i < s->nplatform_sets; i++) {
        free((void *)s->platform_sets[i].name);
        free((void *)s->platform_sets[i].value);
    }
    free(s->platform_sets);
    free(s->resolved);
    free(s->path);
    free(s);
}

void scenario_write_resolved(const scenario_t *s, FILE *f)
{
    for (int i = 0; i < s->nresolved; i++)
        fprintf(f, "%s = %s   ; %s\n", s->resolved[i].key, s->resolved[i].value,
                s->resolved[i].origin);
}

const char *cache_state_name(cache_state_t c)
{
    return (int)c >= 0 && (int)c < NELEM(kCaches) ? kCaches[c] : "?";
}

const char *workload_name(workload_t w)
{
    return (int)w >= 0 && (int)w < NELEM(kWorkloads) ? kWorkloads[w] : "?";
}
