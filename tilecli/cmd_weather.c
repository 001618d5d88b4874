/* cmd_weather.c: `seawx weather`, current weather at a point and its files. */
#include "cli.h"
#include "dataout.h"

#include <string.h>

const cli_opt cmd_weather_opts[] = {
    {"lat", 0, "DEG", "latitude, -90 to 90 (point)", 0, NULL},
    {"lon", 0, "DEG", "longitude, -180 to 180 (point)", 0, NULL},
    {"time", 't', "TIME", "an ISO 8601 time or a range START/END (point, files)", 0, NULL},
    {"units", 'u', "SYSTEM", "si (default) or us (point)", 0, NULL},
    {"tz", 0, "ZONE", "time zone identifier, e.g. Europe/Oslo (point)", 0, NULL},
    {"fields", 0, "MASK",
     "X-Fields mask reducing the answer, e.g. {data{values{air_temperature,wind_speed}}} "
     "(point)",
     0, NULL},
    {"regions", 0, "LIST", "comma list of regions (files)", 0, NULL},
    {"dir", 0, "DIR", "folder for a download (default: the current one)", 0, NULL},
    DATA_OUTPUT_OPTS,
    {0},
};

int cmd_weather(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    const char *action;
    int ac = data_start(&a, &action, cmd, argc, argv, SWX_FILES_WEATHER);
    if (ac >= 0)
        return ac;
    if (strcmp(action, "point") == 0) {
        if (data_only_for(&a, "regions", "weather files"))
            return EXIT_USAGE;
        return data_point_run(&a, SWX_POINT_WEATHER);
    }
    if (strcmp(action, "files") == 0) {
        const char *point_only[] = {"lat", "lon", "units", "tz", "fields"};
        for (size_t i = 0; i < sizeof point_only / sizeof point_only[0]; i++)
            if (data_only_for(&a, point_only[i], "weather point"))
                return EXIT_USAGE;
        return data_files_run(&a, SWX_FILES_WEATHER);
    }
    cli_error("unknown weather action '%s': use point, files or download", action);
    return EXIT_USAGE;
}
