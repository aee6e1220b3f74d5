/* probe_csv: reading probe CSVs back (for `numasim tune --probe-target` and
 * `numasim platform --from-host --probe`). The columns are found by name in
 * the header, so files with more columns, or in another order, are read. */
#include "probe.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const kCols[] = {"probe",     "from_cpu", "to_cpu",
                                    "from_node", "to_node",  "median_cycles"};
#define NCOLS 6

/* Splits s in place at commas, trimming blanks; returns the field count. */
static int split(char *s, char **f, int max)
{
    int n = 0;
    for (char *p = s;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        p += strspn(p, " \t");
        size_t len = strlen(p);
        while (len > 0 && strchr(" \t\r\n", p[len - 1]))
            p[--len] = '\0';
        if (n < max)
            f[n] = p;
        n++;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

static int parse_int(const char *s, int *out)
{
    long v;
    if (err_parse_long(s, &v) < 0 || v < 0 || v > 1000000)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_row(char **f, const int *idx, probe_row_t *w, const char *path, int line, err_t *e)
{
    memset(w, 0, sizeof *w);
    const char *name = f[idx[0]];
    if (!*name || strlen(name) >= sizeof w->probe)
        return err_set(e, path, line, "probe name '%.40s' is empty or too long", name);
    memcpy(w->probe, name, strlen(name) + 1);
    int *ints[] = {&w->from_cpu, &w->to_cpu, &w->from_node, &w->to_node};
    for (int k = 0; k < 4; k++)
        if (parse_int(f[idx[k + 1]], ints[k]) < 0)
            return err_set(e, path, line, "%s must be a whole number >= 0, not '%.40s'",
                           kCols[k + 1], f[idx[k + 1]]);
    if (err_parse_double(f[idx[5]], &w->median) < 0 || !(w->median >= 0))
        return err_set(e, path, line, "median_cycles must be a number >= 0, not '%.40s'",
                       f[idx[5]]);
    w->p10 = w->p90 = w->median;
    w->reps = 1;
    return 0;
}

int probe_read_csv(const char *path, probe_result_t *r, err_t *e)
{
    memset(r, 0, sizeof *r);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return err_set(e, path, 0, "cannot read probe file: %s", strerror(errno));
    char *buf = NULL, *f[64];
    size_t bufn = 0;
    int lineno = 0, header = 0, nheader = 0, idx[NCOLS], rc = 0, cap = 0;
    while (rc == 0 && getline(&buf, &bufn, fp) >= 0) {
        lineno++;
        char *s = buf + strspn(buf, " \t");
        if (!*s || *s == '#' || *s == '\n' || *s == '\r')
            continue;
        int nf = split(s, f, 64);
        if (nf > 64) {
            rc = err_set(e, path, lineno, "more than 64 columns");
            break;
        }
        if (!header) {
            header = lineno;
            nheader = nf;
            for (int k = 0; k < NCOLS && rc == 0; k++) {
                idx[k] = -1;
                for (int j = 0; j < nf; j++)
                    if (!strcmp(f[j], kCols[k]))
                        idx[k] = j;
                if (idx[k] < 0)
                    rc = err_set(e, path, lineno,
                                 "header has no column '%s' (a probe CSV "
                                 "written by numasim probe is expected)",
                                 kCols[k]);
            }
            continue;
        }
        if (nf != nheader) {
            rc = err_set(e, path, lineno, "%d fields, but the header (line %d) has %d", nf, header,
                         nheader);
            break;
        }
        if (r->nrows == cap) {
            cap = cap ? 2 * cap : 64;
            r->rows = xrealloc(r->rows, sizeof *r->rows * (size_t)cap);
        }
        probe_row_t *w = &r->rows[r->nrows];
        if (parse_row(f, idx, w, path, lineno, e) < 0) {
            rc = -1;
            break;
        }
        if (probe_find(r, w->probe, w->from_cpu, w->to_cpu, w->to_node)) {
            rc = err_set(e, path, lineno, "cell %s %d->%d (node %d) given twice", w->probe,
                         w->from_cpu, w->to_cpu, w->to_node);
            break;
        }
        r->nrows++;
    }
    if (rc == 0 && ferror(fp))
        rc = err_set(e, path, 0, "cannot read probe file: %s", strerror(errno));
    else if (rc == 0 && !header)
        rc = err_set(e, path, 0, "no header line (expected %s)", probe_csv_header);
    else if (rc == 0 && r->nrows == 0)
        rc = err_set(e, path, 0, "no data rows after the header (line %d)", header);
    fclose(fp);
    free(buf);
    if (rc)
        probe_result_free(r);
    return rc;
}
