/* route_run.c: what `seawx route` and `seawx plan --routed` share to run the
 * route search (route_run.h). */
#include "route_run.h"

#include "seawx/error.h"
#include "seawx/grib.h"
#include "seawx/iso8601.h"
#include "seawx/route_out.h"
#include "seawx/voyage.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void route_run_free(route_run *r)
{
    swx_routing_free(r->route);
    swx_routing_storms_free(r->nogo);
    swx_storm_list_clear(&r->storms);
    swx_storm_danger_free(r->danger);
    for (size_t i = 0; i + 1 < ROUTE_MAX_WAYPOINTS; i++)
        swx_routing_water_free(r->water[i]);
    swx_land_free(r->land);
    swx_routing_forecast_free(r->fc);
    swx_polar_free(r->polar);
    if (r->tmp_grib[0])
        unlink(r->tmp_grib);
}

/* The area the forecast and land are read for: the waypoints' box (its
 * longitudes continuous, each the short way from the one before) grown by a
 * quarter of its size each way, at least ROUTE_AREA_MARGIN_DEG. */
void route_area(route_args *p)
{
    double lo = p->wp_lon[0], w = lo, e = lo, s = p->wp_lat[0], n = s;
    for (size_t i = 1; i < p->nwp; i++) {
        double d = p->wp_lon[i] - p->wp_lon[i - 1];
        d -= 360 * round(d / 360); /* the short way, across 180 if need be */
        lo += d;
        w = fmin(w, lo);
        e = fmax(e, lo);
        s = fmin(s, p->wp_lat[i]);
        n = fmax(n, p->wp_lat[i]);
    }
    double mx = fmax(ROUTE_AREA_MARGIN_DEG, 0.25 * (e - w));
    double my = fmax(ROUTE_AREA_MARGIN_DEG, 0.25 * (n - s));
    p->south = fmax(-89, s - my);
    p->north = fmin(89, n + my);
    w -= mx;
    e += mx;
    if (e - w >= 360) {
        w = -180;
        e = 180;
    }
    w -= 360 * floor((w + 180) / 360);
    e -= 360 * floor((e + 180) / 360);
    p->west = w;
    p->east = e == -180 && w != -180 ? 180 : e;
}

/* Land for the area, and the start and end at sea. */
int route_open_land(route_run *r, const route_args *p)
{
    /* $SEAWX_GSHHG: another GSHHG file or folder (the library reads no
     * environment); unset or empty, Debian's /usr/share/gmt-gshhg */
    const char *gshhg = getenv("SEAWX_GSHHG");
    swx_land_opts lo = {gshhg && *gshhg ? gshhg : NULL,
                        p->coastline,
                        p->south,
                        p->west,
                        p->north,
                        p->east,
                        p->land_margin_nm};
    int rc = swx_land_open(&r->land, &lo);
    if (rc && lo.path)
        swx_error_prefix(rc, "$SEAWX_GSHHG");
    if (rc)
        return cli_fail(rc);
    for (size_t i = 0; i < p->nwp; i++)
        if (swx_land_at(r->land, p->wp_lat[i], p->wp_lon[i])) {
            char name[32];
            if (p->route_file)
                snprintf(name, sizeof name, "waypoint %zu", i + 1);
            else
                snprintf(name, sizeof name, "%s", i ? "--to" : "--from");
            cli_error("%s%s%s %.5f,%.5f is on land or within --land-margin %g nm of it (GSHHG "
                      "%c): no route can %s there",
                      p->who ? p->who : "", p->who ? ": " : "", name, p->wp_lat[i], p->wp_lon[i],
                      p->land_margin_nm, p->coastline,
                      i == 0            ? "start"
                      : i + 1 == p->nwp ? "end"
                                        : "pass");
            return EXIT_USAGE;
        }
    /* the pruning measures the way still to go round land, to each leg's end */
    for (size_t i = 1; i < p->nwp; i++)
        if ((rc = swx_routing_water_new(&r->water[i - 1], r->land, p->wp_lat[i], p->wp_lon[i],
                                        p->south, p->west, p->north, p->east)))
            return cli_fail(rc);
    return 0;
}

static int on_grib_progress(void *ud, const char *stage, size_t done, size_t total)
{
    double *last = ud;
    if (cli_stop_soft)
        return 1;
    if (done == total || cli_progress_due(last))
        cli_progress(0, "forecast: %s %zu of %zu", stage, done, total);
    return 0;
}

/* The forecast from the service: the box cut of `seawx grib`, into
 * --save-grib or a temporary file; the ocean currents where the run's files
 * hold them. */
