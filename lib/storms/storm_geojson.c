/* storm_geojson.c: storms as features, and streaming RFC 7946 output
 * (see seawx/storm_geojson.h). */
#include "seawx/storm_geojson.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- kinds ---- */

static const char *const kind_names[SWX_SK_COUNT] = {"storm", "track_point", "forecast_point",
                                                     "forecast_line", "wind_radii"};
static const char *const kind_layers[SWX_SK_COUNT] = {"storms", "track_points", "forecast_points",
                                                      "forecast_lines", "wind_radii"};

const char *swx_storm_kind_name(int kind)
{
    return kind >= 0 && kind < SWX_SK_COUNT ? kind_names[kind] : NULL;
}

const char *swx_storm_kind_layer(int kind)
{
    return kind >= 0 && kind < SWX_SK_COUNT ? kind_layers[kind] : NULL;
}

int swx_storm_kind_parse(const char *name)
{
    for (int k = 0; name && k < SWX_SK_COUNT; k++)
        if (strcasecmp(name, kind_names[k]) == 0 || strcasecmp(name, kind_layers[k]) == 0)
            return k;
    return -1;
}

int swx_storm_kinds_parse(const char *list, unsigned *mask)
{
    *mask = 0;
    const char *p = list ? list : "";
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char name[32];
        if (n == 0 || n >= sizeof name)
            goto bad;
        memcpy(name, p, n);
        name[n] = '\0';
        int k = swx_storm_kind_parse(name);
        if (k < 0)
            goto bad;
        *mask |= 1u << k;
        p += n + (comma ? 1 : 0);
    }
    if (*mask)
        return 0;
bad:
    return swx_error_set(SWX_EINVAL,
                         "bad kinds '%.80s': a comma-separated list of storm, track_point, "
                         "forecast_point, forecast_line, wind_radii",
                         list ? list : "");
}

/* ---- property tables ---- */

enum fid {
    F_ATCF_ID,
    F_STORM_NAME,
    F_TITLE,
    F_STATUS,
    F_IS_ACTIVE,
    F_BASIN,
    F_SUBBASIN,
    F_ATCF_BASIN,
    F_STORM_NUMBER,
    F_SEASON,
    F_ADV_NUMBER,
    F_ADV_TIME,
    F_MAX_CAT,
    F_MAX_CAT_RANK,
    F_S_MAX_WIND,
    F_S_MIN_MSLP,
    F_START_DATE,
    F_END_DATE,
    F_ONGOING,
    F_OBS_COUNT,
    F_FC_COUNT,
    F_FIRST_TIME,
    F_LAST_TIME,
    /* positions */
    F_SEQ,
    F_TIME,
    F_FC_TIME,
    F_FC_HOUR,
    F_LAT,
    F_LON,
    F_CAT,
    F_CAT_RANK,
    F_P_BASIN,
    F_P_SUBBASIN,
    F_GUSTS,
    F_WIND,
    F_MSLP,
    F_DIR,
    F_SPEED,
    F_R0, /* 12 radii: F_R0 + threshold * 4 + quadrant */
    F_R_LAST = F_R0 + 11,
    /* forecast line */
    F_L_START,
    F_L_END,
    F_L_MAX_HOUR,
    F_L_MAX_CAT,
    F_L_MAX_RANK,
    F_L_MAX_WIND,
    F_L_COUNT,
    /* wind radii */
    F_W_TRACK,
    F_W_TIME,
    F_W_THRESHOLD,
    F_W_SPEED,
    F_W_Q0,
    F_W_Q3 = F_W_Q0 + 3,
};

static const swx_storm_field storm_fields[] = {
    {"atcf_id", SWX_SF_STRING, F_ATCF_ID},
    {"storm_name", SWX_SF_STRING, F_STORM_NAME},
    {"title", SWX_SF_STRING, F_TITLE},
    {"status", SWX_SF_STRING, F_STATUS},
    {"is_active", SWX_SF_BOOL, F_IS_ACTIVE},
    {"basin", SWX_SF_STRING, F_BASIN},
    {"subbasin", SWX_SF_STRING, F_SUBBASIN},
    {"atcf_basin", SWX_SF_STRING, F_ATCF_BASIN},
    {"storm_number", SWX_SF_INT, F_STORM_NUMBER},
    {"season", SWX_SF_INT, F_SEASON},
    {"advisory_number", SWX_SF_INT, F_ADV_NUMBER},
    {"advisory_issuance_time", SWX_SF_DATETIME, F_ADV_TIME},
    {"max_development_category", SWX_SF_STRING, F_MAX_CAT},
    {"category_rank", SWX_SF_INT, F_MAX_CAT_RANK},
    {"max_sustained_wind", SWX_SF_REAL, F_S_MAX_WIND},
    {"min_mslp", SWX_SF_REAL, F_S_MIN_MSLP},
    {"start_date", SWX_SF_DATE, F_START_DATE},
    {"end_date", SWX_SF_DATE, F_END_DATE},
    {"ongoing", SWX_SF_BOOL, F_ONGOING},
    {"observed_count", SWX_SF_INT, F_OBS_COUNT},
    {"forecast_count", SWX_SF_INT, F_FC_COUNT},
    {"first_time", SWX_SF_DATETIME, F_FIRST_TIME},
    {"last_time", SWX_SF_DATETIME, F_LAST_TIME},
};

#define RADII_FIELDS                                                                               \
    {"r34_ne", SWX_SF_REAL, F_R0 + 0}, {"r34_se", SWX_SF_REAL, F_R0 + 1},                          \
        {"r34_sw", SWX_SF_REAL, F_R0 + 2}, {"r34_nw", SWX_SF_REAL, F_R0 + 3},                      \
        {"r50_ne", SWX_SF_REAL, F_R0 + 4}, {"r50_se", SWX_SF_REAL, F_R0 + 5},                      \
        {"r50_sw", SWX_SF_REAL, F_R0 + 6}, {"r50_nw", SWX_SF_REAL, F_R0 + 7},                      \
        {"r64_ne", SWX_SF_REAL, F_R0 + 8}, {"r64_se", SWX_SF_REAL, F_R0 + 9},                      \
        {"r64_sw", SWX_SF_REAL, F_R0 + 10},                                                        \
    {                                                                                              \
        "r64_nw", SWX_SF_REAL, F_R0 + 11                                                           \
    }

#define POS_FIELDS                                                                                 \
    {"lat", SWX_SF_REAL, F_LAT}, {"lon", SWX_SF_REAL, F_LON},                                      \
        {"category_code", SWX_SF_STRING, F_CAT}, {"category_rank", SWX_SF_INT, F_CAT_RANK},        \
        {"basin", SWX_SF_STRING, F_P_BASIN}, {"subbasin", SWX_SF_STRING, F_P_SUBBASIN},            \
        {"wind_gusts", SWX_SF_REAL, F_GUSTS}, {"max_sustained_wind", SWX_SF_REAL, F_WIND},         \
        {"min_mslp", SWX_SF_REAL, F_MSLP}, {"movement_direction", SWX_SF_REAL, F_DIR},             \
        {"movement_speed", SWX_SF_REAL, F_SPEED}, RADII_FIELDS

static const swx_storm_field track_fields[] = {
    {"atcf_id", SWX_SF_STRING, F_ATCF_ID},
    {"title", SWX_SF_STRING, F_TITLE},
    {"seq", SWX_SF_INT, F_SEQ},
    {"time", SWX_SF_DATETIME, F_TIME},
    POS_FIELDS,
};

