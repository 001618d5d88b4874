/* catalog.c: bundles, variables and styles of the simulated WMS (see catalog.h).
 *
 * Where the service's documentation is silent the variables are invented but
 * plausible: names follow the ECMWF/GRIB short names the real layers use
 * (t2m, swh, mwp, ...), units are written the GRIB way ("m s-1", "J kg-1"). */
#include "catalog.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "timestamp.h"

#define ALL_CRS (SIM_CRS_4326 | SIM_CRS_3857 | SIM_CRS_84)
#define KN 1.943844 /* knots per m s-1 */

/* clang-format off: the tables are laid out by hand, one variable per entry */
/* Shorthands for the table: id, title, field, scale, offset, contour step,
 * ramp, lo, hi, flags, vector, styles. */
#define V(id, title, f, sc, off, step, ramp, lo, hi, fl, vec, ...)                                 \
    {                                                                                              \
        id, title, f, sc, off, step, ramp, lo, hi, fl, vec,                                        \
        {                                                                                          \
            __VA_ARGS__, NULL                                                                      \
        }                                                                                          \
    }

#define T2M_K                                                                                      \
    V("t2m:K", "2 metre temperature", SIM_F_T2M, 1, 0, 5, SIM_RAMP_TEMP, 233, 313, 0,              \
      SIM_VEC_NONE, "temp:K/nearest", "temp:K/nearestcontour")
#define T2M_C                                                                                      \
    V("t2m:C", "2 metre temperature", SIM_F_T2M, 1, -273.15, 5, SIM_RAMP_TEMP, 233, 313, 0,        \
      SIM_VEC_NONE, "temp:C/nearest", "temp:C/nearestcontour")
#define T2M_F                                                                                      \
    V("t2m:F", "2 metre temperature", SIM_F_T2M, 1.8, -459.67, 10, SIM_RAMP_TEMP, 233, 313, 0,     \
      SIM_VEC_NONE, "temp:F/nearest")
#define PMSL                                                                                       \
    V("pmsl:Pa", "Mean sea level pressure", SIM_F_PMSL, 1, 0, 400, SIM_RAMP_PRESSURE, 96500,       \
      106000, 0, SIM_VEC_NONE, "pressure:Pa/nearest", "pressure:Pa/nearestcontour")
#define U10                                                                                        \
    V("10u:m s-1", "10 metre U wind component", SIM_F_U10, 1, 0, 5, SIM_RAMP_DIVERGING, -25, 25,   \
      0, SIM_VEC_NONE, "windcomp:m s-1/nearest")
#define V10                                                                                        \
    V("10v:m s-1", "10 metre V wind component", SIM_F_V10, 1, 0, 5, SIM_RAMP_DIVERGING, -25, 25,   \
      0, SIM_VEC_NONE, "windcomp:m s-1/nearest")
#define GUST                                                                                       \
    V("gust:m s-1", "10 metre wind gust", SIM_F_GUST, 1, 0, 5, SIM_RAMP_WIND, 0, 40, 0,            \
      SIM_VEC_NONE, "gust:m s-1/nearest")
#define TCC                                                                                        \
    V("tcc:%", "Total cloud cover", SIM_F_TCC, 1, 0, 20, SIM_RAMP_CLOUD, 0, 100, 0, SIM_VEC_NONE,  \
      "cloud:%/nearest")
#define TP_M                                                                                       \
    V("tp:m", "Total precipitation", SIM_F_TP, 1, 0, 0.005, SIM_RAMP_PRECIP, 0, 0.03, 0,           \
      SIM_VEC_NONE, "precip:m/nearest")
#define TP_MM                                                                                      \
    V("tp:mm", "Total precipitation", SIM_F_TP, 1000, 0, 5, SIM_RAMP_PRECIP, 0, 0.03, 0,           \
      SIM_VEC_NONE, "precip:mm/nearest")
