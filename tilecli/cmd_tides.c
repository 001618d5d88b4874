/* cmd_tides.c: `seawx tides`, hourly tide heights and daily extrema at a point. */
#include "cli.h"
#include "dataout.h"

#include <string.h>

const cli_opt cmd_tides_opts[] = {
    {"lat", 0, "DEG", "latitude, -90 to 90 (required)", 0, NULL},
    {"lon", 0, "DEG", "longitude, -180 to 180 (required)", 0, NULL},
    {"start", 0, "TIME",
     "first hour (hourly; default now) or first day (extrema, required), ISO 8601, within "
     "1990-01-01..2025-12-31",
     0, NULL},
    {"end", 0, "TIME", "last day (extrema, required), ISO 8601", 0, NULL},
    {"hours", 0, "N", "hours of heights from the start, 1 to 240 (hourly; default 240)", 0, NULL},
    {"units", 'u', "SYSTEM", "si (meters, default) or us (feet)", 0, NULL},
    DATA_OUTPUT_OPTS,
    {0},
};

int cmd_tides(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    const char *action = a.npositional ? a.positional[0] : NULL;
    if (data_no_more_args(&a, 1))
        return EXIT_USAGE;
    if (!action || strcmp(action, "hourly") == 0 || strcmp(action, "heights") == 0)
        return data_point_run(&a, SWX_POINT_TIDES);
    if (strcmp(action, "extrema") == 0)
        return data_point_run(&a, SWX_POINT_TIDE_EXTREMA);
    cli_error("unknown tides action '%s': use hourly or extrema", action);
    return EXIT_USAGE;
}