static const swx_storm_field forecast_fields[] = {
    {"atcf_id", SWX_SF_STRING, F_ATCF_ID},
    {"title", SWX_SF_STRING, F_TITLE},
    {"advisory_number", SWX_SF_INT, F_ADV_NUMBER},
    {"advisory_issuance_time", SWX_SF_DATETIME, F_ADV_TIME},
    {"seq", SWX_SF_INT, F_SEQ},
    {"forecast_time", SWX_SF_DATETIME, F_FC_TIME},
    {"forecast_hour", SWX_SF_INT, F_FC_HOUR},
    POS_FIELDS,
};

static const swx_storm_field line_fields[] = {
    {"atcf_id", SWX_SF_STRING, F_ATCF_ID},
    {"title", SWX_SF_STRING, F_TITLE},
    {"advisory_number", SWX_SF_INT, F_ADV_NUMBER},
    {"advisory_issuance_time", SWX_SF_DATETIME, F_ADV_TIME},
    {"start_time", SWX_SF_DATETIME, F_L_START},
    {"end_time", SWX_SF_DATETIME, F_L_END},
    {"max_forecast_hour", SWX_SF_INT, F_L_MAX_HOUR},
    {"max_category_code", SWX_SF_STRING, F_L_MAX_CAT},
    {"category_rank", SWX_SF_INT, F_L_MAX_RANK},
    {"max_sustained_wind", SWX_SF_REAL, F_L_MAX_WIND},
    {"forecast_count", SWX_SF_INT, F_L_COUNT},
};

static const swx_storm_field radii_fields[] = {
    {"atcf_id", SWX_SF_STRING, F_ATCF_ID},
    {"title", SWX_SF_STRING, F_TITLE},
    {"track", SWX_SF_STRING, F_W_TRACK},
    {"seq", SWX_SF_INT, F_SEQ},
    {"time", SWX_SF_DATETIME, F_W_TIME},
    {"forecast_hour", SWX_SF_INT, F_FC_HOUR},
    {"threshold_kt", SWX_SF_INT, F_W_THRESHOLD},
    {"wind_speed", SWX_SF_REAL, F_W_SPEED},
    {"ne", SWX_SF_REAL, F_W_Q0 + 0},
    {"se", SWX_SF_REAL, F_W_Q0 + 1},
    {"sw", SWX_SF_REAL, F_W_Q0 + 2},
    {"nw", SWX_SF_REAL, F_W_Q0 + 3},
    {"category_code", SWX_SF_STRING, F_CAT},
    {"category_rank", SWX_SF_INT, F_CAT_RANK},
};

#define NF(a) (sizeof a / sizeof a[0])

size_t swx_storm_fields(int kind, const swx_storm_field **out)
{
    switch (kind) {
    case SWX_SK_STORM:
        *out = storm_fields;
        return NF(storm_fields);
    case SWX_SK_TRACK_POINT:
        *out = track_fields;
        return NF(track_fields);
    case SWX_SK_FORECAST_POINT:
        *out = forecast_fields;
        return NF(forecast_fields);
    case SWX_SK_FORECAST_LINE:
        *out = line_fields;
        return NF(line_fields);
    case SWX_SK_WIND_RADII:
        *out = radii_fields;
        return NF(radii_fields);
    default:
        *out = NULL;
        return 0;
    }
}

static void v_str(swx_storm_value *v, const char *s)
{
    v->null = s == NULL;
    v->s = s;
}
static void v_int(swx_storm_value *v, int64_t i)
{
    v->null = i == SWX_STORM_NULL;
    v->i = i;
}
static void v_real(swx_storm_value *v, double d)
{
    v->null = !isfinite(d);
    v->d = d;
}

/* A date "YYYY-MM-DD" or NULL ("ongoing" and anything else that is no date). */
static const char *date_or_null(const char *s)
{
    int64_t t;
    if (!s || strlen(s) != 10 || swx_iso8601_parse(s, &t) != 0) {
        swx_error_clear();
        return NULL;
    }
    return s;
}

static const swx_storm_pos *last_observed(const swx_storm *s)
{
    return s->nobserved ? &s->observed[s->nobserved - 1] : NULL;
}

static void line_summary(const swx_storm *s, int id, swx_storm_value *v)
{
    const swx_storm_pos *lo = last_observed(s);
    int best = -1;
    double wind = NAN;
    int64_t maxh = SWX_STORM_NULL;
    for (size_t i = 0; i < s->nforecast; i++) {
        const swx_storm_pos *p = &s->forecast[i];
        if (p->category > best)
            best = p->category;
        if (isfinite(p->max_sustained_wind) && !(wind >= p->max_sustained_wind))
            wind = p->max_sustained_wind;
        if (p->forecast_hour != SWX_STORM_NULL &&
            (maxh == SWX_STORM_NULL || p->forecast_hour > maxh))
            maxh = p->forecast_hour;
    }
    switch (id) {
    case F_L_START:
        v_int(v, lo && lo->time != SWX_STORM_NULL ? lo->time
                 : s->nforecast                   ? s->forecast[0].forecast_time
                                                  : SWX_STORM_NULL);
        break;
    case F_L_END:
        v_int(v, s->nforecast ? s->forecast[s->nforecast - 1].forecast_time : SWX_STORM_NULL);
        break;
    case F_L_MAX_HOUR:
        v_int(v, maxh);
        break;
    case F_L_MAX_CAT:
        v_str(v, swx_storm_category_code(best));
        break;
    case F_L_MAX_RANK:
        v_int(v, best >= 0 ? best : SWX_STORM_NULL);
        break;
    case F_L_MAX_WIND:
        v_real(v, wind);
        break;
    case F_L_COUNT:
        v_int(v, (int64_t)s->nforecast);
        break;
    }
}

