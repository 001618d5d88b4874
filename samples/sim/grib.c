/* grib.c: forecast and current-weather GRIB2 files (see grib.h). */
#include "grib.h"

#include <eccodes.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "field.h"
#include "landmask.h"
#include "seawx/atomicfile.h"
#include "timestamp.h"

#define HOUR 3600
#define STEP 0.25
/* Bump when the content of a file of a given name changes: old caches are
 * then left alone. */
#define CACHE_VERSION "3"
#define MAX_FILE (256u << 20)
#define MISSING 9999.0
/* Cache entries not made again for this long are removed (runs move on every
 * 6 h, current-weather names every hour): the folder stays bounded. */
#define KEEP_SECONDS (2 * 86400)
/* A temporary this old belongs to a writer that died. */
#define TMP_SECONDS 3600
/* surface level: scale and value missing */
#define NO_LEVEL -1

struct region {
    const char *name;
    double north, south, west, east; /* degrees; west/east in -180..360 */
};

static const struct region regions[] = {
    {"global", 90, -90, 0, 359.75},
    {"europe", 72, 30, -25, 45},
    {"north-atlantic", 65, 0, -80, 0},
    {"caribbean", 32, 8, -90, -55},
};
#define NREGIONS (sizeof(regions) / sizeof(regions[0]))

enum source { SRC_FIELD, SRC_VEC_U, SRC_VEC_V };

struct param {
    const char *short_name;
    enum source src;
    enum sim_field field;
    enum sim_vector vec;
    double scale; /* GRIB value = SI value * scale */
    long disc, cat, num;
    long surface; /* typeOfFirstFixedSurface */
    long level;   /* scaledValueOfFirstFixedSurface, NO_LEVEL = missing */
    long dscale;  /* decimalScaleFactor */
    int sea_only;
    int accum; /* accumulation over the 3 h before the valid time */
};

static const struct param p_u10 = {.short_name = "10u",
                                   .src = SRC_FIELD,
                                   .field = SIM_F_U10,
                                   .scale = 1,
                                   .disc = 0,
                                   .cat = 2,
                                   .num = 2,
                                   .surface = 103,
                                   .level = 10,
                                   .dscale = 1};
static const struct param p_v10 = {.short_name = "10v",
                                   .src = SRC_FIELD,
                                   .field = SIM_F_V10,
                                   .scale = 1,
                                   .disc = 0,
                                   .cat = 2,
                                   .num = 3,
                                   .surface = 103,
                                   .level = 10,
                                   .dscale = 1};
static const struct param p_gust = {.short_name = "i10fg",
                                    .src = SRC_FIELD,
                                    .field = SIM_F_GUST,
                                    .scale = 1,
                                    .disc = 0,
                                    .cat = 2,
                                    .num = 22,
                                    .surface = 103,
                                    .level = 10,
                                    .dscale = 1};
static const struct param p_prmsl = {.short_name = "prmsl",
                                     .src = SRC_FIELD,
                                     .field = SIM_F_PMSL,
                                     .scale = 1,
                                     .disc = 0,
                                     .cat = 3,
                                     .num = 1,
                                     .surface = 101,
                                     .level = NO_LEVEL,
                                     .dscale = -1};
static const struct param p_t2m = {.short_name = "2t",
                                   .src = SRC_FIELD,
                                   .field = SIM_F_T2M,
                                   .scale = 1,
                                   .disc = 0,
                                   .cat = 0,
                                   .num = 0,
                                   .surface = 103,
                                   .level = 2,
                                   .dscale = 1};
/* the WMS tp field is metres in 3 h */
static const struct param p_tp = {.short_name = "tp",
                                  .src = SRC_FIELD,
                                  .field = SIM_F_TP,
                                  .scale = 1000,
                                  .disc = 0,
                                  .cat = 1,
                                  .num = 8,
                                  .surface = 1,
                                  .level = NO_LEVEL,
                                  .dscale = 1,
                                  .accum = 1};
static const struct param p_prate = {.short_name = "prate",
                                     .src = SRC_FIELD,
                                     .field = SIM_F_TP,
                                     .scale = 1000.0 / 10800.0,
                                     .disc = 0,
                                     .cat = 1,
                                     .num = 7,
                                     .surface = 1,
                                     .level = NO_LEVEL,
                                     .dscale = 6};
