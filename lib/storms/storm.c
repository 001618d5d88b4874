/* storm.c: the storm model: categories, basins and ATCF ids, a storm and its
 * positions in one arena, copies and lists (see seawx/storm.h). */
#include "seawx/storm.h"

#include "arena.h"
#include "seawx/error.h"
#include "storm_priv.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- categories, basins, ATCF ids ---- */

static const char *const cat_codes[SWX_STORM_NCATEGORIES] = {
    "XX", "DS", "IN", "PT", "LO", "SS", "TD", "TS", "TC1", "TC2", "TC3", "TC4", "TC5"};
static const char *const cat_names[SWX_STORM_NCATEGORIES] = {
    "Unknown",
    "Dissipating",
    "Inland",
    "Post-Tropical Cyclone",
    "Low Pressure Center",
    "Subtropical Storm",
    "Tropical Depression",
    "Tropical Storm",
    "Category 1 Hurricane / Typhoon",
    "Category 2 Hurricane / Typhoon",
    "Category 3 Hurricane / Typhoon",
    "Category 4 Hurricane / Typhoon",
    "Category 5 Hurricane / Super Typhoon"};
static const char *const basins[] = {"NA", "SA", "EP", "WP", "NI", "SI", "SP"};
static const char *const subbasins[] = {"CS", "GM", "MM", "CP", "AS", "BB", "WA", "EA"};

const char *swx_storm_category_code(int rank)
{
    return rank >= 0 && rank < SWX_STORM_NCATEGORIES ? cat_codes[rank] : NULL;
}

const char *swx_storm_category_name(int rank)
{
    return rank >= 0 && rank < SWX_STORM_NCATEGORIES ? cat_names[rank] : NULL;
}

/* The codes, two or three letters, packed big-end first into an integer. */
#define PACK2(a, b) ((uint32_t)(a) << 8 | (uint32_t)(b))
#define PACK3(a, b, c) (PACK2(a, b) << 8 | (uint32_t)(c))
/* clang-format off */
static const uint32_t cat_packed[SWX_STORM_NCATEGORIES] = {
    PACK2('X', 'X'), PACK2('D', 'S'), PACK2('I', 'N'), PACK2('P', 'T'),
    PACK2('L', 'O'), PACK2('S', 'S'), PACK2('T', 'D'), PACK2('T', 'S'),
    PACK3('T', 'C', '1'), PACK3('T', 'C', '2'), PACK3('T', 'C', '3'), PACK3('T', 'C', '4'),
    PACK3('T', 'C', '5')};
/* clang-format on */