/* The value of the field with internal id `id`. */
static void value_of(const swx_storm_feature *f, int id, swx_storm_value *v)
{
    const swx_storm *s = f->storm;
    const swx_storm_pos *p = f->pos;
    memset(v, 0, sizeof *v);
    v->null = 1;
    if (id >= F_R0 && id <= F_R_LAST) {
        if (p)
            v_real(v, p->radii[(id - F_R0) / 4].present
                          ? p->radii[(id - F_R0) / 4].r[(id - F_R0) % 4]
                          : NAN);
        return;
    }
    if (id >= F_W_Q0 && id <= F_W_Q3) {
        if (p)
            v_real(v, p->radii[f->threshold].r[id - F_W_Q0]);
        return;
    }
    if (id >= F_L_START && id <= F_L_COUNT) {
        line_summary(s, id, v);
        return;
    }
    switch (id) {
    case F_ATCF_ID:
        v_str(v, s->atcf_id);
        break;
    case F_STORM_NAME:
        v_str(v, s->storm_name);
        break;
    case F_TITLE:
        v_str(v, swx_storm_title(s));
        break;
    case F_STATUS:
        v_str(v, swx_storm_status(s));
        break;
    case F_IS_ACTIVE:
        v->null = s->is_active < 0;
        v->i = s->is_active;
        break;
    case F_BASIN:
        v_str(v, s->basin);
        break;
    case F_SUBBASIN:
        v_str(v, s->subbasin);
        break;
    case F_ATCF_BASIN:
        v_str(v, s->atcf_basin[0] ? s->atcf_basin : NULL);
        break;
    case F_STORM_NUMBER:
        v_int(v, s->atcf_basin[0] ? s->atcf_number : SWX_STORM_NULL);
        break;
    case F_SEASON:
        v_int(v, s->season);
        break;
    case F_ADV_NUMBER:
        v_int(v, s->advisory_number);
        break;
    case F_ADV_TIME:
        v_int(v, s->advisory_issuance_time);
        break;
    case F_MAX_CAT:
        v_str(v, s->max_development_category);
        break;
    case F_MAX_CAT_RANK:
        v_int(v, s->max_category >= 0 ? s->max_category : SWX_STORM_NULL);
        break;
    case F_S_MAX_WIND:
        v_real(v, s->max_sustained_wind);
        break;
    case F_S_MIN_MSLP:
        v_real(v, s->min_mslp);
        break;
    case F_START_DATE:
        v_str(v, date_or_null(s->start_date));
        break;
    case F_END_DATE:
        v_str(v, date_or_null(s->end_date));
        break;
    case F_ONGOING:
        v->null = s->end_date == NULL;
        v->i = s->end_date && strcasecmp(s->end_date, "ongoing") == 0;
        break;
    case F_OBS_COUNT:
        v_int(v, (int64_t)s->nobserved);
        break;
    case F_FC_COUNT:
        v_int(v, (int64_t)s->nforecast);
        break;
    case F_FIRST_TIME:
        v_int(v, s->nobserved ? s->observed[0].time : SWX_STORM_NULL);
        break;
    case F_LAST_TIME:
        v_int(v, s->nobserved ? s->observed[s->nobserved - 1].time : SWX_STORM_NULL);
        break;
    case F_SEQ:
        v_int(v, (int64_t)f->seq);
        break;
    case F_TIME:
        v_int(v, p ? p->time : SWX_STORM_NULL);
        break;
    case F_FC_TIME:
        v_int(v, p ? p->forecast_time : SWX_STORM_NULL);
        break;
    case F_FC_HOUR:
        v_int(v, p ? p->forecast_hour : SWX_STORM_NULL);
        break;
    case F_LAT:
        v_real(v, p ? p->lat : NAN);
        break;
    case F_LON:
        v_real(v, p ? p->lon : NAN);
        break;
    case F_CAT:
        v_str(v, p ? p->category_code : NULL);
        break;
    case F_CAT_RANK:
        v_int(v, p && p->category >= 0 ? p->category : SWX_STORM_NULL);
        break;
    case F_P_BASIN:
        v_str(v, p ? p->basin : NULL);
        break;
    case F_P_SUBBASIN:
        v_str(v, p ? p->subbasin : NULL);
        break;
    case F_GUSTS:
        v_real(v, p ? p->wind_gusts : NAN);
        break;
    case F_WIND:
        v_real(v, p ? p->max_sustained_wind : NAN);
        break;
    case F_MSLP:
        v_real(v, p ? p->min_mslp : NAN);
        break;
    case F_DIR:
        v_real(v, p ? p->movement_direction : NAN);
        break;
    case F_SPEED:
        v_real(v, p ? p->movement_speed : NAN);
        break;
    case F_W_TRACK:
        v_str(v, f->forecast ? "forecast" : "observed");
        break;
    case F_W_TIME:
        v_int(v, p ? (f->forecast ? p->forecast_time : p->time) : SWX_STORM_NULL);
        break;
    case F_W_THRESHOLD:
        v_int(v, swx_storm_radii_kt(f->threshold));
        break;
    case F_W_SPEED:
        v_real(v, p ? p->radii[f->threshold].wind_speed : NAN);
        break;
    default:
        break;
    }
}

void swx_storm_feature_value(const swx_storm_feature *f, size_t field, swx_storm_value *v)
{
    const swx_storm_field *tab;
    size_t n = swx_storm_fields(f->kind, &tab);
    if (field >= n) {
        memset(v, 0, sizeof *v);
        v->null = 1;
        return;
    }
    value_of(f, tab[field].id_, v);
}

/* ---- geometry ---- */

struct swx_storm_geo {
    double *xy; /* pairs */
    size_t n, cap;
    size_t *parts;
    size_t nparts, pcap;
    double *tmp; /* scratch ring / line, pairs */
    size_t tcap;
    double *tmp2;
    size_t t2cap;
    /* Bearings of the radii ring, clockwise from north, every 90/ARC_STEPS degrees. */
    double bear_sin[4 * 6 + 1], bear_cos[4 * 6 + 1];
};

#define ARC_STEPS 6 /* segments per quadrant: 15 degrees */
#define DEG (M_PI / 180.0)

int swx_storm_geo_new(swx_storm_geo **out)
{
    swx_storm_geo *g = calloc(1, sizeof *g);
    *out = g;
    if (!g)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (int i = 0; i <= 4 * ARC_STEPS; i++) {
        double b = i * (90.0 / ARC_STEPS) * DEG;
        g->bear_sin[i] = sin(b);
        g->bear_cos[i] = cos(b);
    }
    return 0;
}

void swx_storm_geo_free(swx_storm_geo *g)
{
    if (!g)
        return;
    free(g->xy);
    free(g->parts);
    free(g->tmp);
    free(g->tmp2);
    free(g);
}

static int reserve(double **p, size_t *cap, size_t pairs)
{
    if (pairs <= *cap)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c < pairs)
        c *= 2;
    double *q = realloc(*p, c * 2 * sizeof **p);
    if (!q)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    *p = q;
    *cap = c;
    return 0;
}

/* v rounded to 6 decimals (ties to even), never -0. Below 2^51 millionths,
 * adding and taking away 1.5 * 2^52 rounds to an integer in the current
 * rounding mode exactly as nearbyint does, without the call. */
static inline double r6(double v)
{
    double s = v * 1e6;
    double r = (fabs(s) < 0x1p51 ? (s + 0x1.8p52) - 0x1.8p52 : nearbyint(s)) / 1e6;
    return r == 0 ? 0 : r;
}

static void geo_reset(swx_storm_geo *g)
{
    g->n = 0;
    g->nparts = 0;
}

static int part_begin(swx_storm_geo *g)
{
    if (g->nparts == g->pcap) {
        size_t c = g->pcap ? g->pcap * 2 : 8;
        size_t *p = realloc(g->parts, c * sizeof *p);
        if (!p)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        g->parts = p;
        g->pcap = c;
    }
    g->parts[g->nparts++] = 0;
    return 0;
}

/* Appends a position to the current part, rounded, unless it repeats the
 * last one; xy has room for it. */
static inline void part_put(swx_storm_geo *g, double x, double y)
{
    x = r6(x);
    y = r6(y);
    size_t *k = &g->parts[g->nparts - 1];
    double *at = g->xy + 2 * g->n;
    if (*k && at[-2] == x && at[-1] == y)
        return;
    at[0] = x;
    at[1] = y;
    g->n++;
    (*k)++;
}

static int part_add(swx_storm_geo *g, double x, double y)
{
    int rc = reserve(&g->xy, &g->cap, g->n + 1);
    if (rc)
        return rc;
    part_put(g, x, y);
    return 0;
}

