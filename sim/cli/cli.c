#include "cli.h"

#include <stddef.h>
#include <stdio.h>

const cli_command_t cli_commands[] = {
    {"platform", cli_platform}, {"run", cli_run},     {"tune", cli_tune},   {"bench", cli_bench},
    {"probe", cli_probe},       {"merge", cli_merge}, {"slurm", cli_slurm}, {"hunt", cli_hunt},
    {"litmus", cli_litmus},     {NULL, NULL},
};

int cli_err_printed(err_t *e)
{
    e->msg[0] = '\0';
    return -1;
}

int cli_exit_code(int rc, const err_t *e)
{
    if (rc >= 0)
        return rc;
    if (e->msg[0])
        fprintf(stderr, "%s\n", e->msg);
    return ERR_EXIT;
}
