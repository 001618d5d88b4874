/* test_plan.c: the departure plan (lib/sail/polar.c, plan_input.c,
 * plan_forecast.c, plan.c): polars read strictly and interpolated; the
 * departures and thresholds as typed; a plan over a forecast built here (a
 * route due north, a steady wind) whose figures follow from the geometry:
 * arrival times, maxima, hours above thresholds and upwind, the verdict at
 * each side of each rule, a forecast that ends early, missing values, and a
 * boat sailed by its polar. */
#include "cu_support.h"

#include "plan_result.h"
#include "seawx/error.h"
#include "storm_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T0 1800000000 /* a whole hour */
#define KN(mps) ((mps) / SWX_KNOT_MPS)

/* ---- polars ---- */

static void test_polar_read(void)
{
    size_t len;
    char *text = cu_fixture("plan/cruiser.pol", &len);
    swx_polar *p = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_polar_parse(&p, text, len), 0);
    /* table points */
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 10, 90), 7.2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 6, 52), 5.2, 1e-9);
    /* bilinear: half way between 8 and 10 kn at 90 deg, and between 90 and 110 deg */
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 9, 90), (6.6 + 7.2) / 2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 10, 100), (7.2 + 7.1) / 2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 9, 100), (6.6 + 7.2 + 6.5 + 7.1) / 4, 1e-9);
    /* folded: 270 is 90 on the other tack, -90 too */
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 10, 270), 7.2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 10, -90), 7.2, 1e-9);
    /* below the first angle: no way; past the last column: the last column's;
     * below the first column: from 0 at 0 kn */
    CU_ASSERT_EQUAL(swx_polar_speed(p, 12, 40), 0);
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 40, 90), 8.6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 3, 90), 5.6 / 2, 1e-9);
    CU_ASSERT(isnan(swx_polar_speed(p, NAN, 90)));
    swx_polar_free(p);
    free(text);

    /* semicolons, CRLF, a separator closing a line */
    const char *semi = "twa/tws;6;10\r\n45;4.5;6.0;\r\n\r\n180;3.0;5.2\r\n";
    CU_ASSERT_EQUAL_FATAL(swx_polar_parse(&p, semi, strlen(semi)), 0);
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(p, 10, 180), 5.2, 1e-9);
    swx_polar_free(p);
}

static void refused(const char *text, const char *line)
{
    swx_polar *p = (swx_polar *)1;
    CU_ASSERT_EQUAL(swx_polar_parse(&p, text, strlen(text)), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(p);
    if (!strstr(swx_error_last(), line))
        fprintf(stderr, "\n  '%s' gave '%s', wanted '%s'\n", text, swx_error_last(), line);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), line));
}

static void test_polar_refused(void)
{
    refused("", "the polar is empty");
    refused("\n \n", "the polar is empty");
    refused("TWA\\TWS 6 10\n", "a header but no angle");
    refused("6 10\n45 1 2\n", "polar line 1, column 1: the header starts with a label");
    refused("TWA 6 6\n45 1 2\n", "polar line 1, column 3: '6' does not increase");
    refused("TWA 6 10\n45 1 2\n45 1 2\n", "polar line 3, column 1: '45' does not increase");
    refused("TWA 6 10\n90 1 2\n45 1 2\n", "polar line 3, column 1: '45' does not increase");
    refused("TWA 6 10\n45 1 x\n", "polar line 2, column 3: 'x' is not a boat speed");
    refused("TWA 6 1e\n45 1 2\n", "polar line 1, column 3: '1e' is not a wind speed");
    refused("TWA 6 10\n45 1\n", "polar line 2, column 3: missing");
    refused("TWA 6 10\n45 1 2 3\n", "polar line 2: more than the 2 speeds");
    refused("TWA;6;10\n45;;2\n", "polar line 2, column 2: '' is empty");
    refused("TWA 6 10\n190 1 2\n", "polar line 2, column 1: '190' is not an angle of 0 to 180");
    refused("TWA 6 10\nnan 1 2\n", "polar line 2, column 1: 'nan' is not an angle");
    refused("TWA 6 10\n45 -1 2\n", "polar line 2, column 2: '-1' is not a boat speed of 0");
}

