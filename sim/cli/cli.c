#include "cli.h"

#include <stddef.h>

const cli_command_t cli_commands[] = {
    {"platform", cli_platform}, {"run", cli_run},     {"tune", cli_tune},   {"bench", cli_bench},
    {"probe", cli_probe},       {"merge", cli_merge}, {"slurm", cli_slurm}, {"hunt", cli_hunt},
    {"litmus", cli_litmus},     {NULL, NULL},
};
