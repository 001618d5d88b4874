/* points.c: point and time-series answers (see points.h). */
#include "points.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "buf.h"
#include "data.h"
#include "field.h"
#include "grib.h"
#include "jout.h"
#include "landmask.h"
#include "runs.h"
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

/* A point forecast is the forecast files read at one point: the run the file
 * listing names (sim_runs_newest), one record per forecast hour that has a
 * file (sim_grib_hour_valid: f000..f120 hourly, then 3-hourly to f240), and
 * each value the field of the maps and files (field.c) at the point, run and
 * valid time; a parameter the files carry comes through
 * sim_grib_forecast_value, so at a grid node it is the file's value within
 * its packing precision. A value the files or maps leave out (a sea variable
 * over land, a land one over sea, precipitation at f000, whose file has no
 * accumulation yet) is null.
 *
 *   variable                              bundles         si      us     from
 *   air_temperature                       basic           degC    degF   2t
 *   relative_humidity                     basic           %       %      field RH
 *   dew_point_temperature                 basic           degC    degF   field D2M
 *   eastward_wind, northward_wind         basic, wind     m s-1   mph    10u, 10v
 *   wind_speed_of_gust                    basic, wind     m s-1   mph    i10fg
 *   air_pressure_at_mean_sea_level        basic           Pa      inHg   prmsl
 *   precipitation_amount                  basic           mm      in     tp: over the file's
 *                                                                        interval ending at
 *                                                                        the valid time
 *   sea_surface_wave_significant_height   maritime        m       ft     swh (sea)
 *   sea_surface_wave_from_direction       maritime        deg     deg    mwd (sea)
 *   sea_surface_wave_mean_period          maritime        s       s      mwp (sea)
 *   sea_surface_temperature               maritime        degC    degF   field SST (sea)
 *   soil_temperature                      agricultural    degC    degF   field STL1 (land)
 *   evapotranspiration                    agricultural    mm      in     field EVAP
 *   cloud_base_height                     aviation        m       ft     125 m per K of T2M - D2M
 *   visibility                            aviation        m       mi     field VIS
 *   global_horizontal_irradiance          solar           W m-2   W m-2  field SSRD
 *   direct_normal_irradiance              solar           W m-2   W m-2  field FDIR
 *   wind_speed_100m                       wind            m s-1   mph    |(100u, 100v)|
 *   wind_direction_100m                   wind            deg     deg    from 100u, 100v
 * Directions are where the wind or waves come from, clockwise from north. */

enum fbundle {
    FB_BASIC = 1,
    FB_MARITIME = 2,
    FB_AGRICULTURAL = 4,
    FB_AVIATION = 8,
    FB_SOLAR = 16,
    FB_WIND = 32,
};

static const char *const fbundle_names[] = {"basic",    "maritime", "agricultural",
                                            "aviation", "solar",    "wind"};
#define NFBUNDLES (sizeof(fbundle_names) / sizeof(fbundle_names[0]))

enum fsource {
    FS_GRIB,      /* a parameter of the files, by short name */
    FS_FIELD,     /* a field of the maps */
    FS_SPEED100,  /* speed of (100u, 100v) */
    FS_DIR100,    /* direction (from) of (100u, 100v) */
    FS_CLOUDBASE, /* 125 m per K of dew point depression */
};

enum fmask { FM_NONE, FM_SEA, FM_LAND };

struct fvar {
    const char *name;
    unsigned bundles;
    enum fsource src;
    const char *grib;
    enum sim_field field;
    enum fmask mask;  /* where a field has no value (the maps' transparency) */
    double si_offset; /* SI value = source value + si_offset (K to degC) */
    double us_factor; /* US value = SI value * us_factor + us_offset */
    double us_offset;
    int si_dec, us_dec; /* decimals written */
};

#define MPH 2.2369362920544
#define K_TO_C -273.15