/* ---- inputs ---- */

static void test_departures(void)
{
    int64_t a, b, s;
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15T06:00Z/2027-01-22T00:00Z/6h"),
                    0);
    CU_ASSERT_EQUAL(a, cu_time("2027-01-15T06:00:00Z"));
    CU_ASSERT_EQUAL(b, cu_time("2027-01-22T00:00:00Z"));
    CU_ASSERT_EQUAL(s, 6 * 3600);
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15/2027-01-16/90m"), 0);
    CU_ASSERT_EQUAL(s, 5400);
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15/2027-01-30/1d"), 0);
    CU_ASSERT_EQUAL(s, 86400);
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15/2027-01-30/PT12H"), 0);
    CU_ASSERT_EQUAL(s, 43200);
    /* one departure: FROM = TO */
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15/2027-01-15/1h"), 0);

    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "tomorrow/2027-01-16/6h"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "'tomorrow' is not an ISO 8601 instant"));
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15/2027-01-16/0h"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "step '0h'"));
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15/2027-01-16/6"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15/2027-01-16/-6h"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-17/2027-01-16/6h"), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "FROM is after TO"));
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15/2027-01-16"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-15/2027-01-16/6h/x"),
                    SWX_EINVAL);
    /* 500 departures are taken, 501 are not */
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-01T00Z/2027-01-21T19Z/1h"), 0);
    CU_ASSERT_EQUAL((b - a) / s + 1, SWX_PLAN_MAX_DEPARTURES);
    CU_ASSERT_EQUAL(swx_plan_departures_parse(&a, &b, &s, "2027-01-01T00Z/2027-01-21T20Z/1h"),
                    SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "501 departures"));
}

static void test_thresholds(void)
{
    double v;
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "25kn", 's'), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 25, 1e-12);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "12.5m/s", 's'), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 12.5 * 3600 / 1852, 1e-9);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "45km/h", 's'), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 45000.0 / 1852, 1e-9);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "30mph", 's'), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 30 * 1609.344 / 1852, 1e-9);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "3m", 'h'), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 3, 1e-12);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "10ft", 'h'), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 3.048, 1e-12);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "25", 's'), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "needs its unit: kn, m/s, km/h or mph"));
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "3", 'h'), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "needs its unit: m or ft"));
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "3m", 's'), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "25kn", 'h'), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "0kn", 's'), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "-3m", 'h'), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "kn", 's'), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_threshold_parse(&v, "inf kn", 's'), SWX_EINVAL);
}

/* ---- the plan ---- */

/* Due north along 0 E from the equator to 2 N: 120.07 nm. */
static const char *const ROUTE = "lat,lon\n0,0\n2,0\n";

static swx_voyage *route(void)
{
    swx_voyage *v = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_voyage_from_route(&v, ROUTE, strlen(ROUTE)), 0);
    return v;
}

/* A forecast every 3 h from T0 for hours h, a steady wind (u, v) m/s, gust
 * 1.3 times the wind, waves wave_m. */
static swx_plan_forecast *steady(const swx_voyage *v, int hours, double u, double w, double wave)
{
    swx_plan_forecast *f = NULL;
    size_t nt = (size_t)hours / 3 + 1;
    CU_ASSERT_EQUAL_FATAL(swx_plan_forecast_new(&f, v, 15, nt), 0);
    for (size_t k = 0; k < nt; k++)
        f->times[k] = T0 + (int64_t)k * 3 * 3600;
    for (size_t j = 0; j < f->ns; j++)
        for (size_t k = 0; k < nt; k++) {
            float *x = f->value + (j * nt + k) * SWX_PV_N;
            x[SWX_PV_U10] = (float)u;
            x[SWX_PV_V10] = (float)w;
            x[SWX_PV_GUST] = (float)(1.3 * hypot(u, w));
            x[SWX_PV_SWH] = (float)wave;
        }
    return f;
}

