/* platform_emit: the platform XML writer. Theory of operation.
 *
 * Every element goes straight to the file at the indent of its depth; the
 * writer keeps only the depth and, within a comment, whether the next
 * character starts a line (to indent the continuation lines). Write errors
 * stick to the FILE and are reported once, by pemit_end().
 */
#include "platform_emit.h"

#include "xalloc.h"

#include <stdarg.h>
#include <stdlib.h>

static void indent(const pemit_t *e)
{
    fprintf(e->f, "%*s", 2 * e->depth, "");
}

/* Writes s as comment text: "--" as "- -", each line after a newline
 * indented to the comment's column plus five spaces, unless it is empty. */
static void comment_text(pemit_t *e, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (e->bol && *p != '\n') {
            fprintf(e->f, "%*s", 2 * e->depth + 5, "");
            e->bol = 0;
        }
        if (p[0] == '-' && p[1] == '-')
            fputs("- ", e->f);
        else
            putc(*p, e->f);
        if (*p == '\n')
            e->bol = 1;
    }
}

/* The text of fmt and ap, allocated (the caller frees it). */
static char *vformat(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = xmalloc(n > 0 ? (size_t)n + 1 : 1);
    vsnprintf(s, n > 0 ? (size_t)n + 1 : 1, fmt, again);
    va_end(again);
    return s;
}

void pemit_begin(pemit_t *e, FILE *f)
{
    e->f = f;
    e->depth = 0;
    e->bol = 0;
    fprintf(f, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
}

void pemit_platform_open(pemit_t *e)
{
    indent(e);
    fprintf(e->f, "<platform version=\"4.1\">\n");
    e->depth++;
}

void pemit_platform_close(pemit_t *e)
{
    e->depth--;
    indent(e);
    fprintf(e->f, "</platform>\n");
}

void pemit_zone_open(pemit_t *e, const char *id, const char *routing)
{
    indent(e);
    fprintf(e->f, "<zone id=\"%s\" routing=\"%s\">\n", id, routing);
    e->depth++;
}

void pemit_zone_close(pemit_t *e)
{
    e->depth--;
    indent(e);
    fprintf(e->f, "</zone>\n");
}

void pemit_comment(pemit_t *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    indent(e);
    fputs("<!-- ", e->f);
    e->bol = 0;
    comment_text(e, s);
    e->bol = 0;
    fputs(" -->\n", e->f);
    free(s);
}

void pemit_prop(pemit_t *e, const char *id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    indent(e);
    fprintf(e->f, "<prop id=\"%s\" value=\"%s\"/>\n", id, s);
    free(s);
}

void pemit_cpu(pemit_t *e, int cpu, const pemit_iprop_t *props, int n)
{
    indent(e);
    fprintf(e->f, "<host id=\"cpu%d\" speed=\"1f\">", cpu);
    for (int i = 0; i < n; i++)
        fprintf(e->f, "<prop id=\"%s\" value=\"%ld\"/>", props[i].id, props[i].value);
    fprintf(e->f, "</host>\n");
}

void pemit_router(pemit_t *e, const char *id, const char *note)
{
    indent(e);
    fprintf(e->f, "<router id=\"%s\"/>", id);
    if (note) {
        fputs(" <!-- ", e->f);
        e->bol = 0;
        comment_text(e, note);
        e->bol = 0;
        fputs(" -->", e->f);
    }
    putc('\n', e->f);
}

void pemit_router_zone(pemit_t *e, const char *zone, const char *router)
{
    indent(e);
    fprintf(e->f, "<zone id=\"%s\" routing=\"Full\"><router id=\"%s\"/></zone>\n", zone, router);
}

void pemit_link(pemit_t *e, const char *id, const char *bandwidth, double latency, const char *cls)
{
    indent(e);
    fprintf(e->f, "<link id=\"%s\" bandwidth=\"%s\" latency=\"%gs\"", id, bandwidth, latency);
    if (cls)
        fprintf(e->f, "><prop id=\"class\" value=\"%s\"/></link>\n", cls);
    else
        fprintf(e->f, "/>\n");
}

void pemit_route(pemit_t *e, const char *src, const char *dst, const char *link)
{
    indent(e);
    fprintf(e->f, "<route src=\"%s\" dst=\"%s\"><link_ctn id=\"%s\"/></route>\n", src, dst, link);
}

void pemit_zone_route(pemit_t *e, const char *src, const char *dst, const char *gw_src,
                      const char *gw_dst, const char *link)
{
    indent(e);
    fprintf(e->f,
            "<zoneRoute src=\"%s\" dst=\"%s\" gw_src=\"%s\" gw_dst=\"%s\"><link_ctn "
            "id=\"%s\"/></zoneRoute>\n",
            src, dst, gw_src, gw_dst, link);
}

int pemit_end(pemit_t *e)
{
    return ferror(e->f) ? -1 : 0;
}
