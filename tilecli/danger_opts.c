/* danger_opts.c: --cone-radii and --danger-errors, read the same way by
 * `seawx storms` and `seawx voyage`. */
#include "cli.h"

#include "seawx/error.h"
#include "seawx/storm_danger.h"

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