static swx_plan_opts band(double lo, double hi)
{
    swx_plan_opts o;
    memset(&o, 0, sizeof o);
    o.from = T0;
    o.to = T0 + 6 * 3600;
    o.step = 3 * 3600;
    o.min_kn = lo;
    o.max_kn = hi;
    return o;
}

static void test_samples(void)
{
    swx_voyage *v = route();
    swx_plan_forecast *f = steady(v, 48, 0, -10, 2);
    double len = swx_voyage_length(v) / SWX_NM_M;
    size_t n;
    CU_ASSERT_EQUAL(swx_plan_sample_count(&n, v, 15), 0);
    CU_ASSERT_EQUAL(n, 10); /* 0, 15, ..., 105 and the end */
    CU_ASSERT_EQUAL(f->ns, 10);
    CU_ASSERT_DOUBLE_EQUAL(f->nm[9], len, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(f->nm[8], 120, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(f->lat[1], 0.25, 0.001);
    CU_ASSERT_EQUAL(swx_plan_sample_count(&n, v, 0.1), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_plan_sample_count(&n, v, 0.06), SWX_EINVAL);
    swx_plan_forecast_free(f);
    swx_voyage_free(v);
}

static void test_band(void)
{
    swx_voyage *v = route();
    double len = swx_voyage_length(v) / SWX_NM_M;
    /* 10 m/s from the north, straight on the nose */
    swx_plan_forecast *f = steady(v, 72, 0, -10, 2.5);
    swx_plan_opts o = band(5, 6);
    swx_plan *p = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    CU_ASSERT_EQUAL_FATAL(swx_plan_count(p), 3);
    CU_ASSERT_EQUAL(swx_plan_samples(p), 10);
    const swx_plan_departure *r = swx_plan_row(p, 1);
    CU_ASSERT_EQUAL(r->depart, T0 + 3 * 3600);
    CU_ASSERT_DOUBLE_EQUAL(r->arrive_late, T0 + 3 * 3600 + len / 5 * 3600, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(r->arrive_early, T0 + 3 * 3600 + len / 6 * 3600, 1e-3);
    CU_ASSERT_EQUAL(r->partial, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->max_wind_kn, KN(10), 1e-4);
    CU_ASSERT_DOUBLE_EQUAL(r->max_gust_kn, KN(13), 1e-4);
    CU_ASSERT_DOUBLE_EQUAL(r->max_wave_m, 2.5, 1e-6);
    /* upwind the whole way: the slow ship's hours */
    CU_ASSERT_DOUBLE_EQUAL(r->hours_upwind, len / 5, 1e-6);
    CU_ASSERT_EQUAL(r->hours_wind, 0); /* no threshold given */
    CU_ASSERT_EQUAL(r->verdict, SWX_PLAN_GO);
    CU_ASSERT_PTR_NULL(r->reason);
    CU_ASSERT_PTR_NULL(r->storm_title);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_cell_wind_kn(p, 1, 4), KN(10), 1e-4);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_cell_wave_m(p, 1, 4), 2.5, 1e-6);
    CU_ASSERT_EQUAL(swx_plan_cell_storm(p, 1, 4), 0);
    double lon, lat, course;
    swx_plan_sample_point(p, 3, &lon, &lat, &course);
    CU_ASSERT_DOUBLE_EQUAL(course, 0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(lat, 0.75, 0.001);
    CU_ASSERT_EQUAL(swx_plan_forecast_end(p), T0 + 72 * 3600);
    swx_plan_free(p);

    /* thresholds on either side: 19.4 kn of wind, 25.3 kn of gust, 2.5 m */
    struct {
        double wind, gust, wave, up;
        int verdict;
        const char *reason;
    } cases[] = {
        {19, 0, 0, 0, SWX_PLAN_NOGO, "wind 19.4 kn above 19 kn"},
        {20, 0, 0, 0, SWX_PLAN_MARGINAL, "wind 19 kn, near 20 kn"},
        {25, 0, 0, 0, SWX_PLAN_GO, NULL},
        {0, 25, 0, 0, SWX_PLAN_NOGO, "gusts 25.3 kn above 25 kn"},
        {0, 30, 0, 0, SWX_PLAN_MARGINAL, "gusts 25 kn, near 30 kn"},
        {0, 0, 2, 0, SWX_PLAN_NOGO, "waves 2.5 m above 2.0 m"},
        {0, 0, 3, 0, SWX_PLAN_MARGINAL, "waves 2.5 m, near 3.0 m"},
        {0, 0, 3.2, 0, SWX_PLAN_GO, NULL},
        {0, 0, 0, 20, SWX_PLAN_NOGO, "24 h upwind, above 20 h"},
        {0, 0, 0, 28, SWX_PLAN_MARGINAL, "24 h upwind, near 28 h"},
        {0, 0, 0, 31, SWX_PLAN_GO, NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        o.max_wind_kn = cases[c].wind;
        o.max_gust_kn = cases[c].gust;
        o.max_wave_m = cases[c].wave;
        o.max_upwind_h = cases[c].up;
        CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
        r = swx_plan_row(p, 0);
        CU_ASSERT_EQUAL(r->verdict, cases[c].verdict);
        if (cases[c].reason)
            CU_ASSERT(r->reason && strstr(r->reason, cases[c].reason));
        if (r->verdict != cases[c].verdict ||
            (cases[c].reason && !strstr(r->reason, cases[c].reason)))
            fprintf(stderr, "\n  case %zu: %s (%s)\n", c, swx_plan_verdict_name(r->verdict),
                    r->reason ? r->reason : "-");
        if (cases[c].wind)
            CU_ASSERT_DOUBLE_EQUAL(r->hours_wind, cases[c].wind < KN(10) ? len / 5 : 0, 1e-6);
        swx_plan_free(p);
    }
    swx_plan_forecast_free(f);

    /* from the east: abeam, never upwind; from 40 degrees off the bow: upwind
     * below 50 degrees, not below 30 */
    f = steady(v, 72, -10, 0, 1);
    o = band(5, 6);
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    CU_ASSERT_EQUAL(swx_plan_row(p, 0)->hours_upwind, 0);
    swx_plan_free(p);
    swx_plan_forecast_free(f);
    double a = 40 * M_PI / 180;
    f = steady(v, 72, -10 * sin(a), -10 * cos(a), 1);
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_row(p, 0)->hours_upwind, len / 5, 1e-6);
    swx_plan_free(p);
    o.upwind_angle_deg = 30;
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    CU_ASSERT_EQUAL(swx_plan_row(p, 0)->hours_upwind, 0);
    swx_plan_free(p);
    swx_plan_forecast_free(f);
    swx_voyage_free(v);
}

static void test_partial_and_missing(void)
{
    swx_voyage *v = route();
    /* 24 h of forecast, a band of 6 to 6.5 kn (20.0 h at the slow end):
     * the departure at T0 + 6 h sails past its end, those before do not */
    swx_plan_forecast *f = steady(v, 24, 0, -10, 2.5);
    swx_plan_opts o = band(6, 6.5);
    swx_plan *p = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    CU_ASSERT_EQUAL(swx_plan_row(p, 0)->partial, 0);
    CU_ASSERT_EQUAL(swx_plan_row(p, 1)->partial, 0);
    CU_ASSERT_EQUAL(swx_plan_row(p, 2)->partial, 1);
    CU_ASSERT_EQUAL(swx_plan_row(p, 2)->verdict, SWX_PLAN_MARGINAL);
    CU_ASSERT_STRING_EQUAL(swx_plan_row(p, 2)->reason,
                           "the forecast does not cover the whole voyage");
    /* the hours counted stop at the forecast's end: the steps that start
     * by T0 + 24 h, 18 h 10 min */
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_row(p, 2)->hours_upwind, 18 + 1.0 / 6, 1e-6);
    /* the end of the route is reached after the forecast's end by both ships */
    CU_ASSERT(isnan(swx_plan_cell_wind_kn(p, 2, 9)));
    CU_ASSERT(!isnan(swx_plan_cell_wind_kn(p, 1, 9)));
    CU_ASSERT(!isnan(swx_plan_cell_wind_kn(p, 2, 0)));
    swx_plan_free(p);

    /* no gust anywhere: its maximum is missing, not 0; the wind stays */
    for (size_t i = 0; i < f->ns * f->nt; i++)
        f->value[i * SWX_PV_N + SWX_PV_GUST] = NAN;
    o.max_gust_kn = 20;
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    CU_ASSERT(isnan(swx_plan_row(p, 0)->max_gust_kn));
    CU_ASSERT_EQUAL(swx_plan_row(p, 0)->hours_gust, 0);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_row(p, 0)->max_wind_kn, KN(10), 1e-4);
    CU_ASSERT_EQUAL(swx_plan_row(p, 0)->verdict, SWX_PLAN_GO);
    swx_plan_free(p);

    /* bad options */
    o = band(0, 6);
    CU_ASSERT_EQUAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(p);
    o = band(5, 6);
    o.step = 0;
    CU_ASSERT_EQUAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), SWX_EINVAL);
    swx_plan_forecast_free(f);
    swx_voyage_free(v);
}

