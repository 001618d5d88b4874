/* voyage_opts.c: the options that say where and when the ship goes, read the
 * same way by every command that takes them: --depart and --speed (`seawx
 * seed`, `seawx storms`, `seawx voyage`), --cone-radii and --danger-errors
 * (`seawx storms`, `seawx voyage`). */
#include "cli.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/storm_danger.h"
#include "seawx/voyage.h"

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
