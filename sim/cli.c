#include "cli.h"

#include <stddef.h>

const cli_command_t cli_commands[] = {
    {"platform", cli_platform}, {"run", cli_run},   {"tune", cli_tune},
    {"bench", cli_bench},       {"hunt", cli_hunt}, {NULL, NULL},
};
