/* route_result.c: the route drawn back from the end through the parents of
 * the isochrones' points, the isochrones as lines, and what the caller reads
 * of a search (see seawx/route.h). */
#include "route_priv.h"
#include "seawx/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *swx_routing_cause_name(int cause)
{
    static const char *const names[] = {
        "",        "land", "storm", "limit", "forecast end", "start on land", "end unreachable",
        "too long"};
    return cause >= 0 && cause < (int)(sizeof names / sizeof *names) ? names[cause] : "blocked";
}

/* Fills a point from the node (its place and time) and the leg that leaves
 * it (the node leg reached the next point). */
static void fill(swx_routing_point *p, const swx__rnode *at, const swx__rnode *leg,
                 const swx__rboat *b)
{
    p->time = (int64_t)llround(at->t);
    p->lat = at->lat;
    p->lon = at->lon;
    p->cog_deg = leg->cog;
    p->sog_kn = leg->sog;
    p->heading_deg = leg->heading;
    p->bsp_kn = leg->bsp;
    p->tws_kn = leg->tws;
    p->twa_deg = leg->twa;
    p->gust_kn = leg->gust;
    p->wave_m = leg->wave;
    p->cur_u_kn = leg->cur_u;
    p->cur_v_kn = leg->cur_v;
    p->motoring = leg->motoring;
    p->tacking = !leg->motoring && b->o->polar &&
                 swx_polar_speed(b->o->polar, leg->tws, leg->twa) < leg->bsp * (1 - 1e-6);
}

int swx__routing_build(swx_routing *r, const swx__rboat *b)
{
    size_t n = 0;
    for (int64_t k = (int64_t)r->nnodes - 1; k >= 0; k = r->nodes[k].parent)
        n++;
    if (!(r->route = calloc(n, sizeof *r->route)))
        return swx_error_set(SWX_ENOMEM, "out of memory drawing the route");
    r->nroute = n;
    size_t i = n;
    const swx__rnode *next = NULL;
    for (int64_t k = (int64_t)r->nnodes - 1; k >= 0; k = r->nodes[k].parent) {
        const swx__rnode *at = &r->nodes[k];
        fill(&r->route[--i], at, next ? next : at, b);
        next = at;
    }
    for (i = 0; i + 1 < n; i++)
        r->distance_nm += swx__route_dist(r->route[i].lat, r->route[i].lon, r->route[i + 1].lat,
                                          r->route[i + 1].lon);
    r->hours = (r->nodes[r->nnodes - 1].t - r->nodes[0].t) / 3600;
    return 0;
}

int swx__routing_isochrones(swx_routing *r)
{
    size_t n = r->niso ? r->iso_off[r->niso] : 0;
    if (!n)
        return 0;
    if (!(r->iso_latlon = malloc(2 * n * sizeof *r->iso_latlon)))
        return swx_error_set(SWX_ENOMEM, "out of memory keeping the isochrones");
    for (size_t i = 0; i < n; i++) {
        r->iso_latlon[2 * i] = r->nodes[i].lat;
        r->iso_latlon[2 * i + 1] = r->nodes[i].lon;
    }
    return 0;
}

void swx_routing_free(swx_routing *r)
{
    if (!r)
        return;
    free(r->nodes);
    free(r->iso_off);
    free(r->iso_t);
    free(r->iso_latlon);
    free(r->route);
    free(r);
}

int swx_routing_found(const swx_routing *r)
{
    return r && r->nroute > 0;
}

const swx_routing_reason *swx_routing_why(const swx_routing *r)
{
    return &r->why;
}

size_t swx_routing_npoints(const swx_routing *r)
{
    return r->nroute;
}

const swx_routing_point *swx_routing_points(const swx_routing *r)
{
    return r->route;
}

double swx_routing_hours(const swx_routing *r)
{
    return r->nroute ? r->hours : NAN;
}

double swx_routing_distance_nm(const swx_routing *r)
{
    return r->nroute ? r->distance_nm : NAN;
}

size_t swx_routing_nisochrones(const swx_routing *r)
{
    return r->iso_latlon ? r->niso : 0;
}

int64_t swx_routing_isochrone(const swx_routing *r, size_t i, const double **latlon, size_t *n)
{
    *latlon = NULL;
    *n = 0;
    if (!r->iso_latlon || i >= r->niso)
        return 0;
    *latlon = r->iso_latlon + 2 * r->iso_off[i];
    *n = r->iso_off[i + 1] - r->iso_off[i];
    return r->iso_t[i];
}

void swx_routing_stats(const swx_routing *r, uint64_t *expansions, double *seconds)
{
    *expansions = r->expansions;
    *seconds = r->seconds;
}
