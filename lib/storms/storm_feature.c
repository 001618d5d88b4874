/* storm_feature.c: the kinds of storm features, their typed property tables
 * and the values of a feature (see seawx/storm_geojson.h). */
#include "seawx/storm_geojson.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "storm_feature.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- kinds ---- */

/* A vector layer's <temporal> as QGIS 3.22 reads it: mode 1 an instant from
 * a field (shown for HOURS from it, or from it on when ACC), mode 2 a start
 * and an end from two fields. What spans a time (a storm, a forecast line, a
 * cone, a danger area, a swath) shows while the frame meets its span; the
 * observed track grows up to the frame; a fix (forecast point, wind radii)
 * shows from its time until the next fix's (valid_until, an end QGIS does not
 * include), so one position of each track shows at every moment. */
#define TEMPORAL(mode, start, end, hours, acc)                                                     \
    "<temporal enabled=\"1\" mode=\"" #mode "\" startField=\"" start "\" endField=\"" end          \
    "\" startExpression=\"\" endExpression=\"\" durationField=\"\" durationUnit=\"h\" "            \
    "fixedDuration=\"" #hours "\" accumulate=\"" #acc "\"><fixedRange><start></start><end></end>"  \
    "</fixedRange></temporal>"

/* A swath sums the radii of a whole track: the observed one is known once
 * its last fix is (its end_time), the forecast one from the advisory that
 * gives it (its start_time, the last observed fix). Shown over its span, the
 * observed swath drew days of winds still to come (at 10-06 12Z a storm's
 * winds up to 10-08). Mode 4 (start and end from expressions): the observed
 * swath from its end_time for five days, the longest an advisory forecasts;
 * the forecast swath from its start_time to its end_time. */
#define SWATH_START                                                                                \
    "if(&quot;track&quot; = 'observed', &quot;end_time&quot;, &quot;start_time&quot;)"
#define SWATH_END                                                                                  \
    "if(&quot;track&quot; = 'observed', &quot;end_time&quot; + to_interval('120 hours'), "         \
    "&quot;end_time&quot;)"
#define TEMPORAL_SWATH                                                                             \
    "<temporal enabled=\"1\" mode=\"4\" startField=\"\" endField=\"\" "                            \
    "startExpression=\"" SWATH_START "\" endExpression=\"" SWATH_END                               \
    "\" durationField=\"\" durationUnit=\"h\" "                                                    \
    "fixedDuration=\"0\" accumulate=\"0\"><fixedRange><start></start><end></end>"                  \
    "</fixedRange></temporal>"

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
    F_VALID_UNTIL, /* forecast point, wind radii */
    /* danger kinds */
    F_D_START,
    F_D_END,
    F_D_LEAD,
    F_D_MAX_NM,
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
    {"valid_until", SWX_SF_DATETIME, F_VALID_UNTIL},
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
    {"valid_until", SWX_SF_DATETIME, F_VALID_UNTIL},
    {"threshold_kt", SWX_SF_INT, F_W_THRESHOLD},
    {"wind_speed", SWX_SF_REAL, F_W_SPEED},
    {"ne", SWX_SF_REAL, F_W_Q0 + 0},
    {"se", SWX_SF_REAL, F_W_Q0 + 1},
    {"sw", SWX_SF_REAL, F_W_Q0 + 2},
    {"nw", SWX_SF_REAL, F_W_Q0 + 3},
    {"category_code", SWX_SF_STRING, F_CAT},
    {"category_rank", SWX_SF_INT, F_CAT_RANK},
};

static const swx_storm_field cone_fields[] = {
    {"atcf_id", SWX_SF_STRING, F_ATCF_ID},
    {"title", SWX_SF_STRING, F_TITLE},
    {"basin", SWX_SF_STRING, F_BASIN},
    {"advisory_number", SWX_SF_INT, F_ADV_NUMBER},
    {"advisory_issuance_time", SWX_SF_DATETIME, F_ADV_TIME},
    {"start_time", SWX_SF_DATETIME, F_D_START},
    {"end_time", SWX_SF_DATETIME, F_D_END},
    {"max_forecast_hour", SWX_SF_REAL, F_D_LEAD},
    {"max_radius_nm", SWX_SF_REAL, F_D_MAX_NM},
    {"category_rank", SWX_SF_INT, F_L_MAX_RANK},
};

