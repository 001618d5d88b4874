/* route_boat.c: how the boat moves for the route search: its velocity on a
 * heading (the polar's hull fed the wind over water, plus the current), the
 * best speed it makes along a bearing, and the sphere it moves on.
 *
 * Angles are compass degrees (0 north, 90 east); velocities are (east,
 * north) knots. */
#include "route_priv.h"
#include "seawx/sphere.h"

#include <math.h>

#define DEG (M_PI / 180.0)

static double nz(double v)
{
    return isnan(v) ? 0 : v;
}

/* The wind over water, its speed, the compass direction it comes from, and
 * whether the limits hold. */
static int wind_water(const swx__rboat *b, const swx_routing_met *m, double *tws, double *from)
{
    const swx_routing_opts *o = b->o;
    double wu = m->wind_u_kn - nz(m->cur_u_kn), wv = m->wind_v_kn - nz(m->cur_v_kn);
    *tws = hypot(wu, wv);
    *from = atan2(-wu, -wv) / DEG;
    if (isnan(*tws))
        return b->hull ? SWX_ROUTING_LIMIT : 0; /* no wind: only a motor boat goes */
    if (o->max_tws_kn > 0 && *tws > o->max_tws_kn)
        return SWX_ROUTING_LIMIT;
    if (o->max_gust_kn > 0 && m->gust_kn > o->max_gust_kn)
        return SWX_ROUTING_LIMIT;
    if (o->max_wave_m > 0 && m->wave_m > o->max_wave_m)
        return SWX_ROUTING_LIMIT;
    return 0;
}

/* Speed through water on a heading; *motoring set. floor: with the
 * options' motor_floor, motor wherever sailing makes less than motor_kn. */
static double water_speed(const swx__rboat *b, double tws, double from, double heading, double *twa,
                          int *motoring, int floor)
{
    double a = fmod(fabs(heading - from), 360.0);
    *twa = a > 180 ? 360 - a : a;
    *motoring = !b->hull || isnan(tws) || (b->o->motor_below_kn > 0 && tws < b->o->motor_below_kn);
    if (*motoring)
        return b->o->motor_kn;
    double s = swx_polar_hull_speed(b->hull, tws, *twa);
    if (floor && b->o->motor_floor && s < b->o->motor_kn) {
        *motoring = 1;
        return b->o->motor_kn;
    }
    return s;
}

int swx__rboat_velocity(const swx__rboat *b, const swx_routing_met *m, double heading_deg,
                        double *ve, double *vn, swx__rnode *n)
{
    double tws, from, twa;
    int motoring, rc = wind_water(b, m, &tws, &from);
    if (rc)
        return rc;
    double s = water_speed(b, tws, from, heading_deg, &twa, &motoring, 1);
    *ve = s * sin(heading_deg * DEG) + nz(m->cur_u_kn);
    *vn = s * cos(heading_deg * DEG) + nz(m->cur_v_kn);
    if (n) {
        n->heading = heading_deg;
        n->bsp = s;
        n->tws = tws;
        n->twa = twa;
        n->motoring = motoring;
        n->gust = m->gust_kn;
        n->wave = m->wave_m;
        n->cur_u = nz(m->cur_u_kn);
        n->cur_v = nz(m->cur_v_kn);
        n->cog = fmod(atan2(*ve, *vn) / DEG + 360, 360);
        n->sog = hypot(*ve, *vn);
    }
    return 0;
}

/* The gauge of the boat's speed set at z (east, north): how many hours of
 * sailing z takes through water. */
static double gauge(const swx__rboat *b, double tws, double from, double ze, double zn)
{
    double len = hypot(ze, zn), twa;
    int motoring;
    if (len == 0)
        return 0;
    double s = water_speed(b, tws, from, atan2(ze, zn) / DEG, &twa, &motoring, 0);
    return s > 0 ? len / s : INFINITY;
}

