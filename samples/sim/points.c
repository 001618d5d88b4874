/* points.c: point and time-series answers (see points.h). */
#include "points.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "buf.h"
#include "data.h"
#include "jout.h"
#include "timestamp.h"

#define PI 3.14159265358979323846
#define HOUR 3600
#define DAY 86400
#define MAX_RECORDS 2000

static double wave(double x)
{
    return sin(x);
}

/* ---- soil moisture ---- */

static void soil_values(struct sim_jout *j, double lat, double lon, int64_t t)
{
    double d = (double)t / DAY;
    double s = 0.5 + 0.5 * wave(lat * 0.11 + lon * 0.07 + d * 2 * PI / 365.0);
    if (!sim_jout_begin(j, "values", '{'))
        return;
    sim_jout_num(j, "soil_moisture_0_10cm", 0.08 + 0.32 * s, 4);
    sim_jout_num(j, "soil_moisture_10_40cm", 0.12 + 0.28 * s, 4);
    sim_jout_num(j, "soil_moisture_40_100cm", 0.15 + 0.22 * s, 4);
    sim_jout_num(j, "soil_temperature_0_10cm",
                 288.0 - fabs(lat) * 0.3 + 8 * wave(d * 2 * PI / 365.0 - 1.4), 2);
    sim_jout_end(j, '}');
}

static void soil_record(struct sim_jout *j, double lat, double lon, int64_t t)
{
    char ts[SWX_ISO8601_LEN];
    swx_iso8601_format(ts, t);
    sim_jout_begin(j, NULL, '{');
    if (sim_jout_begin(j, "location", '{')) {
        sim_jout_num(j, "lat", lat, 4);
        sim_jout_num(j, "lon", lon, 4);
        sim_jout_end(j, '}');
    }
    sim_jout_str(j, "time", ts);
    soil_values(j, lat, lon, t);
    sim_jout_end(j, '}');
}

static int soil_point(struct sim_request *rq, int historical)
{
    double lat, lon;
    int64_t t = sim_app_clock(rq->app), start = 0, end = 0;
    int given, g2;
    struct sim_buf b;
    struct sim_jout j;

    if (sim_data_latlon(rq, &lat, &lon))
        return 0;
    if (!historical) {
        if (sim_data_time(rq, "time", &given, &t))
            return 0;
        if (!given)
            t = sim_app_clock(rq->app) / HOUR * HOUR;
    } else {
        if (sim_data_time(rq, "start_time", &given, &start) ||
            sim_data_time(rq, "end_time", &g2, &end))
            return 0;
        if (!given || !g2)
            return sim_data_bad(rq, "start_time and end_time are required (ISO 8601)");
        if (end <= start)
            return sim_data_bad(rq, "end_time must be after start_time");
        if ((end - start) / DAY > 3660)
            return sim_data_bad(rq, "the range may span at most ten years");
    }
    sim_buf_init(&b, 8u << 20);
    sim_jout_init(&j, &b, NULL);
    sim_jout_begin(&j, NULL, '{');
    sim_jout_begin(&j, "data", '[');
    if (!historical) {
        soil_record(&j, lat, lon, t);
    } else {
        for (int64_t d = (start + DAY - 1) / DAY * DAY; d <= end; d += DAY)
            soil_record(&j, lat, lon, d);
    }
    sim_jout_end(&j, ']');
    sim_jout_end(&j, '}');
    return sim_data_json(rq, &b);
}

/* ---- current weather ---- */