static const swx_storm_field swath_fields[] = {
    {"atcf_id", SWX_SF_STRING, F_ATCF_ID},      {"title", SWX_SF_STRING, F_TITLE},
    {"track", SWX_SF_STRING, F_W_TRACK},        {"threshold_kt", SWX_SF_INT, F_W_THRESHOLD},
    {"start_time", SWX_SF_DATETIME, F_D_START}, {"end_time", SWX_SF_DATETIME, F_D_END},
    {"max_radius_nm", SWX_SF_REAL, F_D_MAX_NM},
};

#define NF(a) (sizeof a / sizeof a[0])

_Static_assert(NF(storm_fields) <= SWX_STORM_MAX_FIELDS &&
                   NF(track_fields) <= SWX_STORM_MAX_FIELDS &&
                   NF(forecast_fields) <= SWX_STORM_MAX_FIELDS &&
                   NF(line_fields) <= SWX_STORM_MAX_FIELDS &&
                   NF(radii_fields) <= SWX_STORM_MAX_FIELDS,
               "a property table is longer than SWX_STORM_MAX_FIELDS");

/* ---- the rows ---- */

#define SHAPE_POINT .shape = SWX_SHAPE_POINT, .qgis_geometry = "Point", .qgis_wkb = "MultiPoint"
#define SHAPE_LINE .shape = SWX_SHAPE_LINE, .qgis_geometry = "Line", .qgis_wkb = "MultiLineString"
#define SHAPE_POLYGON                                                                              \
    .shape = SWX_SHAPE_POLYGON, .qgis_geometry = "Polygon", .qgis_wkb = "MultiPolygon"
#define FIELDS(a) .fields = a, .nfields = NF(a)

/* In the order of swx_storm_kind. QGIS draws points over lines over areas,
 * the larger areas lowest. */
static const swx_storm_kind_row kinds[SWX_SK_COUNT] = {
    [SWX_SK_STORM] = {{.name = "storm",
                       .layer = "storms",
                       .file = "storms.geojson",
                       .per_storm = 1,
                       SHAPE_LINE,
                       .qgis_temporal = TEMPORAL(2, "first_time", "last_time", 0, 0),
                       .drawn = 2},
                      FIELDS(storm_fields),
                      swx_storm_build_track,
                      swx_storm_count_track},
    [SWX_SK_TRACK_POINT] = {{.name = "track_point",
                             .layer = "track_points",
                             .file = "track_points.geojson",
                             .summary = "track points",
                             SHAPE_POINT,
                             .qgis_temporal = TEMPORAL(1, "time", "", 0, 1),
                             .drawn = 0},
                            FIELDS(track_fields),
                            swx_storm_build_track_points,
                            swx_storm_count_track_points},
    [SWX_SK_FORECAST_POINT] = {{.name = "forecast_point",
                                .layer = "forecast_points",
                                .file = "forecast_points.geojson",
                                .summary = "forecast points",
                                SHAPE_POINT,
                                .qgis_temporal = TEMPORAL(2, "forecast_time", "valid_until", 0, 0),
                                .drawn = 1},
                               FIELDS(forecast_fields),
                               swx_storm_build_forecast_points,
                               swx_storm_count_forecast_points},
    [SWX_SK_FORECAST_LINE] = {{.name = "forecast_line",
                               .layer = "forecast_lines",
                               .file = "forecast_lines.geojson",
                               .summary = "forecast lines",
                               SHAPE_LINE,
                               .qgis_temporal = TEMPORAL(2, "start_time", "end_time", 0, 0),
                               .drawn = 3},
                              FIELDS(line_fields),
                              swx_storm_build_forecast_line,
                              swx_storm_count_forecast_line},
    [SWX_SK_WIND_RADII] = {{.name = "wind_radii",
                            .layer = "wind_radii",
                            .file = "wind_radii.geojson",
                            .summary = "wind radii polygons",
                            SHAPE_POLYGON,
                            .qgis_temporal = TEMPORAL(2, "time", "valid_until", 0, 0),
                            .drawn = 4},
                           FIELDS(radii_fields),
                           swx_storm_build_radii,
                           swx_storm_count_radii},
    [SWX_SK_CONE] = {{.name = "cone",
                      .layer = "cones",
                      .file = "cones.geojson",
                      .summary = "cones",
                      SHAPE_POLYGON,
                      .qgis_temporal = TEMPORAL(2, "start_time", "end_time", 0, 0),
                      .drawn = 7,
                      .danger = 1},
                     FIELDS(cone_fields),
                     swx_storm_build_danger,
                     swx_storm_count_danger},
    [SWX_SK_DANGER_AREA] = {{.name = "danger_area",
                             .layer = "danger_areas",
                             .file = "danger_areas.geojson",
                             .summary = "danger areas",
                             SHAPE_POLYGON,
                             .qgis_temporal = TEMPORAL(2, "start_time", "end_time", 0, 0),
                             .drawn = 6,
                             .danger = 1},
                            FIELDS(cone_fields),
                            swx_storm_build_danger,
                            swx_storm_count_danger},
    [SWX_SK_WIND_SWATH] = {{.name = "wind_swath",
                            .layer = "wind_swaths",
                            .file = "wind_swaths.geojson",
                            .summary = "wind swaths",
                            SHAPE_POLYGON,
                            .qgis_temporal = TEMPORAL_SWATH,
                            .drawn = 5,
                            .danger = 1},
                           FIELDS(swath_fields),
                           swx_storm_build_swath,
                           swx_storm_count_swath},
};

