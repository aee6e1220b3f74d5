#include "err.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
