/* err: one-line user errors of the form "FILE:LINE: message".
 *
 * Library code never prints or exits on bad input: it fills an err_t and
 * returns -1, and the command line prints err_t.msg and exits with code 2.
 */
#ifndef NUMASIM_ERR_H
#define NUMASIM_ERR_H

#define ERR_EXIT 2 /* exit code for every user error */

typedef struct {
    char msg[1024];
} err_t;

/* Formats "FILE:LINE: message" into e (just "FILE: message" when line <= 0,
 * and just "message" when file is NULL). Returns -1 so callers can
 * `return err_set(...)`. e may be NULL. */
int err_set(err_t *e, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Parses a whole-string number: returns 0 and stores it, -1 when s is empty,
 * has trailing junk or is out of range. Only the syntax is checked. */
int err_parse_double(const char *s, double *out);
int err_parse_long(const char *s, long *out);

/* Parses a CPU list such as "0,2-3" (the --cpus options), calling
 * add(cpu, ctx) for each CPU in the order written; add returns 0, or -1
 * (with e filled) to stop. Returns 0, or -1 with e filled: "--cpus:
 * expected a list like 0,2-3, not 'LIST'", "--cpus: bad range in 'LIST'"
 * (CPUs 0 to 65535), or add's message. */
int err_parse_cpus(const char *list, int (*add)(long cpu, void *ctx), void *ctx, err_t *e);

#endif
