/* grib_field.c: a GRIB file's wind, gust, waves and currents as fields to
 * sample (grib_field.h), for the route search.
 *
 * The file is read one message at a time with ecCodes (a bzip2 file is
 * first decompressed into a temporary file), so a whole-world file is never
 * held: of each message of a known field only the nodes of the area (and one
 * around) are kept, as floats, rows south to north and columns west to
 * east, whatever the file's scanning. Each message keeps its own grid (a
 * voyage GRIB's window cut gives each time its own). Sampling is bilinear in
 * space on a message's grid and linear in time between the two messages of
 * a field around the asked time: exact for fields linear in latitude,
 * longitude and time, which is how the tests check it. */
#define _GNU_SOURCE
#include "grib_codes.h"
#include "grib_field.h"
#include "grib_priv.h"

#include "seawx/setting.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <bzlib.h>
#include <eccodes.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KN_PER_MPS (3600.0 / 1852.0)
/* The values kept, over all messages: 256 MB of floats. */
#define GFIELD_MAX_VALUES (64u << 20)

typedef struct gmsg {
    int64_t valid;
    double lat0, lon0; /* the south-west node kept (lon0 may be past 180) */
    double dlat, dlon; /* > 0 */
    long ni, nj;       /* columns west to east, rows south to north; 0: none kept */
    float *v;          /* nj rows of ni, NAN where missing */
} gmsg;

typedef struct gseries {
    gmsg *m;
    size_t n, cap;
} gseries;

struct swx_gfield {
    gseries s[SWX_GF_KINDS];
    unsigned has;
    size_t values;
};

static const char *const kind_label[SWX_GF_KINDS] = {"10 m wind (u)",     "10 m wind (v)",
                                                     "10 m gust",         "significant wave height",
                                                     "ocean current (u)", "ocean current (v)"};

/* The field a message holds, in any centre's encoding (grib_codes.c), or
 * -1. */
static int kind_of(codes_handle *h)
{
    const swx_gcode *c = swx__gcode_of(h);
    switch (c ? c->q : -1) {
    case SWX_GQ_WIND_U:
        return SWX_GF_WIND_U;
    case SWX_GQ_WIND_V:
        return SWX_GF_WIND_V;
    case SWX_GQ_GUST:
        return SWX_GF_GUST;
    case SWX_GQ_SWH:
        return SWX_GF_WAVE;
    case SWX_GQ_CUR_U:
        return SWX_GF_CUR_U;
    case SWX_GQ_CUR_V:
        return SWX_GF_CUR_V;
    default:
        return -1;
    }
}

/* The message's regular grid: its south-west node, steps and scanning. */
typedef struct srcgrid {
    long ni, nj, ineg, jpos;
    double lat_s, lon_w, dlat, dlon;
    long nwrap; /* columns round the globe; ni when the grid is global */
} srcgrid;

static int read_grid(srcgrid *g, codes_handle *h, const char *path, size_t count, int kind)
{
    char type[64];
    size_t tl = sizeof type;
    double la1, la2, lo1, lo2;
    long jcons = 0;
    if (codes_get_string(h, "gridType", type, &tl) || strcmp(type, "regular_ll") != 0)
        return swx_error_set(SWX_EINVAL,
                             "%s: message %zu (%s) is on a %s grid; routes read regular "
                             "latitude/longitude grids",
                             path, count, kind_label[kind], tl ? type : "unknown");
    if (codes_get_long(h, "Ni", &g->ni) || codes_get_long(h, "Nj", &g->nj) ||
        codes_get_double(h, "latitudeOfFirstGridPointInDegrees", &la1) ||
        codes_get_double(h, "latitudeOfLastGridPointInDegrees", &la2) ||
        codes_get_double(h, "longitudeOfFirstGridPointInDegrees", &lo1) ||
        codes_get_double(h, "longitudeOfLastGridPointInDegrees", &lo2) || g->ni < 1 || g->nj < 1 ||
        g->ni > 100000 || g->nj > 100000)
        return swx_error_set(SWX_EPARSE, "%s: message %zu (%s): a grid ecCodes cannot read", path,
                             count, kind_label[kind]);
    g->ineg = g->jpos = 0;
    codes_get_long(h, "iScansNegatively", &g->ineg);
    codes_get_long(h, "jScansPositively", &g->jpos);
    codes_get_long(h, "jPointsAreConsecutive", &jcons);
    if (jcons)
        return swx_error_set(SWX_EINVAL,
                             "%s: message %zu (%s): columns stored first; routes read "
                             "grids stored by rows",
                             path, count, kind_label[kind]);
    g->lat_s = fmin(la1, la2);
    g->dlat = g->nj > 1 ? fabs(la2 - la1) / (double)(g->nj - 1) : 1;
    double w = g->ineg ? lo2 : lo1, e = g->ineg ? lo1 : lo2;
    double span = fmod(e - w + 720.0, 360.0);
    g->lon_w = w;
    g->dlon = g->ni > 1 ? span / (double)(g->ni - 1) : 1;
    if (!(g->dlat > 0) || !(g->dlon > 0))
        return swx_error_set(SWX_EPARSE, "%s: message %zu (%s): a grid with no step", path, count,
                             kind_label[kind]);
    g->nwrap = lround(360.0 / g->dlon);
    if (g->nwrap < g->ni)
        g->nwrap = g->ni;
    return 0;
}

