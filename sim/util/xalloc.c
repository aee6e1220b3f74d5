/* xalloc: allocation that aborts on failure (see xalloc.h). The one place
 * in numasim that handles running out of memory. */
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t bytes)
{
    fprintf(stderr, "numasim: out of memory (%zu bytes)\n", bytes);
    abort();
}

void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        out_of_memory(bytes);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t bytes)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        out_of_memory(bytes);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

void *xcheck(void *p)
{
    if (!p)
        out_of_memory(0);
    return p;
}
