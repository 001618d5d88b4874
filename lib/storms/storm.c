/* storm.c: the storm model, its JSON parser, queries and paging (see seawx/storm.h). */
#include "seawx/storm.h"

#include "buf.h"
#include "jsonscan.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "storm_priv.h"

#include <ctype.h>
#include <errno.h>
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

/* ---- JSON ----
 *
 * A storm object is read in one pass with the pull parser of jsonscan.h,
 * straight into the model: no tree is built (a json-c tree per storm cost
 * more than everything else the conversion of an archive does).
 *
 * Errors come out as they did when the object was first parsed whole and then
 * checked member by member in the interface's order: a syntax error anywhere
 * wins (it stops the scan at once); a value of the wrong type is only noted,
 * in the slot of its member; a member given twice keeps its last value and
 * only that value's error (as json-c keeps the last of duplicate keys); and
 * when the object is complete the first noted slot in the interface's order
 * is reported, naming the storm by its atcf_id wherever that stood. */

/* Slots of the storm object, in the order errors are reported. */
enum {
    S_ATCF_ID,
    S_STORM_NAME,
    S_BASIN,
    S_SUBBASIN,
    S_SEASON,
    S_ADV_NUMBER,
    S_ADV_TIME,
    S_MAX_CAT,
    S_MAX_WIND,
    S_MIN_MSLP,
    S_IS_ACTIVE,
    S_DATES,
    S_START,
    S_END,
    S_OBSERVED,
    S_FORECAST,
    S_COUNT
};

/* Slots of a track position, in the order errors are reported; the radii
 * take 6 per threshold: the threshold object, wind_speed, ne, se, sw, nw. */
enum {
    P_LAT,
    P_LON,
    P_CAT,
    P_BASIN,
    P_SUBBASIN,
    P_GUSTS,
    P_WIND,
    P_MSLP,
    P_DIR,
    P_SPEED,
    P_RADII,
    P_R0,
    P_TIME = P_R0 + 6 * SWX_STORM_NRADII,
    P_FC_TIME,
    P_FC_HOUR,
    P_COUNT
};

/* What a noted error says: a value of the wrong type ("'season' is not an
 * integer"), a position without coordinates, or too many positions. */
enum { E_TYPE, E_LATLON, E_TOOBIG };
#define NO_INDEX ((size_t)-1)

_Static_assert(S_COUNT <= 64 && P_COUNT <= 64, "slots are bits of a uint64_t");

struct slots {
    uint64_t noted; /* bit k: slot k has an error */
    const char *member[64], *want[64];
    size_t index[64]; /* the position in a track, or NO_INDEX */
    unsigned char kind[64];
};

struct jctx {
    swx_jsonscan *js;
    swx_storm *s;
    struct slots st;  /* the storm's members */
    struct slots pos; /* the position being read */
    int storm_hint, pos_hint;
};

/* A syntax error, held by js; the caller words it. */
#define SYNTAX 1

static void note(struct slots *sl, int slot, const char *member, const char *want)
{
    sl->noted |= 1ull << slot;
    sl->member[slot] = member;
    sl->want[slot] = want;
    sl->index[slot] = NO_INDEX;
    sl->kind[slot] = E_TYPE;
}

static void unnote(struct slots *sl, int first, int count)
{
    sl->noted &= ~(((1ull << count) - 1) << first);
}

static int lowest(uint64_t bits)
{
    int k = 0;
    while (!(bits & 1)) {
        bits >>= 1;
        k++;
    }
    return k;
}

/* Member names with their lengths, for key_find, in the order of the cases
 * that read them. */
struct key {
    const char *name;
    size_t len;
};
#define NKEYS(keys) ((int)(sizeof keys / sizeof keys[0]))
/* The names laid out a few per line: */
/* clang-format off */
#define KEY(name) {name, sizeof(name) - 1}
static const struct key storm_keys[] = {
    KEY("atcf_id"), KEY("storm_name"), KEY("basin"), KEY("subbasin"), KEY("season"),
    KEY("advisory_number"), KEY("advisory_issuance_time"), KEY("max_development_category"),
    KEY("max_sustained_wind"), KEY("min_mslp"), KEY("is_active"), KEY("dates_active"),
    KEY("observed_track"), KEY("forecast_track")};
