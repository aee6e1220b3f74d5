/* scenario_file: reading a scenario (INI, libinih), its --set overrides,
 * the checks between keys and the resolved listing; scenario_load() and
 * scenario_free(). What each key means is in the table (scenario.c).
 *
 * Line numbers: Debian's libinih does not pass them to the handler, so the
 * file is fed through our own reader (read_line), which counts lines; when
 * the handler runs, the count is the line of its key. The reader also strips
 * leading whitespace, so an indented line is never taken for the
 * continuation of the previous value, and it reports unknown [sections] at
 * their header line.
 */
#include "scenario_internal.h"

#include <ini.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_DEFAULT, O_FILE, O_SET };

typedef struct {
    scenario_t *s;
    struct {
        int origin, line;
    } st[SCENARIO_NKEYS];
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
        if (scenario_find_section(section) < 0) {
            ctx_error(c, "unknown section [%s]", shown(section, b, sizeof b));
            return NULL;
        }
    }
    return str;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    ctx_t *c = user;
    char b[80];
    err_t ve;
    if (c->err_line)
        return 1;
    int i = scenario_find_key(section, name);
    if (!*section)
        ctx_error(c, "key '%s' is outside any [section]", shown(name, b, sizeof b));
    else if (scenario_find_section(section) < 0)
        ctx_error(c, "unknown section [%s]", shown(section, b, sizeof b));
    else if (i < 0)
        ctx_error(c, "unknown key '%s' in section [%s]", shown(name, b, sizeof b), section);
    else if (c->st[i].origin == O_FILE)
        ctx_error(c, "%s.%s: given twice (first at line %d)", section, name, c->st[i].line);
    else if (scenario_parse_value(&scenario_keys[i], value, c->dir, c->s, &ve))
        ctx_error(c, "%s.%s: %s", section, name, ve.msg);
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
    char b[80], b2[80];
    err_t ve;
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
    int rc = 0, i = scenario_find_key(section, name);
    scenario_t *s = c->s;
    if (!strcmp(section, "platform")) {
        s->platform_sets =
            xrealloc(s->platform_sets, (size_t)(s->nplatform_sets + 1) * sizeof *s->platform_sets);
        s->platform_sets[s->nplatform_sets++] = (platform_override_t){xstrdup(name), value};
        free(key);
        return 0;
    }
    if (scenario_find_section(section) < 0)
        rc = err_set(e, "--set", 0, "%s.%s: unknown section [%s]", shown(section, b2, sizeof b2),
                     shown(name, b, sizeof b), b2);
    else if (i < 0)
        rc = err_set(e, "--set", 0, "%s.%s: unknown key '%s' in section [%s]", section,
                     shown(name, b, sizeof b), b, section);
    else if (scenario_parse_value(&scenario_keys[i], value, "", s, &ve))
        rc = err_set(e, "--set", 0, "%s.%s: %s", section, name, ve.msg);
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
    return err_set(e, file, line, "%s.%s: %s", scenario_keys[i].section, scenario_keys[i].name,
                   msg);
}

static int lists_core(const scenario_t *s, kernel_core_t core)
{
    for (int i = 0; i < s->ncores; i++)
        if (s->cores[i] == core)
            return 1;
    return 0;
}

/* The 6.1 strategies that scenario.strategies' default adds when
 * kernel.core lists 6.1 (timer_shutdown_sync is a variant, not a way the
 * question was answered: name it to run it). */
static const char *const kDefault61[] = {"timer_delete_sync", "timer_delete_sync_rt"};

/* scenario.strategies against kernel.core: the default follows the cores
 * listed; a strategy named must run on one of them. */
static int check_cores(const ctx_t *c, err_t *e)
{
    scenario_t *s = c->s;
    char msg[200];
    int ks = scenario_find_key("scenario", "strategies");
    if (c->st[ks].origin == O_DEFAULT) {
        int n = lists_core(s, KERNEL_CORE_26) ? s->nstrategies : 0;
        for (size_t k = 0;
             lists_core(s, KERNEL_CORE_61) && k < sizeof kDefault61 / sizeof *kDefault61; k++)
            for (int id = 0; id < STRAT_COUNT; id++)
                if (!strcmp(strategy_names[id], kDefault61[k]))
                    s->strategies[n++] = (strategy_id_t)id;
        s->nstrategies = n;
    }
    for (int i = 0; i < s->nstrategies; i++) {
        kernel_core_t core = strategy_core(s->strategies[i]);
        if (!lists_core(s, core)) {
            snprintf(msg, sizeof msg,
                     "%s runs on the %s timer core, which kernel.core does not list",
                     strategy_name(s->strategies[i]), kernel_core_name(core));
            return key_error(c, ks, e, msg);
        }
    }
    return 0;
}