/* Keeps of message h (grid g) the nodes of the area into m. */
static int cut(gmsg *m, codes_handle *h, const srcgrid *g, double south, double west, double north,
               double east, const char *path, size_t count, size_t *budget)
{
    size_t nv = (size_t)(g->ni * g->nj), got = nv;
    long bitmap = 0;
    double missing = 9999;
    double *all = malloc(nv * sizeof *all);
    if (!all)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    int err = codes_get_double_array(h, "values", all, &got);
    if (err || got != nv) {
        free(all);
        return swx_error_set(SWX_EPARSE, "%s: message %zu: its values cannot be read (%s)", path,
                             count, codes_get_error_message(err));
    }
    codes_get_long(h, "bitmapPresent", &bitmap);
    codes_get_double(h, "missingValue", &missing);
    double width = east - west >= 360 ? 360 : fmod(east - west + 720.0, 360.0);
    if (width == 0 && east != west)
        width = 360;
    double start = west - g->dlon;
    long i0 = (long)floor(fmod(start - g->lon_w + 720.0, 360.0) / g->dlon);
    long ncols = (long)ceil((width + 2 * g->dlon) / g->dlon) + 2;
    if (ncols > g->nwrap)
        ncols = g->nwrap;
    long j0 = (long)floor((south - g->dlat - g->lat_s) / g->dlat);
    long j1 = (long)ceil((north + g->dlat - g->lat_s) / g->dlat);
    j0 = j0 < 0 ? 0 : j0;
    j1 = j1 > g->nj - 1 ? g->nj - 1 : j1;
    m->dlat = g->dlat;
    m->dlon = g->dlon;
    m->lat0 = g->lat_s + (double)j0 * g->dlat;
    m->lon0 = g->lon_w + (double)i0 * g->dlon;
    m->ni = m->nj = 0;
    m->v = NULL;
    if (j1 >= j0) {
        size_t n = (size_t)ncols * (size_t)(j1 - j0 + 1);
        if (n > *budget) {
            free(all);
            return swx_error_set(SWX_ETOOBIG,
                                 "%s: more than %u million values in the route's area; cut "
                                 "the file to the voyage (%s)",
                                 path, GFIELD_MAX_VALUES >> 20,
                                 swx_setting_name(SWX_SET_GRIB_BBOX));
        }
        if (!(m->v = malloc(n * sizeof *m->v))) {
            free(all);
            return swx_error_set(SWX_ENOMEM, "out of memory");
        }
        *budget -= n;
        m->ni = ncols;
        m->nj = j1 - j0 + 1;
        for (long j = 0; j < m->nj; j++) {
            long jr = j0 + j, r = g->jpos ? jr : g->nj - 1 - jr;
            for (long k = 0; k < ncols; k++) {
                long src = (i0 + k) % g->nwrap;
                float x = NAN;
                if (src < g->ni) {
                    double v =
                        all[(size_t)r * (size_t)g->ni + (size_t)(g->ineg ? g->ni - 1 - src : src)];
                    if (!(bitmap && v == missing))
                        x = (float)v;
                }
                m->v[(size_t)j * (size_t)ncols + (size_t)k] = x;
            }
        }
    }
    free(all);
    return 0;
}

static int series_add(gseries *s, const gmsg *m)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        gmsg *g = realloc(s->m, cap * sizeof *g);
        if (!g)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        s->m = g;
        s->cap = cap;
    }
    s->m[s->n++] = *m;
    return 0;
}

static int by_valid(const void *a, const void *b)
{
    const gmsg *x = a, *y = b;
    return x->valid < y->valid ? -1 : x->valid > y->valid;
}

