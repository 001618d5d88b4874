/* storm_data.c: the sample storms of seawx-sim and their JSON and KML forms
 * (see storm_data.h). */
#include "storm_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "timestamp.h"

static const char *const cat_codes[13] = {"XX", "DS",  "IN",  "PT",  "LO",  "SS", "TD",
                                          "TS", "TC1", "TC2", "TC3", "TC4", "TC5"};

const char *sim_storm_cat_code(int rank)
{
    return rank >= 0 && rank < 13 ? cat_codes[rank] : NULL;
}

int sim_storm_cat_rank(const char *code)
{
    for (int i = 0; code != NULL && i < 13; i++)
        if (strcasecmp(code, cat_codes[i]) == 0)
            return i;
    return -1;
}

/* Saffir-Simpson category of a sustained wind in knots. */
static int cat_of_wind(double w)
{
    return w < 34 ? 6 : w < 64 ? 7 : w < 83 ? 8 : w < 96 ? 9 : w < 113 ? 10 : w < 137 ? 11 : 12;
}

static double wrap_lon(double lon)
{
    while (lon >= 180)
        lon -= 360;
    while (lon < -180)
        lon += 360;
    return lon;
}

static double round1(double v)
{
    return round(v * 10) / 10;
}

static int64_t ts_of(int y, unsigned m, unsigned d, unsigned h)
{
    return swx_days_from_civil(y, m, d) * 86400 + (int64_t)h * 3600;
}

static void set_radii(struct sim_storm_pos *p, double scale)
{
    p->radii_mode = 1;
    memset(p->r, 0, sizeof(p->r));
    if (!(p->wind >= 34))
        return;
    double r34 = round(scale * (40 + p->wind * 0.9));
    const double f[4] = {1.0, 0.8, 0.5, 0.7};
    const double kt[3] = {34, 50, 64};
    const double part[3] = {1.0, 0.55, 0.3};
    for (int t = 0; t < 3; t++) {
        if (p->wind < kt[t])
            break;
        p->r[t].present = 1;
        p->r[t].speed = kt[t];
        for (int q = 0; q < 4; q++)
            p->r[t].q[q] = round(r34 * part[t] * f[q]);
    }
}

static void pos_init(struct sim_storm_pos *p)
{
    memset(p, 0, sizeof(*p));
    p->gust = p->wind = p->mslp = p->dir = p->speed = NAN;
    p->fh = -1;
}

/* Fills the summary fields that follow from the observed track. */
static void summarise(struct sim_storm *s)
{
    char ts[SWX_ISO8601_LEN];
    s->max_cat = 0;
    s->max_wind = NAN;
    s->min_mslp = NAN;
    for (size_t i = 0; i < s->nobs; i++) {
        const struct sim_storm_pos *p = &s->obs[i];
        int r = sim_storm_cat_rank(p->cat);
        if (r > s->max_cat)
            s->max_cat = r;
        if (!isnan(p->wind) && !(s->max_wind >= p->wind))
            s->max_wind = p->wind;
        if (!isnan(p->mslp) && !(s->min_mslp <= p->mslp))
            s->min_mslp = p->mslp;
    }
    s->t_start = s->nobs ? s->obs[0].time : 0;
    swx_iso8601_format(ts, s->t_start);
    memcpy(s->start, ts, 10);
    s->start[10] = '\0';
    if (s->active) {
        strcpy(s->end, "ongoing");
        s->t_end = INT64_MAX;
    } else {
        s->t_end = s->nobs ? s->obs[s->nobs - 1].time : s->t_start;
        swx_iso8601_format(ts, s->t_end);
        memcpy(s->end, ts, 10);
        s->end[10] = '\0';
    }
}

/* ---- the hand-made storms ---- */

struct spec {
    const char *id, *name, *basin, *subbasin;
    int season, active, adv;
    int64_t t0; /* first observed time */
    int nobs, nfc;
    double lat0, lon0, dlat, dlon; /* per 6 hours */
    const double *wind;            /* nobs + nfc values */
    double radii_scale;
    int radii_from; /* first observed index with radii, -1 for none */
};

