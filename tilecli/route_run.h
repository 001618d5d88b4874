/*
 * route_run.h: what `seawx route` and `seawx plan --routed` share to run the
 * route search (seawx/route.h): the settings typed, what a search holds
 * while it runs, the area, land, the forecast from the service, the storms
 * as no-go areas, and the route through every waypoint.
 */
#ifndef SEAWX_CLI_ROUTE_RUN_H
#define SEAWX_CLI_ROUTE_RUN_H

#include "cli.h"

#include "seawx/land.h"
#include "seawx/route.h"
#include "seawx/route_inputs.h"
#include "seawx/route_storms.h"
#include "seawx/storm.h"
#include "seawx/storm_danger.h"

#include <stdint.h>

/* The forecast's and land's area: the box of start and end grown by a
 * quarter of its size each way, at least this many degrees. */
#define ROUTE_AREA_MARGIN_DEG 3.0
/* --route FILE: at most this many waypoints. */
#define ROUTE_MAX_WAYPOINTS 100

/* What was typed, checked before anything is read or sent. */
typedef struct route_args {
    swx_routing_opts o;
    const char *polar_file, *grib, *save_grib;
    const char *gpx, *geojson, *isochrones, *json, *track, *chart;
    int chart_w, chart_h; /* --chart-size */
    int has_depart;
    const char *route_file;
    double wp_lat[ROUTE_MAX_WAYPOINTS], wp_lon[ROUTE_MAX_WAYPOINTS];
    size_t nwp;              /* 2 with --from and --to */
    const char *storms_file; /* NULL: the service's, unless no_storms */
    int no_storms;
    double storm_margin_nm;
    long wait_h;
    char coastline;
    double land_margin_nm;
    double south, west, north, east; /* the forecast's and land's area */
    const char *who; /* the messages' subject before a waypoint (a fleet's ship); NULL: none */
    int64_t run;     /* the forecast's run fetched; 0: the newest */
} route_args;

/* What a route holds while it runs, freed by route_run_free. */
typedef struct route_run {
    swx_polar *polar;
    swx_routing_forecast *fc;
    swx_land *land;
    swx_routing_water *water[ROUTE_MAX_WAYPOINTS - 1]; /* one per leg's end */
    swx_storm_danger *danger;
    swx_storm_list storms;
    swx_routing_storms *nogo;
    swx_routing *route;
    size_t failed_leg; /* with no route: the leg (from waypoint i to i + 1) that has none */
    char tmp_grib[64];
} route_run;

void route_run_free(route_run *r);

/* The area the forecast and land are read for into p (south, west, north,
 * east) from its waypoints. */
void route_area(route_args *p);
/* Land for p's area into r->land, every waypoint at sea (else one line
 * naming it, EXIT_USAGE), and the way round land to each leg's end. */
int route_open_land(route_run *r, const route_args *p);
/* The forecast from the service for p's area, into --save-grib or a
 * temporary file (*path), as `seawx grib --bbox` fetches it. */
int route_fetch_forecast(route_run *r, const route_args *p, const cli_args *a, const char **path);
/* The storms (borrowed; d NULL: the default danger settings) as no-go
 * areas over t0..t1, margin_nm farther off, into r->nogo. */
int route_open_nogo(route_run *r, const swx_storm_list *storms, const swx_storm_danger *d,
                    int64_t t0, int64_t t1, double margin_nm);
/* The waypoints of v (a route without times, read from file) into p, a
 * waypoint repeated passed once, and p->o's start and end; EXIT_USAGE with
 * one line naming file for more than ROUTE_MAX_WAYPOINTS, a waypoint beyond
 * 85 degrees of latitude, or a route of one place. */
int route_waypoints_from(route_args *p, const swx_voyage *v, const char *file);
/* p->o's start and end: its first and last waypoint. */
void route_ends(route_args *p);
/* The boat of the routed commands (plan, voyage, fleet), the fixed route's:
 * by polar, motoring at motor_kn wherever sailing makes less (motor_floor);
 * without one, under motor at motor_kn. */
void route_boat(route_args *p, const swx_polar *polar, double motor_kn);
/* The search's settings of seawx route's defaults into p (3 degree
 * headings, the library's time steps, 30 days at most, the machine's cores
 * up to 8, Ctrl-C stops it; GSHHG full) and land_margin_nm off land. */
void route_search_defaults(route_args *p, double land_margin_nm);
/* The search's callbacks into p->o: r's forecast, land, the storms of nogo
 * (when any meets the voyage's time; NULL: none) and the way round land to
 * each leg's end. */
void route_wire(route_args *p, const route_run *r, swx_routing_storms *nogo);
/* The route r as a voyage with its times into *v (the one there freed):
 * the track of `seawx route --track`, which `seawx voyage --route` reads. */
int route_as_voyage(swx_voyage **v, const swx_routing *r, const swx_routing_opts *o,
                    const char *name);
/* " on the leg from waypoint I to I + 1" of r's route without one (the
 * leg r->failed_leg), for a route through more than two waypoints; "". */
void route_leg_text(char *out, size_t size, const route_args *p, const route_run *r);
/* The service's active storms into *out, with the progress line: 0, or the
 * exit code after one line ("nothing written"). */
int route_fetch_active_storms(swx_storm_list *out, const cli_args *a);
/* r's forecast opened from path for p's area, p->o.depart inside it (else
 * one line naming who, EXIT_USAGE); the search's callbacks wired with the
 * storms of nogo (NULL: none); the route
 * searched and, found, *v replaced by it with its times and one line naming
 * who, its length, hours and arrival; not found, EXIT_NO_ROUTE after one
 * line naming who and why. (`seawx voyage --routed`, a fleet's ship.) */
int route_search_voyage(route_run *r, route_args *p, swx_routing_storms *nogo, const char *path,
                        const char *who, swx_voyage **v);
/* The route's arrival. */
int64_t route_arrival(const swx_routing *r);
/* The route from p->o.depart through every waypoint into *out (the first
 * leg without a route when there is none: r->failed_leg). */
int route_solve_legs(route_run *r, const route_args *p, swx_routing **out);

/* `seawx voyage --routed`: the package along the fastest route from the
 * route's first waypoint to its last through the others (voyage_routed.c). */
typedef struct voyage_routed {
    route_args ra;
    route_run rr;
    const char *polar_file;
} voyage_routed;
/* What --routed, --polar and --land-margin say, checked with the voyage v
 * (a route without times, from file, sailed from s's departure at its
 * speed) before anything is sent: the polar read, land opened, every
 * waypoint at sea. 0, or the exit code after one line. */
int voyage_routed_open(voyage_routed *vr, const cli_args *a, const swx_voyage *v, const char *file,
                       const swx_voyage_sailing *s);
/* The forecast of the route's area and the active storms fetched, the
 * route searched, and *v replaced by the route found, with its times (the
 * package then follows it); EXIT_NO_ROUTE with the reason when there is none. */
int voyage_routed_find(voyage_routed *vr, const cli_args *a, const swx_storm_danger *d,
                       swx_voyage **v);
void voyage_routed_free(voyage_routed *vr);

/* `seawx fleet`: each ship with "routed": true given the fastest route from
 * its route's first waypoint to its last (fleet_routed.c): every routed
 * ship's waypoints at sea first, then the forecast fetched once for all of
 * them and the active storms once, each ship searched and its voyage set.
 * sharded: the fleet must name its run (every shard routes every ship).
 * EXIT_NO_ROUTE naming the ship when one has none. */
struct swx_fleet;
int fleet_route_ships(struct swx_fleet *f, const cli_args *a, int sharded);

#endif