static const struct param p_swh = {.short_name = "swh",
                                   .src = SRC_FIELD,
                                   .field = SIM_F_SWH,
                                   .scale = 1,
                                   .disc = 10,
                                   .cat = 0,
                                   .num = 3,
                                   .surface = 1,
                                   .level = NO_LEVEL,
                                   .dscale = 2,
                                   .sea_only = 1};
static const struct param p_mwd = {.short_name = "mwd",
                                   .src = SRC_FIELD,
                                   .field = SIM_F_MWD,
                                   .scale = 1,
                                   .disc = 10,
                                   .cat = 0,
                                   .num = 14,
                                   .surface = 1,
                                   .level = NO_LEVEL,
                                   .dscale = 1,
                                   .sea_only = 1};
static const struct param p_mwp = {.short_name = "mwp",
                                   .src = SRC_FIELD,
                                   .field = SIM_F_MWP,
                                   .scale = 1,
                                   .disc = 10,
                                   .cat = 0,
                                   .num = 15,
                                   .surface = 1,
                                   .level = NO_LEVEL,
                                   .dscale = 1,
                                   .sea_only = 1};
static const struct param p_u100 = {.short_name = "100u",
                                    .src = SRC_VEC_U,
                                    .vec = SIM_VEC_WIND100,
                                    .scale = 1,
                                    .disc = 0,
                                    .cat = 2,
                                    .num = 2,
                                    .surface = 103,
                                    .level = 100,
                                    .dscale = 1};
static const struct param p_v100 = {.short_name = "100v",
                                    .src = SRC_VEC_V,
                                    .vec = SIM_VEC_WIND100,
                                    .scale = 1,
                                    .disc = 0,
                                    .cat = 2,
                                    .num = 3,
                                    .surface = 103,
                                    .level = 100,
                                    .dscale = 1};

/* Surface ocean currents (WMO discipline 10, category 1, numbers 2 and 3, at
 * depth below sea level 0), in the maritime files only when
 * SEAWX_SIM_GRIB_CURRENTS is set (currents_on()): the maritime files without
 * them stay as they were, byte for byte. */
static const struct param p_ocu = {.short_name = "ocu",
                                   .src = SRC_FIELD,
                                   .field = SIM_F_OCU,
                                   .scale = 1,
                                   .disc = 10,
                                   .cat = 1,
                                   .num = 2,
                                   .surface = 160,
                                   .level = 0,
                                   .dscale = 2,
                                   .sea_only = 1};
static const struct param p_ocv = {.short_name = "ocv",
                                   .src = SRC_FIELD,
                                   .field = SIM_F_OCV,
                                   .scale = 1,
                                   .disc = 10,
                                   .cat = 1,
                                   .num = 3,
                                   .surface = 160,
                                   .level = 0,
                                   .dscale = 2,
                                   .sea_only = 1};

/* SEAWX_SIM_GRIB_CENTRE=ecmwf: the fields ECMWF encodes otherwise, as its
 * GRIB2 files carry them: mean sea-level pressure as pressure (0/3/0) on
 * the mean sea-level surface (`msl`), and total precipitation in metres
 * under its own table's 0/1/193 (`tp`, local tables version 1). */
static const struct param p_msl = {.short_name = "prmsl",
                                   .src = SRC_FIELD,
                                   .field = SIM_F_PMSL,
                                   .scale = 1,
                                   .disc = 0,
                                   .cat = 3,
                                   .num = 0,
                                   .surface = 101,
                                   .level = NO_LEVEL,
                                   .dscale = -1};
static const struct param p_tp_ecmwf = {.short_name = "tp",
                                        .src = SRC_FIELD,
                                        .field = SIM_F_TP,
                                        .scale = 1,
                                        .disc = 0,
                                        .cat = 1,
                                        .num = 193,
                                        .surface = 1,
                                        .level = NO_LEVEL,
                                        .dscale = 4,
                                        .accum = 1};

static const struct param *const basic[] = {&p_u10, &p_v10, &p_gust, &p_prmsl, &p_t2m, &p_tp, NULL};
static const struct param *const basic4[] = {&p_u10, &p_v10, &p_gust, &p_prmsl, NULL};
static const struct param *const maritime[] = {&p_swh, &p_mwd, &p_mwp, NULL};
static const struct param *const maritime_cur[] = {&p_swh, &p_mwd, &p_mwp, &p_ocu, &p_ocv, NULL};
static const struct param *const wind[] = {&p_u10, &p_v10, &p_gust, &p_u100, &p_v100, NULL};
static const struct param *const current[] = {&p_u10, &p_v10,   &p_gust, &p_prmsl,
                                              &p_t2m, &p_prate, NULL};
