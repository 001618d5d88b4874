/* voyage_opts.c: the options that say where and when the ship goes, read the
 * same way by every command that takes them: --depart and --speed (`seawx
 * seed`, `seawx storms`, `seawx voyage`), --cone-radii and --danger-errors
 * (`seawx storms`, `seawx voyage`). */
#include "cli.h"

#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/grib.h"
#include "seawx/package.h"
#include "seawx/iso8601.h"
#include "seawx/storm_danger.h"
#include "seawx/voyage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_voyage_read(cli_voyage_opts *v, const cli_args *a)
{
    const char *depart_s = cli_get(a, "depart"), *speed_s = cli_get(a, "speed");
    v->given = 0;
    v->depart = 0;
    v->min_kn = v->max_kn = 0;
    if (!!depart_s != !!speed_s) {
        cli_error("a voyage needs both --depart TIME and --speed KN (or a route with waypoint "
                  "times)");
        return EXIT_USAGE;
    }
    if (!depart_s)
        return 0;
    if (swx_iso8601_parse(&v->depart, depart_s)) {
        cli_error("--depart '%.60s' is not an ISO 8601 instant (2026-03-01T06:00:00Z)", depart_s);
        return EXIT_USAGE;
    }
    if (swx_speed_parse(&v->min_kn, &v->max_kn, speed_s)) {
        swx_error_prefix(SWX_EINVAL, "--speed");
        return cli_fail(SWX_EINVAL);
    }
    v->given = 1;
    return 0;
}

int cli_keep_storm(void *list, const swx_storm *s)
{
    if (cli_stop_soft)
        return swx_error_set(SWX_ECANCEL, "stopped");
    return swx_storm_list_add(list, s);
}

int cli_danger_read(swx_storm_danger **out, const cli_args *a)
{
    *out = NULL;
    if (!cli_has(a, "cone-radii") && !cli_has(a, "danger-errors"))
        return 0;
    int rc = swx_storm_danger_new(out);
    if (rc)
        return cli_fail(rc);
    if ((cli_has(a, "cone-radii") &&
         (rc = swx_storm_danger_set_cone(*out, cli_get(a, "cone-radii")))) ||
        (cli_has(a, "danger-errors") &&
         (rc = swx_storm_danger_set_errors(*out, cli_get(a, "danger-errors"))))) {
        swx_storm_danger_free(*out);
        *out = NULL;
        cli_error("--%s", swx_error_last());
        return EXIT_USAGE;
    }
    return 0;
}

/* --cache DIR and --no-cache of the voyage GRIB (seawx grib, seawx voyage --grib). */
int cli_grib_cache(swx_diskcache **dc, const cli_args *a)
{
    *dc = NULL;
    if (cli_has(a, "no-cache"))
        return 0;
    char dir[4096];
    const char *d = cli_get(a, "cache");
    const char *env = getenv("SEAWX_CACHE_DIR");
    if (d && *d) {
        snprintf(dir, sizeof dir, "%s", d);
    } else if (env && *env) {
        /* the plugin's folder, which keeps tiles/, legends/ and files/ */
        snprintf(dir, sizeof dir, "%s/grib", env);
    } else {
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (xdg && *xdg)
            snprintf(dir, sizeof dir, "%s/seawx/grib", xdg);
        else if (home && *home)
            snprintf(dir, sizeof dir, "%s/.cache/seawx/grib", home);
        else
            return 0; /* nowhere to keep it */
    }
    uint64_t max = (uint64_t)SWX_DISKCACHE_DEFAULT_MAX_MB << 20;
    const char *mb = getenv("SEAWX_CACHE_MAX_MB");
    if (mb && *mb && swx_diskcache_parse_mb(&max, mb)) {
        swx_error_prefix(SWX_EINVAL, "SEAWX_CACHE_MAX_MB");
        return cli_fail(SWX_EINVAL);
    }
    int rc = swx_diskcache_open(dc, dir, max);
    return rc ? cli_fail(rc) : 0;
}

int cli_grib_read(swx_package_grib *g, int *given, swx_diskcache **cache, const cli_args *a)
{
    memset(g, 0, sizeof *g);
    *cache = NULL;
    *given = cli_has(a, "grib");
    if (!*given) {
        if (cli_has(a, "grib-grid") || cli_has(a, "grib-step") || cli_has(a, "grib-cut")) {
            cli_error("--grib-grid, --grib-step and --grib-cut go with --grib");
            return EXIT_USAGE;
        }
        return 0;
    }
    g->vars = cli_get(a, "grib");
    /* a package's GRIB has one grid by default, so that its QGIS project
     * shows it (docs/grib.md) */
    g->cut = SWX_GRIB_CUT_ROUTE;
    int rc = swx_grib_vars_check(g->vars);
    if (rc) {
        swx_error_prefix(rc, "--grib");
        return cli_fail(rc);
    }
    long step;
    if (cli_get_double(&g->grid_deg, a, "grib-grid", 0.01, 10) ||
        cli_get_int(&step, a, "grib-step", 1, 240))
        return EXIT_USAGE;
    g->step_h = (int)step;
    if (cli_get(a, "grib-cut")) {
        if ((rc = swx_grib_cut_parse(&g->cut, cli_get(a, "grib-cut"))) == 0 &&
            g->cut == SWX_GRIB_CUT_BOX)
            rc = swx_error_set(SWX_EINVAL,
                               "a package's GRIB follows the voyage: use window or route");
        if (rc) {
            swx_error_prefix(rc, "--grib-cut");
            return cli_fail(rc);
        }
    }
    int ec = cli_grib_cache(cache, a);
    g->cache = *cache;
    return ec;
}