/* A bzip2 file decompressed into a temporary file, read from its start. */
static int unbzip(FILE **out, FILE *in, const char *path)
{
    int bzerr = BZ_OK;
    char buf[65536];
    FILE *tmp = tmpfile();
    if (!tmp)
        return swx_error_set(SWX_EIO, "cannot make a temporary file: %s", strerror(errno));
    BZFILE *bz = BZ2_bzReadOpen(&bzerr, in, 0, 0, NULL, 0);
    while (bzerr == BZ_OK) {
        int n = BZ2_bzRead(&bzerr, bz, buf, sizeof buf);
        if ((bzerr == BZ_OK || bzerr == BZ_STREAM_END) && n > 0 &&
            fwrite(buf, 1, (size_t)n, tmp) != (size_t)n) {
            BZ2_bzReadClose(&bzerr, bz);
            fclose(tmp);
            return swx_error_set(SWX_EIO, "cannot write a temporary file: %s", strerror(errno));
        }
    }
    int ok = bzerr == BZ_STREAM_END;
    BZ2_bzReadClose(&bzerr, bz);
    if (!ok) {
        fclose(tmp);
        return swx_error_set(SWX_EPARSE, "%s: not a whole bzip2 stream", path);
    }
    rewind(tmp);
    *out = tmp;
    return 0;
}

/* What a file holds, by ecCodes' short names, for the error line. */
static void note_name(char *held, size_t n, codes_handle *h)
{
    char name[64];
    size_t len = sizeof name;
    if (codes_get_string(h, "shortName", name, &len) || !*name)
        return;
    char quoted[70];
    snprintf(quoted, sizeof quoted, "%s%s", *held ? ", " : "", name);
    if (strstr(held, name) || strlen(held) + strlen(quoted) + 4 >= n)
        return;
    strcat(held, quoted);
}

static int read_messages(swx_gfield *f, FILE *fp, const char *path, double south, double west,
                         double north, double east)
{
    size_t count = 0, budget = GFIELD_MAX_VALUES;
    char held[256] = "";
    int err = 0, rc = 0;
    codes_handle *h;
    while ((h = codes_handle_new_from_file(NULL, fp, PRODUCT_GRIB, &err)) != NULL) {
        count++;
        int kind = kind_of(h);
        note_name(held, sizeof held, h);
        if (kind >= 0) {
            srcgrid g;
            gmsg m = {0};
            long date = 0, tim = 0;
            if ((rc = read_grid(&g, h, path, count, kind)))
                break;
            if (codes_get_long(h, "validityDate", &date) ||
                codes_get_long(h, "validityTime", &tim)) {
                rc = swx_error_set(SWX_EPARSE, "%s: message %zu has no valid time", path, count);
                break;
            }
            int64_t day = swx_days_from_civil((int)(date / 10000), (unsigned)(date / 100 % 100),
                                              (unsigned)(date % 100));
            m.valid = day * 86400 + (tim / 100) * 3600 + (tim % 100) * 60;
            if ((rc = cut(&m, h, &g, south, west, north, east, path, count, &budget)) ||
                (rc = series_add(&f->s[kind], &m))) {
                free(m.v);
                break;
            }
            f->has |= 1u << kind;
        }
        codes_handle_delete(h);
        h = NULL;
    }
    if (h)
        codes_handle_delete(h);
    if (rc)
        return rc;
    if (err && count == 0)
        return swx_error_set(SWX_EPARSE, "%s: not a GRIB file (%s)", path,
                             codes_get_error_message(err));
    if (err)
        return swx_error_set(SWX_EPARSE, "%s: message %zu is not GRIB that ecCodes reads (%s)",
                             path, count + 1, codes_get_error_message(err));
    if (count == 0)
        return swx_error_set(SWX_EPARSE, "%s: not a GRIB file (no message)", path);
    if (!(f->has & (1u << SWX_GF_WIND_U)) || !(f->has & (1u << SWX_GF_WIND_V)))
        return swx_error_set(SWX_EINVAL, "%s holds no 10 m wind (u and v); it holds: %s", path,
                             *held ? held : "nothing known");
    return 0;
}