static const struct param *const all[] = {&p_u10,  &p_v10,   &p_gust, &p_prmsl, &p_t2m,
                                          &p_tp,   &p_prate, &p_swh,  &p_mwd,   &p_mwp,
                                          &p_u100, &p_v100,  &p_ocu,  &p_ocv};

struct bundle {
    const char *name;
    const struct param *const *params;
};

static const struct bundle bundles[] = {
    {"basic", basic},        {"maritime", maritime}, {"wind", wind},
    {"agricultural", basic}, {"aviation", basic},    {"solar", basic},
};

/* A file name, taken apart. */
struct file {
    int current;
    int64_t ref; /* reference time */
    int hour;    /* forecast hour */
    const struct param *const *params;
    const struct region *region;
};

static pthread_mutex_t make_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether the maritime files hold the ocean currents too. */
static int currents_on(void)
{
    const char *v = getenv("SEAWX_SIM_GRIB_CURRENTS");
    return v != NULL && *v != '\0' && strcmp(v, "0") != 0;
}

/* SEAWX_SIM_GRIB_CENTRE: "ecmwf" or "ncep", the centre whose encoding the
 * forecast files take; "" (unset): the sample's centre, NCEP's codes. */
static const char *centre_env(void)
{
    const char *v = getenv("SEAWX_SIM_GRIB_CENTRE");
    return v != NULL && (strcmp(v, "ecmwf") == 0 || strcmp(v, "ncep") == 0) ? v : "";
}

/* SEAWX_SIM_GRIB_PACKING=simple: every field simply packed (template 5.0,
 * no bitmap where nothing is missing), as ECMWF's open data is, whose values
 * sit at known bytes; otherwise complex packing (5.2) as below. */
static int simple_on(void)
{
    const char *v = getenv("SEAWX_SIM_GRIB_PACKING");
    return v != NULL && strcmp(v, "simple") == 0;
}

/* SEAWX_SIM_GRIB_FIELDS=4: the basic files hold four fields (10 m wind,
 * gust, pressure), as a provider's files of only what sailors ask for do. */
static int four_on(void)
{
    const char *v = getenv("SEAWX_SIM_GRIB_FIELDS");
    return v != NULL && strcmp(v, "4") == 0;
}

static int ecmwf_on(void)
{
    return strcmp(centre_env(), "ecmwf") == 0;
}

/* The parameter as the files' centre encodes it. */
static const struct param *as_centre(const struct param *p)
{
    if (!ecmwf_on())
        return p;
    return p == &p_prmsl ? &p_msl : p == &p_tp ? &p_tp_ecmwf : p;
}

int sim_grib_hour_valid(int hour)
{
    if (hour < 0 || hour > SIM_GRIB_LAST_HOUR)
        return 0;
    return hour <= SIM_GRIB_LAST_HOURLY || hour % 3 == 0;
}

static const struct region *find_region(const char *name)
{
    for (size_t i = 0; i < NREGIONS; i++)
        if (strcmp(regions[i].name, name) == 0)
            return &regions[i];
    return NULL;
}

int sim_grib_region_known(const char *region)
{
    return find_region(region) != NULL;
}

const char *sim_grib_regions(void)
{
    return "global, europe, north-atlantic, caribbean";
}

static int all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* "YYYYMMDD" and "HH" to an instant; -1 for a date that does not exist. */
static int date_hour(const char *ymd, const char *hh, int64_t *out)
{
    int y = atoi(ymd) / 10000, m = atoi(ymd) / 100 % 100, d = atoi(ymd) % 100, h = atoi(hh);
    int y2, m2, d2, h2, mi2, s2;
    int64_t t;

    if (y < 1970 || y > 2200 || m < 1 || m > 12 || d < 1 || d > 31 || h > 23)
        return -1;
    t = swx_days_from_civil(y, (unsigned)m, (unsigned)d) * 86400 + (int64_t)h * HOUR;
    swx_civil_from_time(&y2, &m2, &d2, &h2, &mi2, &s2, t);
    if (y2 != y || m2 != m || d2 != d)
        return -1;
    *out = t;
    return 0;
}

