/* generate: `numasim platform --generate` (fat-tree NUMA platforms). */
#include "err.h"

#include <stdio.h>

int cli_generate(int argc, char **argv);

int cli_generate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "numasim platform --generate: not built yet\n");
    return ERR_EXIT;
}
