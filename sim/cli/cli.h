/* cli: the subcommands of the numasim program. Each takes argc/argv starting
 * at its own name and returns the exit code (0, 1 for a failed check, 2 for
 * a user error). */
#ifndef NUMASIM_CLI_H
#define NUMASIM_CLI_H

#include "err.h"

#include <stddef.h>

typedef struct {
    const char *name;
    int (*main)(int argc, char **argv);
} cli_command_t;

extern const cli_command_t cli_commands[]; /* ends with {NULL, NULL} */

int cli_platform(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_tune(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_probe(int argc, char **argv);
/* `numasim tune --probe-target`: the parsed options of cli_tune. */
int cli_tune_probe(const char *target, const char *params, const char *out, long max_evals,
                   const char *const *sets, int nsets, const char *platform);
/* `numasim platform --generate` and `--from-host`: argv starts at "platform". */
int cli_generate(int argc, char **argv);
int cli_from_host(int argc, char **argv);
int cli_merge(int argc, char **argv);
int cli_slurm(int argc, char **argv);
int cli_hunt(int argc, char **argv);
int cli_litmus(int argc, char **argv);

/* Errors in cli/: a function returns 0, or -1 with err_t filled (a user
 * error, exit code 2), or 1 for an internal failure (already printed: not
 * the user's to fix, exit code 1). An err_t whose message is empty has been
 * printed already (by a child, or the usage after a bad option). */

/* Empties e's message (it has been printed) and returns -1. */
int cli_err_printed(err_t *e);

/* The exit code of a command's result rc (as above): prints e's message
 * for rc < 0 and returns ERR_EXIT, else returns rc. */
int cli_exit_code(int rc, const err_t *e);

/* A scenario ("scenario": NAME.ini) or platform ("platform": NAME.xml) given
 * on the command line, as a path or by name: returns the path to open (a
 * copy of arg unless arg is a bare name; the caller frees it), or NULL with
 * e set when a name is found nowhere (cli_find.c lists where it looks). */
char *cli_find(const char *arg, const char *kind, err_t *e);
/* PREFIX/share/numasim for the running executable PREFIX/bin/numasim.
 * Returns 0, or -1 when the executable's path is unknown. */
int cli_share_dir(char *buf, size_t n);

#endif