static const struct key position_keys[] = {
    KEY("lat"), KEY("lon"), KEY("category_code"), KEY("basin"), KEY("subbasin"),
    KEY("wind_gusts"), KEY("max_sustained_wind"), KEY("min_mslp"), KEY("movement_direction"),
    KEY("movement_speed"), KEY("wind_extent_radii"), KEY("time"), KEY("forecast_time"),
    KEY("forecast_hour")};
static const struct key threshold_keys[] = {
    KEY("wind_speed"), KEY("ne"), KEY("se"), KEY("sw"), KEY("nw")};
#undef KEY
/* clang-format on */

/* The index of key in keys (n of them), or -1. Members mostly come in the
 * same order object after object, so the one after the last match (*hint)
 * is tried first. */
static int key_find(const struct key *keys, int n, const swx_jsonscan_str *key, int *hint)
{
    int h = *hint;
    for (int k = 0; k < n; k++, h = h + 1 == n ? 0 : h + 1)
        if (keys[h].len == key->n && memcmp(keys[h].name, key->s, key->n) == 0) {
            *hint = h + 1 == n ? 0 : h + 1;
            return h;
        }
    return -1;
}

static int skip(struct jctx *c)
{
    return swx_jsonscan_skip(c->js) ? SYNTAX : 0;
}

static int read_null(struct jctx *c)
{
    return swx_jsonscan_null(c->js) ? SYNTAX : 0;
}

/* Each read_* reads one member's value into *out (null or missing: the null
 * of the model), or notes why it cannot and skips it. 0, SYNTAX or
 * SWX_ENOMEM. What they share: a value of another type than they read. */
static int read_other(struct jctx *c, swx_jsonscan_type type, struct slots *sl, int slot,
                      const char *member, const char *want)
{
    if (type == SWX_JSONSCAN_NULL)
        return read_null(c);
    if (type == SWX_JSONSCAN_ERROR)
        return SYNTAX;
    note(sl, slot, member, want);
    return skip(c);
}