/* The largest S with S e - c in the disc of radius m (motoring at m):
 * |S e - c| = m, the larger root; 0 when none. */
static double along_disc(double ee, double en, double cu, double cv, double m)
{
    double ec = ee * cu + en * cv, d = ec * ec - (cu * cu + cv * cv) + m * m;
    double s = d >= 0 ? ec + sqrt(d) : 0;
    return s > 0 ? s : 0;
}

int swx__rboat_along(const swx__rboat *b, const swx_routing_met *m, double bearing_deg, double *sog,
                     double *heading_deg)
{
    double tws, from;
    int rc = wind_water(b, m, &tws, &from);
    *sog = 0;
    *heading_deg = bearing_deg;
    if (rc)
        return rc;
    double ee = sin(bearing_deg * DEG), en = cos(bearing_deg * DEG);
    double cu = nz(m->cur_u_kn), cv = nz(m->cur_v_kn);
    double hi = b->vmax + hypot(cu, cv), lo = 0;
    /* S e - c lies in the speed set for S in an interval (the set is
     * convex): find a point of it (golden section on the convex gauge),
     * then its upper end (bisection). */
    double a = lo, c = hi, g = (sqrt(5) - 1) / 2;
    for (int i = 0; i < 60; i++) {
        double x1 = c - g * (c - a), x2 = a + g * (c - a);
        if (gauge(b, tws, from, x1 * ee - cu, x1 * en - cv) <=
            gauge(b, tws, from, x2 * ee - cu, x2 * en - cv))
            c = x2;
        else
            a = x1;
    }
    double in = (a + c) / 2;
    /* with a motoring floor the speed set is the hull's and the motor's
     * disc: the better of the two along the bearing */
    double disc = b->o->motor_floor ? along_disc(ee, en, cu, cv, b->o->motor_kn) : 0;
    if (gauge(b, tws, from, in * ee - cu, in * en - cv) > 1) {
        if (disc > 0) {
            *sog = disc;
            *heading_deg = fmod(atan2(disc * ee - cu, disc * en - cv) / DEG + 360, 360);
        }
        return 0;
    }
    lo = in;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (gauge(b, tws, from, mid * ee - cu, mid * en - cv) <= 1)
            lo = mid;
        else
            hi = mid;
    }
    if (disc > lo)
        lo = disc;
    *sog = lo;
    *heading_deg = fmod(atan2(lo * ee - cu, lo * en - cv) / DEG + 360, 360);
    return 0;
}

double swx__route_dist(double lat1, double lon1, double lat2, double lon2)
{
    double h = sin((lat2 - lat1) * DEG / 2), g = sin((lon2 - lon1) * DEG / 2);
    double x = h * h + cos(lat1 * DEG) * cos(lat2 * DEG) * g * g;
    return 2 * asin(sqrt(fmin(1.0, x))) * SWX__ROUTE_R_NM;
}

double swx__route_bearing(double lat1, double lon1, double lat2, double lon2)
{
    double p1 = lat1 * DEG, p2 = lat2 * DEG, dl = (lon2 - lon1) * DEG;
    double y = sin(dl) * cos(p2), x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl);
    return fmod(atan2(y, x) / DEG + 360, 360);
}

void swx__route_move(double *lat, double *lon, double course_deg, double dist_nm)
{
    double p1 = *lat * DEG, c = course_deg * DEG, d = dist_nm / SWX__ROUTE_R_NM;
    double sp2 = sin(p1) * cos(d) + cos(p1) * sin(d) * cos(c);
    double p2 = asin(fmax(-1.0, fmin(1.0, sp2)));
    double dl = atan2(sin(c) * sin(d) * cos(p1), cos(d) - sin(p1) * sp2);
    double l2 = *lon + dl / DEG;
    *lat = p2 / DEG;
    *lon = l2 > 180 ? l2 - 360 : l2 <= -180 ? l2 + 360 : l2;
}