/* Drops the current part when it has fewer than min positions. */
static void part_end(swx_storm_geo *g, size_t min)
{
    size_t k = g->parts[g->nparts - 1];
    if (k < min) {
        g->n -= k;
        g->nparts--;
    }
}

/* A line through n positions (lon, lat pairs with lon in [-180, 180)), cut at
 * the antimeridian. Longitudes are first unwrapped so that each step is the
 * short way round; every time the unwrapped line passes 180 + 360k the part
 * ends on the meridian and the next starts on its other side. */
static int build_line(swx_storm_geo *g, const double *in, size_t n)
{
    int rc;
    geo_reset(g);
    if (n == 0)
        return 0;
    double px = in[0], py = in[1];
    if ((rc = part_begin(g)) || (rc = part_add(g, px, py)))
        return rc;
    double shift = 0; /* of the current part: unwrapped x minus written x */
    for (size_t i = 1; i < n; i++) {
        double d = in[2 * i] - in[2 * i - 2];
        if (d > 180)
            d -= 360;
        else if (d < -180)
            d += 360;
        double x = px + d, y = in[2 * i + 1];
        /* Crossings of the meridians 180 + 360k between px and x. */
        while (x - shift > 180 || x - shift < -180) {
            double b = x - shift > 180 ? shift + 180 : shift - 180;
            double t = (b - px) / (x - px);
            double yb = py + t * (y - py);
            if ((rc = part_add(g, b - shift, yb)))
                return rc;
            part_end(g, 2);
            shift += x - shift > 180 ? 360 : -360;
            if ((rc = part_begin(g)) || (rc = part_add(g, b - shift, yb)))
                return rc;
        }
        if ((rc = part_add(g, x - shift, y)))
            return rc;
        px = x;
        py = y;
    }
    part_end(g, 2);
    return 0;
}

/* Signed area (shoelace, > 0 counter-clockwise) of a ring of n pairs. */
static double ring_area(const double *r, size_t n)
{
    double a = 0;
    for (size_t i = 0; i + 1 < n; i++)
        a += r[2 * i] * r[2 * i + 3] - r[2 * i + 2] * r[2 * i + 1];
    return a / 2;
}

/* Clips a closed ring (n pairs, first == last) to x >= lo (dir 1) or x <= hi
 * (dir -1) with Sutherland-Hodgman; out gets a closed ring. */
static size_t clip_ring(const double *in, size_t n, double edge, int dir, double *out)
{
    size_t m = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        double ax = in[2 * i], ay = in[2 * i + 1], bx = in[2 * i + 2], by = in[2 * i + 3];
        int ain = dir > 0 ? ax >= edge : ax <= edge;
        int bin = dir > 0 ? bx >= edge : bx <= edge;
        if (ain) {
            out[2 * m] = ax;
            out[2 * m + 1] = ay;
            m++;
        }
        if (ain != bin) {
            double t = (edge - ax) / (bx - ax);
            out[2 * m] = edge;
            out[2 * m + 1] = ay + t * (by - ay);
            m++;
        }
    }
    if (m) {
        out[2 * m] = out[0];
        out[2 * m + 1] = out[1];
        m++;
    }
    return m;
}

/* Adds one ring as a polygon part: rounded, deduplicated, counter-clockwise;
 * dropped when it keeps fewer than 3 distinct positions or no area. */
static int add_ring(swx_storm_geo *g, const double *r, size_t n, double shift)
{
    int rc;
    if (n < 4)
        return 0;
    size_t start = g->n;
    if ((rc = part_begin(g)) || (rc = reserve(&g->xy, &g->cap, g->n + n)))
        return rc;
    for (size_t i = 0; i < n; i++)
        part_put(g, r[2 * i] - shift, r[2 * i + 1]);
    size_t k = g->parts[g->nparts - 1];
    double *p = g->xy + 2 * start;
    if (k < 4 || p[0] != p[2 * k - 2] || p[1] != p[2 * k - 1]) {
        part_end(g, (size_t)-1); /* degenerate: drop */
        return 0;
    }
    double a = ring_area(p, k);
    if (a == 0) {
        part_end(g, (size_t)-1);
        return 0;
    }
    if (a < 0)
        for (size_t i = 0, j = k - 1; i < j; i++, j--) {
            double tx = p[2 * i], ty = p[2 * i + 1];
            p[2 * i] = p[2 * j];
            p[2 * i + 1] = p[2 * j + 1];
            p[2 * j] = tx;
            p[2 * j + 1] = ty;
        }
    return 0;
}

#define EARTH_RADIUS_M 6371008.8
#define NM_M 1852.0

static int radii_nonzero(const swx_storm_radii *r)
{
    if (!r->present)
        return 0;
    for (int q = 0; q < 4; q++)
        if (isfinite(r->r[q]) && r->r[q] > 0)
            return 1;
    return 0;
}

/* The quadrant polygon of one threshold around a centre: for each quadrant
 * (ne, se, sw, nw) the arc of its radius, or the centre when the radius is 0
 * or null; consecutive arcs are joined by radial steps. Longitudes are left
 * unwrapped around the centre, then the ring is cut into the 360-degree bands
 * it touches. */
static int build_radii(swx_storm_geo *g, const swx_storm_pos *p, int t)
{
    int rc;
    const size_t max = 4 * (ARC_STEPS + 1) + 2;
    geo_reset(g);
    if ((rc = reserve(&g->tmp, &g->tcap, max)) ||
        (rc = reserve(&g->tmp2, &g->t2cap, 4 * (max + 4))))
        return rc;
    double lat1 = p->lat * DEG, slat = sin(lat1), clat = cos(lat1);
    double *r = g->tmp;
    size_t n = 0;
    double minx = p->lon, maxx = p->lon;
    for (int q = 0; q < 4; q++) {
        double rad = p->radii[t].r[q];
        if (!(isfinite(rad) && rad > 0)) {
            if (!n || r[2 * n - 2] != p->lon || r[2 * n - 1] != p->lat) {
                r[2 * n] = p->lon;
                r[2 * n + 1] = p->lat;
                n++;
            }
            continue;
        }
        double d = rad * NM_M / EARTH_RADIUS_M, sd = sin(d), cd = cos(d);
        for (int k = 0; k <= ARC_STEPS; k++) {
            int b = q * ARC_STEPS + k;
            double slat2 = slat * cd + clat * sd * g->bear_cos[b];
            if (slat2 > 1)
                slat2 = 1;
            if (slat2 < -1)
                slat2 = -1;
            double lat2 = asin(slat2);
            double dlon = atan2(g->bear_sin[b] * sd * clat, cd - slat * slat2);
            double x = p->lon + dlon / DEG;
            r[2 * n] = x;
            r[2 * n + 1] = lat2 / DEG;
            n++;
            if (x < minx)
                minx = x;
            if (x > maxx)
                maxx = x;
        }
    }
    r[2 * n] = r[0];
    r[2 * n + 1] = r[1];
    n++;
    if (minx >= -180 && maxx <= 180)
        return add_ring(g, r, n, 0);
    /* The bands [-180 + 360j, 180 + 360j] the ring touches. */
    for (int j = (int)floor((minx + 180) / 360); j <= (int)floor((maxx + 180) / 360); j++) {
        double lo = -180 + 360.0 * j, hi = 180 + 360.0 * j;
        double *a = g->tmp2, *b = g->tmp2 + 4 * (max + 4); /* pair 2 * (max + 4) */
        size_t m = clip_ring(r, n, lo, 1, a);
        m = m ? clip_ring(a, m, hi, -1, b) : 0;
        if ((rc = add_ring(g, b, m, 360.0 * j)))
            return rc;
    }
    return 0;
}

