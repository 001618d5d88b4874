/* storm.c: the storm model, its JSON parser, queries and paging (see seawx/storm.h). */
#include "seawx/storm.h"

#include "buf.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "storm_priv.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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

int swx_storm_category_rank(const char *code)
{
    for (int i = 0; code && i < SWX_STORM_NCATEGORIES; i++)
        if (strcasecmp(code, cat_codes[i]) == 0)
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

int swx_storm_atcf_parse(const char *id, char basin[3], int *number, int *year)
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

/* String storage of one storm: blocks of at least ARENA_BLOCK bytes. */
#define ARENA_BLOCK 4096
struct arena_blk {
    struct arena_blk *next;
    size_t used, cap;
    char data[];
};

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
    swx_storm *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s)
        return swx_error_set(SWX_ENOMEM, "out of memory");
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
    for (struct arena_blk *b = s->priv_, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(s->observed);
    free(s->forecast);
    free(s);
}

const char *swx_storm_str(swx_storm *s, const char *str, size_t n)
{
    if (!str)
        return NULL;
    struct arena_blk *b = s->priv_;
    if (!b || b->cap - b->used < n + 1) {
        size_t cap = n + 1 > ARENA_BLOCK ? n + 1 : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->used = 0;
        b->cap = cap;
        b->next = s->priv_;
        s->priv_ = b;
    }
    char *p = b->data + b->used;
    memcpy(p, str, n);
    p[n] = '\0';
    b->used += n + 1;
    return p;
}

