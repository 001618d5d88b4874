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

int swx_routing_join(swx_routing **out, swx_routing **parts, size_t n)
{
    *out = NULL;
    size_t npts = 0, niso = 0, nll = 0;
    for (size_t k = 0; k < n; k++) {
        if (!swx_routing_found(parts[k]))
            return swx_error_set(SWX_EINVAL, "leg %zu of the route has no route to join", k + 1);
        npts += parts[k]->nroute - (k > 0);
        niso += swx_routing_nisochrones(parts[k]);
        nll += parts[k]->iso_latlon ? parts[k]->iso_off[parts[k]->niso] : 0;
    }
    swx_routing *r = calloc(1, sizeof *r);
    if (!r || !n || !(r->route = calloc(npts, sizeof *r->route)) ||
        !(r->iso_off = calloc(niso + 1, sizeof *r->iso_off)) ||
        (niso && !(r->iso_t = calloc(niso, sizeof *r->iso_t))) ||
        (nll && !(r->iso_latlon = malloc(2 * nll * sizeof *r->iso_latlon)))) {
        swx_routing_free(r);
        return n ? swx_error_set(SWX_ENOMEM, "out of memory joining the route")
                 : swx_error_set(SWX_EINVAL, "no leg to join");
    }
    for (size_t k = 0; k < n; k++) {
        const swx_routing *p = parts[k];
        /* a leg's first point is the last one's end: its place and time
         * stay, the leg that leaves it is the new leg's */
        if (k > 0) {
            swx_routing_point *j = &r->route[r->nroute - 1];
            swx_routing_point keep = *j;
            *j = p->route[0];
            j->time = keep.time;
            j->lat = keep.lat;
            j->lon = keep.lon;
        }
        memcpy(r->route + r->nroute, p->route + (k > 0), (p->nroute - (k > 0)) * sizeof *r->route);
        r->nroute += p->nroute - (k > 0);
        r->hours += p->hours;
        r->distance_nm += p->distance_nm;
        r->expansions += p->expansions;
        r->seconds += p->seconds;
        for (size_t i = 0; i < swx_routing_nisochrones(p); i++) {
            const double *ll;
            size_t m;
            r->iso_t[r->niso] = swx_routing_isochrone(p, i, &ll, &m);
            memcpy(r->iso_latlon + 2 * r->iso_off[r->niso], ll, 2 * m * sizeof *ll);
            r->iso_off[r->niso + 1] = r->iso_off[r->niso] + m;
            r->niso++;
        }
    }
    for (size_t k = 0; k < n; k++) {
        swx_routing_free(parts[k]);
        parts[k] = NULL;
    }
    *out = r;
    return 0;
}
