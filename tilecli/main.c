/* main.c: `seawx`, a table of subcommands. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#ifndef SEAWX_VERSION
#define SEAWX_VERSION "0.1.0"
#endif

extern const cli_opt cmd_layers_opts[];
extern const cli_opt cmd_seed_opts[];

static const cli_cmd commands[] = {
    {"layers", cmd_layers, "list the WMS layers of one bundle or all, with runs and valid times",
     "seawx layers [--bundle NAME]... [options]",
     "Lists the map layers the service offers, grouped by variable, with each run, its\n"
     "number of valid times and their range. The newest complete run of each variable\n"
     "is marked 'latest'; a run still being produced is marked 'in production'. With\n"
     "--json, prints every leaf layer as a JSON array of objects.",
     cmd_layers_opts},
    {"seed", cmd_seed, "pre-seed a layer's map tiles into MBTiles files for offline use",
     "seawx seed --bundle NAME (--layer NAME | --variable VAR) (--bbox W,S,E,N | --area FILE |\n"
     "       --route FILE [--buffer NM]) --zoom LEVELS [options]",
     "Fetches the Web Mercator tiles of one layer over an area, a route or a bbox at the\n"
     "given zoom levels, and writes one MBTiles file per valid time. Exactly the tiles the\n"
     "area touches are stored; identical tiles are stored once. Interrupted (Ctrl-C, kill,\n"
     "power loss), the file stays valid: run the same command again to fetch only what is\n"
     "missing. Progress goes to stderr; --dry-run prints the tiles per zoom and fetches no map.",
     cmd_seed_opts},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: seawx <command> [options]\n\n"
            "Tools for the Weather, Ocean and Vessel Data Service.\n\nCommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nConfiguration: SEAWX_BASE_URL (service address), SEAWX_API_KEY or\n"
               "SEAWX_API_KEY_FILE (the key), SEAWX_WMS_AUTH and SEAWX_WMS_PASSWORD (WMS\n"
               "authentication), SEAWX_VESSELS_URL (Vessels API address).\n"
               "'seawx <command> --help' lists a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("seawx %s\n", SEAWX_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return commands[i].run(&commands[i], argc - 1, argv + 1);
    cli_error("unknown command '%s' (see 'seawx --help')", name);
    return EXIT_USAGE;
}
