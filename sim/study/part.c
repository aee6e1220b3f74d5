#include "part.h"

#include "results.h"
#include "xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The anatomy as an array of counters, for the part file (cpu_anatomy_t is
 * all uint64_t). */
#define NANATOMY ((int)(sizeof(cpu_anatomy_t) / sizeof(uint64_t)))
static uint64_t *anatomy_fields(const cpu_anatomy_t *a)
{
    return (uint64_t *)(uintptr_t)(const void *)a;
}

#define NEXTRA ((int)(sizeof(run_extra_t) / sizeof(uint64_t)))
static uint64_t *extra_fields(const run_extra_t *x)
{
    return (uint64_t *)(uintptr_t)(const void *)x;
}

#define PART_MAGIC "numasim-part 2"
#define MAX_COMBOS 100000000 /* a sanity bound for the header's count */

int part_slice_of(int k, int nslices)
{
    return k % nslices;
}

int part_parse_slice(const char *s, int *slice, int *nslices, err_t *e)
{
    const char *slash = strchr(s, '/');
    char a[32];
    long i, n;
    if (!slash || slash - s >= (long)sizeof a)
        return err_set(e, NULL, 0, "--slice: expected I/N (I from 0 to N-1), not '%s'", s);
    snprintf(a, sizeof a, "%.*s", (int)(slash - s), s);
    if (err_parse_long(a, &i) < 0 || err_parse_long(slash + 1, &n) < 0 || n < 1 || n > MAX_COMBOS ||
        i < 0 || i >= n)
        return err_set(e, NULL, 0, "--slice: expected I/N with 0 <= I < N, not '%s'", s);
    *slice = (int)i;
    *nslices = (int)n;
    return 0;
}

uint64_t part_hash(uint64_t h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

int part_hash_file(uint64_t *h, const char *path, err_t *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(e, path, 0, "cannot read: %s", strerror(errno));
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        *h = part_hash(*h, buf, n);
    int bad = ferror(f);
    fclose(f);
    return bad ? err_set(e, path, 0, "cannot read: %s", strerror(EIO)) : 0;
}

uint64_t part_hash_layout(uint64_t h, const part_t *p)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "%d %d %s\n", p->ncombos, p->ngroups, p->sweep_key);
    h = part_hash(h, line, (size_t)n);
    for (int g = 0; g < p->ngroups; g++) {
        const part_group_t *q = &p->groups[g];
        n = snprintf(line, sizeof line, "%d %d %s %d %d %s %s %lu %s\n", q->first, q->n,
                     q->platform, q->cpus, q->nodes, q->strategy, q->cache, q->seed,
                     q->sweep_value);
        h = part_hash(h, line, (size_t)n);
    }
    return h;
}

/* Writes text as one "KEY\tLINE" record per line. */
static void put_lines(FILE *f, const char *key, const char *text)
{
    while (*text) {
        const char *nl = strchr(text, '\n');
        int len = nl ? (int)(nl - text) : (int)strlen(text);
        fprintf(f, "%s\t%.*s\n", key, len, text);
        text += len + (nl != NULL);
    }
}

int part_write(FILE *f, const part_t *p)
{
    fprintf(f, "%s\nversion\t%s\nscenario\t%s\nsweep_key\t%s\nhash\t%016" PRIx64 "\n", PART_MAGIC,
            p->version, p->scenario, p->sweep_key, p->hash);
    fprintf(f, "slice\t%d/%d\ncombinations\t%d\ncommand\t%s\nhead\t%s\ncolumns\t%d\n", p->slice,
            p->nslices, p->ncombos, p->command, p->head, (int)p->cols);
    put_lines(f, "body", p->body);
    for (int g = 0; g < p->ngroups; g++) {
        const part_group_t *q = &p->groups[g];
        fprintf(f, "group\t%d\t%d\t%s\t%d\t%d\t%s\t%s\t%lu\t%s\n", q->first, q->n, q->platform,
                q->cpus, q->nodes, q->strategy, q->cache, q->seed, q->sweep_value);
    }
    int count = 0;
    for (int k = 0; k < p->ncombos; k++) {
        const part_combo_t *c = &p->combos[k];
        if (part_slice_of(k, p->nslices) != p->slice)
            continue;
        fprintf(f,
                "combo\t%d\t%d\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
                "\t%" PRIu64,
                k, c->ncalls, c->violations, c->oopses, c->bugs, c->uaf, c->accesses,
                c->sim_cycles);
        const uint64_t *an = anatomy_fields(&c->anatomy);
        for (int i = 0; i < NANATOMY; i++)
            fprintf(f, "\t%" PRIu64, an[i]);
        const uint64_t *ex = extra_fields(&c->extra);
        for (int i = 0; i < NEXTRA; i++)
            fprintf(f, "\t%" PRIu64, ex[i]);
        for (int i = 0; i < c->ncalls; i++)
            fprintf(f, "\t%" PRIu64, c->cycles[i]);
        fputc('\n', f);
        count++;
    }
    fprintf(f, "end\t%d\n", count);
    return ferror(f) ? -1 : 0;
}

