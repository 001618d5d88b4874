/* main.c: `seawx`, a table of subcommands. */
#include "cli.h"
#include "seawx/setting.h"

#include <malloc.h>
#include <stdio.h>
#include <string.h>

#ifndef SEAWX_VERSION
#define SEAWX_VERSION "0.1.0"
#endif

extern const cli_opt cmd_layers_opts[];
extern const cli_opt cmd_legend_opts[];
extern const cli_opt cmd_qlr_opts[];
extern const cli_opt cmd_seed_opts[];
extern const cli_opt cmd_voyage_opts[];
extern const cli_opt cmd_fleet_opts[];
extern const cli_opt cmd_merge_opts[];
extern const cli_opt cmd_storms_opts[];
extern const cli_opt cmd_soil_opts[];
extern const cli_opt cmd_weather_opts[];
extern const cli_opt cmd_tides_opts[];
extern const cli_opt cmd_forecast_opts[];
extern const cli_opt cmd_grib_opts[];
extern const cli_opt cmd_plan_opts[];
extern const cli_opt cmd_route_opts[];
extern const cli_opt cmd_vessels_opts[];
extern const cli_opt cmd_tilejson_opts[];

static const cli_cmd commands[] = {
    {"layers", cmd_layers, "list the WMS layers of one bundle or all, with runs and valid times",
     "seawx layers [--bundle NAME]... [options]",
     "Lists the map layers the service offers, grouped by variable, with each run, its\n"
     "number of valid times and their range. The newest complete run of each variable\n"
     "is marked 'latest'; a run still being produced is marked 'in production'. With\n"
     "--json, prints every leaf layer as a JSON array of objects.",
     cmd_layers_opts},
    {"legend", cmd_legend, "the value legend of a map layer as a PNG (for QGIS, layouts, pages)",
     "seawx legend --bundle NAME (--layer NAME | --variable VAR [--run RUN]) [--style NAME]\n"
     "       [--width PX] [--height PX] -o FILE.png",
     "Fetches the legend graphic of one layer's style from the service (GetLegendGraphic,\n"
     "with your key) and writes it as a PNG: the colour ramp the layer's map images use,\n"
     "low values on the left. The file is written whole or not at all. In QGIS, set it as\n"
     "the layer's legend image (Layer Properties > Legend > Legend placeholder image).",
     cmd_legend_opts},
    {"qlr", cmd_qlr,
     "a QGIS layer definition of a run: one layer per valid time, for the time slider",
     "seawx qlr --bundle NAME (--variable VAR [--run RUN] | --layer NAME) [--style NAME]\n"
     "       [--crs CRS] [--legend FILE | --no-legend] -o FILE.qlr",
     "Writes a QGIS layer definition (.qlr) holding one group, named after the variable and\n"
     "the run, of one SEAWX layer per valid time of the run (the GDAL plugin's connection\n"
     "string of that time, without the key), each with a fixed temporal range from its time\n"
     "to the next: QGIS's Temporal Controller steps and plays through the forecast, and each\n"
     "frame fetches only the blocks of the layer it shows. Every layer shows the style's value\n"
     "legend, a PNG written beside the .qlr (NAME.legend.png). Open it with Layer > Add from\n"
     "Layer Definition File, or drag it onto the map; the group comes in unticked: turn on\n"
     "animated temporal navigation, then tick it (docs/gdal-qgis.md). Both files are written\n"
     "whole or not at all.",
     cmd_qlr_opts},
    {"seed", cmd_seed, "pre-seed a layer's map tiles into MBTiles files for offline use",
     "seawx seed --bundle NAME (--layer NAME | --variable VAR) (--bbox W,S,E,N | --area FILE |\n"
     "       --route FILE [--buffer NM] [--depart TIME --speed KN|MIN-MAX]) --zoom LEVELS\n"
     "       [options]",
     "Fetches the Web Mercator tiles of one layer over an area, a route or a bbox at the\n"
     "given zoom levels, and writes one MBTiles file per valid time. Exactly the tiles the\n"
     "area touches are stored; identical tiles are stored once. Interrupted (Ctrl-C, kill,\n"
     "power loss), the file stays valid: run the same command again to fetch only what is\n"
     "missing. Progress goes to stderr; --dry-run prints the tiles per zoom and the size\n"
     "measured on a few sample tiles, and writes no file.",
     cmd_seed_opts},
    {"voyage", cmd_voyage, "a voyage package: several layers along a voyage, for QGIS and offline",
     "seawx voyage --bundle NAME --route FILE [--depart TIME --speed KN|MIN-MAX]\n"
     "       --layer VAR[:style=S][:zoom=Z][:format=F]... --output PATH [--budget SIZE] [options]",
     "Builds a voyage package into PATH: for each layer and valid time the tiles of the stretch\n"
     "of route the ship can be on then (one MBTiles each), the route as GeoJSON, manifest.json\n"
     "and project.qgs, whose layers QGIS's Temporal Controller steps through. Earliest valid\n"
     "times and low zooms are fetched first; --budget stops before the package would exceed\n"
     "it. Run it again after a newer run: past times are left out, unchanged files are kept,\n"
     "and PATH (a link to a version folder) is replaced whole. --dry-run quotes the size.",
     cmd_voyage_opts},
    {"fleet", cmd_fleet, "the voyage packages of a fleet, every distinct map fetched once",
     "seawx fleet FLEET.json --output DIR [--shard K/N] [--dry-run] [options]",
     "Builds each ship's voyage package of a fleet file (ships, their routes, departures and\n"
     "speeds, layers; docs/voyages.md) into DIR/NAME, exactly what seawx voyage builds for\n"
     "that ship alone, while asking the service once for each distinct GetMap: ships on the\n"
     "same lanes share the answers (DIR/.fleet-share, removed once every package is complete).\n"
     "Ships are built earliest departure first. --dry-run counts GetMaps per ship and shared.",
     cmd_fleet_opts},
    {"grib", cmd_grib,
     "a voyage GRIB: the forecast data along a route, as small as a satellite link wants",
     "seawx grib --route FILE [--depart TIME --speed KN|MIN-MAX] [--buffer NM] --output FILE\n"
     "       seawx grib --bbox W,S,E,N [--hours LIST] --output FILE   [options]",
     "Cuts the service's forecast GRIB2 files to what a voyage needs, for routing software\n"
     "(OpenCPN's GRIB and weather-routing plugins, XyGrib, qtVlm): the run's forecast hours\n"
     "every --step hours while the ship can be at sea, per time only the grid points near\n"
     "where it can be then (others missing), the asked variables at --grid degrees, one\n"
     "field per message, packed to a sailor's precision. Only the messages needed are\n"
     "fetched, with Range requests, and kept in a cache. --bbox cuts a fixed box instead.\n"
     "--dry-run says what a build fetches and about how big the file is (docs/grib.md).",
     cmd_grib_opts},
    {"plan", cmd_plan, "a departure plan: which day to leave, each departure with its verdict",
     "seawx plan --route FILE --departures FROM/TO/STEP (--speed KN|MIN-MAX | --polar FILE)\n"
     "       [--max-wind SPEED] [--max-gust SPEED] [--max-wave HEIGHT] [--max-upwind HOURS]\n"
     "       [--best] [--json FILE|-] [--csv FILE|-] [--table]",
     "Sails one route from every departure of FROM/TO/STEP through the point forecast along\n"
     "it (asked once per sample point, every --spacing nm, whatever the number of departures)\n"
     "and the active storms: per departure the arrival, the strongest wind, gust and waves\n"
     "met, the hours above each threshold and upwind, the nearest storm, and a verdict (go,\n"
     "marginal, no-go) with its reason (docs/plan.md). A terminal table by default; --json\n"
     "and --csv write every figure instead (--table: the table too). Exit 5 when every\n"
     "departure is after the forecast's end.",
     cmd_plan_opts},
    {"route", cmd_route, "which way: the fastest route through the forecast, never over land",
     "seawx route --from LAT,LON --to LAT,LON (--polar FILE [--speed KN] | --speed KN)\n"
     "       [--depart TIME] [--grib FILE] [--max-wind SPEED] [--max-gust SPEED] [--max-wave H]\n"
     "       [--land-margin NM] [--gpx FILE] [--geojson FILE] [--isochrones FILE] [--json FILE|-]",
     "Searches the fastest route from --from to --to through the forecast (isochrones on the\n"
     "sphere, wind and current interpolated in space and time): by the polar, tacking and\n"
     "gybing where it must, or motoring; never over land (GSHHG full resolution, with\n"
     "--land-margin) nor past the limits. The forecast is the service's, fetched as seawx grib\n"
     "fetches it (only the messages, cached), or a GRIB file (--grib). A table by default;\n"
     "GPX for OpenCPN, GeoJSON of the route and its isochrones for QGIS (docs/route.md).\n"
     "Exit 14 with the reason (land, a limit, the forecast's end, and where) when no route.",
     cmd_route_opts},
    {"merge", cmd_merge, "merge the shards of a seed (seed --shard K/N) into one MBTiles file",
     "seawx merge --output FILE [--shards N] [--json] (SHARD_FILE... | NAME_WITH_{shard})",
     "Checks that shards 1 to N of one seed are all there, of the same request and complete,\n"
     "then writes the file an unsharded seed would have written (each distinct image once),\n"
     "atomically. Otherwise it writes nothing, lists the shards to run again on stdout (one\n"
     "number a line, or JSON with --json) and exits with 9. Files named that do not exist\n"
     "count as missing; NAME_WITH_{shard} stands for the N names with K-of-N in place.",
     cmd_merge_opts},
    {"tilejson", cmd_tilejson, "the TileJSON a web map needs to show a seeded MBTiles file",
     "seawx tilejson FILE.mbtiles --url TEMPLATE [-o FILE]",
     "Prints the TileJSON 3.0.0 of a file seawx seed wrote, for MapLibre GL JS and other\n"
     "web maps: its name, bounds, zooms, format and tileSize (MapLibre assumes 512-pixel\n"
     "tiles without it), with --url the address where a tile server serves its tiles.",
     cmd_tilejson_opts},
    {"storms", cmd_storms, "tropical cyclones as GeoJSON: tracks, forecasts and wind radii",
     "seawx storms [--status S] [--region CODE] [--period START/END] [filters] [-o PATH]",
     "Fetches storms from /storm/json, page after page, and writes them as RFC 7946 GeoJSON:\n"
     "the observed track of each storm, its track points, forecast points, forecast line and\n"
     "wind radii polygons (34/50/64 kt quadrants), antimeridian-safe and styled by category.\n"
     "-o FILE.geojson writes one FeatureCollection, -o DIR/ one file per kind; --kmz FILE\n"
     "downloads the service's KMZ of the same selection; --input converts a saved answer.",
     cmd_storms_opts},
    {"soil", cmd_soil, "soil moisture: point values, history, regional files, region jobs",
     "seawx soil point --lat DEG --lon DEG [--time TIME]\n"
     "       seawx soil history --lat DEG --lon DEG --start TIME --end TIME\n"
     "       seawx soil files | download FILE\n"
     "       seawx soil job start --region ID --start TIME --end TIME [--no-wait]\n"
     "       seawx soil job watch|status|download UUID",
     "Soil moisture (0-10, 10-40, 40-100 cm, m3/m3) and surface soil temperature (K) at a\n"
     "point now or at a time, or over a period; the regional NetCDF files; and historical\n"
     "region jobs: start one, watch its status with capped backoff and download the result\n"
     "when complete. An interrupted watch resumes with 'seawx soil job watch UUID'.\n"
     "Downloads are written whole or not at all and resume where they stopped.",
     cmd_soil_opts},
    {"weather", cmd_weather, "current weather at a point (with X-Fields masks) and its files",
     "seawx weather point --lat DEG --lon DEG [--time TIME|START/END] [--units si|us]\n"
     "       [--tz ZONE] [--fields MASK]\n"
     "       seawx weather files [--time TIME|START/END] [--regions LIST] | download FILE",
     "Current conditions at a point (air temperature, relative humidity, wind speed and\n"
     "direction), reduced to the fields of an X-Fields mask with --fields; and the\n"
     "current-weather GRIB2 files.",
     cmd_weather_opts},
    {"tides", cmd_tides, "hourly tide heights and daily high and low tides at a point",
     "seawx tides hourly --lat DEG --lon DEG [--start TIME] [--hours N] [--units si|us]\n"
     "       seawx tides extrema --lat DEG --lon DEG --start TIME --end TIME [--units si|us]",
     "Tide heights above mean sea level, hourly for up to 240 hours, or each day's highest\n"
     "and lowest tide. The archive covers 1990-01-01 to 2025-12-31.",
     cmd_tides_opts},
    {"forecast", cmd_forecast, "point forecasts by bundle, latest forecasts and forecast files",
     "seawx forecast point|latest --lat DEG --lon DEG --bundles LIST [--units si|us]\n"
     "       seawx forecast files [--bundles LIST] [--regions LIST] | download FILE",
     "Forecast values at a point for the variables of the named bundles (basic, maritime,\n"
     "agricultural, aviation, solar, wind), from a given run or the latest; and the\n"
     "forecast GRIB2 files.",
     cmd_forecast_opts},
    {"vessels", cmd_vessels, "vessels with their enhanced data, all pages, as typed columns",
     "seawx vessels [--categories LIST] [--limit N] [--pages N] [--filter NAME=VALUE]...",
     "Vessel records of the Vessels API (SEAWX_VESSELS_URL) with their enhanced data,\n"
     "paged until the last page, each category's fields flattened into typed columns\n"
     "(capacity_dwt, history_built_year, ...). Fields outside your tier are null.",
     cmd_vessels_opts},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "Usage: seawx <command> [options]\n\n"
               "Tools for the Weather, Ocean and Vessel Data Service.\n\nCommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nConfiguration: SEAWX_BASE_URL (service address), SEAWX_API_KEY or\n"
               "SEAWX_API_KEY_FILE (the key), SEAWX_WMS_AUTH and SEAWX_WMS_PASSWORD (WMS\n"
               "authentication), SEAWX_VESSELS_URL (Vessels API address).\n"
               "'seawx <command> --help' lists a command's options.\n");
}