static int parse(const char *name, struct file *f)
{
    char ymd[9], hh[3], bundle[32], region[64], fh[4];
    int n = 0;

    memset(f, 0, sizeof(*f));
    if (strlen(name) > 200)
        return -1;
    if (strncmp(name, "sof-d.", 6) == 0) {
        if (sscanf(name, "sof-d.%8[0-9].t%2[0-9]z.0p25.%31[a-z].%63[a-z0-9_-].f%3[0-9].grib2%n",
                   ymd, hh, bundle, region, fh, &n) != 5 ||
            (size_t)n != strlen(name) || strlen(fh) != 3)
            return -1;
        f->params = NULL;
        for (size_t i = 0; i < sizeof(bundles) / sizeof(bundles[0]); i++)
            if (strcmp(bundles[i].name, bundle) == 0)
                f->params = bundles[i].params;
        if (f->params == maritime && currents_on())
            f->params = maritime_cur;
        if (f->params == basic && strcmp(bundle, "basic") == 0 && four_on())
            f->params = basic4;
        f->hour = atoi(fh);
        if (f->params == NULL || !sim_grib_hour_valid(f->hour) || atoi(hh) % 6 != 0)
            return -1;
    } else {
        if (sscanf(name, "cwc.%8[0-9].t%2[0-9]z.0p027.basic.%63[a-z0-9_-].grib2%n", ymd, hh, region,
                   &n) != 3 ||
            (size_t)n != strlen(name))
            return -1;
        f->current = 1;
        f->params = current;
    }
    if (strlen(ymd) != 8 || strlen(hh) != 2 || !all_digits(ymd, 8) ||
        date_hour(ymd, hh, &f->ref) != 0)
        return -1;
    f->region = find_region(region);
    return f->region != NULL ? 0 : -1;
}

int sim_grib_name_ok(const char *name)
{
    struct file f;
    return parse(name, &f) == 0;
}

/* ---- values ----------------------------------------------------------------- */

/* The grid of a region: longitudes as the field functions take them
 * (-180..180), latitudes north to south, the land mask. */
struct grid {
    struct sim_grid g;
    double *lon, *lat;
    uint8_t *land;
};

static double wrap180(double lon)
{
    while (lon >= 180)
        lon -= 360;
    while (lon < -180)
        lon += 360;
    return lon;
}

static int grid_make(struct grid *gr, double west, double east, double north, double south)
{
    size_t nx = (size_t)lround((east - west) / STEP) + 1;
    size_t ny = (size_t)lround((north - south) / STEP) + 1;

    memset(gr, 0, sizeof(*gr));
    gr->lon = malloc(nx * sizeof(double));
    gr->lat = malloc(ny * sizeof(double));
    gr->land = malloc(nx * ny);
    if (gr->lon == NULL || gr->lat == NULL || gr->land == NULL)
        return -1;
    for (size_t i = 0; i < nx; i++)
        gr->lon[i] = wrap180(west + (double)i * STEP);
    for (size_t j = 0; j < ny; j++)
        gr->lat[j] = north - (double)j * STEP;
    for (size_t j = 0; j < ny; j++) {
        uint32_t row = sim_landmask_row(gr->lat[j]);
        for (size_t i = 0; i < nx; i++)
            gr->land[j * nx + i] = (uint8_t)sim_landmask_at(row, sim_landmask_col(gr->lon[i]));
    }
    gr->g.nx = nx;
    gr->g.ny = ny;
    gr->g.lon = gr->lon;
    gr->g.lat = gr->lat;
    gr->g.land = gr->land;
    return 0;
}

static void grid_free(struct grid *gr)
{
    free(gr->lon);
    free(gr->lat);
    free(gr->land);
}

/* Values of p on the grid in GRIB units, MISSING where masked. hours: length of
 * the accumulation for an accumulated parameter. */