static int weather_point(struct sim_request *rq)
{
    double lat, lon;
    int us, given;
    int64_t now = sim_app_clock(rq->app) / HOUR * HOUR, t0 = now, t1 = now;
    const char *time = sim_http_arg(rq, "time");
    const char *tz = sim_http_arg(rq, "tz");
    const char *mask = sim_http_header(rq, "X-Fields");
    struct sim_buf b;
    struct sim_jout j;

    if (sim_data_latlon(rq, &lat, &lon) || sim_data_units(rq, &us))
        return 0;
    if (mask != NULL && sim_xfields_valid(mask) != 0)
        return sim_data_bad(rq, "X-Fields is not a valid field mask");
    if (tz != NULL && (*tz == '\0' || strlen(tz) > 64))
        return sim_data_bad(rq, "tz must be a time zone identifier");
    if (time != NULL) {
        const char *slash = strchr(time, '/');
        char a[64];
        if (slash != NULL) {
            snprintf(a, sizeof(a), "%.*s", (int)(slash - time), time);
            if (sim_ts_parse(a, &t0) != 0 || sim_ts_parse(slash + 1, &t1) != 0 || t1 < t0)
                return sim_data_bad(rq, "time must be an ISO 8601 time or START/END range");
            if ((t1 - t0) / HOUR > MAX_RECORDS)
                return sim_data_bad(rq, "the time range may span at most %d hours", MAX_RECORDS);
        } else if (sim_data_time(rq, "time", &given, &t0)) {
            return 0;
        } else {
            t1 = t0;
        }
    }
    sim_buf_init(&b, 8u << 20);
    sim_jout_init(&j, &b, mask);
    sim_jout_begin(&j, NULL, '{');
    if (sim_jout_begin(&j, "meta", '{')) {
        sim_jout_str(&j, "unit_system", us ? "us" : "si");
        if (tz != NULL)
            sim_jout_str(&j, "tz", tz);
        sim_jout_end(&j, '}');
    }
    if (sim_jout_begin(&j, "data", '[')) {
        for (int64_t t = t0 / HOUR * HOUR; t <= t1; t += HOUR) {
            double h = (double)(t % DAY) / DAY;
            double temp_c = 14 - fabs(lat) * 0.25 + 5 * wave(2 * PI * h - 2 + lon * PI / 180);
            double rh = 70 + 20 * wave(2 * PI * h + lat * 0.1);
            double ws = 6 + 4 * wave((double)t / (7 * HOUR) + lon * 0.05);
            double wd = fmod(200 + 150 * wave((double)t / (11 * HOUR) + lat * 0.03) + 360, 360);
            char ts[SWX_ISO8601_LEN];
            swx_iso8601_format(ts, t);
            sim_jout_begin(&j, NULL, '{');
            if (sim_jout_begin(&j, "location", '{')) {
                if (sim_jout_begin(&j, "coordinates", '{')) {
                    sim_jout_num(&j, "lat", lat, 4);
                    sim_jout_num(&j, "lon", lon, 4);
                    sim_jout_end(&j, '}');
                }
                sim_jout_end(&j, '}');
            }
            if (sim_jout_begin(&j, "times", '{')) {
                sim_jout_str(&j, "observation_time", ts);
                sim_jout_end(&j, '}');
            }
            if (sim_jout_begin(&j, "values", '{')) {
                sim_jout_num(&j, "air_temperature", us ? temp_c * 9 / 5 + 32 : temp_c, 2);
                sim_jout_num(&j, "relative_humidity", rh, 1);
                sim_jout_num(&j, "wind_speed", us ? ws * 2.236936 : ws, 2);
                sim_jout_num(&j, "wind_direction", wd, 0);
                sim_jout_end(&j, '}');
            }
            sim_jout_end(&j, '}');
        }
        sim_jout_end(&j, ']');
    }
    sim_jout_end(&j, '}');
    return sim_data_json(rq, &b);
}

/* ---- tides ---- */

/* Height above mean sea level in meters: two constituents (M2, S2) and a
 * diurnal one whose amplitudes and phases vary with place. */
static double tide_m(double lat, double lon, double t)
{
    double h = t / HOUR;
    double a = 1.1 + 0.5 * wave(lat * 0.2 + lon * 0.1);
    return a * cos(2 * PI * h / 12.4206 - lon * PI / 180) +
           0.35 * cos(2 * PI * h / 12.0 - lat * PI / 90) +
           0.15 * cos(2 * PI * h / 23.9345 + lon * PI / 360);
}