void part_free(part_t *p)
{
    if (!p)
        return;
    part_release(p);
    free(p);
}

void part_release(part_t *p)
{
    if (p->combos)
        for (int k = 0; k < p->ncombos; k++)
            free(p->combos[k].cycles);
    free(p->combos);
    free(p->groups);
    free(p->command);
    free(p->head);
    free(p->body);
    memset(p, 0, sizeof *p);
}

/* Splits line (modified) at tabs into at most max fields; returns the count. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    f[n++] = line;
    for (char *c = line; *c && n < max; c++)
        if (*c == '\t') {
            *c = '\0';
            f[n++] = c + 1;
        }
    return n;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

static int parse_int(const char *s, int *v, long lo, long hi)
{
    long x;
    if (err_parse_long(s, &x) < 0 || x < lo || x > hi)
        return -1;
    *v = (int)x;
    return 0;
}

static void append(char **text, size_t *len, const char *line)
{
    size_t n = strlen(line);
    char *t = xrealloc(*text, *len + n + 2);
    memcpy(t + *len, line, n);
    t[*len + n] = '\n';
    t[*len + n + 1] = '\0';
    *len += n + 1;
    *text = t;
}

/* Parses one "combo" record (fields f[1..nf-1]) into p: index, calls, six
 * counters, the anatomy, the extras, then the calls' cycles. */
static int read_combo(part_t *p, char **f, int nf, int *seen)
{
    int k, nc;
    const int fixed = 9 + NANATOMY + NEXTRA;
    if (nf < fixed || parse_int(f[1], &k, 0, p->ncombos - 1) < 0 ||
        parse_int(f[2], &nc, 0, 100000000) < 0 || nf != fixed + nc ||
        part_slice_of(k, p->nslices) != p->slice || seen[k])
        return -1;
    part_combo_t *c = &p->combos[k];
    uint64_t *v[] = {&c->violations, &c->oopses, &c->bugs, &c->uaf, &c->accesses, &c->sim_cycles};
    for (int i = 0; i < 6; i++)
        if (parse_u64(f[3 + i], v[i]) < 0)
            return -1;
    c->cycles = xmalloc(sizeof *c->cycles * (size_t)(nc ? nc : 1));
    uint64_t *an = anatomy_fields(&c->anatomy);
    for (int i = 0; i < NANATOMY; i++)
        if (parse_u64(f[9 + i], &an[i]) < 0)
            return -1;
    uint64_t *ex = extra_fields(&c->extra);
    for (int i = 0; i < NEXTRA; i++)
        if (parse_u64(f[9 + NANATOMY + i], &ex[i]) < 0)
            return -1;
    for (int i = 0; i < nc; i++)
        if (parse_u64(f[fixed + i], &c->cycles[i]) < 0)
            return -1;
    c->ncalls = nc;
    seen[k] = 1;
    return 0;
}

/* The records of the header, in order, before the groups. */
static const char *const header_keys[] = {"version", "scenario", "sweep_key",
                                          "hash",    "slice",    "combinations",
                                          "command", "head",     "columns"};