int swx_storm_add_pos(swx_storm *s, int forecast, swx_storm_pos **out)
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
    if (swx_storm_atcf_parse(s->atcf_id, s->atcf_basin, &s->atcf_number, &s->atcf_year) != 0) {
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
            if ((rc = swx_storm_add_pos(s, fc, &p)))
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

/* ---- JSON ---- */

/* Type errors name the storm and the member, so a user can find the bad spot. */
struct jctx {
    swx_storm *s;
    const char *where; /* "observed_track[3]" */
};

static int bad_type(const struct jctx *c, const char *member, const char *want)
{
    return swx_error_set(SWX_EPARSE, "storm %s%s%s: '%s' is not %s",
                         c->s->atcf_id ? c->s->atcf_id : "?", c->where ? " " : "",
                         c->where ? c->where : "", member, want);
}

static int get_string(struct jctx *c, json_object *o, const char *member, const char **out)
{
    json_object *v;
    *out = NULL;
    if (!json_object_object_get_ex(o, member, &v) || !v)
        return 0;
    if (!json_object_is_type(v, json_type_string))
        return bad_type(c, member, "a string");
    if (!(*out = swx_storm_str(c->s, json_object_get_string(v),
                               (size_t)json_object_get_string_len(v))))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    return 0;
}

static int get_number(struct jctx *c, json_object *o, const char *member, double *out)
{
    json_object *v;
    *out = NAN;
    if (!json_object_object_get_ex(o, member, &v) || !v)
        return 0;
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return bad_type(c, member, "a number");
    *out = json_object_get_double(v);
    if (!isfinite(*out))
        return bad_type(c, member, "a finite number");
    return 0;
}

static int get_int(struct jctx *c, json_object *o, const char *member, int64_t *out)
{
    json_object *v;
    *out = SWX_STORM_NULL;
    if (!json_object_object_get_ex(o, member, &v) || !v)
        return 0;
    if (json_object_is_type(v, json_type_int)) {
        *out = json_object_get_int64(v);
        return 0;
    }
    if (json_object_is_type(v, json_type_double)) {
        double d = json_object_get_double(v);
        if (d == floor(d) && fabs(d) < 9e15) {
            *out = (int64_t)d;
            return 0;
        }
    }
    /* Integers sometimes travel as strings ("advisory_number": "12"). */
    if (json_object_is_type(v, json_type_string)) {
        const char *t = json_object_get_string(v);
        char *end;
        errno = 0;
        long long n = strtoll(t, &end, 10);
        if (*t && !*end && !errno) {
            *out = n;
            return 0;
        }
    }
    return bad_type(c, member, "an integer");
}

static int get_time(struct jctx *c, json_object *o, const char *member, int64_t *out)
{
    const char *t = NULL;
    int rc = get_string(c, o, member, &t);
    *out = SWX_STORM_NULL;
    if (rc || !t)
        return rc;
    if (swx_iso8601_parse(t, out) != 0)
        return bad_type(c, member, "an ISO 8601 time");
    return 0;
}

static int parse_radii(struct jctx *c, json_object *o, swx_storm_pos *p)
{
    static const char *const keys[SWX_STORM_NRADII] = {"34kts", "50kts", "64kts"};
    static const char *const quad[4] = {"ne", "se", "sw", "nw"};
    json_object *r;
    if (!json_object_object_get_ex(o, "wind_extent_radii", &r) || !r)
        return 0;
    if (json_object_is_type(r, json_type_array) && json_object_array_length(r) == 0) {
        p->has_radii_object = 1; /* [] for {} */
        return 0;
    }
    if (!json_object_is_type(r, json_type_object))
        return bad_type(c, "wind_extent_radii", "an object");
    p->has_radii_object = 1;
    for (int t = 0; t < SWX_STORM_NRADII; t++) {
        json_object *th;
        int rc;
        if (!json_object_object_get_ex(r, keys[t], &th) || !th)
            continue;
        if (!json_object_is_type(th, json_type_object))
            return bad_type(c, keys[t], "an object");
        p->radii[t].present = 1;
        if ((rc = get_number(c, th, "wind_speed", &p->radii[t].wind_speed)))
            return rc;
        for (int q = 0; q < 4; q++) {
            if ((rc = get_number(c, th, quad[q], &p->radii[t].r[q])))
                return rc;
            if (p->radii[t].r[q] < 0)
                return bad_type(c, quad[q], "a radius >= 0");
        }
    }
    return 0;
}

static int parse_track(struct jctx *c, json_object *o, const char *member, int forecast)
{
    json_object *arr;
    char where[64];
    if (!json_object_object_get_ex(o, member, &arr) || !arr)
        return 0;
    if (!json_object_is_type(arr, json_type_array))
        return bad_type(c, member, "an array");
    size_t n = json_object_array_length(arr);
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        swx_storm_pos *p;
        int rc;
        snprintf(where, sizeof where, "%s[%zu]", member, i);
        c->where = where;
        if (!e || !json_object_is_type(e, json_type_object))
            return bad_type(c, "position", "an object");
        if ((rc = swx_storm_add_pos(c->s, forecast, &p)) ||
            (rc = get_number(c, e, "lat", &p->lat)) || (rc = get_number(c, e, "lon", &p->lon)) ||
            (rc = get_string(c, e, "category_code", &p->category_code)) ||
            (rc = get_string(c, e, "basin", &p->basin)) ||
            (rc = get_string(c, e, "subbasin", &p->subbasin)) ||
            (rc = get_number(c, e, "wind_gusts", &p->wind_gusts)) ||
            (rc = get_number(c, e, "max_sustained_wind", &p->max_sustained_wind)) ||
            (rc = get_number(c, e, "min_mslp", &p->min_mslp)) ||
            (rc = get_number(c, e, "movement_direction", &p->movement_direction)) ||
            (rc = get_number(c, e, "movement_speed", &p->movement_speed)) ||
            (rc = parse_radii(c, e, p)) || (rc = get_time(c, e, "time", &p->time)) ||
            (rc = get_time(c, e, "forecast_time", &p->forecast_time)) ||
            (rc = get_int(c, e, "forecast_hour", &p->forecast_hour)))
            return rc;
        if (!isfinite(p->lat) || !isfinite(p->lon))
            return swx_error_set(SWX_EPARSE, "storm %s %s: no lat/lon",
                                 c->s->atcf_id ? c->s->atcf_id : "?", where);
    }
    c->where = NULL;
    return 0;
}