int route_fetch_forecast(route_run *r, const route_args *p, const cli_args *a, const char **path)
{
    swx_client *client = NULL;
    swx_diskcache *cache = NULL;
    int exit_code, rc;
    if ((exit_code = cli_grib_cache(&cache, a)) || (exit_code = cli_client(&client, a))) {
        swx_diskcache_free(cache);
        return exit_code;
    }
    if (!p->save_grib) {
        const char *tmp = getenv("TMPDIR");
        snprintf(r->tmp_grib, sizeof r->tmp_grib, "%.40s/seawx-route-XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemp(r->tmp_grib);
        if (fd < 0) {
            r->tmp_grib[0] = 0;
            swx_client_free(client);
            swx_diskcache_free(cache);
            return cli_fail(
                swx_error_set(SWX_EIO, "cannot make a temporary file: %s", strerror(errno)));
        }
        close(fd);
    }
    *path = p->save_grib ? p->save_grib : r->tmp_grib;
    swx_grib_spec spec = {0};
    spec.vars = "wind,gust,waves";
    spec.if_held = "currents";
    spec.grid_deg = 0.25;
    spec.step_h = 3;
    spec.cut = SWX_GRIB_CUT_BOX;
    spec.run = p->run;
    spec.west = p->west;
    spec.south = p->south;
    spec.east = p->east;
    spec.north = p->north;
    double last = cli_now();
    swx_grib_opts go = {
        .cache = cache, .progress = on_grib_progress, .ud = &last, .cancel = &cli_stop_soft};
    swx_grib_result res;
    rc = swx_grib_build(&res, client, &spec, *path, &go);
    cli_progress(0, NULL);
    if (!rc && res.left_out[0])
        cli_info("the service's forecast holds no ocean currents: the route is searched without "
                 "them (--grib FILE to route through a forecast that has them)");
    swx_client_free(client);
    swx_diskcache_free(cache);
    return cli_stop_or_fail(rc, "nothing written");
}

int route_open_nogo(route_run *r, const swx_storm_list *storms, const swx_storm_danger *d,
                    int64_t t0, int64_t t1, double margin_nm)
{
    int rc = swx_routing_storms_new(&r->nogo, (const swx_storm *const *)storms->items,
                                    storms->count, d, t0, t1, margin_nm);
    return rc ? cli_fail(rc) : 0;
}

int route_waypoints_from(route_args *p, const swx_voyage *v, const char *file)
{
    size_t n = swx_voyage_waypoint_count(v);
    if (n > ROUTE_MAX_WAYPOINTS) {
        cli_error("%s: %zu waypoints; a route passes at most %d", file, n, ROUTE_MAX_WAYPOINTS);
        return EXIT_USAGE;
    }
    p->route_file = file;
    p->nwp = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t t;
        swx_voyage_waypoint(&p->wp_lon[p->nwp], &p->wp_lat[p->nwp], &t, v, i);
        if (fabs(p->wp_lat[p->nwp]) > 85) {
            cli_error("%s: routes go between 85 S and 85 N (waypoint %zu is at %.4f)", file, i + 1,
                      p->wp_lat[p->nwp]);
            return EXIT_USAGE;
        }
        /* a waypoint repeated is passed once */
        if (!p->nwp || p->wp_lat[p->nwp] != p->wp_lat[p->nwp - 1] ||
            p->wp_lon[p->nwp] != p->wp_lon[p->nwp - 1])
            p->nwp++;
    }
    if (p->nwp < 2) {
        cli_error("%s: the waypoints are all one place: nothing to route", file);
        return EXIT_USAGE;
    }
    route_ends(p);
    return 0;
}

void route_ends(route_args *p)
{
    p->o.from_lat = p->wp_lat[0];
    p->o.from_lon = p->wp_lon[0];
    p->o.to_lat = p->wp_lat[p->nwp - 1];
    p->o.to_lon = p->wp_lon[p->nwp - 1];
}

void route_boat(route_args *p, const swx_polar *polar, double motor_kn)
{
    p->o.polar = polar;
    p->o.motor_kn = motor_kn;
    p->o.motor_floor = polar && motor_kn > 0;
}

void route_search_defaults(route_args *p, double land_margin_nm)
{
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    p->o.heading_step_deg = 3;
    p->o.time_step_s = 0;
    p->o.max_hours = 720;
    p->o.threads = threads < 1 ? 1 : threads > 8 ? 8 : (int)threads;
    p->o.cancel = &cli_stop_soft;
    p->coastline = 'f';
    p->land_margin_nm = land_margin_nm;
}

void route_wire(route_args *p, const route_run *r, swx_routing_storms *nogo)
{
    p->o.met = swx_routing_forecast_met;
    p->o.met_ctx = r->fc;
    p->o.leg[0] = swx_routing_land_leg;
    p->o.leg_ctx[0] = r->land;
    if (swx_routing_storms_count(nogo)) {
        p->o.leg[1] = swx_routing_storms_leg;
        p->o.leg_ctx[1] = nogo;
    }
    p->o.to_end = swx_routing_water_to_end;
}