static const double helga_wind[] = {30,  40,  55,  70,  90, 105, 125, 145, 150, 135,
                                    120, 105, 105, 100, 95, 85,  75,  60,  45,  35};
static const double takara_wind[] = {35, 45, 60, 75, 90, 110, 120, 115, 105,
                                     95, 95, 90, 80, 70, 60,  50,  40};
static const double otilda_wind[] = {25, 30, 35, 45, 55, 65, 75, 85, 90, 85,
                                     80, 70, 60, 50, 45, 40, 35, 30, 25, 20};
static const double vaiana_wind[] = {35, 50, 65, 80, 100, 95, 85, 75, 75, 70, 60, 50, 40};
static const double ni_wind[] = {25};

static const struct spec specs[] = {
    {"AL092024", "HELGA", "NA", "GM", 2024, 1, 23, 0, 12, 8, 21.5, -94.0, 0.35, 0.75, helga_wind,
     1.0, 1},
    {"WP272024", "TAKARA", "WP", "MM", 2024, 1, 14, 0, 10, 7, 15.0, 170.5, 0.6, 1.4, takara_wind,
     1.6, 0},
    {"EP142023", "OTILDA", "EP", "MM", 2023, 0, -1, 0, 20, 0, 14.0, -102.0, 0.25, -0.55,
     otilda_wind, 1.0, 2},
    {"NI032024", "", "NI", "BB", 2024, 1, 1, 0, 1, 0, 14.2, 88.5, 0, 0, ni_wind, 1.0, -1},
    {"SP052024", "VAIANA", "SP", "EA", 2024, 1, 9, 0, 8, 5, -14.0, -175.2, -0.5, -1.1, vaiana_wind,
     1.3, 1},
};
#define NSPECS (sizeof(specs) / sizeof(specs[0]))

static int64_t spec_t0(size_t i)
{
    switch (i) {
    case 0:
        return ts_of(2024, 10, 5, 12);
    case 1:
        return ts_of(2024, 10, 2, 0);
    case 2:
        return ts_of(2023, 9, 10, 6);
    case 3:
        return ts_of(2024, 10, 20, 0);
    default:
        return ts_of(2024, 2, 1, 0);
    }
}

static void build_spec(struct sim_storm *s, size_t si, struct sim_storm_pos *pos)
{
    const struct spec *sp = &specs[si];
    memset(s, 0, sizeof(*s));
    snprintf(s->id, sizeof(s->id), "%s", sp->id);
    snprintf(s->name, sizeof(s->name), "%s", sp->name);
    s->basin = sp->basin;
    s->subbasin = sp->subbasin;
    s->season = sp->season;
    s->active = sp->active;
    s->adv = sp->adv;
    s->obs = pos;
    s->nobs = (size_t)sp->nobs;
    s->fc = pos + sp->nobs;
    s->nfc = (size_t)sp->nfc;
    int64_t t0 = spec_t0(si);
    for (int i = 0; i < sp->nobs + sp->nfc; i++) {
        struct sim_storm_pos *p = &pos[i];
        int fc = i >= sp->nobs;
        /* The forecast starts (hour 0) at the last observed position. */
        int step = fc ? sp->nobs - 1 + (i - sp->nobs) * 2 : i;
        pos_init(p);
        p->lat = round1(sp->lat0 + sp->dlat * step);
        p->lon = wrap_lon(round1(sp->lon0 + sp->dlon * step));
        p->basin = sp->basin;
        p->subbasin = sp->subbasin;
        p->wind = sp->wind[i];
        p->cat = cat_codes[cat_of_wind(p->wind)];
        p->gust = round(p->wind * 1.25);
        p->mslp = round(1012 - p->wind * 0.7);
        p->dir = round(atan2(sp->dlon, sp->dlat) * 180 / M_PI + 360);
        if (p->dir >= 360)
            p->dir -= 360;
        p->speed = round(hypot(sp->dlat, sp->dlon) * 60 / 6);
        if (fc) {
            p->fh = (i - sp->nobs) * 12;
            p->time = t0 + (int64_t)(sp->nobs - 1) * 6 * 3600 + (int64_t)p->fh * 3600;
            if (p->fh >= 72)
                p->mslp = NAN; /* the agencies leave pressure out of long forecasts */
            if (p->fh >= 48 || i - sp->nobs < 4)
                set_radii(p, sp->radii_scale);
            if (p->fh >= 48)
                p->radii_mode = 0;
        } else {
            p->time = t0 + (int64_t)i * 6 * 3600;
            if (sp->radii_from >= 0 && i >= sp->radii_from)
                set_radii(p, sp->radii_scale);
            else if (sp->radii_from >= 0)
                p->radii_mode = 1; /* {} */
        }
    }
    if (si == 3) { /* the depression: nothing measured but the wind */
        pos[0].gust = pos[0].mslp = pos[0].dir = pos[0].speed = NAN;
        pos[0].radii_mode = 1;
    }
    if (si == 2) /* alternate: no member at all on every third position */
        for (int i = 0; i < sp->nobs; i += 3)
            pos[i].radii_mode = 0;
    summarise(s);
    if (s->active) {
        s->adv_time = s->obs[s->nobs - 1].time + 3 * 3600;
    } else {
        s->adv_time = SIM_STORM_NULL_TIME;
        s->adv = -1;
    }
}