static int eval(const struct param *p, const struct grid *gr, const struct sim_when *w,
                double hours, double *out)
{
    size_t n = gr->g.nx * gr->g.ny;
    float *a = malloc(n * sizeof(float)), *b = NULL;
    double scale = p->scale * (p->accum ? hours / 3.0 : 1.0);
    int rc;

    if (a == NULL)
        return -1;
    if (p->src == SRC_FIELD) {
        rc = sim_field_eval(p->field, &gr->g, w, a);
    } else {
        b = malloc(n * sizeof(float));
        rc = b != NULL ? sim_field_vector(p->vec, &gr->g, w, a, b) : -1;
    }
    if (rc == 0) {
        const float *v = p->src == SRC_VEC_V ? b : a;
        for (size_t i = 0; i < n; i++)
            out[i] = p->sea_only && gr->land[i] ? MISSING : (double)v[i] * scale;
    }
    free(a);
    free(b);
    return rc;
}

/* The value of the parameter named short_name at one point, as eval gives it
 * on a grid through that point (the same bits as at a file's grid node). */
static int point_value(const char *short_name, double lon, double lat, const struct sim_when *w,
                       double hours, double *out)
{
    const struct param *p = NULL;
    struct grid gr;
    int rc;

    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (strcmp(all[i]->short_name, short_name) == 0)
            p = all[i];
    if (p == NULL)
        return -1;
    if (grid_make(&gr, lon, lon, lat, lat) != 0 || eval(p, &gr, w, hours, out) != 0) {
        grid_free(&gr);
        return -2;
    }
    rc = *out == MISSING ? 1 : 0;
    grid_free(&gr);
    return rc;
}

int sim_grib_value(const char *short_name, double lon, double lat, int64_t valid, int64_t run,
                   double *out)
{
    struct sim_when w = {valid, run};

    return point_value(short_name, lon, lat, &w, 3, out);
}

int sim_grib_forecast_value(const char *short_name, double lon, double lat, int64_t run, int hour,
                            double *out)
{
    struct sim_when w = {run + (int64_t)hour * HOUR, run};
    int acc = hour < 3 ? hour : 3; /* as make_file accumulates */

    if (!sim_grib_hour_valid(hour))
        return -1;
    if (strcmp(short_name, p_tp.short_name) == 0 && acc == 0)
        return 1; /* no tp message at the run's own time */
    return point_value(short_name, lon, lat, &w, acc, out);
}

/* ---- encoding ----------------------------------------------------------------- */