static int parse_object(swx_storm **out, json_object *o)
{
    swx_storm *s = NULL;
    struct jctx c = {0};
    json_object *v;
    int rc = swx_storm_new_empty(&s);
    *out = NULL;
    if (rc)
        return rc;
    c.s = s;
    if (!json_object_is_type(o, json_type_object)) {
        rc = swx_error_set(SWX_EPARSE, "a storm is not a JSON object");
        goto done;
    }
    if ((rc = get_string(&c, o, "atcf_id", &s->atcf_id)))
        goto done;
    if (!s->atcf_id) {
        rc = swx_error_set(SWX_EPARSE, "a storm object has no atcf_id");
        goto done;
    }
    if ((rc = get_string(&c, o, "storm_name", &s->storm_name)) ||
        (rc = get_string(&c, o, "basin", &s->basin)) ||
        (rc = get_string(&c, o, "subbasin", &s->subbasin)) ||
        (rc = get_int(&c, o, "season", &s->season)) ||
        (rc = get_int(&c, o, "advisory_number", &s->advisory_number)) ||
        (rc = get_time(&c, o, "advisory_issuance_time", &s->advisory_issuance_time)) ||
        (rc = get_string(&c, o, "max_development_category", &s->max_development_category)) ||
        (rc = get_number(&c, o, "max_sustained_wind", &s->max_sustained_wind)) ||
        (rc = get_number(&c, o, "min_mslp", &s->min_mslp)))
        goto done;
    if (json_object_object_get_ex(o, "is_active", &v) && v) {
        if (!json_object_is_type(v, json_type_boolean)) {
            rc = bad_type(&c, "is_active", "a boolean");
            goto done;
        }
        s->is_active = json_object_get_boolean(v) ? 1 : 0;
    }
    if (json_object_object_get_ex(o, "dates_active", &v) && v) {
        if (!json_object_is_type(v, json_type_object)) {
            rc = bad_type(&c, "dates_active", "an object");
            goto done;
        }
        if ((rc = get_string(&c, v, "start", &s->start_date)) ||
            (rc = get_string(&c, v, "end", &s->end_date)))
            goto done;
    }
    if ((rc = parse_track(&c, o, "observed_track", 0)) ||
        (rc = parse_track(&c, o, "forecast_track", 1)) || (rc = swx_storm_finish(s)))
        goto done;
    *out = s;
    s = NULL;
done:
    swx_storm_free(s);
    return rc;
}

int swx_storm_parse_json(swx_storm **out, const char *json, size_t len)
{
    *out = NULL;
    if (len > SWX_STORM_MAX_BYTES)
        return swx_error_set(SWX_ETOOBIG, "a storm object of %zu bytes is larger than %u MiB", len,
                             SWX_STORM_MAX_BYTES >> 20);
    json_tokener *tok = json_tokener_new_ex(64);
    if (!tok)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    json_object *o = json_tokener_parse_ex(tok, json, (int)len);
    int rc;
    if (!o || json_tokener_get_error(tok) != json_tokener_success ||
        json_tokener_get_parse_end(tok) != len) {
        rc = swx_error_set(SWX_EPARSE, "malformed storm JSON: %s",
                           json_tokener_error_desc(json_tokener_get_error(tok)));
    } else {
        rc = parse_object(out, o);
    }
    json_object_put(o);
    json_tokener_free(tok);
    return rc;
}

/* ---- the streaming reader ----
 *
 * The response is one JSON array of storm objects. The reader scans bytes as
 * they come, tracking strings (and their escapes) and nesting depth, and
 * copies each top-level element into a bounded buffer; when an element ends it
 * is parsed with json-c alone. Invariant: depth counts the open brackets of
 * the current element, 0 between elements. */
