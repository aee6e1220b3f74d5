/* platform_emit: writing a SimGrid platform file, element by element.
 *
 * The one writer of numasim's platform XML: the generated fat trees
 * (generate.c) and this host's file (study/hostplat.c) call it. It writes
 * as it is called, in the layout of numasim's files: two spaces of indent
 * per open element, one element per line, each value preceded by a comment
 * saying where it comes from. Hosts are CPUs (speed "1f"), link latencies
 * ONE-WAY cycles written "Ns" (docs/platforms.md, "Units").
 *
 * A comment's text may hold newlines: each further line is indented to
 * the comment's column plus five spaces (an empty line stays empty). An XML
 * comment cannot hold "--": each is written "- -".
 */
#ifndef NUMASIM_PLATFORM_EMIT_H
#define NUMASIM_PLATFORM_EMIT_H

#include <stdio.h>

typedef struct {
    FILE *f;
    int depth; /* elements open: the indent is two spaces each */
    int bol;   /* inside a comment, at the start of a line */
} pemit_t;

/* An integer property of a CPU (<host>). */
typedef struct {
    const char *id;
    long value;
} pemit_iprop_t;

/* Starts writing to f: the XML declaration and the DOCTYPE. */
void pemit_begin(pemit_t *e, FILE *f);

/* <platform version="4.1">, and its end tag. */
void pemit_platform_open(pemit_t *e);
void pemit_platform_close(pemit_t *e);

/* <zone id="id" routing="routing">, and its end tag. */
void pemit_zone_open(pemit_t *e, const char *id, const char *routing);
void pemit_zone_close(pemit_t *e);

/* A comment on a line of its own, its text formatted as by printf. */
void pemit_comment(pemit_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* <prop id="id" value="..."/>, the value formatted as by printf. */
void pemit_prop(pemit_t *e, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* <host id="cpuN" speed="1f"> with the n integer props, on one line. */
void pemit_cpu(pemit_t *e, int cpu, const pemit_iprop_t *props, int n);

/* <router id="id"/>, followed on its line by the comment note unless it
 * is NULL. */
void pemit_router(pemit_t *e, const char *id, const char *note);

/* A zone holding one router: <zone id="zone" routing="Full"><router
 * id="router"/></zone>, on one line. */
void pemit_router_zone(pemit_t *e, const char *zone, const char *router);

/* <link id="id" bandwidth="bandwidth" latency="LATENCYs"/>, latency in
 * one-way cycles (%g); with a prop "class" when cls is not NULL (a link
 * class that numasim tune can fit as link.CLASS). */
void pemit_link(pemit_t *e, const char *id, const char *bandwidth, double latency, const char *cls);

/* <route src="src" dst="dst"> through the one link `link`. */
void pemit_route(pemit_t *e, const char *src, const char *dst, const char *link);

/* <zoneRoute> between zones src and dst, from gateway gw_src to gw_dst,
 * through the one link `link`. */
void pemit_zone_route(pemit_t *e, const char *src, const char *dst, const char *gw_src,
                      const char *gw_dst, const char *link);

/* Ends the file (every element must be closed). Returns 0, or -1 when a
 * write failed. */
int pemit_end(pemit_t *e);

#endif