int swx_storm_category_rank(const char *code)
{
    /* Called for every track position: compared packed, upper-cased (ASCII,
     * as strcasecmp in the C locale), rather than with 13 strcasecmp calls. */
    uint32_t k = 0;
    int n = 0;
    if (!code)
        return -1;
    for (; code[n]; n++) {
        unsigned char c = (unsigned char)code[n];
        if (n == 3)
            return -1;
        k = k << 8 | (c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    }
    for (int i = 0; i < SWX_STORM_NCATEGORIES; i++)
        if (cat_packed[i] == k)
            return i;
    return -1;
}

static int in_list(const char *code, const char *const *list, size_t n)
{
    for (size_t i = 0; code && i < n; i++)
        if (strcasecmp(code, list[i]) == 0)
            return 1;
    return 0;
}

int swx_storm_basin_known(const char *code)
{
    return in_list(code, basins, sizeof basins / sizeof basins[0]);
}

int swx_storm_subbasin_known(const char *code)
{
    return in_list(code, subbasins, sizeof subbasins / sizeof subbasins[0]);
}

int swx_storm_atcf_parse(char basin[3], int *number, int *year, const char *id)
{
    if (!id || strlen(id) != 8 || !isalpha((unsigned char)id[0]) || !isalpha((unsigned char)id[1]))
        goto bad;
    for (int i = 2; i < 8; i++)
        if (!isdigit((unsigned char)id[i]))
            goto bad;
    basin[0] = (char)toupper((unsigned char)id[0]);
    basin[1] = (char)toupper((unsigned char)id[1]);
    basin[2] = '\0';
    *number = (id[2] - '0') * 10 + (id[3] - '0');
    *year = atoi(id + 4);
    if (*year < 1800)
        goto bad;
    return 0;
bad:
    return swx_error_set(SWX_EINVAL,
                         "'%.32s' is not an ATCF id: expected BBNNYYYY (basin letters, storm "
                         "number, year), e.g. AL022024",
                         id ? id : "");
}

int swx_storm_radii_kt(int threshold)
{
    static const int kt[SWX_STORM_NRADII] = {34, 50, 64};
    return threshold >= 0 && threshold < SWX_STORM_NRADII ? kt[threshold] : 0;
}

/* ---- the model ---- */

/* A storm and the arena of its strings, in one allocation; priv_ points to
 * the arena. The storm comes first, so freeing it frees both. */
typedef struct storm_box {
    swx_storm s;
    swx_arena strings;
} storm_box;

/* Chunks of the string arena; no limit of its own, as the JSON or KML a storm
 * is read from is already bounded. */
#define STRINGS_CHUNK 4096

void swx_storm_pos_init(swx_storm_pos *p)
{
    memset(p, 0, sizeof *p);
    p->lat = p->lon = NAN;
    p->category = -1;
    p->wind_gusts = p->max_sustained_wind = p->min_mslp = NAN;
    p->movement_direction = p->movement_speed = NAN;
    for (int t = 0; t < SWX_STORM_NRADII; t++) {
        p->radii[t].wind_speed = NAN;
        for (int q = 0; q < 4; q++)
            p->radii[t].r[q] = NAN;
    }
    p->time = p->forecast_time = p->forecast_hour = SWX_STORM_NULL;
}

int swx_storm_new_empty(swx_storm **out)
{
    storm_box *b = calloc(1, sizeof *b);
    *out = NULL;
    if (!b)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    swx_storm *s = &b->s;
    swx_arena_init(&b->strings, STRINGS_CHUNK, 0);
    s->priv_ = &b->strings;
    s->season = s->advisory_number = s->advisory_issuance_time = SWX_STORM_NULL;
    s->is_active = -1;
    s->max_category = -1;
    s->max_sustained_wind = s->min_mslp = NAN;
    *out = s;
    return 0;
}

void swx_storm_free(swx_storm *s)
{
    if (!s)
        return;
    swx_arena_free(s->priv_);
    free(s->observed);
    free(s->forecast);
    free(s);
}

const char *swx_storm_str(swx_storm *s, const char *str, size_t n)
{
    return str ? swx_arena_strndup(s->priv_, str, n) : NULL;
}

int swx_storm_add_pos(swx_storm_pos **out, swx_storm *s, int forecast)
{
    swx_storm_pos **arr = forecast ? &s->forecast : &s->observed;
    size_t *n = forecast ? &s->nforecast : &s->nobserved;
    if (*n >= SWX_STORM_MAX_POSITIONS)
        return swx_error_set(SWX_ETOOBIG, "storm %s has more than %d positions",
                             s->atcf_id ? s->atcf_id : "?", SWX_STORM_MAX_POSITIONS);
    /* Capacity is 8, then doubles: it is n itself whenever n >= 8 is a power of two. */
    if (*n == 0 || (*n >= 8 && (*n & (*n - 1)) == 0)) {
        size_t cap = *n ? *n * 2 : 8;
        swx_storm_pos *p = realloc(*arr, cap * sizeof **arr);
        if (!p)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        *arr = p;
    }
    *out = &(*arr)[(*n)++];
    swx_storm_pos_init(*out);
    return 0;
}

static double norm_lon(double lon)
{
    if (lon >= -180.0 && lon < 180.0)
        return lon;
    lon = fmod(lon + 180.0, 360.0);
    if (lon < 0)
        lon += 360.0;
    return lon - 180.0;
}

static int finish_track(swx_storm *s, swx_storm_pos *p, size_t n, const char *which)
{
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(p[i].lat) || !isfinite(p[i].lon) || p[i].lat < -90 || p[i].lat > 90 ||
            fabs(p[i].lon) > 720)
            return swx_error_set(SWX_EPARSE, "storm %s: %s position %zu has no valid lat/lon",
                                 s->atcf_id ? s->atcf_id : "?", which, i + 1);
        p[i].lon = norm_lon(p[i].lon);
        p[i].category = swx_storm_category_rank(p[i].category_code);
    }
    return 0;
}