static int read_str(struct jctx *c, struct slots *sl, int slot, const char *member,
                    const char **out)
{
    swx_jsonscan_str v;
    *out = NULL;
    unnote(sl, slot, 1);
    swx_jsonscan_type type = swx_jsonscan_peek(c->js);
    if (type != SWX_JSONSCAN_STRING)
        return read_other(c, type, sl, slot, member, "a string");
    if (swx_jsonscan_string(c->js, &v))
        return SYNTAX;
    if (!(*out = swx_storm_str(c->s, v.s, v.n)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    return 0;
}

static int read_num(struct jctx *c, struct slots *sl, int slot, const char *member, double *out)
{
    swx_jsonscan_num v;
    *out = NAN;
    unnote(sl, slot, 1);
    swx_jsonscan_type type = swx_jsonscan_peek(c->js);
    if (type != SWX_JSONSCAN_NUMBER)
        return read_other(c, type, sl, slot, member, "a number");
    if (swx_jsonscan_number(c->js, &v))
        return SYNTAX;
    *out = v.d;
    if (!isfinite(v.d))
        note(sl, slot, member, "a finite number");
    return 0;
}

/* An integer: a JSON integer, a number with no fraction, or a string holding
 * an integer (advisory numbers sometimes travel as "12"). */
static int read_int(struct jctx *c, struct slots *sl, int slot, const char *member, int64_t *out)
{
    swx_jsonscan_num v;
    swx_jsonscan_str t;
    *out = SWX_STORM_NULL;
    unnote(sl, slot, 1);
    swx_jsonscan_type type = swx_jsonscan_peek(c->js);
    if (type == SWX_JSONSCAN_NUMBER) {
        if (swx_jsonscan_number(c->js, &v))
            return SYNTAX;
        if (v.is_int)
            *out = v.i;
        else if (v.d == floor(v.d) && fabs(v.d) < 9e15)
            *out = (int64_t)v.d;
        else
            note(sl, slot, member, "an integer");
        return 0;
    }
    if (type != SWX_JSONSCAN_STRING)
        return read_other(c, type, sl, slot, member, "an integer");
    if (swx_jsonscan_string(c->js, &t))
        return SYNTAX;
    /* As a C string: up to an embedded NUL, like the text json-c gave. */
    size_t n = strnlen(t.s, t.n);
    char *z = malloc(n + 1), *end;
    if (!z)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(z, t.s, n);
    z[n] = '\0';
    errno = 0;
    long long i = strtoll(z, &end, 10);
    if (n && !*end && !errno)
        *out = i;
    else
        note(sl, slot, member, "an integer");
    free(z);
    return 0;
}

/* A time: a string holding an ISO 8601 instant. */
static int read_time(struct jctx *c, struct slots *sl, int slot, const char *member, int64_t *out)
{
    swx_jsonscan_str t;
    *out = SWX_STORM_NULL;
    unnote(sl, slot, 1);
    swx_jsonscan_type type = swx_jsonscan_peek(c->js);
    if (type != SWX_JSONSCAN_STRING)
        return read_other(c, type, sl, slot, member, "a string");
    if (swx_jsonscan_string(c->js, &t))
        return SYNTAX;
    if (swx_iso8601_parse_n(t.s, strnlen(t.s, t.n), out) != 0) {
        swx_error_clear();
        *out = SWX_STORM_NULL;
        note(sl, slot, member, "an ISO 8601 time");
    }
    return 0;
}

static int read_bool(struct jctx *c, struct slots *sl, int slot, const char *member, int *out)
{
    *out = -1;
    unnote(sl, slot, 1);
    swx_jsonscan_type type = swx_jsonscan_peek(c->js);
    if (type != SWX_JSONSCAN_BOOL)
        return read_other(c, type, sl, slot, member, "a boolean");
    return swx_jsonscan_bool(c->js, out) ? SYNTAX : 0;
}

static const char *const radii_keys[SWX_STORM_NRADII] = {"34kts", "50kts", "64kts"};
static const char *const quadrants[4] = {"ne", "se", "sw", "nw"};

/* One threshold of wind_extent_radii: {"wind_speed", "ne", "se", "sw", "nw"}. */
static int read_threshold(struct jctx *c, swx_storm_pos *p, int t)
{
    const int base = P_R0 + 6 * t;
    swx_storm_radii *r = &p->radii[t];
    swx_jsonscan_str key;
    int more, rc, hint = 0;
    r->present = 0;
    r->wind_speed = r->r[0] = r->r[1] = r->r[2] = r->r[3] = NAN;
    unnote(&c->pos, base, 6);
    switch (swx_jsonscan_peek(c->js)) {
    case SWX_JSONSCAN_NULL:
        return read_null(c);
    case SWX_JSONSCAN_OBJECT:
        break;
    case SWX_JSONSCAN_ERROR:
        return SYNTAX;
    default:
        note(&c->pos, base, radii_keys[t], "an object");
        return skip(c);
    }
    r->present = 1;
    if (swx_jsonscan_enter(c->js))
        return SYNTAX;
    while ((more = swx_jsonscan_member(c->js, &key)) == 1) {
        int k = key_find(threshold_keys, NKEYS(threshold_keys), &key, &hint);
        if (k == 0) {
            rc = read_num(c, &c->pos, base + 1, "wind_speed", &r->wind_speed);
        } else if (k > 0) {
            rc = read_num(c, &c->pos, base + 1 + k, quadrants[k - 1], &r->r[k - 1]);
            if (!rc && r->r[k - 1] < 0)
                note(&c->pos, base + 1 + k, quadrants[k - 1], "a radius >= 0");
        } else {
            rc = skip(c);
        }
        if (rc)
            return rc;
    }
    return more < 0 ? SYNTAX : 0;
}

/* wind_extent_radii: an object of thresholds; [] is taken for {}. */
static int read_radii(struct jctx *c, swx_storm_pos *p)
{
    swx_jsonscan_str key;
    int more, rc;
    p->has_radii_object = 0;
    for (int t = 0; t < SWX_STORM_NRADII; t++) {
        p->radii[t].present = 0;
        p->radii[t].wind_speed = NAN;
        for (int q = 0; q < 4; q++)
            p->radii[t].r[q] = NAN;
    }
    unnote(&c->pos, P_RADII, 1 + 6 * SWX_STORM_NRADII);
    switch (swx_jsonscan_peek(c->js)) {
    case SWX_JSONSCAN_NULL:
        return read_null(c);
    case SWX_JSONSCAN_ARRAY:
        if (swx_jsonscan_enter(c->js) || (more = swx_jsonscan_element(c->js)) < 0)
            return SYNTAX;
        if (!more) {
            p->has_radii_object = 1;
            return 0;
        }
        /* A non-empty array: skip the rest of it. */
        note(&c->pos, P_RADII, "wind_extent_radii", "an object");
        do {
            if (skip(c))
                return SYNTAX;
        } while ((more = swx_jsonscan_element(c->js)) == 1);
        return more < 0 ? SYNTAX : 0;
    case SWX_JSONSCAN_OBJECT:
        break;
    case SWX_JSONSCAN_ERROR:
        return SYNTAX;
    default:
        note(&c->pos, P_RADII, "wind_extent_radii", "an object");
        return skip(c);
    }
    p->has_radii_object = 1;
    if (swx_jsonscan_enter(c->js))
        return SYNTAX;
    while ((more = swx_jsonscan_member(c->js, &key)) == 1) {
        int t = -1;
        for (int k = 0; k < SWX_STORM_NRADII; k++)
            if (key.n == 5 && memcmp(key.s, radii_keys[k], 5) == 0)
                t = k;
        if ((rc = t >= 0 ? read_threshold(c, p, t) : skip(c)))
            return rc;
    }
    return more < 0 ? SYNTAX : 0;
}

static int read_position(struct jctx *c, swx_storm_pos *p)
{
    struct slots *sl = &c->pos;
    swx_jsonscan_str key;
    int more, rc;
    sl->noted = 0;
    if (swx_jsonscan_enter(c->js))
        return SYNTAX;
    while ((more = swx_jsonscan_member(c->js, &key)) == 1) {
        switch (key_find(position_keys, NKEYS(position_keys), &key, &c->pos_hint)) {
        case 0:
            rc = read_num(c, sl, P_LAT, "lat", &p->lat);
            break;
        case 1:
            rc = read_num(c, sl, P_LON, "lon", &p->lon);
            break;
        case 2:
            rc = read_str(c, sl, P_CAT, "category_code", &p->category_code);
            break;
        case 3:
            rc = read_str(c, sl, P_BASIN, "basin", &p->basin);
            break;
        case 4:
            rc = read_str(c, sl, P_SUBBASIN, "subbasin", &p->subbasin);
            break;
        case 5:
            rc = read_num(c, sl, P_GUSTS, "wind_gusts", &p->wind_gusts);
            break;
        case 6:
            rc = read_num(c, sl, P_WIND, "max_sustained_wind", &p->max_sustained_wind);
            break;
        case 7:
            rc = read_num(c, sl, P_MSLP, "min_mslp", &p->min_mslp);
            break;
        case 8:
            rc = read_num(c, sl, P_DIR, "movement_direction", &p->movement_direction);
            break;
        case 9:
            rc = read_num(c, sl, P_SPEED, "movement_speed", &p->movement_speed);
            break;
        case 10:
            rc = read_radii(c, p);
            break;
        case 11:
            rc = read_time(c, sl, P_TIME, "time", &p->time);
            break;
        case 12:
            rc = read_time(c, sl, P_FC_TIME, "forecast_time", &p->forecast_time);
            break;
        case 13:
            rc = read_int(c, sl, P_FC_HOUR, "forecast_hour", &p->forecast_hour);
            break;
        default:
            rc = skip(c);
        }
        if (rc)
            return rc;
    }
    return more < 0 ? SYNTAX : 0;
}

/* A track: an array of position objects. The first position with an error
 * gives the track's error; the positions after it are only checked for
 * syntax. */
static int read_track(struct jctx *c, int slot, const char *member, int forecast)
{
    size_t *n = forecast ? &c->s->nforecast : &c->s->nobserved;
    size_t i = 0;
    int more, rc, stopped = 0;
    *n = 0;
    unnote(&c->st, slot, 1);
    switch (swx_jsonscan_peek(c->js)) {
    case SWX_JSONSCAN_NULL:
        return read_null(c);
    case SWX_JSONSCAN_ARRAY:
        break;
    case SWX_JSONSCAN_ERROR:
        return SYNTAX;
    default:
        note(&c->st, slot, member, "an array");
        return skip(c);
    }
    if (swx_jsonscan_enter(c->js))
        return SYNTAX;
    for (; (more = swx_jsonscan_element(c->js)) == 1; i++) {
        swx_storm_pos *p;
        swx_jsonscan_type t = swx_jsonscan_peek(c->js);
        if (t == SWX_JSONSCAN_ERROR)
            return SYNTAX;
        if (stopped || t != SWX_JSONSCAN_OBJECT || *n >= SWX_STORM_MAX_POSITIONS) {
            if (!stopped) {
                note(&c->st, slot, "position", "an object");
                c->st.index[slot] = i;
                c->st.kind[slot] = t != SWX_JSONSCAN_OBJECT ? E_TYPE : E_TOOBIG;
                stopped = 1;
            }
            if (skip(c))
                return SYNTAX;
            continue;
        }
        if ((rc = swx_storm_add_pos(c->s, forecast, &p)) || (rc = read_position(c, p)))
            return rc;
        if (c->pos.noted) {
            int k = lowest(c->pos.noted);
            note(&c->st, slot, c->pos.member[k], c->pos.want[k]);
        } else if (!isfinite(p->lat) || !isfinite(p->lon)) {
            note(&c->st, slot, NULL, NULL);
            c->st.kind[slot] = E_LATLON;
        } else {
            continue;
        }
        c->st.index[slot] = i;
        stopped = 1;
    }
    return more < 0 ? SYNTAX : 0;
}

static int read_dates(struct jctx *c)
{
    swx_storm *s = c->s;
    swx_jsonscan_str key;
    int more, rc;
    s->start_date = s->end_date = NULL;
    unnote(&c->st, S_DATES, 3);
    switch (swx_jsonscan_peek(c->js)) {
    case SWX_JSONSCAN_NULL:
        return read_null(c);
    case SWX_JSONSCAN_OBJECT:
        break;
    case SWX_JSONSCAN_ERROR:
        return SYNTAX;
    default:
        note(&c->st, S_DATES, "dates_active", "an object");
        return skip(c);
    }
    if (swx_jsonscan_enter(c->js))
        return SYNTAX;
    while ((more = swx_jsonscan_member(c->js, &key)) == 1) {
        if (key.n == 5 && memcmp(key.s, "start", 5) == 0)
            rc = read_str(c, &c->st, S_START, "start", &s->start_date);
        else if (key.n == 3 && memcmp(key.s, "end", 3) == 0)
            rc = read_str(c, &c->st, S_END, "end", &s->end_date);
        else
            rc = skip(c);
        if (rc)
            return rc;
    }
    return more < 0 ? SYNTAX : 0;
}

/* The members of a storm object (the '{' already seen by peek). */
static int read_storm(struct jctx *c)
{
    swx_storm *s = c->s;
    struct slots *sl = &c->st;
    swx_jsonscan_str key;
    int more, rc;
    if (swx_jsonscan_enter(c->js))
        return SYNTAX;
    while ((more = swx_jsonscan_member(c->js, &key)) == 1) {
        switch (key_find(storm_keys, NKEYS(storm_keys), &key, &c->storm_hint)) {
        case 0:
            rc = read_str(c, sl, S_ATCF_ID, "atcf_id", &s->atcf_id);
            break;
        case 1:
            rc = read_str(c, sl, S_STORM_NAME, "storm_name", &s->storm_name);
            break;
        case 2:
            rc = read_str(c, sl, S_BASIN, "basin", &s->basin);
            break;
        case 3:
            rc = read_str(c, sl, S_SUBBASIN, "subbasin", &s->subbasin);
            break;
        case 4:
            rc = read_int(c, sl, S_SEASON, "season", &s->season);
            break;
        case 5:
            rc = read_int(c, sl, S_ADV_NUMBER, "advisory_number", &s->advisory_number);
            break;
        case 6:
            rc = read_time(c, sl, S_ADV_TIME, "advisory_issuance_time", &s->advisory_issuance_time);
            break;
        case 7:
            rc = read_str(c, sl, S_MAX_CAT, "max_development_category",
                          &s->max_development_category);
            break;
        case 8:
            rc = read_num(c, sl, S_MAX_WIND, "max_sustained_wind", &s->max_sustained_wind);
            break;
        case 9:
            rc = read_num(c, sl, S_MIN_MSLP, "min_mslp", &s->min_mslp);
            break;
        case 10:
            rc = read_bool(c, sl, S_IS_ACTIVE, "is_active", &s->is_active);
            break;
        case 11:
            rc = read_dates(c);
            break;
        case 12:
            rc = read_track(c, S_OBSERVED, "observed_track", 0);
            break;
        case 13:
            rc = read_track(c, S_FORECAST, "forecast_track", 1);
            break;
        default:
            rc = skip(c);
        }
        if (rc)
            return rc;
    }
    return more < 0 ? SYNTAX : 0;
}

/* The first noted error, worded with the storm's id. */
static int report(const struct jctx *c)
{
    const struct slots *sl = &c->st;
    const char *id = c->s->atcf_id ? c->s->atcf_id : "?";
    uint64_t noted = sl->noted;
    if (!(noted & 1) && !c->s->atcf_id)
        return swx_error_set(SWX_EPARSE, "a storm object has no atcf_id");
    int k = lowest(noted);
    const char *track = k == S_OBSERVED ? "observed_track" : "forecast_track";
    if (sl->kind[k] == E_TOOBIG)
        return swx_error_set(SWX_ETOOBIG, "storm %s has more than %d positions", id,
                             SWX_STORM_MAX_POSITIONS);
    if (sl->kind[k] == E_LATLON)
        return swx_error_set(SWX_EPARSE, "storm %s %s[%zu]: no lat/lon", id, track, sl->index[k]);
    if (sl->index[k] != NO_INDEX)
        return swx_error_set(SWX_EPARSE, "storm %s %s[%zu]: '%s' is not %s", id, track,
                             sl->index[k], sl->member[k], sl->want[k]);
    return swx_error_set(SWX_EPARSE, "storm %s: '%s' is not %s", id, sl->member[k], sl->want[k]);
}

/* Parses the JSON text of one storm with js: the whole text, or when used is
 * not NULL the object at its start (*used receives its length). SYNTAX
 * leaves the error in js; any other failure is set. */
static int parse_text(swx_jsonscan *js, swx_storm **out, const char *text, size_t len, size_t *used)
{
    struct jctx *c = NULL;
    swx_storm *s = NULL;
    int rc;
    *out = NULL;
    swx_jsonscan_reset(js, text, len);
    if (swx_jsonscan_peek(js) != SWX_JSONSCAN_OBJECT) {
        /* Syntax first, as when the whole text was parsed before it was looked at. */
        if (swx_jsonscan_skip(js) || (!used && swx_jsonscan_end(js)))
            return SYNTAX;
        return swx_error_set(SWX_EPARSE, "a storm is not a JSON object");
    }
    if (!(c = malloc(sizeof *c)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if ((rc = swx_storm_new_empty(&s)))
        goto done;
    c->js = js;
    c->s = s;
    c->st.noted = c->pos.noted = 0;
    c->storm_hint = c->pos_hint = 0;
    if ((rc = read_storm(c)))
        goto done;
    if (used) {
        *used = (size_t)(js->p - text);
    } else if (swx_jsonscan_end(js)) {
        rc = SYNTAX;
        goto done;
    }
    if (c->st.noted || !s->atcf_id) {
        rc = report(c);
        goto done;
    }
    if ((rc = swx_storm_finish(s)))
        goto done;
    *out = s;
    s = NULL;
done:
    swx_storm_free(s);
    free(c);
    return rc;
}

int swx_storm_parse_json(swx_storm **out, const char *json, size_t len)
{
    swx_jsonscan js = {0};
    size_t at;
    *out = NULL;
    if (len > SWX_STORM_MAX_BYTES)
        return swx_error_set(SWX_ETOOBIG, "a storm object of %zu bytes is larger than %u MiB", len,
                             SWX_STORM_MAX_BYTES >> 20);
    int rc = parse_text(&js, out, json, len, NULL);
    if (rc == SYNTAX && js.nomem) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
    } else if (rc == SYNTAX) {
        const char *msg = swx_jsonscan_error(&js, &at);
        rc = swx_error_set(SWX_EPARSE, "malformed storm JSON at byte %zu: %s", at + 1, msg);
    }
    swx_jsonscan_release(&js);
    return rc;
}

/* ---- the streaming reader ----
 *
 * The response is one JSON array of storm objects. The reader scans bytes as
 * they come, tracking strings (and their escapes) and nesting depth, to find
 * where each top-level element ends; an element that lies whole in the chunk
 * being fed is parsed in place, one that spans chunks is first copied into a
 * bounded buffer. Invariant: depth counts the open brackets of the current
 * element, 0 between elements. */
struct swx_storm_reader {
    swx_storm_fn fn;
    void *ud;
    swx_jsonscan js;
    swx_buf elem;
    enum { R_START, R_BEFORE, R_ELEM, R_AFTER, R_END } state;
    int depth, in_str, esc;
    const char *direct; /* the element's '{' in the chunk being fed, while none of
                           it is in elem: parsed in place, not copied */
    size_t count;
    size_t offset;     /* bytes seen, for messages */
    size_t elem_start; /* offset of the element's '{', counted from 1 */
    size_t held_max;   /* most JSON bytes held at once: elem plus the chunk fed */
};

int swx_storm_reader_new(swx_storm_reader **out, swx_storm_fn fn, void *ud)
{
    swx_storm_reader *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r)
        return swx_error_set(SWX_ENOMEM, "out of memory");
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
    swx_jsonscan_release(&r->js);
    swx_buf_free(&r->elem);
    free(r);
}

size_t swx_storm_reader_count(const swx_storm_reader *r)
{
    return r->count;
}

/* Hands a parsed storm to the callback. */
static int deliver(swx_storm_reader *r, swx_storm *s)
{
    r->count++;
    int rc = r->fn ? r->fn(r->ud, s) : 0;
    swx_storm_free(s);
    r->elem.len = 0;
    return rc;
}

/* Parses a complete element that the scanner delimited. */
static int element_done(swx_storm_reader *r, const char *text, size_t len)
{
    swx_storm *s = NULL;
    size_t at;
    if (len > SWX_STORM_MAX_BYTES)
        return swx_error_set(SWX_ETOOBIG, "a storm object is larger than %u MiB",
                             SWX_STORM_MAX_BYTES >> 20);
    int rc = parse_text(&r->js, &s, text, len, NULL);
    if (rc == SYNTAX && r->js.nomem)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    if (rc == SYNTAX) {
        const char *msg = swx_jsonscan_error(&r->js, &at);
        return swx_error_set(SWX_EPARSE, "malformed storm JSON in element %zu at byte %zu: %s",
                             r->count + 1, r->elem_start + at, msg);
    }
    if (rc)
        return rc;
    return deliver(r, s);
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

/* Bytes the element scanner stops at outside strings. */
static const unsigned char scan_stop[256] = {['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1};

/* Scans data[i, len) of the current element. Returns where it stopped: just
 * after the element's last byte (depth 0), or len. */
static size_t scan_element(swx_storm_reader *r, const char *data, size_t i, size_t len, int *rc)
{
    int depth = r->depth, in_str = r->in_str, esc = r->esc;
    size_t j = i;
    *rc = 0;
    while (j < len) {
        if (esc) {
            esc = 0;
            j++;
            continue;
        }
        if (in_str) {
            while (j < len && data[j] != '"' && data[j] != '\\')
                j++;
            if (j == len)
                break;
            if (data[j] == '\\')
                esc = 1;
            else
                in_str = 0;
            j++;
            continue;
        }
        while (j < len && !scan_stop[(unsigned char)data[j]])
            j++;
        if (j == len)
            break;
        char d = data[j++];
        if (d == '"') {
            in_str = 1;
        } else if (d == '{' || d == '[') {
            if (++depth > 64) {
                *rc = swx_error_set(SWX_EPARSE, "storm JSON nested too deeply");
                break;
            }
        } else if (--depth == 0) {
            break;
        }
    }
    r->depth = depth;
    r->in_str = in_str;
    r->esc = esc;
    return j;
}

void swx_storm_reader_reset(swx_storm_reader *r)
{
    r->state = R_START;
    r->depth = r->in_str = r->esc = 0;
    r->direct = NULL;
    r->count = 0;
    r->offset = 0;
    r->elem_start = 0;
    r->elem.len = 0;
}

size_t swx_storm_reader_held_max(const swx_storm_reader *r)
{
    return r->held_max;
}

int swx_storm_reader_feed(swx_storm_reader *r, const char *data, size_t len)
{
    size_t i = 0;
    int rc;
    if (r->elem.len + len > r->held_max)
        r->held_max = r->elem.len + len;
    while (i < len) {
        char ch = data[i];
        if (r->state == R_ELEM) {
            size_t j = scan_element(r, data, i, len, &rc);
            if (rc)
                return rc;
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
            r->elem_start = r->offset;
            /* Most elements lie whole in the chunk: parse them in place, the
             * parser finding where they end. One that does not parse (it runs
             * past the chunk, or is malformed) goes through the scanner, so
             * that it is parsed (and its errors reported) once complete. */
            {
                swx_storm *s = NULL;
                size_t left = len - (i - 1), used = 0;
                rc = parse_text(&r->js, &s, data + i - 1,
                                left < SWX_STORM_MAX_BYTES ? left : SWX_STORM_MAX_BYTES, &used);
                if (rc == 0) {
                    r->offset += used - 1;
                    i += used - 1;
                    r->state = R_AFTER;
                    if ((rc = deliver(r, s)))
                        return rc;
                    break;
                }
                if (rc != SYNTAX)
                    return rc;
            }
            r->state = R_ELEM;
            r->depth = 1;
            r->in_str = r->esc = 0;
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
    /* An element whose '{' was the chunk's last byte: keep it, the chunk
     * is gone after this call. */
    if (r->direct) {
        rc = swx_buf_append(&r->elem, r->direct, (size_t)(data + len - r->direct));
        r->direct = NULL;
        if (rc)
            return swx_error_set(rc, "a storm object is larger than %u MiB",
                                 SWX_STORM_MAX_BYTES >> 20);
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

/* One page's storms on their way to the caller. A page whose answer breaks
 * off is asked for again (see swx_http_get_sink): the storms the first
 * attempt already handed on are skipped by their position in the page, so
 * that none is delivered twice (paging by offset already takes the answer to
 * be the same from one request to the next). */
struct page_ctx {
    swx_storm_fn fn;
    void *ud;
    long left;           /* storms still wanted; -1: no cap */
    swx_storm_reader *r; /* one reader for every page, reset between them */
    size_t seen;         /* storms of this page read by this attempt */
    size_t handled;      /* storms of this page handed on by any attempt */
    int sink_rc;         /* the reader's (or fn's) error, not the transfer's */
};

static int page_storm(void *ud, const swx_storm *s)
{
    struct page_ctx *p = ud;
    if (p->seen++ < p->handled)
        return 0;
    p->handled = p->seen;
    if (p->left == 0)
        return 0;
    if (p->left > 0)
        p->left--;
    return p->fn(p->ud, s);
}

static int page_write(void *ud, const char *data, size_t len)
{
    struct page_ctx *p = ud;
    int rc = swx_storm_reader_feed(p->r, data, len);
    if (rc)
        p->sink_rc = rc;
    return rc;
}

static int page_restart(void *ud)
{
    struct page_ctx *p = ud;
    swx_storm_reader_reset(p->r);
    p->seen = 0;
    return 0;
}

int swx_storm_fetch_held(swx_client *c, const swx_storm_query *q, swx_storm_fn fn, void *ud,
                         int *pages, size_t *held_max)
{
    int limit = q->limit ? q->limit : SWX_STORM_LIMIT_MAX;
    long offset = q->offset;
    struct page_ctx pc = {fn, ud, q->max_storms > 0 ? q->max_storms : -1, NULL, 0, 0, 0};
    swx_body_sink sink = {page_write, page_restart, &pc};
    swx_query *qs = NULL;
    swx_response *resp = NULL;
    char *url = NULL;
    int rc = swx_storm_query_check(q), npages = 0;
    if (pages)
        *pages = 0;
    if (held_max)
        *held_max = 0;
    if (rc)
        return rc;
    if ((rc = swx_storm_reader_new(&pc.r, page_storm, &pc)))
        return rc;
    for (;;) {
        swx_request req;
        if ((rc = swx_storm_request(q, 0, offset, &req, &qs)))
            goto done;
        swx_storm_reader_reset(pc.r);
        pc.seen = pc.handled = 0;
        pc.sink_rc = 0;
        rc = swx_http_get_sink(c, &req, &sink, &resp);
        if (rc && pc.sink_rc)
            url = swx_request_display_url(c, &req);
        swx_query_free(qs);
        qs = NULL;
        if (rc && !pc.sink_rc)
            goto done;
        npages++;
        if (pages)
            *pages = npages;
        if (!rc)
            rc = swx_storm_reader_finish(pc.r);
        if (rc) {
            if (rc != SWX_ECANCEL && rc != SWX_ENOMEM && rc != SWX_EIO)
                swx_error_prefix(SWX_EPARSE, "%s (page at offset %ld)",
                                 resp  ? resp->url
                                 : url ? url
                                       : SWX_STORM_JSON_PATH,
                                 offset);
            goto done;
        }
        size_t got = swx_storm_reader_count(pc.r);
        swx_response_free(resp);
        resp = NULL;
        /* A short page is the last one; a page larger than asked means the
         * service ignores limit, and is the whole answer. */
        if (got < (size_t)limit || got > (size_t)limit || pc.left == 0)
            break;
        offset += limit;
    }
done:
    if (held_max)
        *held_max = swx_storm_reader_held_max(pc.r);
    swx_storm_reader_free(pc.r);
    swx_response_free(resp);
    swx_query_free(qs);
    free(url);
    return rc;
}

int swx_storm_fetch(swx_client *c, const swx_storm_query *q, swx_storm_fn fn, void *ud, int *pages)
{
    return swx_storm_fetch_held(c, q, fn, ud, pages, NULL);
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