/* Positions of a track (and, for the forecast line, the last observed position
 * first) as lon/lat pairs in tmp. */
static int gather(swx_storm_geo *g, const swx_storm *s, int kind, size_t *n)
{
    const swx_storm_pos *lo = last_observed(s);
    size_t cnt = kind == SWX_SK_STORM ? s->nobserved : s->nforecast + (lo ? 1 : 0);
    int rc = reserve(&g->tmp, &g->tcap, cnt + 1);
    if (rc)
        return rc;
    size_t k = 0;
    if (kind == SWX_SK_STORM) {
        for (size_t i = 0; i < s->nobserved; i++, k++) {
            g->tmp[2 * k] = s->observed[i].lon;
            g->tmp[2 * k + 1] = s->observed[i].lat;
        }
    } else {
        if (lo) {
            g->tmp[0] = lo->lon;
            g->tmp[1] = lo->lat;
            k = 1;
        }
        for (size_t i = 0; i < s->nforecast; i++, k++) {
            g->tmp[2 * k] = s->forecast[i].lon;
            g->tmp[2 * k + 1] = s->forecast[i].lat;
        }
    }
    *n = k;
    return 0;
}

/* Distinct positions of a list of pairs, after rounding (at most 2 counted). */
static size_t distinct2(const double *xy, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (r6(xy[2 * i]) != r6(xy[0]) || r6(xy[2 * i + 1]) != r6(xy[1]))
            return 2;
    return n ? 1 : 0;
}

static int build_track(swx_storm_geo *g, const swx_storm *s, int kind, swx_storm_feature *f)
{
    size_t n;
    int rc = gather(g, s, kind, &n);
    if (rc)
        return rc;
    f->geom = SWX_GEOM_NONE;
    geo_reset(g);
    size_t d = distinct2(g->tmp, n);
    if (d == 1 && kind == SWX_SK_STORM) {
        if ((rc = part_begin(g)) || (rc = part_add(g, g->tmp[0], g->tmp[1])))
            return rc;
        f->geom = SWX_GEOM_POINT;
    } else if (d == 2) {
        if ((rc = build_line(g, g->tmp, n)))
            return rc;
        f->geom = g->nparts > 1 ? SWX_GEOM_MULTILINESTRING
                  : g->nparts   ? SWX_GEOM_LINESTRING
                                : SWX_GEOM_NONE;
    }
    return 0;
}

size_t swx_storm_feature_count(const swx_storm *s, int kind)
{
    size_t n = 0;
    switch (kind) {
    case SWX_SK_STORM:
        return 1;
    case SWX_SK_TRACK_POINT:
        return s->nobserved;
    case SWX_SK_FORECAST_POINT:
        return s->nforecast;
    case SWX_SK_FORECAST_LINE: {
        if (!s->nforecast)
            return 0;
        const swx_storm_pos *lo = last_observed(s);
        const swx_storm_pos *first = lo ? lo : &s->forecast[0];
        for (size_t i = 0; i < s->nforecast; i++)
            if (r6(s->forecast[i].lon) != r6(first->lon) ||
                r6(s->forecast[i].lat) != r6(first->lat))
                return 1;
        return 0;
    }
    case SWX_SK_WIND_RADII:
        for (int fc = 0; fc < 2; fc++) {
            const swx_storm_pos *p = fc ? s->forecast : s->observed;
            size_t np = fc ? s->nforecast : s->nobserved;
            for (size_t i = 0; i < np; i++)
                for (int t = 0; t < SWX_STORM_NRADII; t++)
                    n += radii_nonzero(&p[i].radii[t]);
        }
        return n;
    default:
        return 0;
    }
}

static void set_geom(swx_storm_feature *f, const swx_storm_geo *g)
{
    f->nparts = g->nparts;
    f->part_len = g->parts;
    f->xy = g->xy;
}

static int point_features(swx_storm_geo *g, const swx_storm *s, int kind, swx_storm_feature_fn fn,
                          void *ud)
{
    int fc = kind == SWX_SK_FORECAST_POINT, rc;
    const swx_storm_pos *p = fc ? s->forecast : s->observed;
    size_t n = fc ? s->nforecast : s->nobserved;
    for (size_t i = 0; i < n; i++) {
        swx_storm_feature f = {.kind = kind, .storm = s, .pos = &p[i], .seq = i, .forecast = fc};
        geo_reset(g);
        if ((rc = part_begin(g)) || (rc = part_add(g, p[i].lon, p[i].lat)))
            return rc;
        f.geom = SWX_GEOM_POINT;
        set_geom(&f, g);
        if ((rc = fn(ud, &f)))
            return rc;
    }
    return 0;
}

int swx_storm_features(swx_storm_geo *g, const swx_storm *s, unsigned mask, swx_storm_feature_fn fn,
                       void *ud)
{
    int rc;
    if (mask & (1u << SWX_SK_STORM)) {
        swx_storm_feature f = {.kind = SWX_SK_STORM, .storm = s};
        if ((rc = build_track(g, s, SWX_SK_STORM, &f)))
            return rc;
        set_geom(&f, g);
        if ((rc = fn(ud, &f)))
            return rc;
    }
    if ((mask & (1u << SWX_SK_TRACK_POINT)) &&
        (rc = point_features(g, s, SWX_SK_TRACK_POINT, fn, ud)))
        return rc;
    if ((mask & (1u << SWX_SK_FORECAST_POINT)) &&
        (rc = point_features(g, s, SWX_SK_FORECAST_POINT, fn, ud)))
        return rc;
    if ((mask & (1u << SWX_SK_FORECAST_LINE)) && s->nforecast) {
        swx_storm_feature f = {.kind = SWX_SK_FORECAST_LINE, .storm = s};
        if ((rc = build_track(g, s, SWX_SK_FORECAST_LINE, &f)))
            return rc;
        set_geom(&f, g);
        if (f.geom != SWX_GEOM_NONE && (rc = fn(ud, &f)))
            return rc;
    }
    if (mask & (1u << SWX_SK_WIND_RADII)) {
        for (int fc = 0; fc < 2; fc++) {
            const swx_storm_pos *p = fc ? s->forecast : s->observed;
            size_t np = fc ? s->nforecast : s->nobserved;
            for (size_t i = 0; i < np; i++)
                for (int t = 0; t < SWX_STORM_NRADII; t++) {
                    if (!radii_nonzero(&p[i].radii[t]))
                        continue;
                    swx_storm_feature f = {.kind = SWX_SK_WIND_RADII,
                                           .storm = s,
                                           .pos = &p[i],
                                           .seq = i,
                                           .forecast = fc,
                                           .threshold = t};
                    if ((rc = build_radii(g, &p[i], t)))
                        return rc;
                    /* A polygon always keeps at least one band with area. */
                    f.geom = g->nparts > 1 ? SWX_GEOM_MULTIPOLYGON : SWX_GEOM_POLYGON;
                    set_geom(&f, g);
                    if (g->nparts && (rc = fn(ud, &f)))
                        return rc;
                }
        }
    }
    return 0;
}

/* ---- colours ---- */

