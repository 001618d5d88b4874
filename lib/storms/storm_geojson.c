/* storm_geojson.c: storm features as streaming RFC 7946 output, with their
 * simplestyle colours (see seawx/storm_geojson.h). */
#include "seawx/storm_geojson.h"

#include "jsonfmt.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "storm_feature.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
 * jsonw, by the same swx_json_escape(). Every write first makes sure the buffer has room for what
 * it may put (flushing when not), then stores without further checks. */

#define OUT_BUF (64 * 1024)
/* The longest number put_num writes: "-1.7976931348623157e+308" and a NUL. */
#define NUM_MAX 32
_Static_assert(NUM_MAX >= SWX_DOUBLE_TEXT_MAX, "put_big writes swx_double_shortest");
/* Room for "[x,y]". */
#define PAIR_MAX (2 * NUM_MAX + 3)
#define MAX_FIELDS SWX_STORM_MAX_FIELDS
/* The longest ,"name": of a property. */
#define KEY_MAX 32

struct out {
    FILE *f;
    char *buf;
    size_t len;
    int failed;
    int err;         /* errno of the write that failed */
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

/* SWX_EIO naming the output (its kind when split) and the cause. */
static int write_failed(const swx_storm_geojson *w, const struct out *o)
{
    const char *cause = o->err ? strerror(o->err) : "write error";
    if (w->split)
        return swx_error_set(SWX_EIO, "cannot write the %s GeoJSON: %s",
                             swx_storm_kind_layer((int)(o - w->outs)), cause);
    return swx_error_set(SWX_EIO, "cannot write the GeoJSON: %s", cause);
}

static void out_flush(struct out *o)
{
    if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len) {
        o->failed = 1;
        o->err = errno;
    }
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
            if (!o->failed && fwrite(s, 1, n, o->f) != n) {
                o->failed = 1;
                o->err = errno;
            }
            return;
        }
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

#define OUT_LIT(o, lit) out_raw(o, lit, sizeof(lit) - 1)

/* A JSON string: its bytes escaped by swx_json_escape() (jsonfmt.h), in
 * place when the escaped text is sure to fit the buffer, else a run at a time. */