const swx_storm_kind_row *swx_storm_kind_row_of(int kind)
{
    return kind >= 0 && kind < SWX_SK_COUNT ? &kinds[kind] : NULL;
}

const swx_storm_kind_info *swx_storm_kind_get(int kind)
{
    return kind >= 0 && kind < SWX_SK_COUNT ? &kinds[kind].info : NULL;
}

int swx_storm_kind_drawn(int i)
{
    for (int k = 0; k < SWX_SK_COUNT; k++)
        if (kinds[k].info.drawn == i)
            return k;
    return -1;
}

unsigned swx_storm_kinds_default(void)
{
    unsigned mask = 0;
    for (int k = 0; k < SWX_SK_COUNT; k++)
        if (!kinds[k].info.danger)
            mask |= 1u << k;
    return mask;
}

const char *swx_storm_kind_name(int kind)
{
    return kind >= 0 && kind < SWX_SK_COUNT ? kinds[kind].info.name : NULL;
}

const char *swx_storm_kind_layer(int kind)
{
    return kind >= 0 && kind < SWX_SK_COUNT ? kinds[kind].info.layer : NULL;
}

int swx_storm_kind_parse(const char *name)
{
    for (int k = 0; name && k < SWX_SK_COUNT; k++)
        if (strcasecmp(name, kinds[k].info.name) == 0 || strcasecmp(name, kinds[k].info.layer) == 0)
            return k;
    return -1;
}

int swx_storm_kinds_parse(unsigned *mask, const char *list)
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
bad:;
    char names[256];
    size_t len = 0;
    names[0] = '\0';
    for (int k = 0; k < SWX_SK_COUNT && len < sizeof names; k++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", k ? ", " : "",
                                kinds[k].info.name);
    return swx_error_set(SWX_EINVAL, "bad kinds '%.80s': a comma-separated list of %s",
                         list ? list : "", names);
}

size_t swx_storm_fields(const swx_storm_field **out, int kind)
{
    const swx_storm_kind_row *r = swx_storm_kind_row_of(kind);
    *out = r ? r->fields : NULL;
    return r ? r->nfields : 0;
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
    if (!s || strlen(s) != 10 || swx_iso8601_parse(&t, s) != 0) {
        swx_error_clear();
        return NULL;
    }
    return s;
}