const char *swx_storm_category_color(int rank)
{
    /* Saffir-Simpson colours; the weaker systems light blue, unknown grey. */
    static const char *const c[SWX_STORM_NCATEGORIES] = {
        "#c0c0c0", "#80ccff", "#80ccff", "#80ccff", "#80ccff", "#00faf4", "#5ebaff",
        "#00faf4", "#ffffcc", "#ffe775", "#ffc140", "#ff8f20", "#ff6060"};
    return rank >= 0 && rank < SWX_STORM_NCATEGORIES ? c[rank] : "#c0c0c0";
}

static const char *const radii_color[SWX_STORM_NRADII] = {"#ffd700", "#ff8c00", "#e0201b"};

/* ---- output ----
 *
 * GeoJSON is written here with a small buffered emitter rather than through
 * jsonw: coordinates are most of the bytes of a storm archive, and writing
 * them straight into the buffer with integer arithmetic instead of printf
 * makes the conversion several times faster. Strings are escaped as in
 * jsonw. Every write first makes sure the buffer has room for what it may
 * put (flushing when not), then stores without further checks. */

#define OUT_BUF (64 * 1024)
/* The longest number put_num writes: "-1.7976931348623157e+308" and a NUL. */
#define NUM_MAX 32
/* Room for "[x,y]". */
#define PAIR_MAX (2 * NUM_MAX + 3)
#define MAX_FIELDS 32
/* The longest ,"name": of a property. */
#define KEY_MAX 32

_Static_assert(NF(storm_fields) <= MAX_FIELDS && NF(track_fields) <= MAX_FIELDS &&
                   NF(forecast_fields) <= MAX_FIELDS && NF(line_fields) <= MAX_FIELDS &&
                   NF(radii_fields) <= MAX_FIELDS,
               "a property table is longer than MAX_FIELDS");

struct out {
    FILE *f;
    char *buf;
    size_t len;
    int failed;
    size_t features; /* written to this file */
};

struct swx_storm_geojson {
    struct out outs[SWX_SK_COUNT]; /* a single file uses outs[0] for every kind */
    int split;
    unsigned mask;
    size_t counts[SWX_SK_COUNT];
    swx_storm_geo *geo;
    /* ,"name": of each property of each kind, built once in keytext */
    char *keytext;
    const char *key[SWX_SK_COUNT][MAX_FIELDS];
    unsigned char key_len[SWX_SK_COUNT][MAX_FIELDS];
};

static void out_flush(struct out *o)
{
    if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len)
        o->failed = 1;
    o->len = 0;
}

/* Makes room for n more bytes (n <= OUT_BUF). */
static inline void out_room(struct out *o, size_t n)
{
    if (o->len + n > OUT_BUF)
        out_flush(o);
}

static inline void out_raw(struct out *o, const char *s, size_t n)
{
    if (o->len + n > OUT_BUF) {
        out_flush(o);
        if (n > OUT_BUF) {
            if (!o->failed && fwrite(s, 1, n, o->f) != n)
                o->failed = 1;
            return;
        }
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

#define OUT_LIT(o, lit) out_raw(o, lit, sizeof(lit) - 1)

/* Bytes a JSON string cannot hold as they are: controls, '"', '\\', DEL. */
/* clang-format off */
static const unsigned char needs_escape[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['"'] = 1, ['\\'] = 1, [0x7f] = 1};
/* clang-format on */

static void out_str(struct out *o, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = strlen(s);
    if (n > (OUT_BUF - 2) / 6) {
        /* Too long to escape in place: a run at a time. */
        char tmp[6 * 256 + 2];
        size_t i = 0;
        out_raw(o, "\"", 1);
        while (i < n) {
            size_t k = 0;
            for (size_t end = i + 256 < n ? i + 256 : n; i < end; i++) {
                unsigned char c = (unsigned char)s[i];
                if (!needs_escape[c]) {
                    tmp[k++] = (char)c;
                    continue;
                }
                tmp[k++] = '\\';
                switch (c) {
                case '"':
                case '\\':
                    tmp[k++] = (char)c;
                    break;
                case '\n':
                    tmp[k++] = 'n';
                    break;
                case '\r':
                    tmp[k++] = 'r';
                    break;
                case '\t':
                    tmp[k++] = 't';
                    break;
                default:
                    memcpy(tmp + k, "u00", 3);
                    tmp[k + 3] = hex[c >> 4];
                    tmp[k + 4] = hex[c & 15];
                    k += 5;
                }
            }
            out_raw(o, tmp, k);
        }
        out_raw(o, "\"", 1);
        return;
    }
    out_room(o, 6 * n + 2);
    char *p = o->buf + o->len;
    *p++ = '"';
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        unsigned char c = *q;
        if (!needs_escape[c]) {
            *p++ = (char)c;
            continue;
        }
        *p++ = '\\';
        switch (c) {
        case '"':
        case '\\':
            *p++ = (char)c;
            break;
        case '\n':
            *p++ = 'n';
            break;
        case '\r':
            *p++ = 'r';
            break;
        case '\t':
            *p++ = 't';
            break;
        default:
            memcpy(p, "u00", 3);
            p[3] = hex[c >> 4];
            p[4] = hex[c & 15];
            p += 5;
        }
    }
    *p++ = '"';
    o->len = (size_t)(p - o->buf);
}

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

/* The decimal digits of u at p; returns the end. */
static inline char *put_uint(char *p, uint64_t u)
{
    if (u < 10) {
        *p = (char)('0' + u);
        return p + 1;
    }
    if (u < 100) {
        memcpy(p, digit_pairs + 2 * u, 2);
        return p + 2;
    }
    if (u < 1000) {
        *p = (char)('0' + u / 100);
        memcpy(p + 1, digit_pairs + 2 * (u % 100), 2);
        return p + 3;
    }
    int n = 4;
    for (uint64_t t = u / 10000; t; t /= 10)
        n++;
    char *e = p + n;
    while (u >= 100) {
        unsigned d = (unsigned)(u % 100) * 2;
        u /= 100;
        e -= 2;
        e[0] = digit_pairs[d];
        e[1] = digit_pairs[d + 1];
    }
    if (u >= 10) {
        p[0] = digit_pairs[u * 2];
        p[1] = digit_pairs[u * 2 + 1];
    } else {
        p[0] = (char)('0' + u);
    }
    return p + n;
}

static void out_int(struct out *o, int64_t v)
{
    out_room(o, 24);
    char *p = o->buf + o->len;
    uint64_t u = (uint64_t)v;
    if (v < 0) {
        *p++ = '-';
        u = (uint64_t)0 - u;
    }
    o->len = (size_t)(put_uint(p, u) - o->buf);
}

/* The six digits of frac (1 .. 999999) at p, trailing zeros cut; may write
 * 8 bytes. Returns the end. */
static inline char *put_frac6(char *p, uint32_t frac)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* frac as 8 digits "00dddddd", split lane by lane with multiplications
     * (x * 5243 >> 19 is x / 100 for x < 10^4, x * 103 >> 10 is x / 10 for
     * x < 179): two 4-digit values in 32-bit lanes, four 2-digit values in
     * 16-bit lanes, then one digit a byte in reading order; the two leading
     * zero digits are shifted out. */
    uint64_t hi = frac / 10000;
    uint64_t v = hi | (uint64_t)(frac - hi * 10000) << 32;
    uint64_t h = (v * 5243 >> 19) & 0x0000007F0000007FULL;
    v = h | (v - h * 100) << 16;
    uint64_t tens = (v * 103 >> 10) & 0x000F000F000F000FULL;
    uint64_t digits = (tens | (v - tens * 10) << 8) >> 16;
    uint64_t ascii = digits | 0x303030303030ULL;
    memcpy(p, &ascii, 8);
    /* Digits up to the last nonzero one (frac > 0: there is one). */
    return p + ((63 - __builtin_clzll(digits)) >> 3) + 1;
#else
    uint32_t lo = frac % 10000;
    memcpy(p, digit_pairs + 2 * (frac / 10000), 2);
    memcpy(p + 2, digit_pairs + 2 * (lo / 100), 2);
    memcpy(p + 4, digit_pairs + 2 * (lo % 100), 2);
    p += 6;
    while (p[-1] == '0')
        p--;
    return p;
#endif
}