/* ---- the archive ---- */

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: deterministic on every platform */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) / 9007199254740992.0;
}

/* The archive ends where the hand-made storms begin, so that ids never repeat. */
#define ARCHIVE_LAST 2022

struct basin_model {
    const char *basin, *atcf;
    const char *sub[2];
    int per_season;
    double lat0, lat_spread, lon0, lon_spread, dlat, dlon, recurve;
    int month0; /* month the season starts */
};

static const struct basin_model models[] = {
    {"WP", "WP", {"MM", "MM"}, 32, 12, 8, 140, 25, 0.25, -0.5, 0.6, 5},
    {"SI", "SH", {"WA", "MM"}, 23, -12, 5, 85, 35, -0.2, -0.4, -0.5, 11},
    {"EP", "EP", {"MM", "CP"}, 18, 13, 4, -105, 20, 0.12, -0.55, 0.3, 6},
    {"NA", "AL", {"CS", "GM"}, 16, 15, 6, -55, 25, 0.3, -0.5, 0.9, 6},
    {"SP", "SH", {"EA", "MM"}, 11, -13, 5, 175, 15, -0.3, 0.5, -0.5, 12},
    {"NI", "IO", {"BB", "AS"}, 6, 14, 4, 80, 12, 0.25, -0.1, 0.2, 5},
};
#define NMODELS (sizeof(models) / sizeof(models[0]))

static const char *const syl[] = {"KA", "LO", "MA", "RI", "SE", "TA", "NU", "VE", "DO",
                                  "LI", "RA", "ZE", "PO", "MI", "NA", "TO", "BE", "GU"};

static size_t archive_storms(void)
{
    size_t n = 0;
    for (size_t m = 0; m < NMODELS; m++)
        n += (size_t)models[m].per_season;
    return n * (ARCHIVE_LAST - 1990 + 1);
}