static void out_str(struct out *o, const char *s)
{
    size_t n = strlen(s);
    if (n > (OUT_BUF - 2) / SWX_JSON_ESC_MAX) {
        char tmp[SWX_JSON_ESC_MAX * 256];
        out_raw(o, "\"", 1);
        for (size_t i = 0; i < n; i += 256)
            out_raw(o, tmp, swx_json_escape(tmp, s + i, n - i < 256 ? n - i : 256));
        out_raw(o, "\"", 1);
        return;
    }
    out_room(o, SWX_JSON_ESC_MAX * n + 2);
    char *p = o->buf + o->len;
    *p++ = '"';
    p += swx_json_escape(p, s, n);
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
 * put_num: the shortest of %.15g, %.16g, %.17g that reads back as v
 * (swx_double_shortest). From 1e17 on that has an exponent, so that readers
 * that take digits without a point for a 64-bit integer still read a double. */
__attribute__((noinline, cold)) static char *put_big(char *p, double v)
{
    return p + swx_double_shortest(p, v);
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
    swx_civil_from_time(&y, &mo, &d, &h, &mi, &s, t);
    if (y < 0 || y > 9999) {
        char ts[SWX_ISO8601_LEN];
        swx_iso8601_format(ts, t);
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

/* The type a feature is written with: in a split writer (multi) every
 * geometry is Multi*, and a storm track of one position has none. */
static swx_geom_type written_geom(const swx_storm_feature *f, int multi)
{
    if (!multi)
        return f->geom;
    switch (f->geom) {
    case SWX_GEOM_POINT:
        return swx_storm_kind_get(f->kind)->shape == SWX_SHAPE_POINT ? SWX_GEOM_POINT
                                                                     : SWX_GEOM_NONE;
    case SWX_GEOM_LINESTRING:
        return SWX_GEOM_MULTILINESTRING;
    case SWX_GEOM_POLYGON:
        return SWX_GEOM_MULTIPOLYGON;
    default:
        return f->geom;
    }
}

static void out_geometry(struct out *o, const swx_storm_feature *f, int multi)
{
    const double *xy = f->xy;
    swx_geom_type g = written_geom(f, multi);
    switch (g) {
    case SWX_GEOM_NONE:
        OUT_LIT(o, "null");
        return;
    case SWX_GEOM_POINT:
        if (multi) {
            OUT_LIT(o, "{\"type\":\"MultiPoint\",\"coordinates\":");
            out_positions(o, xy, 1);
        } else {
            OUT_LIT(o, "{\"type\":\"Point\",\"coordinates\":");
            out_pairs(o, xy, 1);
        }
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
        int poly = g == SWX_GEOM_MULTIPOLYGON;
        if (poly)
            OUT_LIT(o, "{\"type\":\"MultiPolygon\",\"coordinates\":[");
        else
            OUT_LIT(o, "{\"type\":\"MultiLineString\",\"coordinates\":[");
        /* Polygons of one ring each unless poly_rings says otherwise. */
        size_t npoly = poly && f->poly_rings ? f->npolys : f->nparts, part = 0;
        for (size_t i = 0; i < npoly; i++) {
            size_t nr = poly && f->poly_rings ? f->poly_rings[i] : 1;
            if (i)
                out_raw(o, ",", 1);
            if (poly)
                out_raw(o, "[", 1);
            for (size_t r = 0; r < nr; r++, part++) {
                if (r)
                    out_raw(o, ",", 1);
                out_positions(o, xy, f->part_len[part]);
                xy += 2 * f->part_len[part];
            }
            if (poly)
                out_raw(o, "]", 1);
        }
        out_raw(o, "]", 1);
        break;
    }
    }
    out_raw(o, "}", 1);
}

static void out_style(struct out *o, const swx_storm_feature *f, int multi)
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
        int point = written_geom(f, multi) == SWX_GEOM_POINT;
        out_key(o, point ? "marker-color" : "stroke");
        out_str(o, swx_storm_category_color(rank));
        if (!point) {
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
    case SWX_SK_CONE:
        OUT_LIT(o, ",\"stroke\":\"#1f4e9c\",\"stroke-width\":2,\"fill\":\"#ffffff\","
                   "\"fill-opacity\":0.35");
        break;
    case SWX_SK_DANGER_AREA:
        OUT_LIT(o, ",\"stroke\":\"#c0001a\",\"stroke-width\":2,\"fill\":\"#ff4040\","
                   "\"fill-opacity\":0.2");
        break;
    case SWX_SK_WIND_SWATH:
        OUT_LIT(o, ",\"stroke\":");
        out_str(o, radii_color[f->threshold]);
        OUT_LIT(o, ",\"stroke-width\":1,\"fill\":");
        out_str(o, radii_color[f->threshold]);
        OUT_LIT(o, ",\"fill-opacity\":0.3");
        break;
    }
}

static int write_feature(void *ud, const swx_storm_feature *f)
{
    swx_storm_geojson *w = ud;
    struct out *o = &w->outs[w->split ? f->kind : 0];
    const swx_storm_field *tab;
    size_t n = swx_storm_fields(&tab, f->kind);
    if (o->features++)
        OUT_LIT(o, ",\n");
    const char *name = swx_storm_kind_name(f->kind);
    OUT_LIT(o, "{\"type\":\"Feature\",\"properties\":{\"kind\":\"");
    out_raw(o, name, strlen(name));
    out_raw(o, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        swx_storm_value v;
        swx_storm_value_of(&v, f, tab[i].id_);
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
    out_style(o, f, w->split);
    OUT_LIT(o, "},\"geometry\":");
    out_geometry(o, f, w->split);
    out_raw(o, "}", 1);
    w->counts[f->kind]++;
    return o->failed ? write_failed(w, o) : 0;
}

static const char collection_head[] = "{\"type\":\"FeatureCollection\",\"features\":[\n";

/* The ,"name": strings of every property table, one after the other, with
 * KEY_MAX bytes of padding after the last. */
static int build_keys(swx_storm_geojson *w)
{
    size_t total = 0;
    for (int k = 0; k < SWX_SK_COUNT; k++) {
        const swx_storm_field *tab;
        size_t n = swx_storm_fields(&tab, k);
        for (size_t i = 0; i < n; i++)
            total += strlen(tab[i].name) + 4;
    }
    char *p = w->keytext = calloc(1, total + KEY_MAX);
    if (!p)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (int k = 0; k < SWX_SK_COUNT; k++) {
        const swx_storm_field *tab;
        size_t n = swx_storm_fields(&tab, k);
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

void swx_storm_geojson_set_danger(swx_storm_geojson *w, const struct swx_storm_danger *d)
{
    swx_storm_geo_set_danger(w->geo, d);
}

void swx_storm_geojson_counts(size_t counts[SWX_SK_COUNT], const swx_storm_geojson *w)
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
        if (!o->failed && (fflush(o->f) != 0 || ferror(o->f))) {
            o->failed = 1;
            o->err = errno;
        }
        if (o->failed && !rc)
            rc = write_failed(w, o);
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
