/* voyage_routed.c: `seawx voyage --routed`: the package along the fastest
 * route (route_run.h). The route is searched as `seawx route --route FILE`
 * searches it, from --depart, under motor at --speed (a band's slow end) or
 * by --polar (motoring at --speed wherever sailing makes less); the voyage
 * becomes the route found, with its times, as `seawx route --track` writes
 * it and `seawx voyage --route` reads it. */
#include "route_run.h"

#include "seawx/error.h"
#include "seawx/readfile.h"
#include "seawx/voyage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUTED_MAX_POLAR (16u << 20)

int voyage_routed_open(voyage_routed *vr, const cli_args *a, const swx_voyage *v, const char *file,
                       const swx_voyage_sailing *s)
{
    route_args *ra = &vr->ra;
    double margin = 0;
    int exit_code, rc;
    vr->polar_file = cli_get(a, "polar");
    if (swx_voyage_timed(v)) {
        cli_error("--routed: the route gives waypoint times; the route found gives its own");
        return EXIT_USAGE;
    }
    if (cli_get_double(&margin, a, "land-margin", 0, 50))
        return EXIT_USAGE;
    if ((exit_code = route_waypoints_from(ra, v, file)))
        return exit_code;
    route_search_defaults(ra, margin);
    if (vr->polar_file) {
        char *text;
        size_t len;
        if ((rc = swx_read_file(&text, &len, vr->polar_file, ROUTED_MAX_POLAR)))
            return cli_fail(rc);
        rc = swx_polar_parse(&vr->rr.polar, text, len);
        free(text);
        if (rc) {
            cli_error("--polar %s: %s", vr->polar_file, swx_error_last());
            return EXIT_USAGE;
        }
    }
    route_boat(ra, vr->rr.polar, s->min_kn);
    ra->o.depart = s->depart;
    route_area(ra);
    return route_open_land(&vr->rr, ra);
}

int voyage_routed_find(voyage_routed *vr, const cli_args *a, const swx_storm_danger *d,
                       swx_voyage **v)
{
    route_args *ra = &vr->ra;
    const char *path = NULL;
    int exit_code;
    int64_t t0 = ra->o.depart, t1 = t0 + (int64_t)ra->o.max_hours * 3600;
    if ((exit_code = route_fetch_forecast(&vr->rr, ra, a, &path)) ||
        (exit_code = route_fetch_active_storms(&vr->rr.storms, a)) ||
        (exit_code = route_open_nogo(&vr->rr, &vr->rr.storms, d, t0, t1, 0)))
        return exit_code;
    return route_search_voyage(&vr->rr, ra, vr->rr.nogo, path, "--routed", v);
}

void voyage_routed_free(voyage_routed *vr)
{
    route_run_free(&vr->rr);
}