static void build_archive_storm(struct sim_storm *s, struct sim_storm_pos *pos, int npos,
                                const struct basin_model *bm, int season, int number, uint64_t *rng)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->id, sizeof(s->id), "%.2s%02d%04d", bm->atcf, number % 100, season % 10000);
    double peak = 25 + rng_unit(rng) * 135;
    if (peak >= 34)
        snprintf(s->name, sizeof(s->name), "%s%s%s", syl[rng_next(rng) % 18],
                 syl[rng_next(rng) % 18], syl[rng_next(rng) % 18]);
    s->basin = bm->basin;
    s->subbasin = bm->sub[rng_next(rng) % 2];
    s->season = season;
    s->active = 0;
    s->adv = -1;
    s->adv_time = SIM_STORM_NULL_TIME;
    s->obs = pos;
    s->nobs = (size_t)npos;
    double lat = bm->lat0 + (rng_unit(rng) - 0.5) * bm->lat_spread;
    double lon = bm->lon0 + (rng_unit(rng) - 0.5) * bm->lon_spread;
    int month = bm->month0 + (int)(rng_next(rng) % 5);
    int year = season;
    if (month > 12) {
        month -= 12;
        year++;
    }
    int64_t t0 = ts_of(year, (unsigned)month, 1 + (unsigned)(rng_next(rng) % 28),
                       (unsigned)(rng_next(rng) % 4) * 6);
    int peak_at = npos / 3 + (int)(rng_next(rng) % (unsigned)(npos / 3 + 1));
    double dlat = bm->dlat, dlon = bm->dlon;
    for (int i = 0; i < npos; i++) {
        struct sim_storm_pos *p = &pos[i];
        pos_init(p);
        double f = i <= peak_at ? (double)i / (peak_at ? peak_at : 1)
                                : 1.0 - (double)(i - peak_at) / (npos - peak_at);
        p->wind = round((20 + (peak - 20) * f) / 5) * 5;
        p->lat = round1(lat);
        p->lon = round1(wrap_lon(lon));
        p->basin = bm->basin;
        p->subbasin = s->subbasin;
        p->cat = cat_codes[cat_of_wind(p->wind)];
        if (i >= npos - 2 && npos > 4)
            p->cat = i == npos - 1 ? "DS" : "PT";
        p->gust = round(p->wind * 1.2);
        p->mslp = season < 1995 && (i % 4) ? NAN : round(1010 - p->wind * 0.75);
        p->speed = round(hypot(dlat, dlon) * 10);
        p->dir = fmod(round(atan2(dlon, dlat) * 180 / M_PI) + 360, 360);
        p->time = t0 + (int64_t)i * 6 * 3600;
        if (season >= 2004)
            set_radii(p, 0.8 + rng_unit(rng) * 0.6);
        /* Recurve poleward after the first third of the track. */
        if (i == npos / 3) {
            dlat += bm->recurve * 0.5;
            dlon = -dlon * 0.6;
        }
        lat += dlat + (rng_unit(rng) - 0.5) * 0.1;
        lon += dlon + (rng_unit(rng) - 0.5) * 0.1;
        if (lat > 55)
            lat = 55;
        if (lat < -50)
            lat = -50;
    }
    summarise(s);
}

int sim_storm_set_build(struct sim_storm_set *set, int archive)
{
    uint64_t rng = 0x5eed5eedULL;
    size_t nstorms = NSPECS + (archive ? archive_storms() : 0);
    size_t cap = 64 * NSPECS + (archive ? archive_storms() * 67 : 0);
    memset(set, 0, sizeof(*set));
    set->storms = calloc(nstorms, sizeof(*set->storms));
    set->pos = calloc(cap, sizeof(*set->pos));
    if (set->storms == NULL || set->pos == NULL) {
        sim_storm_set_free(set);
        return -1;
    }
    size_t used = 0;
    for (size_t i = 0; i < NSPECS; i++) {
        build_spec(&set->storms[set->n++], i, set->pos + used);
        used += (size_t)(specs[i].nobs + specs[i].nfc);
    }
    for (int season = 1990; archive && season <= ARCHIVE_LAST; season++) {
        for (size_t m = 0; m < NMODELS; m++) {
            for (int k = 1; k <= models[m].per_season; k++) {
                int npos = 20 + (int)(rng_next(&rng) % 47);
                /* ATCF numbers count per agency basin letters; SH is shared by SI and SP. */
                int number = k + (strcmp(models[m].basin, "SP") == 0 ? 40 : 0);
                build_archive_storm(&set->storms[set->n++], set->pos + used, npos, &models[m],
                                    season, number, &rng);
                used += (size_t)npos;
            }
        }
    }
    set->npositions = used;
    return 0;
}

