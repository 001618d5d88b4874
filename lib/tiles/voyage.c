/*
 * voyage.c: voyages (seawx/voyage.h): where a ship on a route can be at
 * each forecast valid time, and the areas of tiles that follow from it.
 *
 * Positions along the route are kept as distances from the departure: the
 * cumulative length of the great-circle legs at each waypoint (s[k]), and a
 * point at distance s is found on its leg by spherical interpolation, so a
 * stretch cut out of a leg lies exactly on it, across the antimeridian too.
 */
#include "seawx/voyage.h"

#include "area.h"
#include "route.h"
#include "seawx/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SPEED_KN 100.0

struct swx_voyage {
    swx_route *r;
    double *s;     /* metres from the departure at each waypoint */
    double length; /* s[n - 1] */
    int has_speed;
    int64_t depart;
    double vmin, vmax; /* metres per second */
};

/* The angle between two unit vectors, stable for small and large ones. */
static double between(const double a[3], const double b[3])
{
    double c0 = a[1] * b[2] - a[2] * b[1], c1 = a[2] * b[0] - a[0] * b[2],
           c2 = a[0] * b[1] - a[1] * b[0];
    return atan2(sqrt(c0 * c0 + c1 * c1 + c2 * c2), a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}

void swx_voyage_free(swx_voyage *v)
{
    if (!v)
        return;
    swx_route_free(v->r);
    free(v->s);
    free(v);
}

int swx_voyage_from_route(swx_voyage **out, const char *text, size_t len)
{
    swx_voyage *v = NULL;
    int rc;
    *out = NULL;
    v = calloc(1, sizeof *v);
    if (!v)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if ((rc = swx_route_read(&v->r, text, len)))
        goto done;
    const swx_route *r = v->r;
    if (r->nlines != 1 || r->n == 0) {
        rc = swx_error_set(SWX_EINVAL, "route file: a voyage follows one line, not %zu", r->nlines);
        goto done;
    }
    v->s = malloc(r->n * sizeof *v->s);
    if (!v->s) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    v->s[0] = 0;
    for (size_t k = 1; k < r->n; k++) {
        double a[3], b[3];
        swx__area_unit(r->lon[k - 1], r->lat[k - 1], a);
        swx__area_unit(r->lon[k], r->lat[k], b);
        double ang = between(a, b);
        if (ang > 179.0 * DEG) {
            rc = swx_error_set(SWX_EINVAL,
                               "route file: the leg from %.4f,%.4f to %.4f,%.4f spans more than "
                               "179 degrees; add a waypoint between them",
                               r->lat[k - 1], r->lon[k - 1], r->lat[k], r->lon[k]);
            goto done;
        }
        v->s[k] = v->s[k - 1] + ang * SWX_EARTH_RADIUS_M;
    }
    v->length = v->s[r->n - 1];
    *out = v;
    v = NULL;
done:
    swx_voyage_free(v);
    return rc;
}

int swx_voyage_timed(const swx_voyage *v)
{
    return v->r->t != NULL;
}

int swx_voyage_set_speed(swx_voyage *v, int64_t depart, double min_kn, double max_kn)
{
    if (v->r->t)
        return swx_error_set(SWX_EINVAL, "the route gives waypoint times; a departure and a "
                                         "speed go with a route without them");
    if (!(min_kn > 0) || !(max_kn >= min_kn) || !(max_kn <= MAX_SPEED_KN))
        return swx_error_set(SWX_EINVAL,
                             "speeds must be above 0 and at most %.0f knots, the lower first",
                             MAX_SPEED_KN);
    v->has_speed = 1;
    v->depart = depart;
    v->vmin = min_kn * SWX_KNOT_MPS;
    v->vmax = max_kn * SWX_KNOT_MPS;
    return 0;
}

int swx_voyage_set_sailing(swx_voyage *v, const swx_voyage_sailing *s)
{
    if (s && s->given)
        return swx_voyage_set_speed(v, s->depart, s->min_kn, s->max_kn);
    if (!v->r->t)
        return swx_error_set(SWX_EINVAL,
                             "the route has no waypoint times: give a departure and a speed");
    return 0;
}

int swx_voyage_open(swx_voyage **out, const char *text, size_t len, const swx_voyage_sailing *s)
{
    swx_voyage *v = NULL;
    *out = NULL;
    int rc = swx_voyage_from_route(&v, text, len);
    if (!rc)
        rc = swx_voyage_set_sailing(v, s);
    if (rc) {
        swx_voyage_free(v);
        return rc;
    }
    *out = v;
    return 0;
}

void swx_voyage_speed(double *min_kn, double *max_kn, const swx_voyage *v)
{
    *min_kn = v->has_speed ? v->vmin / SWX_KNOT_MPS : 0;
    *max_kn = v->has_speed ? v->vmax / SWX_KNOT_MPS : 0;
}

size_t swx_voyage_waypoint_count(const swx_voyage *v)
{
    return v->r->n;
}

void swx_voyage_waypoint(double *lon, double *lat, int64_t *t, const swx_voyage *v, size_t i)
{
    *lon = v->r->lon[i];
    *lat = v->r->lat[i];
    *t = v->r->t ? v->r->t[i] : INT64_MIN;
}

void swx_voyage_box(double box[4], const swx_voyage *v)
{
    double w = 1e9, e = -1e9, s = 90, n = -90, prev = 0, shift = 0;
    for (size_t i = 0; i < swx_voyage_waypoint_count(v); i++) {
        double lon, lat;
        int64_t t;
        swx_voyage_waypoint(&lon, &lat, &t, v, i);
        if (i && lon + shift - prev < -180)
            shift += 360;
        else if (i && lon + shift - prev > 180)
            shift -= 360;
        lon += shift;
        prev = lon;
        w = lon < w ? lon : w;
        e = lon > e ? lon : e;
        s = lat < s ? lat : s;
        n = lat > n ? lat : n;
    }
    box[0] = w, box[1] = s, box[2] = e, box[3] = n;
}

static int speed_number(double *out, const char *s, const char *end)
{
    char buf[32];
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!((buf[i] >= '0' && buf[i] <= '9') || buf[i] == '.'))
            return -1;
    char *e;
    *out = strtod(buf, &e);
    return *e || e == buf ? -1 : 0;
}