/* scenario.NAME (a swept key) against scenario.NAME_values: both or
 * neither, and each value valid for the key. */
static int check_sweep_pair(const ctx_t *c, const char *name, const char *key, char *const *values,
                            int n, err_t *e)
{
    char vname[32], msg[700];
    err_t ve;
    snprintf(vname, sizeof vname, "%s_values", name);
    int ks = scenario_find_key("scenario", name), kv = scenario_find_key("scenario", vname);
    if (key && !n) {
        snprintf(msg, sizeof msg, "is set but scenario.%s is empty", vname);
        return key_error(c, ks, e, msg);
    }
    if (!key && n) {
        snprintf(msg, sizeof msg, "is given but scenario.%s is not set", name);
        return key_error(c, kv, e, msg);
    }
    if (!key)
        return 0;
    const keydef_t *k = &scenario_keys[scenario_find_dotted(key)];
    for (int i = 0; i < n; i++) {
        scenario_t scratch = {0};
        int bad = scenario_parse_value(k, values[i], "", &scratch, &ve);
        scenario_clear_field(&scratch, k);
        if (bad) {
            snprintf(msg, sizeof msg, "item %d for %s: %.600s", i + 1, key, ve.msg);
            return key_error(c, kv, e, msg);
        }
    }
    return 0;
}

/* Checks between keys, once the file and the overrides are applied. */
static int check_all(const ctx_t *c, err_t *e)
{
    const scenario_t *s = c->s;
    for (int i = 0; i < SCENARIO_NKEYS; i++)
        if (!scenario_keys[i].def && c->st[i].origin == O_DEFAULT)
            return err_set(e, s->path, 0, "%s.%s: required key is missing",
                           scenario_keys[i].section, scenario_keys[i].name);
    if (check_cores(c, e))
        return -1;
    if (s->wheel_timeout_min > s->wheel_timeout_max)
        return key_error(c, scenario_find_key("wheel", "timeout_min_jiffies"), e,
                         "is larger than wheel.timeout_max_jiffies");
    if (check_sweep_pair(c, "sweep", s->sweep_key, s->sweep_values, s->nsweep, e) ||
        check_sweep_pair(c, "sweep2", s->sweep2_key, s->sweep2_values, s->nsweep2, e))
        return -1;
    if (s->sweep2_key && !s->sweep_key)
        return key_error(c, scenario_find_key("scenario", "sweep2"), e,
                         "is set but scenario.sweep is not");
    if (s->sweep2_key && !strcmp(s->sweep_key, s->sweep2_key))
        return key_error(c, scenario_find_key("scenario", "sweep2"), e,
                         "names the key scenario.sweep names");
    return 0;
}

static void resolve(scenario_t *s, const ctx_t *c)
{
    s->resolved = xcalloc((size_t)SCENARIO_NKEYS, sizeof *s->resolved);
    for (int i = 0; i < SCENARIO_NKEYS; i++) {
        scenario_kv_t *kv = &s->resolved[s->nresolved++];
        kv->key = xprintf("%s.%s", scenario_keys[i].section, scenario_keys[i].name);
        kv->value = scenario_format_value(s, &scenario_keys[i]);
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
    c.dir = xcheck(strndup(path, slash ? (size_t)(slash - path + 1) : 0));
    char *stem = xstrdup(base);
    size_t n = strlen(stem);
    if (n > 4 && !strcmp(stem + n - 4, ".ini"))
        stem[n - 4] = '\0';

    err_t ve;
    for (int i = 0; i < SCENARIO_NKEYS; i++) {
        const char *def = scenario_keys[i].flags & F_BASENAME ? stem : scenario_keys[i].def;
        if (def && scenario_parse_value(&scenario_keys[i], def, "", s, &ve)) {
            err_set(e, path, 0, "%s.%s: cannot use the default: %s", scenario_keys[i].section,
                    scenario_keys[i].name, ve.msg);
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
    for (int i = 0; i < SCENARIO_NKEYS; i++)
        scenario_clear_field(s, &scenario_keys[i]);
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
