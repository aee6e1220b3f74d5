/* numasim: command-line entry. Dispatches to the cli_* subcommands. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: numasim COMMAND [OPTIONS] ARGS\n"
            "\n"
            "Discrete-event NUMA machine simulator (version %s).\n"
            "\n"
            "commands:\n"
            "  platform FILE.xml      print CPUs, nodes and the node latency matrix\n"
            "  platform --generate    write a generated NUMA platform\n"
            "  run SCENARIO...        run scenarios (files, or names such as paper-table),\n"
            "                         write results/<name>.csv\n"
            "  run --slice I/N        run one slice of a scenario, write a part file\n"
            "  merge -o OUT.csv PART...  pool the parts into the CSV of a plain run\n"
            "  slurm SCENARIO         run a scenario as a Slurm job array, then merge\n"
            "  tune                   fit platform latencies to measurements\n"
            "  hunt SCENARIO          search a scenario's timings for race violations\n"
            "  litmus TEST.litmus...  run litmus tests (kernel C format) many times\n"
            "  bench                  measure the simulator's own speed\n"
            "  probe PLATFORM.xml     run the latency microbenchmarks, write a CSV\n"
            "\n"
            "'numasim COMMAND --help' describes a command; man numasim describes them all.\n"
            "A SCENARIO or PLATFORM given by name (no '/', no .ini/.xml) is looked up in\n"
            "the working directory (NAME.ini, scenarios/NAME.ini), then in the installed\n"
            "share/numasim/. Results go under the working directory. Errors exit with\n"
            "code 2, internal failures with 1.\n",
            NUMASIM_VERSION);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("numasim %s\n", NUMASIM_VERSION);
        return 0;
    }
    for (const cli_command_t *c = cli_commands; c->name; c++)
        if (!strcmp(cmd, c->name))
            return c->main(argc - 1, argv + 1);
    fprintf(stderr, "numasim: unknown command '%s' (see numasim --help)\n", cmd);
    return 2;
}