int swx_speed_parse(double *min_kn, double *max_kn, const char *text)
{
    const char *dash = text ? strchr(text, '-') : NULL;
    double a, b;
    *min_kn = *max_kn = 0;
    if (!text ||
        (dash ? speed_number(&a, text, dash) || speed_number(&b, dash + 1, dash + strlen(dash))
              : speed_number(&a, text, text + strlen(text))))
        return swx_error_set(SWX_EINVAL, "speed '%.40s' is not KN or MIN-MAX in knots",
                             text ? text : "");
    if (!dash)
        b = a;
    if (!(a > 0))
        return swx_error_set(SWX_EINVAL, "speed '%.40s': a speed must be above 0 knots", text);
    if (a > b)
        return swx_error_set(SWX_EINVAL, "speed '%.40s': the lower speed comes first", text);
    if (b > MAX_SPEED_KN)
        return swx_error_set(SWX_EINVAL, "speed '%.40s': at most %.0f knots", text, MAX_SPEED_KN);
    *min_kn = a;
    *max_kn = b;
    return 0;
}

double swx_voyage_length(const swx_voyage *v)
{
    return v->length;
}

int swx_voyage_span(int64_t *depart, double *arrival, const swx_voyage *v)
{
    const swx_route *r = v->r;
    if (r->t) {
        *depart = r->t[0];
        *arrival = (double)r->t[r->n - 1];
        return 0;
    }
    if (!v->has_speed)
        return swx_error_set(SWX_EINVAL, "a voyage needs a departure and a speed, or waypoint "
                                         "times");
    *depart = v->depart;
    *arrival = (double)v->depart + v->length / v->vmin;
    return 0;
}