#define SWH                                                                                        \
    V("swh:m", "Significant height of combined wind waves and swell", SIM_F_SWH, 1, 0, 1,          \
      SIM_RAMP_WAVE, 0, 10, SIM_VAR_SEA_ONLY, SIM_VEC_WAVE, "wave:m/nearest",                      \
      "wave:m/nearestcontour")
#define MWP                                                                                        \
    V("mwp:s", "Mean wave period", SIM_F_MWP, 1, 0, 2, SIM_RAMP_PERIOD, 2, 18, SIM_VAR_SEA_ONLY,   \
      SIM_VEC_NONE, "period:s/nearest")
#define LSM                                                                                        \
    V("lsm", "Land-sea mask", SIM_F_LSM, 1, 0, 1, SIM_RAMP_LSM, 0, 1, SIM_VAR_STATIC,              \
      SIM_VEC_NONE, "lsm/nearest")
#define T2M_C_SHORT                                                                                \
    V("t2m:C", "2 metre temperature", SIM_F_T2M, 1, -273.15, 5, SIM_RAMP_TEMP, 233, 313, 0,        \
      SIM_VEC_NONE, "temp:C/nearest")

static const struct sim_variable basic_vars[] = {
    T2M_K,
    T2M_C,
    T2M_F,
    V("2d:K", "2 metre dewpoint temperature", SIM_F_D2M, 1, 0, 5, SIM_RAMP_TEMP, 233, 303, 0,
      SIM_VEC_NONE, "dewpoint:K/nearest"),
    PMSL,
    V("r", "Relative humidity", SIM_F_RH, 1, 0, 10, SIM_RAMP_RH, 0, 100, 0, SIM_VEC_NONE,
      "rh/nearest"),
    TP_M,
    U10,
    V10,
    V("sfcwind:m s-1", "10 metre wind speed", SIM_F_WS10, 1, 0, 5, SIM_RAMP_WIND, 0, 30, 0,
      SIM_VEC_WIND10, "wind:m s-1/nearest", "wind:m s-1/vector", "wind:kn/barb"),
    GUST,
    V("t2mmin:K", "Minimum 2 metre temperature", SIM_F_T2MMIN, 1, 0, 5, SIM_RAMP_TEMP, 233, 313, 0,
      SIM_VEC_NONE, "temp:K/nearest"),
    V("t2mmax:K", "Maximum 2 metre temperature", SIM_F_T2MMAX, 1, 0, 5, SIM_RAMP_TEMP, 233, 313, 0,
      SIM_VEC_NONE, "temp:K/nearest"),
    TCC,
};

static const struct sim_variable precipitation_vars[] = {
    TP_M,
    TP_MM,
    V("cp:m", "Convective precipitation", SIM_F_CP, 1, 0, 0.005, SIM_RAMP_PRECIP, 0, 0.03, 0,
      SIM_VEC_NONE, "precip:m/nearest"),
    V("crr:kg m-2 s-1", "Convective rain rate", SIM_F_CRR, 1, 0, 0.001, SIM_RAMP_PRECIP, 0, 0.005,
      0, SIM_VEC_NONE, "rate:kg m-2 s-1/nearest"),
    V("ptype", "Precipitation type", SIM_F_PTYPE, 1, 0, 1, SIM_RAMP_PTYPE, 0, 4, 0, SIM_VEC_NONE,
      "ptype/nearest"),
};