static int64_t archive_first(void)
{
    return swx_days_from_civil(1990, 1, 1) * DAY;
}

static int64_t archive_end(void)
{
    return swx_days_from_civil(2026, 1, 1) * DAY;
}

static void tide_meta(struct sim_jout *j, int us)
{
    if (sim_jout_begin(j, "meta", '{')) {
        sim_jout_str(j, "unit_system", us ? "us" : "si");
        sim_jout_null(j, "message");
        sim_jout_end(j, '}');
    }
}

static int tides_point(struct sim_request *rq)
{
    double lat, lon;
    int us, given;
    int64_t start = 0;
    unsigned long hours = 240;
    const char *fh = sim_http_arg(rq, "forecast_hours");
    struct sim_buf b;
    struct sim_jout j;

    if (sim_data_latlon(rq, &lat, &lon) || sim_data_units(rq, &us) ||
        sim_data_time(rq, "start_datetime", &given, &start))
        return 0;
    if (!given)
        start = sim_app_clock(rq->app);
    start = start / HOUR * HOUR;
    if (fh != NULL) {
        char *end;
        hours = strtoul(fh, &end, 10);
        if (*fh < '0' || *fh > '9' || *end != '\0' || hours < 1 || hours > 240)
            return sim_data_bad(rq, "forecast_hours must be 1 to 240");
    }
    if (start < archive_first() || start + (int64_t)(hours - 1) * HOUR >= archive_end())
        return sim_data_bad(rq, "tide data is available from 1990-01-01 through 2025-12-31");
    sim_buf_init(&b, 8u << 20);
    sim_jout_init(&j, &b, NULL);
    sim_jout_begin(&j, NULL, '{');
    tide_meta(&j, us);
    sim_jout_begin(&j, "data", '[');
    for (unsigned long i = 0; i < hours; i++) {
        int64_t t = start + (int64_t)i * HOUR;
        double m = tide_m(lat, lon, (double)t);
        char ts[SWX_ISO8601_LEN];
        swx_iso8601_format(ts, t);
        ts[19] = '\0'; /* valid_time comes without a zone offset */
        sim_jout_begin(&j, NULL, '{');
        sim_jout_begin(&j, "location", '{');
        sim_jout_begin(&j, "coordinates", '{');
        sim_jout_num(&j, "lat", lat, 4);
        sim_jout_num(&j, "lon", lon, 4);
        sim_jout_end(&j, '}');
        sim_jout_end(&j, '}');
        sim_jout_begin(&j, "times", '{');
        sim_jout_str(&j, "valid_time", ts);
        sim_jout_end(&j, '}');
        sim_jout_begin(&j, "values", '[');
        sim_jout_begin(&j, NULL, '{');
        sim_jout_num(&j, "tide_height", us ? m * 3.28084 : m, 3);
        sim_jout_end(&j, '}');
        sim_jout_end(&j, ']');
        sim_jout_end(&j, '}');
    }
    sim_jout_end(&j, ']');
    sim_jout_end(&j, '}');
    return sim_data_json(rq, &b);
}

