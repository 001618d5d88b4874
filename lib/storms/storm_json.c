/* storm_json.c: one storm object, from its JSON text straight into the model
 * (see seawx/storm.h and storm_json.h). */
#include "storm_json.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "storm_priv.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
#define SYNTAX SWX_STORM_SYNTAX

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

/* Clears the member's note and looks at its value: 1 when it is of type
 * want_type, for the caller to read; else 0, the value read by read_other
 * and *rc its result. */
static int value_is(struct jctx *c, swx_jsonscan_type want_type, struct slots *sl, int slot,
                    const char *member, const char *want, int *rc)
{
    unnote(sl, slot, 1);
    swx_jsonscan_type type = swx_jsonscan_peek(c->js);
    if (type == want_type)
        return 1;
    *rc = read_other(c, type, sl, slot, member, want);
    return 0;
}

/* A member's string: 1 with *t when it is one; else 0 and *rc as value_is
 * gives it, or SYNTAX. */
static int string_is(struct jctx *c, struct slots *sl, int slot, const char *member,
                     swx_jsonscan_str *t, int *rc)
{
    if (!value_is(c, SWX_JSONSCAN_STRING, sl, slot, member, "a string", rc))
        return 0;
    if (swx_jsonscan_string(c->js, t)) {
        *rc = SYNTAX;
        return 0;
    }
    return 1;
}

static int read_str(struct jctx *c, struct slots *sl, int slot, const char *member,
                    const char **out)
{
    swx_jsonscan_str v;
    int rc;
    *out = NULL;
    if (!string_is(c, sl, slot, member, &v, &rc))
        return rc;
    if (!(*out = swx_storm_str(c->s, v.s, v.n)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    return 0;
}

static int read_num(struct jctx *c, struct slots *sl, int slot, const char *member, double *out)
{
    swx_jsonscan_num v;
    int rc;
    *out = NAN;
    if (!value_is(c, SWX_JSONSCAN_NUMBER, sl, slot, member, "a number", &rc))
        return rc;
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
    int rc;
    *out = SWX_STORM_NULL;
    if (!string_is(c, sl, slot, member, &t, &rc))
        return rc;
    if (swx_iso8601_parse_n(out, t.s, strnlen(t.s, t.n)) != 0) {
        swx_error_clear();
        *out = SWX_STORM_NULL;
        note(sl, slot, member, "an ISO 8601 time");
    }
    return 0;
}

static int read_bool(struct jctx *c, struct slots *sl, int slot, const char *member, int *out)
{
    int rc;
    *out = -1;
    if (!value_is(c, SWX_JSONSCAN_BOOL, sl, slot, member, "a boolean", &rc))
        return rc;
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
    if (!value_is(c, SWX_JSONSCAN_OBJECT, &c->pos, base, radii_keys[t], "an object", &rc))
        return rc;
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
    if (!value_is(c, SWX_JSONSCAN_ARRAY, &c->st, slot, member, "an array", &rc))
        return rc;
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
        if ((rc = swx_storm_add_pos(&p, c->s, forecast)) || (rc = read_position(c, p)))
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
    if (!value_is(c, SWX_JSONSCAN_OBJECT, &c->st, S_DATES, "dates_active", "an object", &rc))
        return rc;
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

int swx_storm_json_parse(swx_storm **out, size_t *used, swx_jsonscan *js, const char *text,
                         size_t len)
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
    int rc = swx_storm_json_parse(out, NULL, &js, json, len);
    if (rc == SYNTAX && js.nomem) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
    } else if (rc == SYNTAX) {
        const char *msg = swx_jsonscan_error(&js, &at);
        rc = swx_error_set(SWX_EPARSE, "malformed storm JSON at byte %zu: %s", at + 1, msg);
    }
    swx_jsonscan_release(&js);
    return rc;
}