void sim_storm_set_free(struct sim_storm_set *set)
{
    free(set->storms);
    free(set->pos);
    memset(set, 0, sizeof(*set));
}

/* ---- JSON ---- */

static void num(struct sim_buf *b, double v)
{
    if (isnan(v))
        sim_buf_puts(b, "null");
    else
        sim_buf_printf(b, "%.10g", v);
}

static void str_or_null(struct sim_buf *b, const char *s)
{
    if (s == NULL) {
        sim_buf_puts(b, "null");
        return;
    }
    sim_buf_puts(b, "\"");
    sim_buf_json(b, s);
    sim_buf_puts(b, "\"");
}

static const char *const quad_names[4] = {"ne", "se", "sw", "nw"};
static const char *const radii_keys[3] = {"34kts", "50kts", "64kts"};

static void json_pos(struct sim_buf *b, const struct sim_storm_pos *p)
{
    char ts[SWX_ISO8601_LEN];
    sim_buf_printf(b, "{\"lat\":%.10g,\"lon\":%.10g,\"category_code\":", p->lat, p->lon);
    str_or_null(b, p->cat);
    sim_buf_puts(b, ",\"basin\":");
    str_or_null(b, p->basin);
    sim_buf_puts(b, ",\"subbasin\":");
    str_or_null(b, p->subbasin);
    sim_buf_puts(b, ",\"wind_gusts\":");
    num(b, p->gust);
    sim_buf_puts(b, ",\"max_sustained_wind\":");
    num(b, p->wind);
    sim_buf_puts(b, ",\"min_mslp\":");
    num(b, p->mslp);
    sim_buf_puts(b, ",\"movement_direction\":");
    num(b, p->dir);
    sim_buf_puts(b, ",\"movement_speed\":");
    num(b, p->speed);
    if (p->radii_mode) {
        int any = 0;
        sim_buf_puts(b, ",\"wind_extent_radii\":{");
        for (int t = 0; t < 3; t++) {
            if (!p->r[t].present)
                continue;
            sim_buf_printf(b, "%s\"%s\":{\"wind_speed\":%.10g", any++ ? "," : "", radii_keys[t],
                           p->r[t].speed);
            for (int q = 0; q < 4; q++)
                sim_buf_printf(b, ",\"%s\":%.10g", quad_names[q], p->r[t].q[q]);
            sim_buf_puts(b, "}");
        }
        sim_buf_puts(b, "}");
    }
    swx_iso8601_format(ts, p->time);
    if (p->fh < 0) {
        ts[19] = '\0';
        sim_buf_printf(b, ",\"time\":\"%s+00:00\"}", ts);
    } else {
        ts[19] = '\0'; /* forecast times come without an offset (UTC is meant) */
        sim_buf_printf(b, ",\"forecast_time\":\"%s\",\"forecast_hour\":%d}", ts, p->fh);
    }
}