int swx__gfield_open(swx_gfield **out, const char *path, double south, double west, double north,
                     double east)
{
    unsigned char magic[3] = {0};
    FILE *fp = fopen(path, "rb"), *plain = NULL;
    int rc;
    *out = NULL;
    if (!fp)
        return swx_error_set(errno == ENOENT ? SWX_ENOTFOUND : SWX_EIO, "cannot read %s: %s", path,
                             strerror(errno));
    swx__grib_init();
    size_t got = fread(magic, 1, 3, fp);
    rewind(fp);
    if (got == 3 && memcmp(magic, "BZh", 3) == 0) {
        rc = unbzip(&plain, fp, path);
        fclose(fp);
        if (rc)
            return rc;
        fp = plain;
    }
    swx_gfield *f = calloc(1, sizeof *f);
    if (!f) {
        fclose(fp);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    rc = read_messages(f, fp, path, south, west, north, east);
    fclose(fp);
    if (rc) {
        swx__gfield_free(f);
        return rc;
    }
    for (int k = 0; k < SWX_GF_KINDS; k++)
        if (f->s[k].n > 1)
            qsort(f->s[k].m, f->s[k].n, sizeof *f->s[k].m, by_valid);
    *out = f;
    return 0;
}

void swx__gfield_free(swx_gfield *f)
{
    if (!f)
        return;
    for (int k = 0; k < SWX_GF_KINDS; k++) {
        for (size_t i = 0; i < f->s[k].n; i++)
            free(f->s[k].m[i].v);
        free(f->s[k].m);
    }
    free(f);
}

int64_t swx__gfield_first(const swx_gfield *f)
{
    const gseries *u = &f->s[SWX_GF_WIND_U], *v = &f->s[SWX_GF_WIND_V];
    int64_t a = u->m[0].valid, b = v->m[0].valid;
    return a > b ? a : b;
}

int64_t swx__gfield_last(const swx_gfield *f)
{
    const gseries *u = &f->s[SWX_GF_WIND_U], *v = &f->s[SWX_GF_WIND_V];
    int64_t a = u->m[u->n - 1].valid, b = v->m[v->n - 1].valid;
    return a < b ? a : b;
}

unsigned swx__gfield_has(const swx_gfield *f)
{
    return f->has;
}

/* Bilinear on one message's grid; NAN outside it or next to a missing node. */
static double at(const gmsg *m, double lat, double lon)
{
    if (m->ni == 0)
        return NAN;
    double y = (lat - m->lat0) / m->dlat, x = lon - m->lon0;
    x = (x - 360.0 * floor(x / 360.0)) / m->dlon;
    if (y < 0 || y > (double)(m->nj - 1) || x > (double)(m->ni - 1))
        return NAN;
    long i = (long)x, j = (long)y;
    if (i > m->ni - 2)
        i = m->ni > 1 ? m->ni - 2 : 0;
    if (j > m->nj - 2)
        j = m->nj > 1 ? m->nj - 2 : 0;
    double fx = m->ni > 1 ? x - (double)i : 0, fy = m->nj > 1 ? y - (double)j : 0;
    long i1 = m->ni > 1 ? i + 1 : i, j1 = m->nj > 1 ? j + 1 : j;
    const float *r0 = m->v + (size_t)j * (size_t)m->ni, *r1 = m->v + (size_t)j1 * (size_t)m->ni;
    double a = r0[i], b = r0[i1], c = r1[i], d = r1[i1];
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
}

/* A field at (lat, lon, t), linear in time; NAN outside its times. */
static double field_at(const gseries *s, double lat, double lon, int64_t t)
{
    if (s->n == 0 || t < s->m[0].valid || t > s->m[s->n - 1].valid)
        return NAN;
    if (s->n == 1)
        return at(&s->m[0], lat, lon);
    size_t lo = 0, hi = s->n - 1; /* m[lo].valid <= t <= m[hi].valid */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->m[mid].valid <= t)
            lo = mid;
        else
            hi = mid;
    }
    const gmsg *a = &s->m[lo], *b = &s->m[hi];
    if (t == a->valid)
        return at(a, lat, lon);
    if (t == b->valid)
        return at(b, lat, lon);
    double ft = (double)(t - a->valid) / (double)(b->valid - a->valid);
    return at(a, lat, lon) * (1 - ft) + at(b, lat, lon) * ft;
}

int swx__gfield_sample(const swx_gfield *f, double lat, double lon, int64_t t, swx_gfield_met *out)
{
    if (t < swx__gfield_first(f) || t > swx__gfield_last(f))
        return SWX_GFIELD_OUTSIDE;
    out->wind_u_kn = field_at(&f->s[SWX_GF_WIND_U], lat, lon, t) * KN_PER_MPS;
    out->wind_v_kn = field_at(&f->s[SWX_GF_WIND_V], lat, lon, t) * KN_PER_MPS;
    out->gust_kn = field_at(&f->s[SWX_GF_GUST], lat, lon, t) * KN_PER_MPS;
    out->wave_m = field_at(&f->s[SWX_GF_WAVE], lat, lon, t);
    out->cur_u_kn = field_at(&f->s[SWX_GF_CUR_U], lat, lon, t) * KN_PER_MPS;
    out->cur_v_kn = field_at(&f->s[SWX_GF_CUR_V], lat, lon, t) * KN_PER_MPS;
    return 0;
}