static const struct sim_variable maritime_vars[] = {
    V("wvdir:deg", "Mean wave direction", SIM_F_MWD, 1, 0, 45, SIM_RAMP_DIRECTION, 0, 360,
      SIM_VAR_SEA_ONLY, SIM_VEC_WAVE, "wavedir:deg/nearest", "wavedir:deg/vector"),
    SWH,
    MWP,
    V("sst:K", "Sea surface temperature", SIM_F_SST, 1, 0, 2, SIM_RAMP_TEMP, 271, 305,
      SIM_VAR_SEA_ONLY, SIM_VEC_NONE, "sst:K/nearest", "sst:K/nearestcontour"),
    V("ocu:m s-1", "Eastward ocean current", SIM_F_OCU, 1, 0, 0.25, SIM_RAMP_DIVERGING, -1.5, 1.5,
      SIM_VAR_SEA_ONLY, SIM_VEC_NONE, "currentcomp:m s-1/nearest"),
    V("ocv:m s-1", "Northward ocean current", SIM_F_OCV, 1, 0, 0.25, SIM_RAMP_DIVERGING, -1.5, 1.5,
      SIM_VAR_SEA_ONLY, SIM_VEC_NONE, "currentcomp:m s-1/nearest"),
    V("oc:m s-1", "Ocean current speed", SIM_F_OCS, 1, 0, 0.25, SIM_RAMP_CURRENT, 0, 1.5,
      SIM_VAR_SEA_ONLY, SIM_VEC_CURRENT, "current:m s-1/nearest", "current:m s-1/vector"),
    LSM,
};

static const struct sim_variable maritime_wave_vars[] = {
    SWH,
    MWP,
    V("mwd:deg", "Mean wave direction", SIM_F_MWD, 1, 0, 45, SIM_RAMP_DIRECTION, 0, 360,
      SIM_VAR_SEA_ONLY, SIM_VEC_WAVE, "wavedir:deg/nearest", "wavedir:deg/vector"),
    V("shww:m", "Significant height of wind waves", SIM_F_SHWW, 1, 0, 1, SIM_RAMP_WAVE, 0, 8,
      SIM_VAR_SEA_ONLY, SIM_VEC_NONE, "wave:m/nearest"),
    V("mpww:s", "Mean period of wind waves", SIM_F_MPWW, 1, 0, 2, SIM_RAMP_PERIOD, 2, 14,
      SIM_VAR_SEA_ONLY, SIM_VEC_NONE, "period:s/nearest"),
    LSM,
};

static const struct sim_variable maritime_wave_ext_vars[] = {
    V("shts:m", "Significant height of total swell", SIM_F_SHTS, 1, 0, 1, SIM_RAMP_WAVE, 0, 8,
      SIM_VAR_SEA_ONLY, SIM_VEC_SWELL, "swell:m/nearest", "swell:m/nearestcontour"),
    V("mpts:s", "Mean period of total swell", SIM_F_MPTS, 1, 0, 2, SIM_RAMP_PERIOD, 4, 20,
      SIM_VAR_SEA_ONLY, SIM_VEC_NONE, "period:s/nearest"),
    V("mdts:deg", "Mean direction of total swell", SIM_F_MDTS, 1, 0, 45, SIM_RAMP_DIRECTION, 0, 360,
      SIM_VAR_SEA_ONLY, SIM_VEC_SWELL, "swelldir:deg/nearest", "swelldir:deg/vector"),
    V("pp1d:s", "Peak wave period", SIM_F_PP1D, 1, 0, 2, SIM_RAMP_PERIOD, 4, 22, SIM_VAR_SEA_ONLY,
      SIM_VEC_NONE, "period:s/nearest"),
    SWH,
    LSM,
};

static const struct sim_variable maritime_atmos_vars[] = {
    U10,
    V10,
    V("sfcwind:kn", "10 metre wind speed", SIM_F_WS10, KN, 0, 10, SIM_RAMP_WIND, 0, 30, 0,
      SIM_VEC_WIND10, "wind:kn/nearest", "wind:kn/barb"),
    PMSL,
    V("vis:m", "Visibility", SIM_F_VIS, 1, 0, 5000, SIM_RAMP_VIS, 0, 30000, 0, SIM_VEC_NONE,
      "vis:m/nearest"),
    T2M_C_SHORT,
};