int route_as_voyage(swx_voyage **v, const swx_routing *r, const swx_routing_opts *o,
                    const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
    swx_routing_info in = {o, name, NULL, NULL, 0, 0, -1, NULL, o->depart};
    int rc = swx_routing_write_track(f, r, &in);
    if (fclose(f) != 0 && !rc)
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
    swx_voyage *nv = NULL;
    swx_voyage_sailing none = {0};
    if (!rc)
        rc = swx_voyage_open(&nv, buf, len, &none);
    free(buf);
    if (rc)
        return cli_fail(rc);
    swx_voyage_free(*v);
    *v = nv;
    return 0;
}

void route_leg_text(char *out, size_t size, const route_args *p, const route_run *r)
{
    out[0] = 0;
    if (p->nwp > 2)
        snprintf(out, size, " on the leg from waypoint %zu to %zu", r->failed_leg + 1,
                 r->failed_leg + 2);
}

int route_fetch_active_storms(swx_storm_list *out, const cli_args *a)
{
    swx_client *client = NULL;
    swx_storm_query q;
    int exit_code, rc;
    if ((exit_code = cli_client(&client, a)))
        return exit_code;
    swx_storm_query_init(&q);
    cli_progress(0, "storms: fetching the active storms");
    rc = swx_storm_fetch(NULL, client, &q, cli_keep_storm, out);
    cli_progress(0, NULL);
    swx_client_free(client);
    return rc ? cli_stop_or_fail(rc, "nothing written") : 0;
}

int route_search_voyage(route_run *r, route_args *p, swx_routing_storms *nogo, const char *path,
                        const char *who, swx_voyage **v)
{
    swx_routing *route = NULL;
    int rc, exit_code;
    if ((rc = swx_routing_forecast_open(&r->fc, path, p->south, p->west, p->north, p->east)))
        return cli_fail(rc);
    int64_t first = swx_routing_forecast_first(r->fc), last = swx_routing_forecast_last(r->fc);
    if (p->o.depart < first || p->o.depart >= last) {
        char d[SWX_ISO8601_LEN], f[SWX_ISO8601_LEN], l[SWX_ISO8601_LEN];
        swx_iso8601_format(d, p->o.depart);
        swx_iso8601_format(f, first);
        swx_iso8601_format(l, last);
        cli_error("%s: the departure %s is outside the forecast, which runs from %s to %s", who, d,
                  f, l);
        return EXIT_USAGE;
    }
    route_wire(p, r, nogo);
    cli_progress(0, "routed: %s", who);
    rc = route_solve_legs(r, p, &route);
    cli_progress(0, NULL);
    if (rc)
        return cli_stop_or_fail(rc, "nothing written");
    if (!swx_routing_found(route)) {
        char leg[64];
        route_leg_text(leg, sizeof leg, p, r);
        cli_error("%s: no route%s: %s; nothing written", who, leg, swx_routing_why(route)->message);
        swx_routing_free(route);
        return EXIT_NO_ROUTE;
    }
    swx_routing_summary sum;
    char t[SWX_ISO8601_LEN];
    swx_routing_summarize(&sum, route);
    swx_iso8601_format(t, route_arrival(route));
    cli_info("%s: routed %.1f nm in %.1f h, arriving %s", who, sum.distance_nm, sum.hours, t);
    exit_code = route_as_voyage(v, route, &p->o, who);
    swx_routing_free(route);
    return exit_code;
}

int64_t route_arrival(const swx_routing *r)
{
    return swx_routing_points(r)[swx_routing_npoints(r) - 1].time;
}

/* The route from p->o.depart through every waypoint into *out: the legs
 * solved in turn, each leaving when the one before arrived, joined; or the
 * first leg without a route (r->failed_leg its index). */
int route_solve_legs(route_run *r, const route_args *p, swx_routing **out)
{
    swx_routing *parts[ROUTE_MAX_WAYPOINTS - 1] = {0};
    swx_routing_opts o = p->o;
    int rc = 0;
    *out = NULL;
    r->failed_leg = 0;
    for (size_t k = 0; k + 1 < p->nwp && !rc && !*out; k++) {
        o.from_lat = p->wp_lat[k];
        o.from_lon = p->wp_lon[k];
        o.to_lat = p->wp_lat[k + 1];
        o.to_lon = p->wp_lon[k + 1];
        o.to_end_ctx = r->water[k];
        if (k)
            o.depart = route_arrival(parts[k - 1]);
        if ((rc = swx_routing_solve(&parts[k], &o)))
            break;
        if (!swx_routing_found(parts[k])) {
            *out = parts[k];
            parts[k] = NULL;
            r->failed_leg = k;
        }
    }
    if (!rc && !*out)
        rc = swx_routing_join(out, parts, p->nwp - 1);
    for (size_t k = 0; k + 1 < p->nwp; k++)
        swx_routing_free(parts[k]);
    return rc;
}