/* The last waypoint at or before distance s. */
static size_t leg_of(const swx_voyage *v, double s)
{
    size_t lo = 0, hi = v->r->n - 1;
    while (lo + 1 < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->s[mid] <= s)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void swx_voyage_point(double *lon, double *lat, const swx_voyage *v, double s)
{
    const swx_route *r = v->r;
    if (!(s > 0) || r->n == 1) {
        *lon = r->lon[0];
        *lat = r->lat[0];
        return;
    }
    if (s >= v->length) {
        *lon = r->lon[r->n - 1];
        *lat = r->lat[r->n - 1];
        return;
    }
    size_t k = leg_of(v, s);
    double len = v->s[k + 1] - v->s[k];
    if (len <= 0 || s <= v->s[k]) {
        *lon = r->lon[k];
        *lat = r->lat[k];
        return;
    }
    double a[3], b[3], p[3];
    swx__area_unit(r->lon[k], r->lat[k], a);
    swx__area_unit(r->lon[k + 1], r->lat[k + 1], b);
    double th = len / SWX_EARTH_RADIUS_M, f = (s - v->s[k]) / len;
    double ka = sin((1 - f) * th) / sin(th), kb = sin(f * th) / sin(th);
    for (int i = 0; i < 3; i++)
        p[i] = ka * a[i] + kb * b[i];
    *lon = atan2(p[1], p[0]) / DEG;
    *lat = atan2(p[2], hypot(p[0], p[1])) / DEG;
}

/* Distance sailed at moment tau (infinite moments allowed) by the ship of
 * speed speed, or by the timed ship when speed is 0. */
static double sailed(const swx_voyage *v, double tau, double speed)
{
    const swx_route *r = v->r;
    double s;
    if (r->t) {
        if (tau <= (double)r->t[0])
            return 0;
        if (tau >= (double)r->t[r->n - 1])
            return v->length;
        size_t lo = 0, hi = r->n - 1;
        while (lo + 1 < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if ((double)r->t[mid] <= tau)
                lo = mid;
            else
                hi = mid;
        }
        double f = (tau - (double)r->t[lo]) / (double)(r->t[lo + 1] - r->t[lo]);
        s = v->s[lo] + f * (v->s[lo + 1] - v->s[lo]);
    } else {
        if (isinf(tau))
            return tau < 0 ? 0 : v->length;
        s = speed * (tau - (double)v->depart);
    }
    return s < 0 ? 0 : s > v->length ? v->length : s;
}

void swx_voyage_sailed(double *s_slow, double *s_fast, const swx_voyage *v, double tau)
{
    *s_slow = sailed(v, tau, v->r->t ? 0 : v->vmin);
    *s_fast = sailed(v, tau, v->r->t ? 0 : v->vmax);
}

int swx_voyage_stretch(double *from, double *to, const swx_voyage *v, const int64_t *times,
                       size_t n, size_t i)
{
    int64_t depart;
    double arrival;
    *from = *to = 0;
    int rc = swx_voyage_span(&depart, &arrival, v);
    if (rc)
        return rc;
    if (i >= n || (i > 0 && times[i - 1] >= times[i]) || (i + 1 < n && times[i] >= times[i + 1]))
        return swx_error_set(SWX_EINVAL, "valid times must be given increasing");
    double w0 = i > 0 ? ((double)times[i - 1] + (double)times[i]) / 2 : -INFINITY;
    double w1 = i + 1 < n ? ((double)times[i] + (double)times[i + 1]) / 2 : INFINITY;
    if (w0 >= arrival)
        return 0;
    *from = sailed(v, w0, v->vmin);
    *to = sailed(v, w1, v->vmax);
    return 1;
}

/* The area of times[i]; latlon: for latitude/longitude grids (area.h). */
static int voyage_area(swx_area **out, const swx_voyage *v, const int64_t *times, size_t n,
                       size_t i, double buffer_m, int latlon)
{
    double from, to, *lon = NULL, *lat = NULL;
    *out = NULL;
    int rc = swx_voyage_stretch(&from, &to, v, times, n, i);
    if (rc <= 0)
        return rc;
    const swx_route *r = v->r;
    lon = malloc((r->n + 2) * sizeof *lon);
    lat = malloc((r->n + 2) * sizeof *lat);
    if (!lon || !lat) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    size_t m = 0;
    swx_voyage_point(&lon[m], &lat[m], v, from);
    m++;
    for (size_t k = 0; k < r->n; k++)
        if (v->s[k] > from && v->s[k] < to) {
            lon[m] = r->lon[k];
            lat[m] = r->lat[k];
            m++;
        }
    if (to > from) {
        swx_voyage_point(&lon[m], &lat[m], v, to);
        m++;
    }
    rc = latlon ? swx__area_from_waypoints_latlon(out, lon, lat, m, buffer_m)
                : swx_area_from_waypoints(out, lon, lat, m, buffer_m);
done:
    free(lon);
    free(lat);
    return rc;
}

int swx_voyage_area(swx_area **out, const swx_voyage *v, const int64_t *times, size_t n, size_t i,
                    double buffer_m)
{
    return voyage_area(out, v, times, n, i, buffer_m, 0);
}

int swx__voyage_area_latlon(swx_area **out, const swx_voyage *v, const int64_t *times, size_t n,
                            size_t i, double buffer_m)
{
    return voyage_area(out, v, times, n, i, buffer_m, 1);
}