static const struct sim_variable clouds_vars[] = {
    TCC,
    V("lcc:%", "Low cloud cover", SIM_F_LCC, 1, 0, 20, SIM_RAMP_CLOUD, 0, 100, 0, SIM_VEC_NONE,
      "cloud:%/nearest"),
    V("mcc:%", "Medium cloud cover", SIM_F_MCC, 1, 0, 20, SIM_RAMP_CLOUD, 0, 100, 0, SIM_VEC_NONE,
      "cloud:%/nearest"),
    V("hcc:%", "High cloud cover", SIM_F_HCC, 1, 0, 20, SIM_RAMP_CLOUD, 0, 100, 0, SIM_VEC_NONE,
      "cloud:%/nearest"),
};

static const struct sim_variable thunderstorm_vars[] = {
    V("cape:J kg-1", "Convective available potential energy", SIM_F_CAPE, 1, 0, 500, SIM_RAMP_CAPE,
      0, 4000, 0, SIM_VEC_NONE, "cape:J kg-1/nearest"),
    V("cin:J kg-1", "Convective inhibition", SIM_F_CIN, 1, 0, 50, SIM_RAMP_CIN, -500, 0, 0,
      SIM_VEC_NONE, "cin:J kg-1/nearest"),
    V("lftx:K", "Surface lifted index", SIM_F_LFTX, 1, 0, 2, SIM_RAMP_DIVERGING, 10, -10, 0,
      SIM_VEC_NONE, "lifted:K/nearest", "lifted:K/nearestcontour"),
    V("tstm:%", "Thunderstorm probability", SIM_F_TSTM, 1, 0, 20, SIM_RAMP_PROB, 0, 100, 0,
      SIM_VEC_NONE, "prob:%/nearest"),
};

static const struct sim_variable upper_air_vars[] = {
    V("t850:K", "Temperature at 850 hPa", SIM_F_T850, 1, 0, 4, SIM_RAMP_TEMP, 238, 303, 0,
      SIM_VEC_NONE, "temp:K/nearest", "temp:K/nearestcontour"),
    V("gh500:gpm", "Geopotential height at 500 hPa", SIM_F_GH500, 1, 0, 60, SIM_RAMP_GEOPOT, 4900,
      5950, 0, SIM_VEC_NONE, "geopot:gpm/nearest", "geopot:gpm/nearestcontour"),
    V("ws250:m s-1", "Wind speed at 250 hPa", SIM_F_WS250, 1, 0, 10, SIM_RAMP_WIND, 0, 80, 0,
      SIM_VEC_WIND250, "wind:m s-1/nearest", "wind:m s-1/vector", "wind:kn/barb"),
    V("r700", "Relative humidity at 700 hPa", SIM_F_R700, 1, 0, 10, SIM_RAMP_RH, 0, 100, 0,
      SIM_VEC_NONE, "rh/nearest"),
};

static const struct sim_variable agricultural_vars[] = {
    V("evap:mm", "Evaporation", SIM_F_EVAP, 1, 0, 1, SIM_RAMP_EVAP, 0, 8, 0, SIM_VEC_NONE,
      "evap:mm/nearest"),
    V("pev:mm", "Potential evaporation", SIM_F_PEV, 1, 0, 1, SIM_RAMP_EVAP, 0, 12, 0, SIM_VEC_NONE,
      "evap:mm/nearest"),
    V("soilw:m3 m-3", "Volumetric soil moisture 0-10 cm", SIM_F_SOILW, 1, 0, 0.05, SIM_RAMP_SOIL, 0,
      0.5, SIM_VAR_LAND_ONLY, SIM_VEC_NONE, "soilw:m3 m-3/nearest"),
    V("stl1:K", "Soil temperature 0-10 cm", SIM_F_STL1, 1, 0, 5, SIM_RAMP_TEMP, 243, 323,
      SIM_VAR_LAND_ONLY, SIM_VEC_NONE, "temp:K/nearest"),
    T2M_C_SHORT,
    TP_MM,
};