part_t *part_read(const char *path, int *truncated, err_t *e)
{
    *truncated = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        err_set(e, path, 0, "cannot read: %s", strerror(errno));
        return NULL;
    }
    part_t *p = xcalloc(1, sizeof *p);
    char *line = NULL, *fields[64], **big = NULL;
    size_t cap = 0, body_len = 0;
    ssize_t len;
    int lineno = 0, ok = 0, header_done = 0, *seen = NULL, count = 0, ngroups_cap = 0,
        groups_end = 0;
    const char *why = "not a numasim part file";
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len == 0 || line[len - 1] != '\n') {
            why = NULL; /* a last line without its newline: truncated */
            break;
        }
        line[len - 1] = '\0';
        if (lineno == 1) {
            if (strcmp(line, PART_MAGIC) != 0)
                break;
            why = "truncated header";
            continue;
        }
        if (lineno - 2 < 9) { /* the header */
            const char *key = header_keys[lineno - 2];
            size_t kl = strlen(key);
            if (strncmp(line, key, kl) != 0 || line[kl] != '\t') {
                why = "malformed header";
                break;
            }
            char *v = line + kl + 1;
            int bad = 0;
            if (lineno == 2)
                bad = snprintf(p->version, sizeof p->version, "%s", v) >= (int)sizeof p->version;
            else if (lineno == 3)
                bad = snprintf(p->scenario, sizeof p->scenario, "%s", v) >= (int)sizeof p->scenario;
            else if (lineno == 4)
                bad = snprintf(p->sweep_key, sizeof p->sweep_key, "%s", v) >=
                      (int)sizeof p->sweep_key;
            else if (lineno == 5) {
                char *end;
                errno = 0;
                p->hash = strtoull(v, &end, 16);
                bad = errno || *end || end - v != 16;
            } else if (lineno == 6) {
                err_t se;
                bad = part_parse_slice(v, &p->slice, &p->nslices, &se) < 0;
            } else if (lineno == 7) {
                bad = parse_int(v, &p->ncombos, 1, MAX_COMBOS) < 0;
                if (!bad) {
                    p->combos = xcalloc((size_t)p->ncombos, sizeof *p->combos);
                    seen = xcalloc((size_t)p->ncombos, sizeof *seen);
                    for (int k = 0; k < p->ncombos; k++)
                        p->combos[k].ncalls = -1;
                }
            } else if (lineno == 8)
                p->command = strdup(v);
            else if (lineno == 9)
                p->head = strdup(v);
            else {
                int cols = 0;
                bad = parse_int(v, &cols, EXTRA_NONE, EXTRA_CONTEND) < 0;
                p->cols = (extra_cols_t)cols;
            }
            if (bad) {
                why = "malformed header";
                break;
            }
            header_done = lineno == 10;
            continue;
        }
        if (!strncmp(line, "body\t", 5)) {
            if (p->ngroups) {
                why = "body after the groups";
                break;
            }
            append(&p->body, &body_len, line + 5);
            continue;
        }
        if (!strncmp(line, "group\t", 6)) {
            int nf = split(line, fields, 64);
            part_group_t q;
            memset(&q, 0, sizeof q);
            uint64_t seed;
            if (nf != 10 || count || parse_int(fields[1], &q.first, 0, p->ncombos - 1) < 0 ||
                q.first != groups_end || parse_int(fields[2], &q.n, 1, p->ncombos - q.first) < 0 ||
                parse_int(fields[4], &q.cpus, 1, 1 << 30) < 0 ||
                parse_int(fields[5], &q.nodes, 1, 1 << 30) < 0 || parse_u64(fields[8], &seed) < 0 ||
                snprintf(q.platform, sizeof q.platform, "%s", fields[3]) >=
                    (int)sizeof q.platform ||
                snprintf(q.strategy, sizeof q.strategy, "%s", fields[6]) >=
                    (int)sizeof q.strategy ||
                snprintf(q.cache, sizeof q.cache, "%s", fields[7]) >= (int)sizeof q.cache ||
                snprintf(q.sweep_value, sizeof q.sweep_value, "%s", fields[9]) >=
                    (int)sizeof q.sweep_value) {
                why = "malformed group";
                break;
            }
            q.seed = (unsigned long)seed;
            groups_end = q.first + q.n;
            if (p->ngroups == ngroups_cap) {
                ngroups_cap = ngroups_cap ? 2 * ngroups_cap : 64;
                p->groups = xrealloc(p->groups, sizeof *p->groups * (size_t)ngroups_cap);
            }
            p->groups[p->ngroups++] = q;
            continue;
        }
        if (!strncmp(line, "combo\t", 6)) {
            int nf = 1;
            for (char *c = line; *c; c++)
                nf += *c == '\t';
            big = xrealloc(big, sizeof *big * (size_t)nf);
            split(line, big, nf);
            if (groups_end != p->ncombos || read_combo(p, big, nf, seen) < 0) {
                why = "malformed combination";
                break;
            }
            count++;
            continue;
        }
        if (!strncmp(line, "end\t", 4)) {
            int n;
            int expect = p->ncombos / p->nslices + (p->slice < p->ncombos % p->nslices);
            if (parse_int(line + 4, &n, 0, MAX_COMBOS) < 0 || n != count || count != expect ||
                groups_end != p->ncombos) {
                why = "wrong combination count at the end marker";
                break;
            }
            /* Nothing may follow the end marker. */
            ok = getline(&line, &cap, f) < 0;
            if (!ok)
                why = "data after the end marker";
            lineno++;
            break;
        }
        why = "unknown record";
        break;
    }
    if (ferror(f)) {
        err_set(e, path, 0, "cannot read: %s", strerror(EIO));
        ok = 0;
    } else if (!ok && (why == NULL || len < 0) && header_done) {
        /* the header is whole, the rest stops early: a truncated part */
        *truncated = 1;
        err_set(e, path, 0, "truncated part (slice %d/%d, no end marker)", p->slice, p->nslices);
    } else if (!ok) {
        err_set(e, path, lineno, "%s", why ? why : "truncated header");
    }
    free(line);
    free(big);
    free(seen);
    fclose(f);
    if (!p->body)
        p->body = strdup("");
    if (ok || *truncated)
        return p;
    part_free(p);
    return NULL;
}