struct swx_storm_reader {
    swx_storm_fn fn;
    void *ud;
    json_tokener *tok;
    swx_buf elem;
    enum { R_START, R_BEFORE, R_ELEM, R_AFTER, R_END } state;
    int depth, in_str, esc;
    const char *direct; /* the element's '{' in the chunk being fed, while none of
                           it is in elem: parsed in place, not copied */
    size_t count;
    size_t offset; /* bytes seen, for messages */
};

int swx_storm_reader_new(swx_storm_reader **out, swx_storm_fn fn, void *ud)
{
    swx_storm_reader *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r || !(r->tok = json_tokener_new_ex(64))) {
        free(r);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    r->fn = fn;
    r->ud = ud;
    swx_buf_init(&r->elem, SWX_STORM_MAX_BYTES);
    *out = r;
    return 0;
}

void swx_storm_reader_free(swx_storm_reader *r)
{
    if (!r)
        return;
    json_tokener_free(r->tok);
    swx_buf_free(&r->elem);
    free(r);
}

size_t swx_storm_reader_count(const swx_storm_reader *r)
{
    return r->count;
}

static int element_done(swx_storm_reader *r, const char *text, size_t len)
{
    swx_storm *s = NULL;
    if (len > SWX_STORM_MAX_BYTES)
        return swx_error_set(SWX_ETOOBIG, "a storm object is larger than %u MiB",
                             SWX_STORM_MAX_BYTES >> 20);
    json_tokener_reset(r->tok);
    json_object *o = json_tokener_parse_ex(r->tok, text, (int)len);
    int rc;
    if (!o || json_tokener_get_error(r->tok) != json_tokener_success) {
        rc = swx_error_set(SWX_EPARSE, "malformed storm JSON in element %zu: %s", r->count + 1,
                           json_tokener_error_desc(json_tokener_get_error(r->tok)));
        json_object_put(o);
        return rc;
    }
    rc = parse_object(&s, o);
    json_object_put(o);
    if (rc)
        return rc;
    r->count++;
    rc = r->fn ? r->fn(r->ud, s) : 0;
    swx_storm_free(s);
    r->elem.len = 0;
    return rc;
}

static int unexpected(swx_storm_reader *r, char ch, const char *want)
{
    if ((unsigned char)ch < 0x20 || (unsigned char)ch >= 0x7f)
        return swx_error_set(SWX_EPARSE,
                             "malformed storm JSON at byte %zu: byte 0x%02x where %s was expected",
                             r->offset, (unsigned char)ch, want);
    return swx_error_set(SWX_EPARSE, "malformed storm JSON at byte %zu: '%c' where %s was expected",
                         r->offset, ch, want);
}

int swx_storm_reader_feed(swx_storm_reader *r, const char *data, size_t len)
{
    size_t i = 0;
    int rc;
    while (i < len) {
        char ch = data[i];
        if (r->state == R_ELEM) {
            /* Copy a run of bytes that cannot end the element in one go. */
            size_t j = i;
            for (; j < len; j++) {
                char d = data[j];
                if (r->in_str) {
                    if (r->esc)
                        r->esc = 0;
                    else if (d == '\\')
                        r->esc = 1;
                    else if (d == '"')
                        r->in_str = 0;
                } else if (d == '"') {
                    r->in_str = 1;
                } else if (d == '{' || d == '[') {
                    if (++r->depth > 64)
                        return swx_error_set(SWX_EPARSE, "storm JSON nested too deeply");
                } else if (d == '}' || d == ']') {
                    if (--r->depth == 0) {
                        j++;
                        break;
                    }
                    if (r->depth < 0)
                        return unexpected(r, d, "a value");
                }
            }
            r->offset += j - i;
            if (r->depth == 0 && r->direct) {
                rc = element_done(r, r->direct, (size_t)(data + j - r->direct));
                r->direct = NULL;
            } else {
                /* Keep what the chunk holds of the element for the next feed. */
                const char *from = r->direct ? r->direct : data + i;
                r->direct = NULL;
                if ((rc = swx_buf_append(&r->elem, from, (size_t)(data + j - from))))
                    return swx_error_set(rc, "a storm object is larger than %u MiB",
                                         SWX_STORM_MAX_BYTES >> 20);
                if (r->depth == 0)
                    rc = element_done(r, r->elem.data, r->elem.len);
            }
            if (rc)
                return rc;
            if (r->depth == 0)
                r->state = R_AFTER;
            i = j;
            continue;
        }
        r->offset++;
        i++;
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t')
            continue;
        switch (r->state) {
        case R_START:
            if (ch != '[') {
                if (ch == '{')
                    return swx_error_set(SWX_ESERVICE,
                                         "the storm answer is a JSON object, not an array of "
                                         "storms");
                return unexpected(r, ch, "'[' (an array of storms)");
            }
            r->state = R_BEFORE;
            break;
        case R_BEFORE:
            if (ch == ']' && r->count == 0) {
                r->state = R_END;
                break;
            }
            if (ch != '{')
                return unexpected(r, ch, "'{' (a storm object)");
            r->state = R_ELEM;
            r->depth = 1;
            r->elem.len = 0;
            r->direct = data + i - 1;
            break;
        case R_AFTER:
            if (ch == ',')
                r->state = R_BEFORE;
            else if (ch == ']')
                r->state = R_END;
            else
                return unexpected(r, ch, "',' or ']'");
            break;
        case R_END:
            return unexpected(r, ch, "the end of the document");
        case R_ELEM:
            break;
        }
    }
    return 0;
}

