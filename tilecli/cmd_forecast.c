/* cmd_forecast.c: `seawx forecast`, point forecasts and forecast files. */
#include "cli.h"
#include "dataout.h"

#include <string.h>

const cli_opt cmd_forecast_opts[] = {
    {"lat", 0, "DEG", "latitude, -90 to 90 (point, latest)", 0, NULL},
    {"lon", 0, "DEG", "longitude, -180 to 180 (point, latest)", 0, NULL},
    {"bundles", 'b', "LIST",
     "comma list of basic, maritime, agricultural, aviation, solar, wind (required for "
     "point and latest)",
     0, NULL},
    {"units", 'u', "SYSTEM", "si (default) or us (point)", 0, NULL},
    {"regions", 0, "LIST", "comma list of regions, e.g. global (files)", 0, NULL},
    {"dir", 0, "DIR", "folder for a download (default: the current one)", 0, NULL},
    DATA_OUTPUT_OPTS,
    {0},
};

int cmd_forecast(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    const char *action;
    int ac = data_start(&a, &action, cmd, argc, argv, SWX_FILES_FORECAST);
    if (ac >= 0)
        return ac;
    if (strcmp(action, "point") == 0 || strcmp(action, "latest") == 0) {
        if (data_only_for(&a, "regions", "forecast files"))
            return EXIT_USAGE;
        return data_point_run(&a,
                              action[0] == 'l' ? SWX_POINT_FORECAST_LATEST : SWX_POINT_FORECAST);
    }
    if (strcmp(action, "files") == 0) {
        if (cli_get(&a, "lat") || cli_get(&a, "lon") || cli_get(&a, "units")) {
            cli_error("--lat, --lon and --units apply to 'seawx forecast point' only");
            return EXIT_USAGE;
        }
        return data_files_run(&a, SWX_FILES_FORECAST);
    }
    cli_error("unknown forecast action '%s': use point, latest, files or download", action);
    return EXIT_USAGE;
}