/* Appends ",I" (or "I") to buf, or "..." once it is nearly full. */
static void add_slice(char *buf, size_t n, int i)
{
    size_t l = strlen(buf);
    if (l + 16 >= n) {
        if (l < 3 || strcmp(buf + l - 3, "..."))
            snprintf(buf + l, n - l, "...");
        return;
    }
    snprintf(buf + l, n - l, "%s%d", l ? "," : "", i);
}

part_t *part_merge(part_t *const *parts, const char *const *paths, const int *truncated, int n,
                   int nslices, err_t *e)
{
    if (n < 1 && nslices < 1) {
        err_set(e, NULL, 0, "numasim merge: no part files given");
        return NULL;
    }
    const part_t *r = n ? parts[0] : NULL;
    for (int i = 0; i < n; i++) {
        const part_t *p = parts[i];
        if (nslices > 0 && p->nslices != nslices) {
            err_set(e, paths[i], 0, "slice %d/%d, but --slices says %d slices", p->slice,
                    p->nslices, nslices);
            return NULL;
        }
        if (strcmp(p->version, NUMASIM_VERSION) != 0) {
            err_set(e, paths[i], 0, "written by numasim %s, this is numasim %s: rerun its slice",
                    p->version, NUMASIM_VERSION);
            return NULL;
        }
        if (p->hash != r->hash || strcmp(p->scenario, r->scenario) != 0 ||
            p->ncombos != r->ncombos) {
            err_set(e, paths[i], 0,
                    "a part of another scenario or configuration than %s ('%s' %016" PRIx64
                    ", not '%s' %016" PRIx64 ")",
                    paths[0], p->scenario, p->hash, r->scenario, r->hash);
            return NULL;
        }
        if (p->nslices != r->nslices) {
            err_set(e, paths[i], 0, "slice %d/%d, but %s is slice %d/%d: parts of two submissions",
                    p->slice, p->nslices, paths[0], r->slice, r->nslices);
            return NULL;
        }
        for (int j = 0; j < i; j++)
            if (parts[j]->slice == p->slice) {
                err_set(e, paths[i], 0, "slice %d/%d given twice (also %s)", p->slice, p->nslices,
                        paths[j]);
                return NULL;
            }
    }
    int ns = r ? r->nslices : nslices;
    char *have = xcalloc((size_t)ns, 1); /* 0 missing, 1 good, 2 truncated */
    for (int i = 0; i < n; i++)
        have[parts[i]->slice] = truncated[i] ? 2 : 1;
    char rerun[400] = "", missing[300] = "", trunc[300] = "";
    for (int s = 0; s < ns; s++)
        if (have[s] != 1) {
            add_slice(rerun, sizeof rerun, s);
            add_slice(have[s] ? trunc : missing, have[s] ? sizeof trunc : sizeof missing, s);
        }
    free(have);
    if (*rerun) {
        err_set(e, NULL, 0, "numasim merge: slices to rerun: %s (of 0..%d; %s%s%s%s%s)", rerun,
                ns - 1, *missing ? "missing: " : "", missing, *missing && *trunc ? "; " : "",
                *trunc ? "truncated: " : "", trunc);
        return NULL;
    }
    part_t *m = xcalloc(1, sizeof *m);
    *m = *r;
    m->slice = 0;
    m->nslices = 1;
    m->groups = xmalloc(sizeof *m->groups * (size_t)r->ngroups);
    m->combos = xcalloc((size_t)r->ncombos, sizeof *m->combos);
    m->command = xstrdup(r->command);
    m->head = xstrdup(r->head);
    m->body = xstrdup(r->body);
    memcpy(m->groups, r->groups, sizeof *m->groups * (size_t)r->ngroups);
    /* The command of slice 0, so that the output does not depend on the
     * order of the arguments. */
    for (int i = 0; i < n; i++)
        if (parts[i]->slice == 0) {
            free(m->command);
            m->command = strdup(parts[i]->command);
        }
    for (int i = 0; i < n; i++)
        for (int k = parts[i]->slice; k < m->ncombos; k += ns) {
            m->combos[k] = parts[i]->combos[k];
            m->combos[k].cycles = xmalloc(sizeof(uint64_t) * (size_t)(m->combos[k].ncalls + 1));
            memcpy(m->combos[k].cycles, parts[i]->combos[k].cycles,
                   sizeof(uint64_t) * (size_t)m->combos[k].ncalls);
        }
    return m;
}

