/* platform_dtd: the check of a platform file against the part of
 * SimGrid's DTD that numasim uses (platform_dtd.c). */
#ifndef NUMASIM_PLATFORM_DTD_H
#define NUMASIM_PLATFORM_DTD_H

#include "err.h"

#include <libxml/tree.h>

/* Accepts only the subset of SimGrid 3.32's platform DTD that numasim uses,
 * checked as SimGrid's parser does, so that a file that passes loads in
 * SimGrid without an abort. doctype: the file declared SimGrid's DOCTYPE.
 * Returns 0, or -1 with e ("PATH:LINE: message"). */
int platform_check_simgrid(const xmlDoc *doc, int doctype, const char *path, err_t *e);

#endif
