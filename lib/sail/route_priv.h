/* route_priv.h: the search's points and result, shared by route.c (the
 * search), route_boat.c (how the boat moves) and route_result.c (the route
 * drawn back from the end, and the accessors). */
#ifndef SWX_ROUTE_PRIV_H
#define SWX_ROUTE_PRIV_H

#include "seawx/route.h"
#include "seawx/sphere.h"

#include <stdint.h>

#define SWX__ROUTE_R_NM (SWX_EARTH_RADIUS_M / SWX_NM_M)

/* A point of an isochrone, with the leg that reached it. */
typedef struct swx__rnode {
    double lat, lon;
    double dist, to_end; /* nm from the start and to the end */
    double key;          /* what the pruning compares: to_end, or round land (opts.to_end) */
    double t;            /* unix seconds (fractional for the end) */
    int64_t parent;      /* index in the search's points; -1 for the start */
    int sector;
    int cause; /* 0 reached; a swx_routing_cause when blocked; -1 unused slot */
    double heading, cog, sog, bsp, tws, twa, gust, wave, cur_u, cur_v;
    int motoring;
} swx__rnode;

/* The boat and its forecast: what every leg reads (read-only while the
 * search's threads run). */
typedef struct swx__rboat {
    const swx_routing_opts *o;
    swx_polar_hull *hull; /* NULL: motor only */
    double vmax;          /* the fastest through water, any wind, kn (an upper bound) */
} swx__rboat;

/* The velocity through water and over ground on a heading with the met m;
 * fills n's leg fields. 0, or SWX_ROUTING_LIMIT. */
int swx__rboat_velocity(const swx__rboat *b, const swx_routing_met *m, double heading_deg,
                        double *ve, double *vn, swx__rnode *n);
/* The largest speed over ground along a bearing with the met m and the
 * heading through water that makes it; 0 when the bearing cannot be held.
 * 0, or SWX_ROUTING_LIMIT. */
int swx__rboat_along(const swx__rboat *b, const swx_routing_met *m, double bearing_deg, double *sog,
                     double *heading_deg);

/* The sphere: distance (nm) and initial bearing (degrees) from 1 to 2; the
 * point dist nm from 1 along course. */
double swx__route_dist(double lat1, double lon1, double lat2, double lon2);
double swx__route_bearing(double lat1, double lon1, double lat2, double lon2);
void swx__route_move(double *lat, double *lon, double course_deg, double dist_nm);

struct swx_routing {
    swx__rnode *nodes; /* every isochrone's points, in order, then the end */
    size_t nnodes, cap;
    size_t *iso_off; /* isochrone i: nodes[iso_off[i] .. iso_off[i + 1]) */
    int64_t *iso_t;
    size_t niso, iso_cap;
    double *iso_latlon; /* built at the end */
    swx_routing_point *route;
    size_t nroute;
    double hours, distance_nm;
    swx_routing_reason why;
    uint64_t expansions;
    double seconds;
};

/* Draws the route back from the node end (the last of r->nodes). */
int swx__routing_build(swx_routing *r, const swx__rboat *b);
/* The isochrones as lat, lon pairs. */
int swx__routing_isochrones(swx_routing *r);

#endif