static const struct sim_variable wind_energy_vars[] = {
    V("ws100:m s-1", "Wind speed at 100 m", SIM_F_WS100, 1, 0, 5, SIM_RAMP_WIND, 0, 35, 0,
      SIM_VEC_WIND100, "wind:m s-1/nearest", "wind:m s-1/vector"),
    V("ws100:kn", "Wind speed at 100 m", SIM_F_WS100, KN, 0, 10, SIM_RAMP_WIND, 0, 35, 0,
      SIM_VEC_WIND100, "wind:kn/nearest", "wind:kn/barb"),
    V("wd100:deg", "Wind direction at 100 m", SIM_F_WD100, 1, 0, 45, SIM_RAMP_DIRECTION, 0, 360, 0,
      SIM_VEC_NONE, "winddir:deg/nearest"),
    V("wpd100:W m-2", "Wind power density at 100 m", SIM_F_WPD100, 1, 0, 250, SIM_RAMP_POWER, 0,
      2000, 0, SIM_VEC_NONE, "power:W m-2/nearest"),
    GUST,
};

static const struct sim_variable solar_energy_vars[] = {
    V("ssrd:W m-2", "Surface solar radiation downwards", SIM_F_SSRD, 1, 0, 100, SIM_RAMP_SOLAR, 0,
      1000, 0, SIM_VEC_NONE, "solar:W m-2/nearest"),
    V("fdir:W m-2", "Direct solar radiation at the surface", SIM_F_FDIR, 1, 0, 100, SIM_RAMP_SOLAR,
      0, 900, 0, SIM_VEC_NONE, "solar:W m-2/nearest"),
    V("dif:W m-2", "Diffuse solar radiation at the surface", SIM_F_DIF, 1, 0, 50, SIM_RAMP_SOLAR, 0,
      400, 0, SIM_VEC_NONE, "solar:W m-2/nearest"),
    TCC,
    T2M_C_SHORT,
};

#define B(name, product, title, crs, interval, vars)                                               \
    {                                                                                              \
        name, product, title, crs, interval, vars, sizeof(vars) / sizeof(vars[0])                  \
    }

/* The order is the order of the interface description. */
static const struct sim_bundle bundles[] = {
    B("basic", "sof-d", "Standard meteorological variables", ALL_CRS, 0, basic_vars),
    B("precipitation", "sof-d", "Precipitation", ALL_CRS, 0, precipitation_vars),
    B("maritime", "sof-d.maritime", "Marine-specific parameters", ALL_CRS, 0, maritime_vars),
    B("maritime-wave", "sof-d.maritime", "Waves", ALL_CRS, 0, maritime_wave_vars),
    B("maritime-wave-ext", "sof-d.maritime", "Swell and extended wave parameters", ALL_CRS, 0,
      maritime_wave_ext_vars),
    B("maritime-atmos", "sof-d.maritime", "Marine atmosphere", ALL_CRS, 0, maritime_atmos_vars),
    B("clouds", "sof-d", "Cloud cover, excluding ceiling", ALL_CRS, 0, clouds_vars),
    B("thunderstorm", "sof-d", "Convective parameters", ALL_CRS, 0, thunderstorm_vars),
    /* upper-air: no Web Mercator (clients must warp) and interval-form times, so that
     * both of those client paths are exercised. */
    B("upper-air", "sof-d", "Upper-air variables", SIM_CRS_4326 | SIM_CRS_84, 1, upper_air_vars),
    B("agricultural", "sof-d", "Agriculture-focused variables", ALL_CRS, 0, agricultural_vars),
    B("wind-energy", "sof-d", "Wind power parameters", ALL_CRS, 0, wind_energy_vars),
    B("solar-energy", "sof-d", "Solar radiation", ALL_CRS, 0, solar_energy_vars),
};
/* clang-format on */

size_t sim_catalog_bundle_count(void)
{
    return sizeof(bundles) / sizeof(bundles[0]);
}

const struct sim_bundle *sim_catalog_bundle_at(size_t i)
{
    return i < sim_catalog_bundle_count() ? &bundles[i] : NULL;
}

const struct sim_bundle *sim_catalog_bundle(const char *name)
{
    for (size_t i = 0; i < sim_catalog_bundle_count(); i++)
        if (strcmp(bundles[i].name, name) == 0)
            return &bundles[i];
    return NULL;
}