/* The best speed made good dead upwind from a polar file's column of
 * wind speed tws (which must be one of its columns): max over angles of
 * v cos(angle), v linear between the file's angles, every 0.01 degree. */
static double best_vmg(const char *path, double tws)
{
    FILE *f = fopen(path, "r");
    double ang[32], spd[32], best = 0;
    int col = -1, n = 0;
    char line[512];
    CU_ASSERT_FATAL(f != NULL);
    while (fgets(line, sizeof line, f) && n < 32) {
        char *save, *tok = strtok_r(line, "\t\n", &save);
        if (col < 0) { /* the header: find the column */
            for (int k = 0; (tok = strtok_r(NULL, "\t\n", &save)); k++)
                if (atof(tok) == tws)
                    col = k;
            CU_ASSERT_FATAL(col >= 0);
            continue;
        }
        ang[n] = atof(tok);
        for (int k = 0; k <= col; k++)
            tok = strtok_r(NULL, "\t\n", &save);
        spd[n++] = atof(tok);
    }
    fclose(f);
    for (int i = 0; i + 1 < n; i++)
        for (double a = ang[i]; a <= ang[i + 1]; a += 0.01) {
            double s = spd[i] + (a - ang[i]) / (ang[i + 1] - ang[i]) * (spd[i + 1] - spd[i]);
            double m = s * cos(a * M_PI / 180);
            best = m > best ? m : best;
        }
    return best;
}