/* One row per variable, in the order they are written. */
static const struct fvar fvars[] = {
    {"air_temperature", FB_BASIC, FS_GRIB, "2t", 0, FM_NONE, K_TO_C, 1.8, 32, 2, 2},
    {"relative_humidity", FB_BASIC, FS_FIELD, NULL, SIM_F_RH, FM_NONE, 0, 1, 0, 2, 2},
    {"dew_point_temperature", FB_BASIC, FS_FIELD, NULL, SIM_F_D2M, FM_NONE, K_TO_C, 1.8, 32, 2, 2},
    {"northward_wind", FB_BASIC | FB_WIND, FS_GRIB, "10v", 0, FM_NONE, 0, MPH, 0, 2, 2},
    {"eastward_wind", FB_BASIC | FB_WIND, FS_GRIB, "10u", 0, FM_NONE, 0, MPH, 0, 2, 2},
    {"wind_speed_of_gust", FB_BASIC | FB_WIND, FS_GRIB, "i10fg", 0, FM_NONE, 0, MPH, 0, 2, 2},
    {"air_pressure_at_mean_sea_level", FB_BASIC, FS_GRIB, "prmsl", 0, FM_NONE, 0,
     0.00029529983071445, 0, 1, 4},
    {"precipitation_amount", FB_BASIC, FS_GRIB, "tp", 0, FM_NONE, 0, 0.03937007874, 0, 3, 4},
    {"sea_surface_wave_significant_height", FB_MARITIME, FS_GRIB, "swh", 0, FM_NONE, 0, 3.280839895,
     0, 3, 3},
    {"sea_surface_wave_from_direction", FB_MARITIME, FS_GRIB, "mwd", 0, FM_NONE, 0, 1, 0, 2, 2},
    {"sea_surface_wave_mean_period", FB_MARITIME, FS_GRIB, "mwp", 0, FM_NONE, 0, 1, 0, 2, 2},
    {"sea_surface_temperature", FB_MARITIME, FS_FIELD, NULL, SIM_F_SST, FM_SEA, K_TO_C, 1.8, 32, 2,
     2},
    {"soil_temperature", FB_AGRICULTURAL, FS_FIELD, NULL, SIM_F_STL1, FM_LAND, K_TO_C, 1.8, 32, 2,
     2},
    {"evapotranspiration", FB_AGRICULTURAL, FS_FIELD, NULL, SIM_F_EVAP, FM_NONE, 0, 0.03937007874,
     0, 3, 4},
    {"cloud_base_height", FB_AVIATION, FS_CLOUDBASE, NULL, 0, FM_NONE, 0, 3.280839895, 0, 1, 1},
    {"visibility", FB_AVIATION, FS_FIELD, NULL, SIM_F_VIS, FM_NONE, 0, 0.000621371192, 0, 1, 3},
    {"global_horizontal_irradiance", FB_SOLAR, FS_FIELD, NULL, SIM_F_SSRD, FM_NONE, 0, 1, 0, 1, 1},
    {"direct_normal_irradiance", FB_SOLAR, FS_FIELD, NULL, SIM_F_FDIR, FM_NONE, 0, 1, 0, 1, 1},
    {"wind_speed_100m", FB_WIND, FS_SPEED100, NULL, 0, FM_NONE, 0, MPH, 0, 2, 2},
    {"wind_direction_100m", FB_WIND, FS_DIR100, NULL, 0, FM_NONE, 0, 1, 0, 2, 2},
};
#define NFVARS (sizeof(fvars) / sizeof(fvars[0]))

/* The bundles of a comma list as FB_ bits; 0 when the list is empty or names
 * a bundle that does not exist. */