int sim_storm_json(struct sim_buf *b, const struct sim_storm *s, int df)
{
    char ts[SWX_ISO8601_LEN];
    sim_buf_puts(b, "{\"atcf_id\":");
    str_or_null(b, s->id);
    sim_buf_puts(b, ",\"storm_name\":");
    str_or_null(b, s->name);
    sim_buf_puts(b, ",\"basin\":");
    str_or_null(b, s->basin);
    sim_buf_puts(b, ",\"subbasin\":");
    str_or_null(b, s->subbasin);
    sim_buf_printf(b, ",\"season\":%d,\"is_active\":%s,\"advisory_number\":", s->season,
                   s->active ? "true" : "false");
    if (s->adv < 0)
        sim_buf_puts(b, "null");
    else
        sim_buf_printf(b, "%d", s->adv);
    sim_buf_puts(b, ",\"advisory_issuance_time\":");
    if (s->adv_time == SIM_STORM_NULL_TIME) {
        sim_buf_puts(b, "null");
    } else {
        swx_iso8601_format(ts, s->adv_time);
        ts[19] = '\0';
        sim_buf_printf(b, "\"%s+00:00\"", ts);
    }
    sim_buf_puts(b, ",\"max_development_category\":");
    str_or_null(b, sim_storm_cat_code(s->max_cat));
    sim_buf_puts(b, ",\"max_sustained_wind\":");
    num(b, s->max_wind);
    sim_buf_puts(b, ",\"min_mslp\":");
    num(b, s->min_mslp);
    sim_buf_printf(b, ",\"dates_active\":{\"start\":\"%s\",\"end\":\"%s\"},\"observed_track\":[",
                   s->start, s->end);
    for (size_t i = 0; df != SIM_DF_FORECAST && i < s->nobs; i++) {
        if (i)
            sim_buf_puts(b, ",");
        json_pos(b, &s->obs[i]);
    }
    sim_buf_puts(b, "],\"forecast_track\":[");
    for (size_t i = 0; df != SIM_DF_ANALYSIS && i < s->nfc; i++) {
        if (i)
            sim_buf_puts(b, ",");
        json_pos(b, &s->fc[i]);
    }
    return sim_buf_puts(b, "]}");
}

/* ---- KML ----
 *
 * The storm KMZ's document: a Folder per storm whose ExtendedData carries the
 * summary fields under their JSON names (dates_active.start, ...), a track
 * LineString for the eye, and a Placemark per position whose ExtendedData
 * carries the position's fields ("track" = observed or forecast, radii as
 * 34kts.wind_speed, 34kts.ne, ...; wind_extent_radii = "{}" marks an empty
 * radii object). A field that is null is left out. */

static void kml_data(struct sim_buf *b, const char *name, const char *value)
{
    if (value == NULL)
        return;
    sim_buf_printf(b, "<Data name=\"%s\"><value>", name);
    sim_buf_xml(b, value);
    sim_buf_puts(b, "</value></Data>");
}

static void kml_num(struct sim_buf *b, const char *name, double v)
{
    char tmp[40];
    if (isnan(v))
        return;
    snprintf(tmp, sizeof(tmp), "%.10g", v);
    kml_data(b, name, tmp);
}

static void kml_pos(struct sim_buf *b, const struct sim_storm_pos *p, int fc)
{
    char ts[SWX_ISO8601_LEN], tmp[64];
    swx_iso8601_format(ts, p->time);
    sim_buf_printf(b, "<Placemark><name>%s%s</name><styleUrl>#%s</styleUrl>", fc ? "+" : "",
                   fc ? (snprintf(tmp, sizeof(tmp), "%dh", p->fh), tmp) : ts, p->cat);
    sim_buf_printf(b, "<TimeStamp><when>%s</when></TimeStamp><ExtendedData>", ts);
    kml_data(b, "track", fc ? "forecast" : "observed");
    kml_data(b, "category_code", p->cat);
    kml_data(b, "basin", p->basin);
    kml_data(b, "subbasin", p->subbasin);
    kml_num(b, "wind_gusts", p->gust);
    kml_num(b, "max_sustained_wind", p->wind);
    kml_num(b, "min_mslp", p->mslp);
    kml_num(b, "movement_direction", p->dir);
    kml_num(b, "movement_speed", p->speed);
    if (p->radii_mode)
        kml_data(b, "wind_extent_radii", "{}");
    for (int t = 0; p->radii_mode && t < 3; t++) {
        char name[32];
        if (!p->r[t].present)
            continue;
        snprintf(name, sizeof(name), "%s.wind_speed", radii_keys[t]);
        kml_num(b, name, p->r[t].speed);
        for (int q = 0; q < 4; q++) {
            snprintf(name, sizeof(name), "%s.%s", radii_keys[t], quad_names[q]);
            kml_num(b, name, p->r[t].q[q]);
        }
    }
    if (fc) {
        kml_data(b, "forecast_time", ts);
        snprintf(tmp, sizeof(tmp), "%d", p->fh);
        kml_data(b, "forecast_hour", tmp);
    } else {
        kml_data(b, "time", ts);
    }
    sim_buf_printf(b,
                   "</ExtendedData><Point><coordinates>%.10g,%.10g</coordinates></Point>"
                   "</Placemark>\n",
                   p->lon, p->lat);
}