#define CHECK(call)                                                                                \
    do {                                                                                           \
        int e_ = (call);                                                                           \
        if (e_ != 0) {                                                                             \
            fprintf(stderr, "seawx-sim: ecCodes: %s: %s\n", #call, codes_get_error_message(e_));   \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)

/* Writes one message of p to out. */
static int encode(FILE *out, const struct file *f, const struct param *p, const struct grid *gr,
                  const double *vals)
{
    const struct region *r = f->region;
    codes_handle *h = codes_grib_handle_new_from_samples(NULL, "regular_ll_sfc_grib2");
    int y, mo, d, hh, mi, s;
    double east = r->east < 0 ? r->east + 360 : r->east;
    double west = r->west < 0 ? r->west + 360 : r->west;
    int acc = p->accum ? (f->hour < 3 ? f->hour : 3) : 0;
    const void *msg;
    size_t len;
    int has_missing = 0;
    long bits = 0;

    if (h == NULL) {
        fprintf(stderr, "seawx-sim: ecCodes has no regular_ll_sfc_grib2 sample\n");
        return -1;
    }
    swx_civil_from_time(&y, &mo, &d, &hh, &mi, &s, f->ref);
    if (p->accum)
        CHECK(codes_set_long(h, "productDefinitionTemplateNumber", 8));
    CHECK(codes_set_long(h, "Ni", (long)gr->g.nx));
    CHECK(codes_set_long(h, "Nj", (long)gr->g.ny));
    CHECK(codes_set_double(h, "latitudeOfFirstGridPointInDegrees", r->north));
    CHECK(codes_set_double(h, "longitudeOfFirstGridPointInDegrees", west));
    CHECK(codes_set_double(h, "latitudeOfLastGridPointInDegrees", r->south));
    CHECK(codes_set_double(h, "longitudeOfLastGridPointInDegrees", east));
    CHECK(codes_set_double(h, "iDirectionIncrementInDegrees", STEP));
    CHECK(codes_set_double(h, "jDirectionIncrementInDegrees", STEP));
    CHECK(codes_set_long(h, "dataDate", (long)y * 10000 + mo * 100 + d));
    CHECK(codes_set_long(h, "dataTime", (long)hh * 100));
    CHECK(codes_set_long(h, "significanceOfReferenceTime", f->current ? 0 : 1));
    CHECK(codes_set_long(h, "typeOfProcessedData", f->current ? 0 : 1));
    if (*centre_env()) {
        const char *cn = ecmwf_on() ? "ecmf" : "kwbc";
        size_t cl = strlen(cn);
        CHECK(codes_set_string(h, "centre", cn, &cl));
        if (p->num >= 192)
            CHECK(codes_set_long(h, "localTablesVersion", 1));
    }
    CHECK(codes_set_long(h, "discipline", p->disc));
    CHECK(codes_set_long(h, "parameterCategory", p->cat));
    CHECK(codes_set_long(h, "parameterNumber", p->num));
    CHECK(codes_set_long(h, "typeOfFirstFixedSurface", p->surface));
    if (p->level == NO_LEVEL) {
        CHECK(codes_set_missing(h, "scaleFactorOfFirstFixedSurface"));
        CHECK(codes_set_missing(h, "scaledValueOfFirstFixedSurface"));
    } else {
        CHECK(codes_set_long(h, "scaleFactorOfFirstFixedSurface", 0));
        CHECK(codes_set_long(h, "scaledValueOfFirstFixedSurface", p->level));
    }
    CHECK(codes_set_long(h, "indicatorOfUnitOfTimeRange", 1));
    if (p->accum) {
        CHECK(codes_set_long(h, "typeOfStatisticalProcessing", 1));
        CHECK(codes_set_long(h, "stepUnits", 1));
        CHECK(codes_set_long(h, "startStep", f->hour - acc));
        CHECK(codes_set_long(h, "endStep", f->hour));
    } else {
        CHECK(codes_set_long(h, "forecastTime", f->current ? 0 : f->hour));
    }
    for (size_t i = 0; i < gr->g.nx * gr->g.ny && !has_missing; i++)
        has_missing = vals[i] == MISSING;
    if (has_missing) {
        CHECK(codes_set_long(h, "bitmapPresent", 1));
        CHECK(codes_set_double(h, "missingValue", MISSING));
    }
    /* Simple packing first, at the parameter's decimal precision, then repacked:
     * ecCodes cannot switch the sample's constant field to complex packing. */
    CHECK(codes_set_long(h, "bitsPerValue", 0));
    CHECK(codes_set_long(h, "decimalScaleFactor", p->dscale));
    CHECK(codes_set_double_array(h, "values", vals, gr->g.nx * gr->g.ny));
    CHECK(codes_get_long(h, "bitsPerValue", &bits));
    if (bits > 0 && !simple_on()) {
        /* Complex packing, template 5.2: ecCodes 2.28 writes template 5.3
         * (spatial differencing) with a differencing order of 0, which code
         * table 5.6 leaves reserved and OpenCPN's GRIB plugin misreads
         * (every barb the same); 5.2 is as small here and read by all. A
         * field constant at its precision (no rain anywhere in a small
         * region) stays simple packing with no bits: ecCodes refuses to
         * repack it, and it is as small as a message gets. */
        size_t sl = strlen("grid_complex");
        CHECK(codes_set_string(h, "packingType", "grid_complex", &sl));
    }
    CHECK(codes_get_message(h, &msg, &len));
    if (fwrite(msg, 1, len, out) != len) {
        fprintf(stderr, "seawx-sim: cannot write a GRIB message: %s\n", strerror(errno));
        goto fail;
    }
    codes_handle_delete(h);
    return 0;
fail:
    codes_handle_delete(h);
    return -1;
}

static int make_file(const struct file *f, const char *path)
{
    struct grid gr;
    struct sim_when w = {f->ref + (int64_t)f->hour * HOUR, f->ref};
    swx_atomicfile af = SWX_ATOMICFILE_INIT;
    double *vals = NULL;
    int rc = -1;

    if (grid_make(&gr, f->region->west, f->region->east, f->region->north, f->region->south) != 0) {
        fprintf(stderr, "seawx-sim: out of memory making %s\n", path);
        goto done;
    }
    vals = malloc(gr.g.nx * gr.g.ny * sizeof(double));
    if (vals == NULL || swx_atomicfile_open(&af, path, 0644, SWX_ATOMICFILE_NOSYNC) != 0) {
        fprintf(stderr, "seawx-sim: cannot write %s\n", path);
        goto done;
    }
    for (size_t i = 0; f->params[i] != NULL; i++) {
        const struct param *p = as_centre(f->params[i]);
        int acc = f->hour < 3 ? f->hour : 3;
        if (p->accum && acc == 0)
            continue; /* nothing accumulated yet at the run's own time */
        if (eval(p, &gr, &w, acc, vals) != 0) {
            fprintf(stderr, "seawx-sim: out of memory making %s\n", path);
            goto done;
        }
        if (encode(af.f, f, p, &gr, vals) != 0)
            goto done;
    }
    if (swx_atomicfile_commit(&af) != 0) {
        fprintf(stderr, "seawx-sim: cannot write %s\n", path);
        goto done;
    }
    rc = 0;
done:
    swx_atomicfile_abort(&af);
    free(vals);
    grid_free(&gr);
    return rc;
}

/* ---- the cache ---------------------------------------------------------------- */

static int cache_dir(char *out, size_t size)
{
    const char *dir = getenv("SEAWX_SIM_GRIB_DIR");
    const char *tmp = getenv("TMPDIR");

    if (dir != NULL && *dir != '\0')
        snprintf(out, size, "%s", dir);
    else
        snprintf(out, size, "%s/seawx-sim-grib-%s-%u", tmp != NULL && *tmp ? tmp : "/tmp",
                 CACHE_VERSION, (unsigned)getuid());
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "seawx-sim: cannot make the GRIB cache folder %s: %s\n", out,
                strerror(errno));
        return -1;
    }
    return 0;
}

/* Removes old files of the cache folder (see KEEP_SECONDS); errors are
 * ignored, another simulator may be sweeping at the same time. */
static void sweep(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    time_t now = time(NULL);

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        char path[4400];
        struct stat st;
        size_t n = strlen(e->d_name);
        int grib = n > 6 && strcmp(e->d_name + n - 6, ".grib2") == 0;
        int tmp = n > 4 && strcmp(e->d_name + n - 4, ".tmp") == 0;
        if (!grib && !tmp)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
            now - st.st_mtime > (grib ? KEEP_SECONDS : TMP_SECONDS))
            unlink(path);
    }
    closedir(d);
}