static unsigned bundles_parse(const char *list)
{
    unsigned bits = 0;
    const char *p = list;

    if (list == NULL || *list == '\0')
        return 0;
    while (p != NULL) {
        const char *comma = strchr(p, ',');
        size_t m = comma != NULL ? (size_t)(comma - p) : strlen(p);
        unsigned bit = 0;
        for (size_t i = 0; i < NFBUNDLES; i++)
            if (strlen(fbundle_names[i]) == m && strncmp(p, fbundle_names[i], m) == 0)
                bit = 1u << i;
        if (bit == 0)
            return 0;
        bits |= bit;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return bits;
}

/* A field of the maps at one point, as the files' grid (grib.c) evaluates it:
 * longitude in -180..180, the land mask of that point. */
static int field_at(enum sim_field f, double lon, double lat, const struct sim_when *w, int *land,
                    double *out)
{
    double glon = lon >= 180 ? lon - 360 : lon;
    uint8_t l = (uint8_t)sim_landmask_at(sim_landmask_row(lat), sim_landmask_col(glon));
    struct sim_grid g = {1, 1, &glon, &lat, &l};
    float v;

    if (sim_field_eval(f, &g, w, &v) != 0)
        return -2;
    *land = l;
    *out = v;
    return 0;
}

/* One variable at the point for the run's forecast hour, in SI units: 0, 1
 * when there is no value there, negative when out of memory. */
static int fvar_value(const struct fvar *v, double lat, double lon, int64_t run, int hour,
                      double *out)
{
    struct sim_when w = {run + (int64_t)hour * HOUR, run};
    double a, b;
    int land = 0, rc;

    switch (v->src) {
    case FS_GRIB:
        rc = sim_grib_forecast_value(v->grib, lon, lat, run, hour, &a);
        break;
    case FS_FIELD:
        rc = field_at(v->field, lon, lat, &w, &land, &a);
        if (rc == 0 && ((v->mask == FM_SEA && land) || (v->mask == FM_LAND && !land)))
            rc = 1;
        break;
    case FS_SPEED100:
    case FS_DIR100:
        rc = sim_grib_forecast_value("100u", lon, lat, run, hour, &a);
        if (rc == 0)
            rc = sim_grib_forecast_value("100v", lon, lat, run, hour, &b);
        if (rc == 0 && v->src == FS_SPEED100)
            a = hypot(a, b);
        else if (rc == 0) {
            a = atan2(-a, -b) * 180 / PI;
            if (a < 0)
                a += 360;
        }
        break;
    case FS_CLOUDBASE:
        rc = field_at(SIM_F_T2M, lon, lat, &w, &land, &a);
        if (rc == 0)
            rc = field_at(SIM_F_D2M, lon, lat, &w, &land, &b);
        if (rc == 0)
            a = fmax(0, 125 * (a - b));
        break;
    default:
        rc = -1;
        break;
    }
    if (rc != 0)
        return rc < 0 ? -1 : 1;
    *out = a + v->si_offset;
    return 0;
}

static int forecast_point(struct sim_request *rq, int latest)
{
    double lat, lon;
    int us, failed = 0;
    unsigned bundles;
    int64_t run = sim_runs_newest(sim_app_clock(rq->app));
    char issued[SWX_ISO8601_LEN];
    struct sim_buf b;
    struct sim_jout j;

    if (sim_data_latlon(rq, &lat, &lon) || sim_data_units(rq, &us))
        return 0;
    bundles = bundles_parse(sim_http_arg(rq, "bundles"));
    if (bundles == 0)
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
    for (int hour = 0; hour <= SIM_GRIB_LAST_HOUR && !failed; hour++) {
        if (!sim_grib_hour_valid(hour))
            continue;
        int64_t t = run + (int64_t)hour * HOUR;
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
        for (size_t i = 0; i < NFVARS; i++) {
            const struct fvar *v = &fvars[i];
            double x;
            int rc;
            if (!(v->bundles & bundles))
                continue;
            rc = fvar_value(v, lat, lon, run, hour, &x);
            if (rc < 0) {
                failed = 1;
                break;
            }
            if (rc > 0) {
                sim_jout_null(&j, v->name);
                continue;
            }
            int dec = us ? v->us_dec : v->si_dec;
            x = us ? x * v->us_factor + v->us_offset : x;
            if (fabs(x) < 0.5 * pow(10, -dec))
                x = 0; /* 0, not -0, once rounded */
            sim_jout_num(&j, v->name, x, dec);
        }
        sim_jout_end(&j, '}');
        sim_jout_end(&j, '}');
    }
    sim_jout_end(&j, ']');
    sim_jout_end(&j, '}');
    if (failed) {
        sim_buf_free(&b);
        return sim_http_reply_json_error(rq, 500, "internal", "out of memory");
    }
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