void part_write_rows(const part_t *p, FILE *csv, FILE *table)
{
    results_print_header(csv, p->cols);
    for (int g = 0; g < p->ngroups; g++) {
        const part_group_t *q = &p->groups[g];
        size_t total = 0;
        for (int k = q->first; k < q->first + q->n; k++)
            total += (size_t)p->combos[k].ncalls;
        result_row_t row;
        memset(&row, 0, sizeof row);
        uint64_t *all = xmalloc(sizeof *all * (total ? total : 1));
        size_t off = 0;
        for (int k = q->first; k < q->first + q->n; k++) {
            const part_combo_t *c = &p->combos[k];
            memcpy(all + off, c->cycles, sizeof *all * (size_t)c->ncalls);
            off += (size_t)c->ncalls;
            row.violations += c->violations;
            row.oopses += c->oopses;
            row.bugs += c->bugs;
            row.uaf += c->uaf;
            row.sim_cycles += c->sim_cycles;
            row.accesses += c->accesses;
            row.seeds_violating += c->violations > 0;
            results_add_anatomy(&row, &c->anatomy);
            results_add_extra(&row.extra, &c->extra);
        }
        row.cols = p->cols;
        results_stats(&row, all, total);
        free(all);
        snprintf(row.scenario, sizeof row.scenario, "%s", p->scenario);
        snprintf(row.platform, sizeof row.platform, "%s", q->platform);
        snprintf(row.strategy, sizeof row.strategy, "%s", q->strategy);
        snprintf(row.cache, sizeof row.cache, "%s", q->cache);
        row.cpus = q->cpus;
        row.nodes = q->nodes;
        row.seed = q->seed;
        row.seeds = q->n;
        snprintf(row.sweep_key, sizeof row.sweep_key, "%s", p->sweep_key);
        snprintf(row.sweep_value, sizeof row.sweep_value, "%s", q->sweep_value);
        results_print_row(csv, &row);
        if (table)
            fprintf(table, "%-9s %-20s %-5s %12.1f %10.1f %10llu %7llu%s%s\n", row.platform,
                    row.strategy, row.cache, row.mean, row.p95, (unsigned long long)row.violations,
                    (unsigned long long)row.oopses, *row.sweep_value ? "  " : "", row.sweep_value);
    }
}

void part_write_resolved(const part_t *p, FILE *f, const char *cmd)
{
    fprintf(f, "%s\n; command: numasim %s\n%s", p->head, cmd, p->body);
}