static void test_polar_track(void)
{
    swx_voyage *v = route();
    double len = swx_voyage_length(v) / SWX_NM_M;
    size_t plen;
    char *text = cu_fixture("plan/cruiser.pol", &plen);
    swx_polar *pol = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_polar_parse(&pol, text, plen), 0);
    free(text);
    /* 10 kn from the east: abeam at 7.2 kn */
    swx_plan_forecast *f = steady(v, 72, -10 * SWX_KNOT_MPS, 0, 1);
    swx_plan_opts o = band(0, 0);
    o.polar = pol;
    swx_plan *p = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    const swx_plan_departure *r = swx_plan_row(p, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->arrive_early, T0 + len / 7.2 * 3600, 1);
    CU_ASSERT_DOUBLE_EQUAL(r->arrive_late, r->arrive_early, 0);
    CU_ASSERT_EQUAL(r->partial, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->max_wind_kn, 10, 1e-4);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_cell_wind_kn(p, 0, 5), 10, 1e-4);
    swx_plan_free(p);
    swx_plan_forecast_free(f);

    /* on the nose the polar gives nothing: the motoring speed (5 kn) takes over */
    f = steady(v, 72, 0, -10 * SWX_KNOT_MPS, 1);
    o.min_kn = 5;
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_row(p, 0)->arrive_early, T0 + len / 5 * 3600, 1);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_row(p, 0)->hours_upwind, len / 5, 1e-6);
    swx_plan_free(p);
    /* without an engine the boat beats to windward: tacks at the best VMG,
     * worked out here from the polar's 10 kn column (linear between its
     * angles) */
    o.min_kn = 0;
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    double vmg = best_vmg(cu_fixture_path("plan/cruiser.pol"), 10);
    CU_ASSERT(vmg > 4 && vmg < 5);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_row(p, 0)->arrive_early, T0 + len / vmg * 3600,
                           len / vmg * 3600 * 5e-4);
    CU_ASSERT_EQUAL(swx_plan_row(p, 0)->partial, 0);
    swx_plan_free(p);
    swx_plan_forecast_free(f);

    /* a calm, and no engine: no arrival, and the reason says the boat was
     * becalmed, not that the forecast is short */
    f = steady(v, 72, 0, 0, 1);
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, NULL, 0, NULL, &o), 0);
    CU_ASSERT(isnan(swx_plan_row(p, 0)->arrive_early));
    CU_ASSERT_EQUAL(swx_plan_row(p, 0)->partial, 1);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_row(p, 0)->becalmed_nm, 0, 1e-9);
    CU_ASSERT_PTR_NOT_NULL_FATAL(swx_plan_row(p, 0)->reason);
    CU_ASSERT(strncmp(swx_plan_row(p, 0)->reason, "becalmed from 0 nm of 120", 25) == 0);
    swx_plan_free(p);
    swx_plan_forecast_free(f);
    swx_polar_free(pol);
    swx_voyage_free(v);
}