int swx_storm_finish(swx_storm *s)
{
    int rc;
    if (!s->atcf_id)
        return swx_error_set(SWX_EPARSE, "a storm has no atcf_id");
    if (swx_storm_atcf_parse(s->atcf_basin, &s->atcf_number, &s->atcf_year, s->atcf_id) != 0) {
        swx_error_clear();
        s->atcf_basin[0] = '\0';
        s->atcf_number = s->atcf_year = 0;
    }
    s->max_category = swx_storm_category_rank(s->max_development_category);
    if ((rc = finish_track(s, s->observed, s->nobserved, "observed")) ||
        (rc = finish_track(s, s->forecast, s->nforecast, "forecast")))
        return rc;
    return 0;
}

const char *swx_storm_title(const swx_storm *s)
{
    return s->storm_name && *s->storm_name ? s->storm_name : s->atcf_id;
}

const char *swx_storm_status(const swx_storm *s)
{
    return s->is_active == 1 ? "active" : s->is_active == 0 ? "inactive" : NULL;
}

int swx_storm_copy(swx_storm **out, const swx_storm *src)
{
    swx_storm *s = NULL;
    int rc = swx_storm_new_empty(&s);
    *out = NULL;
    if (rc)
        return rc;
#define CP(f) (!src->f || (s->f = swx_storm_str(s, src->f, strlen(src->f))))
    s->season = src->season;
    s->is_active = src->is_active;
    s->advisory_number = src->advisory_number;
    s->advisory_issuance_time = src->advisory_issuance_time;
    s->max_category = src->max_category;
    s->max_sustained_wind = src->max_sustained_wind;
    s->min_mslp = src->min_mslp;
    memcpy(s->atcf_basin, src->atcf_basin, sizeof s->atcf_basin);
    s->atcf_number = src->atcf_number;
    s->atcf_year = src->atcf_year;
    if (!CP(atcf_id) || !CP(storm_name) || !CP(basin) || !CP(subbasin) ||
        !CP(max_development_category) || !CP(start_date) || !CP(end_date))
        goto nomem;
    for (int fc = 0; fc < 2; fc++) {
        const swx_storm_pos *from = fc ? src->forecast : src->observed;
        size_t n = fc ? src->nforecast : src->nobserved;
        for (size_t i = 0; i < n; i++) {
            swx_storm_pos *p;
            if ((rc = swx_storm_add_pos(&p, s, fc)))
                goto fail;
            *p = from[i];
            p->category_code = p->basin = p->subbasin = NULL;
            if ((from[i].category_code &&
                 !(p->category_code =
                       swx_storm_str(s, from[i].category_code, strlen(from[i].category_code)))) ||
                (from[i].basin &&
                 !(p->basin = swx_storm_str(s, from[i].basin, strlen(from[i].basin)))) ||
                (from[i].subbasin &&
                 !(p->subbasin = swx_storm_str(s, from[i].subbasin, strlen(from[i].subbasin)))))
                goto nomem;
        }
    }
#undef CP
    *out = s;
    return 0;
nomem:
    rc = swx_error_set(SWX_ENOMEM, "out of memory");
fail:
    swx_storm_free(s);
    return rc;
}

int swx_storm_list_add(void *list, const swx_storm *s)
{
    swx_storm_list *l = list;
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        swx_storm **p = realloc(l->items, cap * sizeof *p);
        if (!p)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        l->items = p;
        l->cap = cap;
    }
    int rc = swx_storm_copy(&l->items[l->count], s);
    if (rc)
        return rc;
    l->count++;
    return 0;
}

void swx_storm_list_clear(swx_storm_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        swx_storm_free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}
