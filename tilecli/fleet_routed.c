/* fleet_routed.c: `seawx fleet` with routed ships ("routed": true): each
 * such ship's package follows the fastest route from its route's first
 * waypoint to its last, searched as `seawx route` searches it, before the
 * fleet is planned. The forecast is fetched once for the fleet (one box
 * over every routed ship's area, each message once), the active storms
 * once; each ship's search reads its own area of that file. */
#include "route_run.h"

#include "seawx/error.h"
#include "seawx/fleet.h"
#include "seawx/iso8601.h"
#include "seawx/voyage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fleet's "run" (YYYYMMDDHH or ISO 8601) as a time; 0 for none. */
static int fleet_run(int64_t *out, const swx_fleet *f)
{
    const char *s = swx_fleet_run(f);
    char iso[32];
    *out = 0;
    if (!s)
        return 0;
    if (strlen(s) == 10 && strspn(s, "0123456789") == 10) {
        snprintf(iso, sizeof iso, "%.4s-%.2s-%.2sT%.2s:00:00Z", s, s + 4, s + 6, s + 8);
        s = iso;
    }
    if (swx_iso8601_parse(out, s)) {
        cli_error("the fleet's run '%.40s': YYYYMMDDHH or ISO 8601", swx_fleet_run(f));
        return EXIT_USAGE;
    }
    return 0;
}

/* Ship i's search settings and land, every waypoint at sea. */
static int ship_open(route_args *ra, route_run *rr, const swx_fleet_ship *s)
{
    double min_kn, max_kn, arrival;
    int64_t depart;
    int exit_code;
    if ((exit_code = route_waypoints_from(ra, s->voyage, s->name)))
        return exit_code;
    route_search_defaults(ra, 1.0);
    swx_voyage_speed(&min_kn, &max_kn, s->voyage);
    swx_voyage_span(&depart, &arrival, s->voyage);
    ra->who = s->name;
    route_boat(ra, s->polar, min_kn);
    ra->o.depart = depart;
    route_area(ra);
    return route_open_land(rr, ra);
}

/* The box over every routed ship's area into all: across 180 (one ship's
 * area across it, or the union wider than half the world), every longitude. */
static void union_area(route_args *all, const route_args *ra, const swx_fleet *f)
{
    int first = 1, wide = 0;
    for (size_t i = 0; i < swx_fleet_ship_count(f); i++) {
        if (!swx_fleet_ship_at(f, i)->routed)
            continue;
        const route_args *p = &ra[i];
        wide |= p->west > p->east;
        all->south = first ? p->south : fmin(all->south, p->south);
        all->north = first ? p->north : fmax(all->north, p->north);
        all->west = first ? p->west : fmin(all->west, p->west);
        all->east = first ? p->east : fmax(all->east, p->east);
        first = 0;
    }
    if (wide || all->east - all->west > 180) {
        all->west = -180;
        all->east = 180;
    }
}

/* The active storms, once, as no-go areas from the first departure to the
 * last one's longest voyage. */
static int open_storms(route_run *all, const route_args *ra, const swx_fleet *f, const cli_args *a)
{
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    int exit_code;
    for (size_t i = 0; i < swx_fleet_ship_count(f); i++)
        if (swx_fleet_ship_at(f, i)->routed) {
            t0 = ra[i].o.depart < t0 ? ra[i].o.depart : t0;
            int64_t end = ra[i].o.depart + (int64_t)ra[i].o.max_hours * 3600;
            t1 = end > t1 ? end : t1;
        }
    if ((exit_code = route_fetch_active_storms(&all->storms, a)))
        return exit_code;
    return route_open_nogo(all, &all->storms, NULL, t0, t1, 0);
}

/* Ship i searched through the fleet's forecast (path) and storms, its
 * voyage replaced by the route found. */
static int ship_route(swx_fleet *f, size_t i, route_args *ra, route_run *rr, route_run *all,
                      const char *path)
{
    swx_voyage *v = NULL;
    int rc,
        exit_code = route_search_voyage(rr, ra, all->nogo, path, swx_fleet_ship_at(f, i)->name, &v);
    if (!exit_code && (rc = swx_fleet_set_voyage(f, i, v))) {
        swx_voyage_free(v);
        return cli_fail(rc);
    }
    return exit_code;
}

int fleet_route_ships(swx_fleet *f, const cli_args *a, int sharded)
{
    size_t n = swx_fleet_ship_count(f), routed = 0;
    for (size_t i = 0; i < n; i++)
        routed += (size_t)(swx_fleet_ship_at(f, i)->routed != 0);
    if (!routed)
        return 0;
    if (sharded && !swx_fleet_run(f)) {
        cli_error("a sharded fleet with routed ships names its \"run\": every shard routes every "
                  "ship (for the same deal) and must do it through the same forecast");
        return EXIT_USAGE;
    }
    route_args *ra = calloc(n + 1, sizeof *ra);
    route_run *rr = calloc(n + 1, sizeof *rr);
    int exit_code = 0;
    if (!ra || !rr) {
        free(ra);
        free(rr);
        return cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
    }
    route_args *all = &ra[n];
    route_run *fleet_run_ = &rr[n];
    for (size_t i = 0; i < n && !exit_code; i++)
        if (swx_fleet_ship_at(f, i)->routed)
            exit_code = ship_open(&ra[i], &rr[i], swx_fleet_ship_at(f, i));
    const char *path = NULL;
    if (!exit_code) {
        union_area(all, ra, f);
        exit_code = fleet_run(&all->run, f);
    }
    if (!exit_code && !(exit_code = route_fetch_forecast(fleet_run_, all, a, &path)))
        exit_code = open_storms(fleet_run_, ra, f, a);
    for (size_t i = 0; i < n && !exit_code; i++)
        if (swx_fleet_ship_at(f, i)->routed)
            exit_code = ship_route(f, i, &ra[i], &rr[i], fleet_run_, path);
    for (size_t i = 0; i <= n; i++)
        route_run_free(&rr[i]);
    free(ra);
    free(rr);
    return exit_code;
}
