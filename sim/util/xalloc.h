/* xalloc: memory allocation that cannot fail.
 *
 * numasim has no way to carry on without memory: a failed allocation is an
 * internal failure, not a user error. These wrappers print one line naming
 * the size and abort, so that no caller writes its own check. A size of 0
 * allocates 1 byte (a valid, freeable pointer, never NULL).
 */
#ifndef NUMASIM_XALLOC_H
#define NUMASIM_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t bytes);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t bytes);
char *xstrdup(const char *s);

/* Aborts with "numasim: out of memory" unless p is not NULL; returns p.
 * For allocators other than the four above (asprintf, open_memstream). */
void *xcheck(void *p);

#endif