/* A storm moving north along 140 W at 10 kn, 60 nm of 34 kt winds in its
 * north-east quadrant, at 14 N at T0 + 24 h (as in test_risk.c). */
static swx_storm *storm_north(void)
{
    swx_storm *s = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_new_empty(&s), 0);
    s->atcf_id = swx_storm_str(s, "EP012024", 8);
    s->storm_name = swx_storm_str(s, "ALETTA", 6);
    s->basin = swx_storm_str(s, "EP", 2);
    s->season = 2024;
    for (int i = 0; i < 4; i++) {
        swx_storm_pos *p;
        CU_ASSERT_EQUAL_FATAL(swx_storm_add_pos(&p, s, i >= 2), 0);
        p->lon = -140;
        p->lat = i < 2 ? 10 + i : 11 + 2 * (i - 1);
        p->radii[0].present = 1;
        p->radii[0].r[0] = 60;
        p->radii[0].r[1] = p->radii[0].r[2] = p->radii[0].r[3] = 0;
        if (i < 2) {
            p->time = T0 + i * 6 * 3600;
        } else {
            p->forecast_hour = 12 * (i - 1);
            p->forecast_time = T0 + 6 * 3600 + p->forecast_hour * 3600;
        }
    }
    CU_ASSERT_EQUAL_FATAL(swx_storm_finish(s), 0);
    return s;
}

