/* fuzz_common: what both libFuzzer harnesses share.
 *
 * The parsers take paths, so each input is written to a file in a temporary
 * directory made once per process (removed at exit). Inputs may carry extra
 * strings after the file's bytes: the file ends at the first NUL byte, and
 * every NUL-separated string after it is an override (--set), so that the
 * override paths are fuzzed too.
 */
#ifndef NUMASIM_FUZZ_COMMON_H
#define NUMASIM_FUZZ_COMMON_H

#include "err.h"

#include <stddef.h>
#include <stdint.h>

#define FUZZ_MAX_SETS 8

/* The per-process temporary directory, with a trailing '/'. */
const char *fuzz_dir(void);

/* Writes data[0, n) to a file in fuzz_dir() whose name ends with suffix (made
 * with mkstemps on the first call, rewritten on later ones); returns its
 * path. Aborts on an I/O error. */
const char *fuzz_write(const char *suffix, const uint8_t *data, size_t n);

/* Splits the input: *file_len gets the length of the file part; up to
 * FUZZ_MAX_SETS NUL-separated strings after it are copied into sets[]
 * (malloc'd, the caller frees them with fuzz_free_sets). Returns their
 * number. */
int fuzz_split(const uint8_t *data, size_t n, size_t *file_len, char **sets);
void fuzz_free_sets(char **sets, int n);

/* Aborts (so that libFuzzer reports the input) unless the error message is
 * non-empty and one line. */
void fuzz_check_error(const err_t *e, const char *what);

/* A valid platform file (smp4.xml's props, 4 CPUs in 2 nodes, a link of class
 * "exit"), written by the
 * scenario harness as p.xml so that "platforms = p.xml" can load. */
extern const char fuzz_valid_platform[];

#endif