static int tides_extrema(struct sim_request *rq)
{
    double lat, lon;
    int us, g1, g2;
    int64_t start = 0, end = 0;
    struct sim_buf b;
    struct sim_jout j;

    if (sim_data_latlon(rq, &lat, &lon) || sim_data_units(rq, &us) ||
        sim_data_time(rq, "start_datetime", &g1, &start) ||
        sim_data_time(rq, "end_datetime", &g2, &end))
        return 0;
    if (!g1 || !g2)
        return sim_data_bad(rq, "start_datetime and end_datetime are required (ISO 8601)");
    if (end <= start)
        return sim_data_bad(rq, "end_datetime must be after start_datetime");
    if (start < archive_first() || end >= archive_end())
        return sim_data_bad(rq, "tide data is available from 1990-01-01 through 2025-12-31");
    if ((end - start) / DAY > 366)
        return sim_data_bad(rq, "the range may span at most 366 days");
    sim_buf_init(&b, 8u << 20);
    sim_jout_init(&j, &b, NULL);
    sim_jout_begin(&j, NULL, '{');
    tide_meta(&j, us);
    sim_jout_begin(&j, "data", '[');
    for (int64_t day = start / DAY * DAY; day <= end; day += DAY) {
        int64_t hi_t = day, lo_t = day;
        double hi = -1e9, lo = 1e9;
        char date[SWX_ISO8601_LEN], ts[SWX_ISO8601_LEN];
        for (int64_t t = day; t < day + DAY; t += 600) {
            double m = tide_m(lat, lon, (double)t);
            if (m > hi) {
                hi = m;
                hi_t = t;
            }
            if (m < lo) {
                lo = m;
                lo_t = t;
            }
        }
        swx_iso8601_format(date, day);
        date[10] = '\0';
        sim_jout_begin(&j, NULL, '{');
        sim_jout_str(&j, "date", date);
        for (int k = 0; k < 2; k++) {
            sim_jout_begin(&j, k ? "low" : "high", '{');
            swx_iso8601_format(ts, k ? lo_t : hi_t);
            sim_jout_str(&j, "time", ts);
            sim_jout_begin(&j, "values", '{');
            sim_jout_num(&j, "tide_height", (k ? lo : hi) * (us ? 3.28084 : 1), 3);
            sim_jout_end(&j, '}');
            sim_jout_end(&j, '}');
        }
        sim_jout_end(&j, '}');
    }
    sim_jout_end(&j, ']');
    sim_jout_end(&j, '}');
    return sim_data_json(rq, &b);
}

/* ---- forecast ---- */

struct fvar {
    const char *bundle, *name;
    double base, amp, us_factor, us_offset;
};

static const struct fvar fvars[] = {
    {"basic", "air_temperature", 12, 8, 1.8, 32},
    {"basic", "relative_humidity", 72, 18, 1, 0},
    {"basic", "dew_point_temperature", 7, 6, 1.8, 32},
    {"basic", "northward_wind", 0, 6, 2.236936, 0},
    {"basic", "eastward_wind", 2, 7, 2.236936, 0},
    {"maritime", "sea_surface_wave_significant_height", 1.8, 1.2, 3.28084, 0},
    {"maritime", "sea_surface_wave_mean_period", 7, 2, 1, 0},
    {"maritime", "sea_surface_temperature", 13, 4, 1.8, 32},
    {"agricultural", "soil_temperature", 11, 6, 1.8, 32},
    {"agricultural", "evapotranspiration", 2.5, 1.5, 0.0393701, 0},
    {"aviation", "cloud_base_height", 1200, 800, 3.28084, 0},
    {"aviation", "visibility", 15000, 9000, 0.000621371, 0},
    {"solar", "global_horizontal_irradiance", 250, 250, 1, 0},
    {"solar", "direct_normal_irradiance", 300, 300, 1, 0},
    {"wind", "wind_speed_100m", 9, 5, 2.236936, 0},
    {"wind", "wind_direction_100m", 200, 150, 1, 0},
};
#define NFVARS (sizeof(fvars) / sizeof(fvars[0]))

