/* voyage_routed.c: `seawx voyage --routed`: the package along the fastest
 * route (route_run.h). The route is searched as `seawx route --route FILE`
 * searches it, from --depart, under motor at --speed (a band's slow end) or
 * by --polar (motoring at --speed wherever sailing makes less); the voyage
 * becomes the route found, with its times, as `seawx route --track` writes
 * it and `seawx voyage --route` reads it. */
#include "route_run.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/readfile.h"
#include "seawx/route_out.h"
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
    ra->o.polar = vr->rr.polar;
    ra->o.motor_kn = s->min_kn;
    ra->o.motor_floor = vr->rr.polar != NULL;
    ra->o.depart = s->depart;
    route_area(ra);
    return route_open_land(&vr->rr, ra);
}

/* The active storms as no-go areas over the voyage's time. */
static int open_storms(voyage_routed *vr, const cli_args *a, const swx_storm_danger *d)
{
    swx_client *client = NULL;
    swx_storm_query q;
    int exit_code, rc;
    if ((exit_code = cli_client(&client, a)))
        return exit_code;
    swx_storm_query_init(&q);
    cli_progress(0, "storms: fetching the active storms");
    rc = swx_storm_fetch(NULL, client, &q, cli_keep_storm, &vr->rr.storms);
    cli_progress(0, NULL);
    swx_client_free(client);
    if (rc)
        return cli_stop_or_fail(rc, "nothing written");
    int64_t t0 = vr->ra.o.depart, t1 = t0 + (int64_t)vr->ra.o.max_hours * 3600;
    return route_open_nogo(&vr->rr, &vr->rr.storms, d, t0, t1, 0);
}

int voyage_routed_find(voyage_routed *vr, const cli_args *a, const swx_storm_danger *d,
                       swx_voyage **v)
{
    route_args *ra = &vr->ra;
    const char *path = NULL;
    swx_routing *route = NULL;
    int exit_code, rc;
    if ((exit_code = route_fetch_forecast(&vr->rr, ra, a, &path)))
        return exit_code;
    if ((rc =
             swx_routing_forecast_open(&vr->rr.fc, path, ra->south, ra->west, ra->north, ra->east)))
        return cli_fail(rc);
    int64_t first = swx_routing_forecast_first(vr->rr.fc);
    int64_t last = swx_routing_forecast_last(vr->rr.fc);
    if (ra->o.depart < first || ra->o.depart >= last) {
        char dt[SWX_ISO8601_LEN], f[SWX_ISO8601_LEN], l[SWX_ISO8601_LEN];
        swx_iso8601_format(dt, ra->o.depart);
        swx_iso8601_format(f, first);
        swx_iso8601_format(l, last);
        cli_error("--routed: --depart %s is outside the forecast, which runs from %s to %s", dt, f,
                  l);
        return EXIT_USAGE;
    }
    if ((exit_code = open_storms(vr, a, d)))
        return exit_code;
    route_wire(ra, &vr->rr);
    cli_progress(0, "routed: searching the fastest route");
    rc = route_solve_legs(&vr->rr, ra, &route);
    cli_progress(0, NULL);
    if (rc)
        return cli_stop_or_fail(rc, "nothing written");
    if (!swx_routing_found(route)) {
        char leg[64] = "";
        if (ra->nwp > 2)
            snprintf(leg, sizeof leg, " on the leg from waypoint %zu to %zu", vr->rr.failed_leg + 1,
                     vr->rr.failed_leg + 2);
        cli_error("--routed: no route%s: %s; nothing written", leg,
                  swx_routing_why(route)->message);
        swx_routing_free(route);
        return EXIT_NO_ROUTE;
    }
    swx_routing_summary s;
    char t[SWX_ISO8601_LEN];
    swx_routing_summarize(&s, route);
    swx_iso8601_format(t, route_arrival(route));
    cli_info("routed: %.1f nm in %.1f h, arriving %s: the package follows this route",
             s.distance_nm, s.hours, t);
    exit_code = route_as_voyage(v, route, &ra->o, "seawx voyage --routed");
    swx_routing_free(route);
    return exit_code;
}

void voyage_routed_free(voyage_routed *vr)
{
    route_run_free(&vr->rr);
}