/* Magnitudes from 9e12 up, where millionths no longer fit in the integer of
 * put_num: the shortest of %.15g, %.16g, %.17g that reads back as v. From
 * 1e17 on that has an exponent, so that readers that take digits without a
 * point for a 64-bit integer still read a double. */
__attribute__((noinline, cold)) static char *put_big(char *p, double v)
{
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(p, NUM_MAX, "%.*g", prec, v);
        if (strtod(p, NULL) == v)
            break;
    }
    return p + n;
}

/* A finite number at p, with at most 6 decimals and trailing zeros cut:
 * the value rounded to millionths (half away from zero), written from that
 * integer. At most NUM_MAX bytes; returns the end. */
static inline char *put_num(char *p, double v)
{
    if (fabs(v) >= 9e12)
        return put_big(p, v);
    double scaled = v * 1e6;
    int64_t m = (int64_t)(scaled < 0 ? scaled - 0.5 : scaled + 0.5);
    uint64_t u = (uint64_t)m;
    if (m < 0) {
        *p++ = '-';
        u = (uint64_t)0 - u;
    }
    uint64_t ip = u / 1000000;
    uint32_t frac = (uint32_t)(u - ip * 1000000);
    p = put_uint(p, ip);
    if (frac) {
        *p++ = '.';
        p = put_frac6(p, frac);
    }
    return p;
}

/* A number at p, null when not finite. */
static inline char *put_num_or_null(char *p, double v)
{
    if (isfinite(v))
        return put_num(p, v);
    memcpy(p, "null", 4);
    return p + 4;
}

static void out_num(struct out *o, double v)
{
    out_room(o, NUM_MAX);
    o->len = (size_t)(put_num_or_null(o->buf + o->len, v) - o->buf);
}

/* "YYYY-MM-DDTHH:MM:SSZ", as swx_iso8601_format writes it, without printf. */
static void out_time(struct out *o, int64_t t)
{
    int y, mo, d, h, mi, s;
    swx_civil_from_time(t, &y, &mo, &d, &h, &mi, &s);
    if (y < 0 || y > 9999) {
        char ts[SWX_ISO8601_LEN];
        swx_iso8601_format(t, ts);
        out_str(o, ts);
        return;
    }
    out_room(o, 22);
    char *b = o->buf + o->len;
    b[0] = '"';
    memcpy(b + 1, digit_pairs + 2 * (y / 100), 2);
    memcpy(b + 3, digit_pairs + 2 * (y % 100), 2);
    b[5] = '-';
    memcpy(b + 6, digit_pairs + 2 * mo, 2);
    b[8] = '-';
    memcpy(b + 9, digit_pairs + 2 * d, 2);
    b[11] = 'T';
    memcpy(b + 12, digit_pairs + 2 * h, 2);
    b[14] = ':';
    memcpy(b + 15, digit_pairs + 2 * mi, 2);
    b[17] = ':';
    memcpy(b + 18, digit_pairs + 2 * s, 2);
    b[20] = 'Z';
    b[21] = '"';
    o->len += 22;
}

/* ,"k": for a key that is not in a property table. */
static void out_key(struct out *o, const char *k)
{
    out_raw(o, ",\"", 2);
    out_raw(o, k, strlen(k));
    out_raw(o, "\":", 2);
}

/* n positions "[x,y],[x,y]..." (no brackets around them). */
static void out_pairs(struct out *o, const double *xy, size_t n)
{
    for (size_t i = 0; i < n; i++, xy += 2) {
        out_room(o, PAIR_MAX + 1);
        char *p = o->buf + o->len;
        if (i)
            *p++ = ',';
        *p++ = '[';
        p = put_num_or_null(p, xy[0]);
        *p++ = ',';
        p = put_num_or_null(p, xy[1]);
        *p++ = ']';
        o->len = (size_t)(p - o->buf);
    }
}

static void out_positions(struct out *o, const double *xy, size_t n)
{
    out_raw(o, "[", 1);
    out_pairs(o, xy, n);
    out_raw(o, "]", 1);
}

static void out_geometry(struct out *o, const swx_storm_feature *f)
{
    const double *xy = f->xy;
    switch (f->geom) {
    case SWX_GEOM_NONE:
        OUT_LIT(o, "null");
        return;
    case SWX_GEOM_POINT:
        OUT_LIT(o, "{\"type\":\"Point\",\"coordinates\":");
        out_pairs(o, xy, 1);
        break;
    case SWX_GEOM_LINESTRING:
        OUT_LIT(o, "{\"type\":\"LineString\",\"coordinates\":");
        out_positions(o, xy, f->part_len[0]);
        break;
    case SWX_GEOM_POLYGON:
        OUT_LIT(o, "{\"type\":\"Polygon\",\"coordinates\":[");
        out_positions(o, xy, f->part_len[0]);
        out_raw(o, "]", 1);
        break;
    case SWX_GEOM_MULTILINESTRING:
    case SWX_GEOM_MULTIPOLYGON: {
        int poly = f->geom == SWX_GEOM_MULTIPOLYGON;
        if (poly)
            OUT_LIT(o, "{\"type\":\"MultiPolygon\",\"coordinates\":[");
        else
            OUT_LIT(o, "{\"type\":\"MultiLineString\",\"coordinates\":[");
        for (size_t i = 0; i < f->nparts; i++) {
            if (i)
                out_raw(o, ",", 1);
            if (poly)
                out_raw(o, "[", 1);
            out_positions(o, xy, f->part_len[i]);
            if (poly)
                out_raw(o, "]", 1);
            xy += 2 * f->part_len[i];
        }
        out_raw(o, "]", 1);
        break;
    }
    }
    out_raw(o, "}", 1);
}

