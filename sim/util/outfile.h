/* outfile: files written atomically.
 *
 * A file goes to "PATH.tmp.PID", is flushed and synced, then renamed over
 * PATH, so that a reader never sees a partial file under the final name (a
 * kill or a full disk leaves at most the .tmp file, which is removed on the
 * error paths and, through outfile_cleanup(), on SIGINT/SIGTERM).
 */
#ifndef NUMASIM_OUTFILE_H
#define NUMASIM_OUTFILE_H

#include "err.h"

#include <stdio.h>

/* Atomic file writing: outfile_open() returns a stream on a temporary file
 * beside path; outfile_commit() closes, syncs and renames it (0, or -1 with
 * e); outfile_abort() closes and removes it. */
FILE *outfile_open(const char *path, err_t *e);
int outfile_commit(FILE *f, const char *path, err_t *e);
void outfile_abort(FILE *f, const char *path);

/* Writes f's buffer and syncs it now, while the caller has time to spare
 * (a file complete before the results it goes with): outfile_commit then
 * skips the sync, unless f was written since. Returns 0, or -1 with e
 * (path named); f stays open, for outfile_commit or outfile_abort. */
int outfile_sync(FILE *f, const char *path, err_t *e);

/* Removes any temporary file still open (for signal handlers). */
void outfile_cleanup(void);

/* Creates the directory part of path if missing (one level). Returns 0 or -1
 * with e. */
int outfile_ensure_dir(const char *path, err_t *e);

#endif