static int bundle_listed(const char *list, const char *bundle)
{
    size_t n = strlen(bundle);
    const char *p = list;
    while (p != NULL && *p != '\0') {
        const char *comma = strchr(p, ',');
        size_t m = comma != NULL ? (size_t)(comma - p) : strlen(p);
        if (m == n && strncmp(p, bundle, n) == 0)
            return 1;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return 0;
}

/* 0 when every bundle of the list is known. */
static int bundles_valid(const char *list)
{
    static const char *const known[] = {"basic",    "maritime", "agricultural",
                                        "aviation", "solar",    "wind"};
    const char *p = list;
    if (list == NULL || *list == '\0')
        return -1;
    while (p != NULL) {
        const char *comma = strchr(p, ',');
        size_t m = comma != NULL ? (size_t)(comma - p) : strlen(p);
        int ok = 0;
        for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
            ok |= strlen(known[i]) == m && strncmp(p, known[i], m) == 0;
        if (!ok)
            return -1;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return 0;
}

static int forecast_point(struct sim_request *rq, int latest)
{
    double lat, lon;
    int us;
    const char *bundles = sim_http_arg(rq, "bundles");
    int64_t run = (sim_app_clock(rq->app) - 4 * HOUR) / (6 * HOUR) * (6 * HOUR);
    char issued[SWX_ISO8601_LEN];
    struct sim_buf b;
    struct sim_jout j;

    if (sim_data_latlon(rq, &lat, &lon) || sim_data_units(rq, &us))
        return 0;
    if (bundles_valid(bundles) != 0)
        return sim_data_bad(rq, "bundles must be a comma list of basic, maritime, agricultural, "
                                "aviation, solar, wind");
    swx_iso8601_format(issued, run);
    sim_buf_init(&b, 8u << 20);
    sim_jout_init(&j, &b, NULL);
    sim_jout_begin(&j, NULL, '{');
    sim_jout_begin(&j, "meta", '{');
    sim_jout_str(&j, "unit_system", us ? "us" : "si");
    sim_jout_str(&j, "forecast", latest ? "sof-d latest" : "sof-d");
    sim_jout_end(&j, '}');
    sim_jout_begin(&j, "data", '[');
    for (int step = 0; step <= 48; step += 3) {
        int64_t t = run + (int64_t)step * HOUR;
        char ts[SWX_ISO8601_LEN];
        swx_iso8601_format(ts, t);
        sim_jout_begin(&j, NULL, '{');
        sim_jout_begin(&j, "location", '{');
        sim_jout_begin(&j, "coordinates", '{');
        sim_jout_num(&j, "lat", lat, 4);
        sim_jout_num(&j, "lon", lon, 4);
        sim_jout_end(&j, '}');
        sim_jout_end(&j, '}');
        sim_jout_begin(&j, "times", '{');
        sim_jout_str(&j, "issuance_time", issued);
        sim_jout_str(&j, "valid_time", ts);
        sim_jout_end(&j, '}');
        sim_jout_begin(&j, "values", '{');
        for (size_t v = 0; v < NFVARS; v++) {
            if (!bundle_listed(bundles, fvars[v].bundle))
                continue;
            double x = fvars[v].base +
                       fvars[v].amp * wave((double)t / (9 * HOUR) + (double)v + lat * 0.05);
            if (us)
                x = x * fvars[v].us_factor + fvars[v].us_offset;
            sim_jout_num(&j, fvars[v].name, x, 2);
        }
        sim_jout_end(&j, '}');
        sim_jout_end(&j, '}');
    }
    sim_jout_end(&j, ']');
    sim_jout_end(&j, '}');
    return sim_data_json(rq, &b);
}

int sim_points_handle(struct sim_request *rq)
{
    const char *p = rq->path;

    if (strcmp(p, "/soil-moisture/point") == 0)
        return soil_point(rq, 0);
    if (strcmp(p, "/soil-moisture/historical/point") == 0)
        return soil_point(rq, 1);
    if (strcmp(p, "/current/weather/point") == 0)
        return weather_point(rq);
    if (strcmp(p, "/tides/point") == 0)
        return tides_point(rq);
    if (strcmp(p, "/tides/point/extrema") == 0)
        return tides_extrema(rq);
    if (strcmp(p, "/forecast/point") == 0)
        return forecast_point(rq, 0);
    if (strcmp(p, "/forecast/latest/point") == 0)
        return forecast_point(rq, 1);
    return sim_http_reply_json_error(rq, 404, "not_found", "No such endpoint");
}