static void out_style(struct out *o, const swx_storm_feature *f)
{
    int rank = f->pos ? f->pos->category : f->storm->max_category;
    switch (f->kind) {
    case SWX_SK_STORM:
    case SWX_SK_FORECAST_LINE:
        if (f->kind == SWX_SK_FORECAST_LINE) {
            int best = -1;
            for (size_t i = 0; i < f->storm->nforecast; i++)
                if (f->storm->forecast[i].category > best)
                    best = f->storm->forecast[i].category;
            rank = best;
        }
        out_key(o, f->geom == SWX_GEOM_POINT ? "marker-color" : "stroke");
        out_str(o, swx_storm_category_color(rank));
        if (f->geom != SWX_GEOM_POINT) {
            if (f->kind == SWX_SK_STORM)
                OUT_LIT(o, ",\"stroke-width\":3,\"stroke-opacity\":1");
            else
                OUT_LIT(o, ",\"stroke-width\":2,\"stroke-opacity\":0.7");
        }
        break;
    case SWX_SK_TRACK_POINT:
    case SWX_SK_FORECAST_POINT:
        OUT_LIT(o, ",\"marker-color\":");
        out_str(o, swx_storm_category_color(rank));
        if (f->kind == SWX_SK_FORECAST_POINT)
            OUT_LIT(o, ",\"marker-size\":\"small\",\"marker-symbol\":\"circle-stroked\"");
        else
            OUT_LIT(o, ",\"marker-size\":\"small\"");
        break;
    case SWX_SK_WIND_RADII:
        OUT_LIT(o, ",\"stroke\":");
        out_str(o, radii_color[f->threshold]);
        OUT_LIT(o, ",\"stroke-width\":1,\"fill\":");
        out_str(o, radii_color[f->threshold]);
        OUT_LIT(o, ",\"fill-opacity\":0.25");
        break;
    }
}

static int write_feature(void *ud, const swx_storm_feature *f)
{
    static const char *const head[SWX_SK_COUNT] = {
        "{\"type\":\"Feature\",\"properties\":{\"kind\":\"storm\"",
        "{\"type\":\"Feature\",\"properties\":{\"kind\":\"track_point\"",
        "{\"type\":\"Feature\",\"properties\":{\"kind\":\"forecast_point\"",
        "{\"type\":\"Feature\",\"properties\":{\"kind\":\"forecast_line\"",
        "{\"type\":\"Feature\",\"properties\":{\"kind\":\"wind_radii\""};
    swx_storm_geojson *w = ud;
    struct out *o = &w->outs[w->split ? f->kind : 0];
    const swx_storm_field *tab;
    size_t n = swx_storm_fields(f->kind, &tab);
    if (o->features++)
        OUT_LIT(o, ",\n");
    out_raw(o, head[f->kind], strlen(head[f->kind]));
    for (size_t i = 0; i < n; i++) {
        swx_storm_value v;
        value_of(f, tab[i].id_, &v);
        /* Every key is copied as KEY_MAX bytes (keytext is padded) and the
         * end moved by its length: a fixed-size copy is a few moves. */
        out_room(o, KEY_MAX);
        memcpy(o->buf + o->len, w->key[f->kind][i], KEY_MAX);
        o->len += w->key_len[f->kind][i];
        if (v.null) {
            OUT_LIT(o, "null");
            continue;
        }
        switch (tab[i].type) {
        case SWX_SF_STRING:
        case SWX_SF_DATE:
            out_str(o, v.s);
            break;
        case SWX_SF_INT:
            out_int(o, v.i);
            break;
        case SWX_SF_REAL:
            out_num(o, v.d);
            break;
        case SWX_SF_BOOL:
            if (v.i)
                OUT_LIT(o, "true");
            else
                OUT_LIT(o, "false");
            break;
        case SWX_SF_DATETIME:
            out_time(o, v.i);
            break;
        }
    }
    out_style(o, f);
    OUT_LIT(o, "},\"geometry\":");
    out_geometry(o, f);
    out_raw(o, "}", 1);
    w->counts[f->kind]++;
    return o->failed ? swx_error_set(SWX_EIO, "writing GeoJSON output failed") : 0;
}

static const char collection_head[] = "{\"type\":\"FeatureCollection\",\"features\":[\n";

/* The ,"name": strings of every property table, one after the other, with
 * KEY_MAX bytes of padding after the last. */
static int build_keys(swx_storm_geojson *w)
{
    size_t total = 0;
    for (int k = 0; k < SWX_SK_COUNT; k++) {
        const swx_storm_field *tab;
        size_t n = swx_storm_fields(k, &tab);
        for (size_t i = 0; i < n; i++)
            total += strlen(tab[i].name) + 4;
    }
    char *p = w->keytext = calloc(1, total + KEY_MAX);
    if (!p)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (int k = 0; k < SWX_SK_COUNT; k++) {
        const swx_storm_field *tab;
        size_t n = swx_storm_fields(k, &tab);
        for (size_t i = 0; i < n; i++) {
            size_t len = strlen(tab[i].name);
            if (len + 4 > KEY_MAX)
                return swx_error_set(SWX_EINVAL, "property name %s is too long", tab[i].name);
            w->key[k][i] = p;
            w->key_len[k][i] = (unsigned char)(len + 4);
            p[0] = ',';
            p[1] = '"';
            memcpy(p + 2, tab[i].name, len);
            p[len + 2] = '"';
            p[len + 3] = ':';
            p += len + 4;
        }
    }
    return 0;
}

static int geojson_alloc(swx_storm_geojson **out)
{
    swx_storm_geojson *w = calloc(1, sizeof *w);
    int rc;
    *out = NULL;
    if (!w)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if ((rc = swx_storm_geo_new(&w->geo)) || (rc = build_keys(w))) {
        swx_storm_geojson_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

static int out_open(struct out *o, FILE *f)
{
    o->f = f;
    if (!(o->buf = malloc(OUT_BUF)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    OUT_LIT(o, collection_head);
    return 0;
}

int swx_storm_geojson_new(swx_storm_geojson **out, FILE *f, unsigned mask)
{
    swx_storm_geojson *w;
    int rc = geojson_alloc(&w);
    if (rc)
        return rc;
    w->mask = mask & SWX_SK_ALL;
    if ((rc = out_open(&w->outs[0], f))) {
        swx_storm_geojson_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

int swx_storm_geojson_new_split(swx_storm_geojson **out, FILE *const *files)
{
    swx_storm_geojson *w;
    int rc = geojson_alloc(&w);
    if (rc)
        return rc;
    w->split = 1;
    for (int k = 0; k < SWX_SK_COUNT; k++) {
        if (!files[k])
            continue;
        w->mask |= 1u << k;
        if ((rc = out_open(&w->outs[k], files[k]))) {
            swx_storm_geojson_free(w);
            return rc;
        }
    }
    *out = w;
    return 0;
}

int swx_storm_geojson_add(void *ud, const swx_storm *s)
{
    swx_storm_geojson *w = ud;
    return swx_storm_features(w->geo, s, w->mask, write_feature, w);
}

void swx_storm_geojson_counts(const swx_storm_geojson *w, size_t counts[SWX_SK_COUNT])
{
    memcpy(counts, w->counts, sizeof w->counts);
}

int swx_storm_geojson_finish(swx_storm_geojson *w)
{
    int rc = 0;
    for (int k = 0; k < SWX_SK_COUNT; k++) {
        struct out *o = &w->outs[k];
        if (!o->f)
            continue;
        OUT_LIT(o, "\n]}\n");
        out_flush(o);
        if (o->failed || fflush(o->f) != 0 || ferror(o->f))
            rc = rc ? rc : swx_error_set(SWX_EIO, "writing GeoJSON output failed");
    }
    swx_storm_geojson_free(w);
    return rc;
}

void swx_storm_geojson_free(swx_storm_geojson *w)
{
    if (!w)
        return;
    for (int k = 0; k < SWX_SK_COUNT; k++)
        free(w->outs[k].buf);
    swx_storm_geo_free(w->geo);
    free(w->keytext);
    free(w);
}
