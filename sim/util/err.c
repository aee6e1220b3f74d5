#include "err.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int err_set(err_t *e, const char *file, int line, const char *fmt, ...)
{
    if (!e)
        return -1;
    int n = 0;
    if (file && line > 0)
        n = snprintf(e->msg, sizeof e->msg, "%s:%d: ", file, line);
    else if (file)
        n = snprintf(e->msg, sizeof e->msg, "%s: ", file);
    if (n < 0 || (size_t)n >= sizeof e->msg)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg + n, sizeof e->msg - (size_t)n, fmt, ap);
    va_end(ap);
    /* One line, whatever the arguments held (a value from a file or --set may
     * carry a newline, a carriage return or a terminal escape): every control
     * character but the tab becomes '?'. */
    for (char *c = e->msg; *c; c++)
        if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7f)
            *c = '?';
    return -1;
}

int err_parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int err_parse_long(const char *s, long *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

int err_parse_cpus(const char *list, int (*add)(long cpu, void *ctx), void *ctx, err_t *e)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        abort();
    int rc = *list ? 0 : err_set(e, NULL, 0, "--cpus: expected a list like 0,2-3, not '%s'", list);
    for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
        long lo, hi;
        char *dash = strchr(tok, '-');
        if (dash)
            *dash = 0;
        if (err_parse_long(tok, &lo) < 0 || (dash && err_parse_long(dash + 1, &hi) < 0) || lo < 0) {
            rc = err_set(e, NULL, 0, "--cpus: expected a list like 0,2-3, not '%s'", list);
            break;
        }
        if (!dash)
            hi = lo;
        if (hi < lo || hi > 65535) {
            rc = err_set(e, NULL, 0, "--cpus: bad range in '%s'", list);
            break;
        }
        for (long c = lo; c <= hi && rc == 0; c++)
            rc = add(c, ctx);
    }
    free(copy);
    return rc;
}