const char *sim_catalog_bundle_names(void)
{
    return "basic, precipitation, maritime, maritime-wave, maritime-wave-ext, "
           "maritime-atmos, clouds, thunderstorm, upper-air, agricultural, wind-energy, "
           "solar-energy";
}

const struct sim_variable *sim_catalog_variable(const struct sim_bundle *b, const char *id)
{
    for (size_t i = 0; i < b->nvars; i++)
        if (strcmp(b->vars[i].id, id) == 0)
            return &b->vars[i];
    return NULL;
}

size_t sim_style_count(const struct sim_variable *v)
{
    size_t n = 0;

    while (n < SIM_MAX_STYLES && v->styles[n] != NULL)
        n++;
    return n;
}

int sim_style_find(const struct sim_variable *v, const char *name)
{
    for (size_t i = 0; i < sim_style_count(v); i++)
        if (strcmp(v->styles[i], name) == 0)
            return (int)i;
    return -1;
}

enum sim_renderer sim_style_renderer(const char *style)
{
    const char *r = strrchr(style, '/');

    r = r != NULL ? r + 1 : style;
    if (strcmp(r, "nearestcontour") == 0)
        return SIM_RENDER_CONTOUR;
    if (strcmp(r, "vector") == 0)
        return SIM_RENDER_VECTOR;
    if (strcmp(r, "barb") == 0)
        return SIM_RENDER_BARB;
    return SIM_RENDER_NEAREST;
}

const char *sim_renderer_title(enum sim_renderer r)
{
    switch (r) {
    case SIM_RENDER_CONTOUR:
        return "colour fill with contour lines";
    case SIM_RENDER_VECTOR:
        return "colour fill with arrows";
    case SIM_RENDER_BARB:
        return "colour fill with wind barbs";
    case SIM_RENDER_NEAREST:
        break;
    }
    return "colour fill, nearest neighbour";
}

const char *sim_crs_name(enum sim_crs c)
{
    switch (c) {
    case SIM_CRS_4326:
        return "EPSG:4326";
    case SIM_CRS_3857:
        return "EPSG:3857";
    case SIM_CRS_84:
        return "CRS:84";
    }
    return "?";
}

enum sim_crs sim_crs_parse(const char *s)
{
    /* CRS codes are case-insensitive identifiers in WMS (EPSG:4326 = epsg:4326). */
    if (strcasecmp(s, "EPSG:4326") == 0)
        return SIM_CRS_4326;
    if (strcasecmp(s, "EPSG:3857") == 0)
        return SIM_CRS_3857;
    if (strcasecmp(s, "CRS:84") == 0)
        return SIM_CRS_84;
    return (enum sim_crs)0;
}

static int parse_fixed_digits(const char *s, size_t n, int *out)
{
    int v = 0;

    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

int sim_catalog_parse_layer(const struct sim_bundle *b, const char *name, int64_t *run,
                            const struct sim_variable **var)
{
    size_t plen = strlen(b->product);
    const char *p = name;
    int y, mo, d, h;
    char ts[32];

    /* product "/" YYYYMMDD "/" HH "/" variable */
    if (strncmp(p, b->product, plen) != 0 || p[plen] != '/')
        return -1;
    p += plen + 1;
    if (strlen(p) < 13 || p[8] != '/' || p[11] != '/')
        return -1;
    if (parse_fixed_digits(p, 4, &y) || parse_fixed_digits(p + 4, 2, &mo) ||
        parse_fixed_digits(p + 6, 2, &d) || parse_fixed_digits(p + 9, 2, &h))
        return -1;
    if (h % 6 != 0 || h > 18)
        return -1;
    *var = sim_catalog_variable(b, p + 12);
    if (*var == NULL)
        return -1;
    /* Validates the calendar date through the timestamp parser. */
    snprintf(ts, sizeof(ts), "%04d-%02d-%02dT%02d:00:00Z", y, mo, d, h);
    return sim_ts_parse(ts, run);
}