static void test_storm(void)
{
    /* eastwards along 14 N across the storm's track, at 10 kn, timed to
     * reach 140 W with the storm; a day later the storm is far north */
    const char *csv = "lat,lon\n14,-142\n14,-138\n";
    swx_voyage *v = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_voyage_from_route(&v, csv, strlen(csv)), 0);
    double len = swx_voyage_length(v) / SWX_NM_M;
    int64_t meet = T0 + 24 * 3600, dep = meet - (int64_t)(len / 2 / 10 * 3600);
    swx_plan_forecast *f = NULL;
    size_t nt = 41;
    CU_ASSERT_EQUAL_FATAL(swx_plan_forecast_new(&f, v, 15, nt), 0);
    for (size_t k = 0; k < nt; k++)
        f->times[k] = T0 + (int64_t)k * 3 * 3600;
    for (size_t i = 0; i < f->ns * nt; i++) {
        f->value[i * SWX_PV_N + SWX_PV_U10] = 3;
        f->value[i * SWX_PV_N + SWX_PV_V10] = 0;
    }
    swx_storm *s = storm_north();
    const struct swx_storm *storms[] = {s};
    swx_plan_opts o = band(10, 10);
    o.from = dep;
    o.to = dep + 48 * 3600;
    o.step = 48 * 3600;
    swx_plan *p = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_plan_compute(&p, v, f, storms, 1, NULL, &o), 0);
    CU_ASSERT_EQUAL_FATAL(swx_plan_count(p), 2);
    const swx_plan_departure *r = swx_plan_row(p, 0);
    CU_ASSERT_STRING_EQUAL(r->storm_id, "EP012024");
    CU_ASSERT_STRING_EQUAL(r->storm_title, "ALETTA");
    CU_ASSERT(r->storm_cpa_nm < 1.0);
    CU_ASSERT(r->storm_danger_h > 0);
    CU_ASSERT(r->storm_r34_h > 0);
    CU_ASSERT_EQUAL(r->verdict, SWX_PLAN_NOGO);
    CU_ASSERT_STRING_EQUAL(r->reason, "inside the 34 kt winds of ALETTA");
    /* the cells at the crossing are marked, the first one is not */
    size_t mid = swx_plan_samples(p) / 2;
    CU_ASSERT_EQUAL(swx_plan_cell_storm(p, 0, mid), 1);
    CU_ASSERT_EQUAL(swx_plan_cell_storm(p, 0, 0), 0);
    /* the forecast's 3 m/s (5.8 kn) under-resolves the storm: inside its 34
     * kt radii the wind is taken as 34 kn at least, in the departure's
     * figures and the crossing's cell; the first cell keeps the forecast's */
    CU_ASSERT(r->max_wind_kn >= 34);
    CU_ASSERT(r->max_gust_kn >= 34);
    CU_ASSERT(swx_plan_cell_wind_kn(p, 0, mid) >= 34);
    CU_ASSERT_DOUBLE_EQUAL(swx_plan_cell_wind_kn(p, 0, 0), KN(3), 1e-4);
    /* two days later the storm is gone north: no storm cell, no storm rule
     * (its timeline has ended) */
    r = swx_plan_row(p, 1);
    CU_ASSERT_NOT_EQUAL(r->verdict, SWX_PLAN_NOGO);
    CU_ASSERT_EQUAL(swx_plan_cell_storm(p, 1, mid), 0);
    CU_ASSERT_DOUBLE_EQUAL(r->max_wind_kn, KN(3), 1e-4);
    swx_plan_free(p);
    swx_storm_free(s);
    swx_plan_forecast_free(f);
    swx_voyage_free(v);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("plan", NULL, NULL);
    CU_add_test(s, "a polar read and interpolated", test_polar_read);
    CU_add_test(s, "bad polars refused with their line and column", test_polar_refused);
    CU_add_test(s, "departures FROM/TO/STEP", test_departures);
    CU_add_test(s, "thresholds with their units", test_thresholds);
    CU_add_test(s, "sample points along the route", test_samples);
    CU_add_test(s, "a speed band in a steady wind", test_band);
    CU_add_test(s, "a forecast that ends early, missing values", test_partial_and_missing);
    CU_add_test(s, "a boat sailed by its polar", test_polar_track);
    CU_add_test(s, "a storm across the route", test_storm);
    return cu_run();
}