int swx_storm_reader_finish(swx_storm_reader *r)
{
    if (r->state != R_END)
        return swx_error_set(SWX_EPARSE,
                             "storm JSON ends early after %zu bytes (truncated?): the array of "
                             "storms is not closed",
                             r->offset);
    return 0;
}

int swx_storm_read_file(const char *path, swx_storm_fn fn, void *ud)
{
    swx_storm_reader *r = NULL;
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char *chunk = NULL;
    int rc;
    if (!f)
        return swx_error_set(SWX_EIO, "cannot open %s: %s", path, strerror(errno));
    if ((rc = swx_storm_reader_new(&r, fn, ud)))
        goto done;
    if (!(chunk = malloc(1 << 20))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    for (;;) {
        size_t n = fread(chunk, 1, 1 << 20, f);
        if (n && (rc = swx_storm_reader_feed(r, chunk, n))) {
            swx_error_prefix(rc, "%s", path);
            goto done;
        }
        if (n < (1 << 20))
            break;
    }
    if (ferror(f)) {
        rc = swx_error_set(SWX_EIO, "reading %s failed", path);
        goto done;
    }
    if ((rc = swx_storm_reader_finish(r)))
        swx_error_prefix(rc, "%s", path);
done:
    free(chunk);
    swx_storm_reader_free(r);
    if (f && f != stdin)
        fclose(f);
    return rc;
}

/* ---- queries ---- */

void swx_storm_query_init(swx_storm_query *q)
{
    memset(q, 0, sizeof *q);
    q->intensity = -1;
}

static int one_of(const char *v, const char *what, const char *a, const char *b, const char *c)
{
    if (strcmp(v, a) == 0 || strcmp(v, b) == 0 || strcmp(v, c) == 0)
        return 0;
    return swx_error_set(SWX_EINVAL, "unknown %s '%.40s': use %s, %s or %s", what, v, a, b, c);
}

int swx_storm_query_check(const swx_storm_query *q)
{
    int rc, n, y;
    char basin[3];
    if (q->status && (rc = one_of(q->status, "status", "active", "inactive", "all")))
        return rc;
    if (q->data_filter &&
        (rc = one_of(q->data_filter, "data filter", "all", "analysis", "forecast")))
        return rc;
    if (q->id && swx_storm_atcf_parse(q->id, basin, &n, &y) != 0)
        return SWX_EINVAL;
    if (q->name && (!*q->name || strlen(q->name) > 64))
        return swx_error_set(SWX_EINVAL, "a storm name must have 1 to 64 characters");
    if (q->category && swx_storm_category_rank(q->category) < 0)
        return swx_error_set(SWX_EINVAL,
                             "unknown category '%.16s': use XX, DS, IN, PT, LO, SS, TD, TS, TC1, "
                             "TC2, TC3, TC4 or TC5 (in increasing order)",
                             q->category);
    if (q->intensity >= 0 && (!isfinite(q->intensity) || q->intensity > 300))
        return swx_error_set(SWX_EINVAL, "intensity must be a wind speed in knots, 0 to 300");
    if (q->region && !swx_storm_basin_known(q->region) && !swx_storm_subbasin_known(q->region))
        return swx_error_set(SWX_EINVAL,
                             "unknown region '%.16s': basins NA, SA, EP, WP, NI, SI, SP; "
                             "sub-basins CS, GM, MM, CP, AS, BB, WA, EA",
                             q->region);
    if (q->period) {
        const char *slash = strchr(q->period, '/');
        int64_t a, b;
        if (!slash || strchr(slash + 1, '/') ||
            swx_iso8601_parse_n(q->period, (size_t)(slash - q->period), &a) != 0 ||
            swx_iso8601_parse(slash + 1, &b) != 0)
            return swx_error_set(SWX_EINVAL,
                                 "period '%.80s' is not two ISO 8601 times separated by '/', "
                                 "e.g. 2024-06-01T00:00:00Z/2024-11-30T23:59:59Z",
                                 q->period);
        if (b < a)
            return swx_error_set(SWX_EINVAL, "period '%.80s' ends before it starts", q->period);
    }
    if (q->limit < 0 || q->limit > SWX_STORM_LIMIT_MAX)
        return swx_error_set(SWX_EINVAL, "limit must be 1 to %d", SWX_STORM_LIMIT_MAX);
    if (q->offset < 0)
        return swx_error_set(SWX_EINVAL, "offset must be 0 or more");
    if (q->max_storms < 0)
        return swx_error_set(SWX_EINVAL, "the storm cap must be 0 (none) or more");
    return 0;
}

int swx_storm_request(const swx_storm_query *q, int kmz, long offset, swx_request *req,
                      swx_query **qs)
{
    int rc = swx_storm_query_check(q);
    *qs = NULL;
    if (rc)
        return rc;
    if ((rc = swx_query_new(qs)))
        return rc;
    if ((q->status && (rc = swx_query_add(*qs, "status", q->status))) ||
        (q->id && (rc = swx_query_add(*qs, "id", q->id))) ||
        (q->name && (rc = swx_query_add(*qs, "name", q->name))) ||
        (q->category && (rc = swx_query_add(*qs, "category", q->category))) ||
        (q->intensity >= 0 && (rc = swx_query_addf(*qs, "intensity", "%g", q->intensity))) ||
        (q->region && (rc = swx_query_add(*qs, "region", q->region))) ||
        (q->period && (rc = swx_query_add(*qs, "period", q->period))) ||
        (q->data_filter && (rc = swx_query_add(*qs, "data_filter", q->data_filter))) ||
        (rc = swx_query_addf(*qs, "limit", "%d", q->limit ? q->limit : SWX_STORM_LIMIT_MAX)) ||
        (offset > 0 && (rc = swx_query_addf(*qs, "offset", "%ld", offset)))) {
        swx_query_free(*qs);
        *qs = NULL;
        return rc;
    }
    memset(req, 0, sizeof *req);
    req->service = SWX_SERVICE_MAIN;
    req->path = kmz ? SWX_STORM_KMZ_PATH : SWX_STORM_JSON_PATH;
    req->query = *qs;
    req->accept = kmz ? "application/vnd.google-earth.kmz|application/zip|application/"
                        "octet-stream"
                      : "application/json";
    return 0;
}

struct page_ctx {
    swx_storm_fn fn;
    void *ud;
    long left; /* storms still wanted; -1: no cap */
};

static int page_storm(void *ud, const swx_storm *s)
{
    struct page_ctx *p = ud;
    if (p->left == 0)
        return 0;
    if (p->left > 0)
        p->left--;
    return p->fn(p->ud, s);
}

int swx_storm_fetch(swx_client *c, const swx_storm_query *q, swx_storm_fn fn, void *ud, int *pages)
{
    int limit = q->limit ? q->limit : SWX_STORM_LIMIT_MAX;
    long offset = q->offset;
    struct page_ctx pc = {fn, ud, q->max_storms > 0 ? q->max_storms : -1};
    int rc = swx_storm_query_check(q), npages = 0;
    if (pages)
        *pages = 0;
    if (rc)
        return rc;
    for (;;) {
        swx_request req;
        swx_query *qs = NULL;
        swx_response *resp = NULL;
        swx_storm_reader *r = NULL;
        if ((rc = swx_storm_request(q, 0, offset, &req, &qs)))
            return rc;
        rc = swx_http_get(c, &req, &resp);
        swx_query_free(qs);
        if (rc)
            return rc;
        npages++;
        if (pages)
            *pages = npages;
        if (!(rc = swx_storm_reader_new(&r, page_storm, &pc)) &&
            !(rc = swx_storm_reader_feed(r, resp->body, resp->len)))
            rc = swx_storm_reader_finish(r);
        size_t got = r ? swx_storm_reader_count(r) : 0;
        if (rc && rc != SWX_ECANCEL && rc != SWX_ENOMEM && rc != SWX_EIO)
            swx_error_prefix(SWX_EPARSE, "%s (page at offset %ld)", resp->url, offset);
        swx_storm_reader_free(r);
        swx_response_free(resp);
        if (rc)
            return rc;
        /* A short page is the last one; a page larger than asked means the
         * service ignores limit, and is the whole answer. */
        if (got < (size_t)limit || got > (size_t)limit || pc.left == 0)
            return 0;
        offset += limit;
    }
}

int swx_storm_fetch_kmz(swx_client *c, const swx_storm_query *q, const char *path)
{
    swx_request req;
    swx_query *qs = NULL;
    swx_response *resp = NULL;
    char *tmp = NULL;
    FILE *f = NULL;
    int rc = swx_storm_request(q, 1, q->offset, &req, &qs);
    if (rc)
        return rc;
    if ((rc = swx_http_get(c, &req, &resp)))
        goto done;
    if (resp->len < 4 || memcmp(resp->body, "PK\x03\x04", 4) != 0) {
        rc = swx_error_set(SWX_ESERVICE, "%s: the answer is not a KMZ (zip) file", resp->url);
        goto done;
    }
    /* A device or a pipe (/dev/stdout) is written directly, never replaced. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (!(f = fopen(path, "wb"))) {
            rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
            goto done;
        }
        if (fwrite(resp->body, 1, resp->len, f) != resp->len || fflush(f) != 0)
            rc = swx_error_set(SWX_EIO, "writing %s failed: %s", path, strerror(errno));
        goto done;
    }
    size_t tl = strlen(path) + 32;
    if (!(tmp = malloc(tl))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    snprintf(tmp, tl, "%s.part%ld", path, (long)getpid());
    if (!(f = fopen(tmp, "wb"))) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", tmp, strerror(errno));
        goto done;
    }
    if (fwrite(resp->body, 1, resp->len, f) != resp->len || fflush(f) != 0) {
        rc = swx_error_set(SWX_EIO, "writing %s failed: %s", tmp, strerror(errno));
        goto done;
    }
    if (fclose(f) != 0) {
        f = NULL;
        rc = swx_error_set(SWX_EIO, "writing %s failed: %s", tmp, strerror(errno));
        goto done;
    }
    f = NULL;
    if (rename(tmp, path) != 0)
        rc = swx_error_set(SWX_EIO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
done:
    if (f)
        fclose(f);
    if (rc && tmp)
        unlink(tmp);
    free(tmp);
    swx_query_free(qs);
    swx_response_free(resp);
    return rc;
}