static void line_summary(const swx_storm *s, int id, swx_storm_value *v)
{
    const swx_storm_pos *lo = swx_storm_last_observed(s);
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

/* A fix's own time: its forecast time on the forecast track. */
static int64_t fix_time(const swx_storm_feature *f)
{
    return f->forecast ? f->pos->forecast_time : f->pos->time;
}

/* Until when a fix stands for the storm in a time-stepped view: the time of
 * the next fix along the track (observed, then forecast) that is later than
 * its own, or 12 h after the last one (the spacing of an advisory's fixes
 * over its first three days). Past 72 h an advisory's fixes are 24 h apart:
 * held a fixed 12 h, the forecast would show no position half of the time. */
static int64_t fix_until(const swx_storm_feature *f)
{
    const swx_storm *s = f->storm;
    int64_t t = fix_time(f);
    if (t == SWX_STORM_NULL)
        return SWX_STORM_NULL;
    if (!f->forecast)
        for (size_t i = f->seq + 1; i < s->nobserved; i++)
            if (s->observed[i].time != SWX_STORM_NULL && s->observed[i].time > t)
                return s->observed[i].time;
    for (size_t i = f->forecast ? f->seq + 1 : 0; i < s->nforecast; i++)
        if (s->forecast[i].forecast_time != SWX_STORM_NULL && s->forecast[i].forecast_time > t)
            return s->forecast[i].forecast_time;
    return t + 12 * 3600;
}

/* A storm's own properties (F_ATCF_ID to F_LAST_TIME), the same on every
 * feature of the storm. */
static void storm_value(swx_storm_value *v, const swx_storm *s, int id)
{
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
    default:
        break;
    }
}

/* A fix's properties (F_SEQ to F_SPEED and its radii): null on a feature
 * without a position. */
static void pos_value(swx_storm_value *v, const swx_storm_feature *f, int id)
{
    const swx_storm_pos *p = f->pos;
    if (id >= F_R0 && id <= F_R_LAST) {
        if (p)
            v_real(v, p->radii[(id - F_R0) / 4].present
                          ? p->radii[(id - F_R0) / 4].r[(id - F_R0) % 4]
                          : NAN);
        return;
    }
    switch (id) {
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
    default:
        break;
    }
}

/* The properties of one kind: a wind radii feature's track, time, threshold
 * and quadrants, a fix's valid_until, a danger product's span. */
static void kind_value(swx_storm_value *v, const swx_storm_feature *f, int id)
{
    const swx_storm_pos *p = f->pos;
    if (id >= F_W_Q0 && id <= F_W_Q3) {
        if (p)
            v_real(v, p->radii[f->threshold].r[id - F_W_Q0]);
        return;
    }
    switch (id) {
    case F_W_TRACK:
        v_str(v, f->forecast ? "forecast" : "observed");
        break;
    case F_W_TIME:
        v_int(v, p ? fix_time(f) : SWX_STORM_NULL);
        break;
    case F_W_THRESHOLD:
        v_int(v, swx_storm_radii_kt(f->threshold));
        break;
    case F_W_SPEED:
        v_real(v, p ? p->radii[f->threshold].wind_speed : NAN);
        break;
    case F_VALID_UNTIL:
        v_int(v, p ? fix_until(f) : SWX_STORM_NULL);
        break;
    case F_D_START:
        v_int(v, f->start_time);
        break;
    case F_D_END:
        v_int(v, f->end_time);
        break;
    case F_D_LEAD:
        v_real(v, f->max_lead_h);
        break;
    case F_D_MAX_NM:
        v_real(v, f->max_nm);
        break;
    default:
        break;
    }
}

void swx_storm_value_of(swx_storm_value *v, const swx_storm_feature *f, int id)
{
    memset(v, 0, sizeof *v);
    v->null = 1;
    if (id <= F_LAST_TIME)
        storm_value(v, f->storm, id);
    else if (id <= F_R_LAST)
        pos_value(v, f, id);
    else if (id <= F_L_COUNT)
        line_summary(f->storm, id, v);
    else
        kind_value(v, f, id);
}

void swx_storm_feature_value(swx_storm_value *v, const swx_storm_feature *f, size_t field)
{
    const swx_storm_field *tab;
    size_t n = swx_storm_fields(&tab, f->kind);
    if (field >= n) {
        memset(v, 0, sizeof *v);
        v->null = 1;
        return;
    }
    swx_storm_value_of(v, f, tab[field].id_);
}