/* The whole file if it is there and looks whole (GRIB ... 7777). */
static struct sim_blob *read_whole(const char *path)
{
    FILE *fp = fopen(path, "rb");
    struct stat st;
    unsigned char *data;

    if (fp == NULL)
        return NULL;
    if (fstat(fileno(fp), &st) != 0 || st.st_size < 16 || (uint64_t)st.st_size > MAX_FILE) {
        fclose(fp);
        return NULL;
    }
    data = malloc((size_t)st.st_size);
    if (data == NULL || fread(data, 1, (size_t)st.st_size, fp) != (size_t)st.st_size ||
        memcmp(data, "GRIB", 4) != 0 || memcmp(data + st.st_size - 4, "7777", 4) != 0) {
        free(data);
        fclose(fp);
        return NULL;
    }
    fclose(fp);
    return sim_blob_adopt(data, (size_t)st.st_size);
}

int sim_grib_get(const char *name, struct sim_blob **out)
{
    struct file f;
    char dir[3000], path[3300];
    struct sim_blob *b;

    *out = NULL;
    if (parse(name, &f) != 0)
        return -1;
    if (cache_dir(dir, sizeof(dir)) != 0)
        return -2;
    /* the files of the analytic switch, with currents, simply packed, of four fields, or
     * encoded as ECMWF's, are cached under other names */
    snprintf(path, sizeof(path), "%s/%s%s%s%s%s%s", dir, sim_field_analytic_tag(),
             currents_on() ? "cur-" : "", simple_on() ? "simple-" : "", four_on() ? "f4-" : "",
             ecmwf_on()      ? "ecmwf-"
             : *centre_env() ? "ncep-"
                             : "",
             name);
    b = read_whole(path);
    if (b == NULL) {
        /* one file made at a time: bounds memory, and a second request for the
         * same name finds it made */
        pthread_mutex_lock(&make_lock);
        b = read_whole(path);
        if (b == NULL) {
            sweep(dir);
            if (make_file(&f, path) == 0)
                b = read_whole(path);
        }
        pthread_mutex_unlock(&make_lock);
    }
    if (b == NULL)
        return -2;
    *out = b;
    return 0;
}