static const char *const kml_colors[13] = {
    "ffc0c0c0", "ffffcc80", "ffffcc80", "ffffcc80", "ffffcc80", "fff4fa00", "ffffba5e",
    "fff4fa00", "ffccffff", "ff75e7ff", "ff40c1ff", "ff208fff", "ff6060ff"};

int sim_storm_kml(struct sim_buf *b, const struct sim_storm *const *list, size_t n, int df)
{
    char ts[SWX_ISO8601_LEN], tmp[32];
    sim_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>"
                    "<name>Tropical cyclones</name>\n");
    for (int c = 0; c < 13; c++)
        sim_buf_printf(b,
                       "<Style id=\"%s\"><IconStyle><color>%s</color></IconStyle>"
                       "<LineStyle><color>%s</color><width>3</width></LineStyle></Style>\n",
                       cat_codes[c], kml_colors[c], kml_colors[c]);
    for (size_t k = 0; k < n; k++) {
        const struct sim_storm *s = list[k];
        sim_buf_puts(b, "<Folder><name>");
        sim_buf_xml(b, s->name[0] ? s->name : s->id);
        sim_buf_printf(b, " (%s)</name><ExtendedData>", s->id);
        kml_data(b, "atcf_id", s->id);
        kml_data(b, "storm_name", s->name);
        kml_data(b, "basin", s->basin);
        kml_data(b, "subbasin", s->subbasin);
        snprintf(tmp, sizeof(tmp), "%d", s->season);
        kml_data(b, "season", tmp);
        kml_data(b, "is_active", s->active ? "true" : "false");
        if (s->adv >= 0) {
            snprintf(tmp, sizeof(tmp), "%d", s->adv);
            kml_data(b, "advisory_number", tmp);
        }
        if (s->adv_time != SIM_STORM_NULL_TIME) {
            swx_iso8601_format(ts, s->adv_time);
            kml_data(b, "advisory_issuance_time", ts);
        }
        kml_data(b, "max_development_category", sim_storm_cat_code(s->max_cat));
        kml_num(b, "max_sustained_wind", s->max_wind);
        kml_num(b, "min_mslp", s->min_mslp);
        kml_data(b, "dates_active.start", s->start);
        kml_data(b, "dates_active.end", s->end);
        sim_buf_puts(b, "</ExtendedData>\n");
        if (df != SIM_DF_FORECAST && s->nobs > 1) {
            sim_buf_printf(b,
                           "<Placemark><name>Track</name><styleUrl>#%s</styleUrl>"
                           "<LineString><tessellate>1</tessellate><coordinates>",
                           sim_storm_cat_code(s->max_cat));
            for (size_t i = 0; i < s->nobs; i++)
                sim_buf_printf(b, "%s%.10g,%.10g", i ? " " : "", s->obs[i].lon, s->obs[i].lat);
            sim_buf_puts(b, "</coordinates></LineString></Placemark>\n");
        }
        for (size_t i = 0; df != SIM_DF_FORECAST && i < s->nobs; i++)
            kml_pos(b, &s->obs[i], 0);
        for (size_t i = 0; df != SIM_DF_ANALYSIS && i < s->nfc; i++)
            kml_pos(b, &s->fc[i], 1);
        sim_buf_puts(b, "</Folder>\n");
    }
    return sim_buf_puts(b, "</Document></kml>\n");
}