/* What the library's messages call the settings they point to: this
 * program's options (seawx/setting.h). */
static const char *const setting_words[SWX_SET_COUNT] = {
    [SWX_SET_CA_BUNDLE] = "SEAWX_CA_BUNDLE, --ca-bundle",
    [SWX_SET_INSECURE] = "--insecure",
    [SWX_SET_TABLE_FORMAT] = "--format",
    [SWX_SET_VESSEL_FILTERS] = "--categories, --limit",
    [SWX_SET_GRIB_PLAIN] = "--compress none",
    [SWX_SET_NOW] = "--now",
    [SWX_SET_RUN] = "--run",
    [SWX_SET_GRIB_BBOX] = "seawx grib --bbox",
    [SWX_SET_GRIB_WIND] = "seawx grib --vars wind,...",
    [SWX_SET_METATILE] = "--metatile",
    [SWX_SET_SKIP_EMPTY] = "--skip-empty",
    [SWX_SET_SEED_SHARD] = "'seawx seed --shard K/N'",
    [SWX_SET_SHARDS] = "--shards N",
};

int main(int argc, char **argv)
{
    swx_setting_names(setting_words);
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
    /* The manual pages and the bash completion, from the same tables (the
     * build installs them; docgen.c). */
    if (strcmp(name, "--man-dir") == 0 && argc == 3)
        return cli_man_dir(argv[2], commands, NCOMMANDS);
    if (strcmp(name, "--completion") == 0 && argc == 3 && strcmp(argv[2], "bash") == 0)
        return cli_completion_bash(stdout, commands, NCOMMANDS);
#ifdef M_MMAP_THRESHOLD
    /* Forecast fields are decoded one after the other into buffers of
     * megabytes (a global 0.25-degree field is 8 MB of doubles, and ecCodes
     * adds its own). glibc's defaults map and unmap each anew: the page
     * faults and zeroing cost three times the decoding (a 10-day voyage
     * GRIB cut as its messages come: 18 s against 3.4 s). Kept in the heap
     * (up to 32 MB a block, glibc's largest), and the heap not trimmed
     * below 256 MB. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return commands[i].run(&commands[i], argc - 1, argv + 1);
    cli_error("unknown command '%s' (see 'seawx --help')", name);
    return EXIT_USAGE;
}
