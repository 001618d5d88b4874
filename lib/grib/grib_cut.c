/* grib_cut.c: one field cut to a voyage's grid and packed again, with
 * ecCodes (decoding and encoding GRIB is ecCodes' work, never ours). */
#include "grib_codes.h"
#include "grib_priv.h"

#include "area.h"
#include "buf.h"
#include "seawx/error.h"

#include <eccodes.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL 9.999e20
#define MISSING 9999.0 /* what the bitmap stands in for while values are set */
#define MAX_POINTS (16u << 20)
/* From this many points a field is also tried with complex packing. */
#define COMPLEX_FROM 4096
/* Points under which a cut spans a small share of its field's values. */
#define SMALL_CUT 1024

static int keeps(const ggrid *g, const swx_area *area, uint32_t i, uint32_t j)
{
    if (!area)
        return 1;
    double lon = g->lon0 + i * g->step, lat = g->lat0 - j * g->step;
    double s = lat - g->step, n = lat + g->step;
    if (s < -90)
        s = -90;
    if (n > 90)
        n = 90;
    return swx_area_meets_rect(area, lon - g->step, s, lon + g->step, n);
}

uint64_t swx__grib_kept(const ggrid *g, const swx_area *area)
{
    uint64_t k = 0;
    for (uint32_t j = 0; j < g->nj; j++)
        for (uint32_t i = 0; i < g->ni; i++)
            k += (uint64_t)keeps(g, area, i, j);
    return k;
}

/* The grid of a source message: regular latitude and longitude, by rows. */
typedef struct src_grid {
    long ni, nj, jpos;
    double lat1, lon1, di, dj;
} src_grid;

/* The source point under a node (lon, lat) of a cut: 0 with *si, *sj, or -1
 * when no source point is there. What the cut takes (resample) and what is
 * fetched of a field (swx__grib_needed) are found by it alike. */
static int source_point(long *si, long *sj, double lon, double lat, const src_grid *sg)
{
    int global = sg->ni * sg->di >= 360 - sg->di / 2;
    double fj = sg->jpos ? (lat - sg->lat1) / sg->dj : (sg->lat1 - lat) / sg->dj;
    double fi = fmod(lon - sg->lon1 + 720.0, 360.0) / sg->di;
    *sj = lround(fj);
    *si = lround(fi);
    if (global && *si >= sg->ni)
        *si -= sg->ni;
    return *sj >= 0 && *sj < sg->nj && *si >= 0 && *si < sg->ni && fabs(fi - *si) < 1e-6 &&
                   fabs(fj - *sj) < 1e-6
               ? 0
               : -1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

long swx__grib_needed(uint64_t **runs, const swx_grib_head *h, const ggrid *g, const swx_area *area)
{
    *runs = NULL;
    if (h->grid_template != 0 || (h->scan & 0xa0) || h->ni == 0 || h->nj == 0 || h->di <= 0 ||
        h->dj <= 0)
        return -1;
    /* the source index of every node kept, sorted, then cut into runs of
     * indices at most a grid step apart (a row's kept nodes; a run across
     * the seam of a global grid is two) */
    uint64_t *idx = malloc(((size_t)g->ni * g->nj + 1) * sizeof *idx);
    if (!idx)
        return -1;
    const src_grid sg = {h->ni, h->nj, (h->scan & 0x40) != 0, h->lat1, h->lon1, h->di, h->dj};
    size_t n = 0;
    for (uint32_t j = 0; j < g->nj; j++)
        for (uint32_t i = 0; i < g->ni; i++) {
            long si, sj;
            if (source_point(&si, &sj, g->lon0 + i * g->step, g->lat0 - j * g->step, &sg) == 0 &&
                keeps(g, area, i, j))
                idx[n++] = (uint64_t)sj * h->ni + (uint64_t)si;
        }
    qsort(idx, n, sizeof *idx, cmp_u64);
    uint64_t gap = (uint64_t)lround(g->step / h->di) + 1;
    uint64_t *r = malloc((2 * n + 2) * sizeof *r);
    long nr = 0;
    for (size_t k = 0; r && k < n; k++) {
        if (nr && idx[k] <= r[2 * nr - 1] - 1 + gap &&
            idx[k] / h->ni == (r[2 * nr - 1] - 1) / h->ni) {
            r[2 * nr - 1] = idx[k] + 1;
            continue;
        }
        r[2 * nr] = idx[k];
        r[2 * nr + 1] = idx[k] + 1;
        nr++;
    }
    free(idx);
    if (!r)
        return -1;
    *runs = r;
    return nr;
}

int64_t swx__grib_estimate(const swx_grib_head *h, const ggrid *g, uint64_t kept, int bitmap,
                           int dscale, int edition, int64_t *low)
{
    /* GRIB2: sections 0, 1, 3, 4 (template 4.8 is longer), 5 (template 5.0,
     * or 5.2 where write_grib2() may pack complex), 6, 7 and the end;
     * GRIB1 (simply packed): sections 0 to 2, the bitmap's and the data's
     * heads and the end; then the bitmap and the values */
    int64_t n = (int64_t)g->ni * g->nj;
    int64_t head = edition == 1 ? 8 + 28 + 32 + (bitmap ? 6 : 0) + 11 + 4
                                : 16 + 21 + 72 + (h->pdt == 8 ? 58 : 34) +
                                      (n >= COMPLEX_FROM ? 49 : 21) + 6 + 5 + 4;
    /* Bits a value, simply packed to 10^-dscale: those of the source
     * field's whole span (pack() sets the precision, ecCodes the bits for
     * the span of the values cut, at most the source's): the most. */
    double bits = h->bits > 0 ? h->bits : 16;
    if (h->bits > 0) {
        double span = (pow(2.0, h->bits) - 1) * pow(2.0, h->escale) / pow(10.0, h->dscale);
        double steps = span * pow(10.0, dscale);
        bits = steps < 1 ? 0 : ceil(log2(steps + 1));
        if (bits > 32)
            bits = 32;
    }
    int64_t fixed = head + (bitmap ? (n + 7) / 8 : 0);
    int64_t most = fixed + (int64_t)(((double)kept * bits + 7) / 8);
    /* The least: a small cut (a voyage's window of a few dozen points,
     * under SMALL_CUT) whose values span a 256th of the field's, eight bits
     * less a value (measured: 2 to 5 bits a value where the field's span
     * takes 10 to 13); a grid that write_grib2() may pack complex, smaller
     * by about what the source's own packing saves on its bits a value (its
     * section 7 over its values). The quote reads heads, not values: the
     * file lies between (measured on the stand-in: docs/grib.md). */
    *low = most;
    if (kept < SMALL_CUT)
        *low = fixed + (int64_t)(((double)kept * (bits > 8 ? bits - 8 : 0) + 7) / 8);
    if (edition != 1 && n >= COMPLEX_FROM && h->bits > 0 && h->data_at && h->npacked &&
        h->length > h->data_at + 4) {
        double eff = 8.0 * (double)(h->length - 4 - h->data_at) / (double)h->npacked;
        if (eff < (double)h->bits)
            *low = fixed + (int64_t)((double)kept * bits * eff / h->bits / 8.0 + 0.5);
    }
    return most;
}

/* ecCodes reports on stderr through its context's log procedure: here its
 * messages are kept (per thread, the first since the field began: the
 * cause, before what followed from it) and put in the error line of
 * the field that failed, so a failure is one line. The default context is
 * shared with the rest of the process: a program that reads GRIB with
 * ecCodes beside libseawx gets its messages the same way, in the error
 * lines of whatever failed. */
static _Thread_local char ec_last[256];
static pthread_once_t ec_once = PTHREAD_ONCE_INIT;

static void ec_log(const codes_context *c, int level, const char *msg)
{
    (void)c;
    (void)level;
    if (ec_last[0])
        return;
    snprintf(ec_last, sizeof ec_last, "%s", msg ? msg : "");
    size_t n = strlen(ec_last);
    while (n && (ec_last[n - 1] == '\n' || ec_last[n - 1] == ' '))
        ec_last[--n] = '\0';
}

static void ec_quiet(void)
{
    codes_context_set_logging_proc(codes_context_get_default(), ec_log);
}

void swx__grib_init(void)
{
    pthread_once(&ec_once, ec_quiet);
    ec_last[0] = '\0';
}

/* An ecCodes failure as one line. What ecCodes could not read in the
 * storage's bytes is the service's (SWX_EPARSE, exit 7); what it could not
 * write of seawx's own cut is seawx's (SWX_EINTERNAL), never blamed on the
 * service. */
static int ec_fail(int code, const char *what, const char *doing, int err)
{
    const char *own = code == SWX_EINTERNAL ? "; a fault of seawx's own, please report it" : "";
    if (ec_last[0])
        return swx_error_set(code, "%s: ecCodes cannot %s (%s: %s)%s", what, doing,
                             codes_get_error_message(err), ec_last, own);
    return swx_error_set(code, "%s: ecCodes cannot %s (%s)%s", what, doing,
                         codes_get_error_message(err), own);
}

static int put(uint8_t **out, size_t *len, size_t *cap, const void *data, size_t n)
{
    uint8_t *p = swx_array_reserve(*out, cap, *len + n, 1, 64 * 1024);
    if (!p)
        return SWX_ENOMEM;
    *out = p;
    memcpy(*out + *len, data, n);
    *len += n;
    return 0;
}

/* The grid g on handle h (the source message, decoded already). */
static int set_grid(codes_handle *c, const ggrid *g, const char *what)
{
    int err;
    double west = fmod(g->lon0 + 720.0, 360.0);
    double east = fmod(g->lon0 + (g->ni - 1) * g->step + 720.0, 360.0);
    if ((err = codes_set_long(c, "Ni", g->ni)) || (err = codes_set_long(c, "Nj", g->nj)) ||
        (err = codes_set_long(c, "jScansPositively", 0)) ||
        (err = codes_set_double(c, "latitudeOfFirstGridPointInDegrees", g->lat0)) ||
        (err = codes_set_double(c, "longitudeOfFirstGridPointInDegrees", west)) ||
        (err = codes_set_double(c, "latitudeOfLastGridPointInDegrees",
                                g->lat0 - (g->nj - 1) * g->step)) ||
        (err = codes_set_double(c, "longitudeOfLastGridPointInDegrees", east)) ||
        (err = codes_set_double(c, "iDirectionIncrementInDegrees", g->step)) ||
        (err = codes_set_double(c, "jDirectionIncrementInDegrees", g->step)))
        return ec_fail(SWX_EINTERNAL, what, "set the grid", err);
    return 0;
}

/* 1 when the values that are not MISSING are all one value. Such a field
 * takes no bits a value, and its value is the reference value R alone; but
 * decoders differ on what R means then: ecCodes reads R, GDAL (and QGIS
 * through it) R * 10^-D, as GRIB's formula says. So a field of one value is
 * written with D = 0, where both read R. */
static int uniform(const double *v, size_t m)
{
    size_t i = 0;
    while (i < m && v[i] == MISSING)
        i++;
    for (size_t k = i + 1; k < m; k++)
        if (v[k] != MISSING && v[k] != v[i])
            return 0;
    return 1;
}

/* The m values v (missing ones MISSING) packed on c as packing, to values of
 * 10^-dscale (of 1 for a field of one value: uniform). */
static int pack(codes_handle *c, const double *v, size_t m, size_t missing, const char *packing,
                int dscale, const char *what)
{
    int err;
    size_t pl = strlen(packing);
    if ((err = codes_set_string(c, "packingType", packing, &pl)))
        return ec_fail(SWX_EINTERNAL, what, "set the packing", err);
    /* The precision before the values: ecCodes packs them as they are set. */
    if ((err = codes_set_long(c, "bitmapPresent", missing ? 1 : 0)) ||
        (err = codes_set_double(c, "missingValue", MISSING)) ||
        (err = codes_set_long(c, "decimalScaleFactor", uniform(v, m) ? 0 : dscale)) ||
        (err = codes_set_double_array(c, "values", v, m)))
        return ec_fail(SWX_EINTERNAL, what, "pack the values", err);
    return 0;
}

/* The field as GRIB1, from ecCodes' GRIB1 sample: the source's centre,
 * reference time and forecast step (an accumulation as its period), p's
 * codes of WMO table 2, the grid with longitudes from -180 on (GRIB1 keeps
 * them signed), simple packing (GRIB1's complex packing is read by few
 * viewers), a bitmap where values are missing. */
static int grib1(uint8_t **out, size_t *out_len, size_t *out_cap, codes_handle *src, const ggrid *g,
                 const double *v, size_t m, size_t missing, const gparam *p, const char *what)
{
    int err, rc = 0;
    long centre = 0, date = 0, time = 0, start = 0, end = 0;
    char type[32] = "instant";
    size_t tl = sizeof type;
    if ((err = codes_get_long(src, "centre", &centre)) ||
        (err = codes_get_long(src, "dataDate", &date)) ||
        (err = codes_get_long(src, "dataTime", &time)) ||
        (err = codes_get_long(src, "startStep", &start)) ||
        (err = codes_get_long(src, "endStep", &end)) ||
        (err = codes_get_string(src, "stepType", type, &tl)))
        return ec_fail(SWX_EPARSE, what, "read the field's times", err);
    /* the field keeps its centre's identity: the GRIB1 code its centre
     * gives the source's encoding (ECMWF's msl stays table 128's 151),
     * else WMO table 2's */
    const swx_gcode *code = swx__gcode_of(src);
    long table = 3, param = p->g1_param, ltype = p->g1_level_type, level = p->g1_level;
    if (code && code->q == p->q && code->g1_param && code->g1_table && code->g1_centre == centre) {
        table = code->g1_table;
        param = code->g1_param;
        ltype = code->g1_level_type;
        level = code->g1_level;
    }
    codes_handle *c = codes_grib_handle_new_from_samples(NULL, "regular_ll_sfc_grib1");
    if (!c)
        return ec_fail(SWX_EINTERNAL, what, "open its GRIB1 sample", CODES_FILE_NOT_FOUND);
    double west = fmod(g->lon0 + 540.0, 360.0) - 180.0;
    size_t sl = strlen("grid_simple");
    int accum = strcmp(type, "accum") == 0;
    if (end > 255 || start > 255) {
        codes_handle_delete(c);
        return swx_error_set(SWX_EINVAL, "%s: GRIB1 holds forecast hours up to 255 (this is %ld)",
                             what, end);
    }
    /* no local section: the heads are what a viewer reads, and no more */
    if ((err = codes_set_long(c, "centre", centre)) ||
        (err = codes_set_long(c, "deleteLocalDefinition", 1)) ||
        (err = codes_set_long(c, "table2Version", table)) ||
        (err = codes_set_long(c, "indicatorOfParameter", param)) ||
        (err = codes_set_long(c, "indicatorOfTypeOfLevel", ltype)) ||
        (err = codes_set_long(c, "level", level)) || (err = codes_set_long(c, "dataDate", date)) ||
        (err = codes_set_long(c, "dataTime", time)) ||
        (err = codes_set_long(c, "unitOfTimeRange", 1)) ||
        (err = codes_set_long(c, "timeRangeIndicator", accum ? 4 : 0)) ||
        (err = codes_set_long(c, "P1", accum ? start : end)) ||
        (err = codes_set_long(c, "P2", accum ? end : 0)) ||
        (err = codes_set_long(c, "Ni", g->ni)) || (err = codes_set_long(c, "Nj", g->nj)) ||
        (err = codes_set_long(c, "jScansPositively", 0)) ||
        (err = codes_set_long(c, "iScansNegatively", 0)) ||
        (err = codes_set_double(c, "latitudeOfFirstGridPointInDegrees", g->lat0)) ||
        (err = codes_set_double(c, "longitudeOfFirstGridPointInDegrees", west)) ||
        (err = codes_set_double(c, "latitudeOfLastGridPointInDegrees",
                                g->lat0 - (g->nj - 1) * g->step)) ||
        (err = codes_set_double(c, "longitudeOfLastGridPointInDegrees",
                                west + (g->ni - 1) * g->step)) ||
        (err = codes_set_double(c, "iDirectionIncrementInDegrees", g->step)) ||
        (err = codes_set_double(c, "jDirectionIncrementInDegrees", g->step)) ||
        (err = codes_set_string(c, "packingType", "grid_simple", &sl)) ||
        (err = codes_set_long(c, "bitmapPresent", missing ? 1 : 0)) ||
        (err = codes_set_double(c, "missingValue", MISSING)) ||
        (err = codes_set_long(c, "decimalScaleFactor", uniform(v, m) ? 0 : p->dscale)) ||
        (err = codes_set_double_array(c, "values", v, m)))
        rc = ec_fail(SWX_EINTERNAL, what, "write it as GRIB1", err);
    const void *bytes = NULL;
    size_t blen = 0;
    if (!rc && (err = codes_get_message(c, &bytes, &blen)))
        rc = ec_fail(SWX_EINTERNAL, what, "write a message", err);
    if (!rc)
        rc = put(out, out_len, out_cap, bytes, blen);
    codes_handle_delete(c);
    return rc;
}

static int read_grid(src_grid *sg, codes_handle *h, const char *what)
{
    char grid_type[64] = "";
    size_t gl = sizeof grid_type;
    long ni = 0, nj = 0, jpos = 0, ineg = 0, cons = 1;
    double lat1 = 0, lon1 = 0, di = 0, dj = 0;
    int err;
    if ((err = codes_get_string(h, "gridType", grid_type, &gl)) ||
        (err = codes_get_long(h, "Ni", &ni)) || (err = codes_get_long(h, "Nj", &nj)) ||
        (err = codes_get_long(h, "jScansPositively", &jpos)) ||
        (err = codes_get_long(h, "iScansNegatively", &ineg)) ||
        (err = codes_get_double(h, "latitudeOfFirstGridPointInDegrees", &lat1)) ||
        (err = codes_get_double(h, "longitudeOfFirstGridPointInDegrees", &lon1)) ||
        (err = codes_get_double(h, "iDirectionIncrementInDegrees", &di)) ||
        (err = codes_get_double(h, "jDirectionIncrementInDegrees", &dj)))
        return ec_fail(SWX_EPARSE, what, "read the grid", err);
    (void)codes_get_long(h, "jPointsAreConsecutive", &cons);
    if (strcmp(grid_type, "regular_ll") != 0 || ineg || cons || ni <= 0 || nj <= 0 || di <= 0 ||
        dj <= 0 || (uint64_t)ni * (uint64_t)nj > MAX_POINTS * 16u)
        return swx_error_set(SWX_EPARSE,
                             "%s: a grid this build does not cut (%.40s, %ld x %ld, scanning "
                             "%s)",
                             what, grid_type, ni, nj,
                             ineg || cons ? "other than by rows" : "by rows");
    *sg = (src_grid){ni, nj, jpos, lat1, lon1, di, dj};
    return 0;
}

/* 1 when the message (len bytes) decodes to the n values v exactly, missing
 * ones SENTINEL. */
static int same_values(const uint8_t *msg, size_t len, const double *v, size_t n)
{
    codes_handle *c = codes_handle_new_from_message(NULL, msg, len);
    double *got = c ? malloc(n * sizeof *got) : NULL;
    size_t m = n;
    int same = got && codes_set_double(c, "missingValue", SENTINEL) == 0 &&
               codes_get_double_array(c, "values", got, &m) == 0 && m == n;
    for (size_t i = 0; same && i < n; i++)
        same = got[i] == v[i];
    free(got);
    if (c)
        codes_handle_delete(c);
    return same;
}

/* The whole field, simply packed at the source's precision: its values
 * decode as the source's did (the same multiples of 10^-D), in a fraction
 * of the time. */
static int pack_simple(uint8_t **simple, size_t *simple_len, codes_handle *h, const double *src,
                       size_t n, const char *what)
{
    long d = 0;
    size_t sl = strlen("grid_simple"), nmiss = 0;
    int err;
    for (size_t i = 0; i < n; i++)
        nmiss += src[i] >= SENTINEL / 2;
    const void *bytes = NULL;
    size_t blen = 0;
    *simple = NULL;
    if ((err = codes_get_long(h, "decimalScaleFactor", &d)) ||
        (err = codes_set_string(h, "packingType", "grid_simple", &sl)) ||
        (err = codes_set_long(h, "bitmapPresent", nmiss ? 1 : 0)) ||
        (err = codes_set_double(h, "missingValue", SENTINEL)) ||
        (err = codes_set_long(h, "decimalScaleFactor", d)) ||
        (err = codes_set_double_array(h, "values", src, n)) ||
        (err = codes_get_message(h, &bytes, &blen)))
        return ec_fail(SWX_EINTERNAL, what, "pack it simply", err);
    if (!(*simple = malloc(blen)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memcpy(*simple, bytes, blen);
    *simple_len = blen;
    /* Kept only when it decodes to the very values fetched: packed with
     * fewer bits than the source's range needs at its scale, ecCodes would
     * coarsen them, and a second build from the cache would differ from the
     * first. Otherwise the cache keeps the message as fetched alone. */
    if (!same_values(*simple, blen, src, n)) {
        free(*simple);
        *simple = NULL;
        *simple_len = 0;
    }
    return 0;
}

/* The values of g (g->ni x g->nj, rows from the north) taken from the
 * source's points where they fall on one and the area keeps them, MISSING
 * elsewhere; returns how many are missing. */
static size_t resample(double *dst, const ggrid *g, const swx_area *area, const src_grid *sg,
                       const double *src)
{
    size_t missing = 0;
    for (uint32_t j = 0; j < g->nj; j++)
        for (uint32_t i = 0; i < g->ni; i++) {
            long si, sj;
            double v = SENTINEL;
            if (source_point(&si, &sj, g->lon0 + i * g->step, g->lat0 - j * g->step, sg) == 0 &&
                keeps(g, area, i, j))
                v = src[(size_t)sj * (size_t)sg->ni + (size_t)si];
            if (v >= SENTINEL / 2) {
                v = MISSING;
                missing++;
            }
            dst[(size_t)j * g->ni + i] = v;
        }
    return missing;
}

/* The field is written on the handle its source was read into, so
 * that what says what the field is (centre, parameter, level, reference
 * and forecast time, statistics) stays as the service wrote it; only the
 * grid, the values, the bitmap and the precision change. Simple packing
 * (template 5.0) for a grid of fewer than COMPLEX_FROM points (a window's
 * few dozen, a Saildocs box's hundreds: measured smaller, as 5.2 spends
 * about 40 bytes on its groups); above, packed both ways and the smaller
 * kept. Complex packing is template 5.2, not 5.3: ecCodes 2.28 writes
 * 5.3 with a spatial differencing order of 0, which code table 5.6
 * leaves reserved and OpenCPN's GRIB plugin misreads (every barb the
 * same, it.test_grib_viewers). Every viewer of docs/grib.md reads both. */
static int write_grib2(uint8_t **out, size_t *out_len, size_t *out_cap, codes_handle *h,
                       const ggrid *g, const double *dst, size_t m, size_t missing, const gparam *p,
                       const char *what)
{
    static const char *const packings[] = {"grid_simple", "grid_complex"};
    uint8_t *best = NULL;
    size_t best_len = 0;
    int tries = m < COMPLEX_FROM ? 1 : 2, err, rc;
    rc = set_grid(h, g, what);
    for (int k = 0; k < tries && !rc; k++) {
        const void *bytes = NULL;
        size_t blen = 0;
        if ((rc = pack(h, dst, m, missing, packings[k], p->dscale, what))) {
            if (k > 0 && best) {
                /* complex packing is a saving only: a field ecCodes cannot
                 * pack so keeps its simple packing */
                swx_error_clear();
                rc = 0;
            }
            break;
        }
        if ((err = codes_get_message(h, &bytes, &blen))) {
            rc = ec_fail(SWX_EINTERNAL, what, "write a message", err);
            break;
        }
        if (!best || blen < best_len) {
            uint8_t *b = realloc(best, blen);
            if (!b) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory");
                break;
            }
            best = b;
            memcpy(best, bytes, blen);
            best_len = blen;
        }
        /* a field of one value throughout takes no bits a value packed
         * simply: nothing to save, and ecCodes refuses to repack it */
        long bits = -1;
        if (k == 0 && !codes_get_long(h, "bitsPerValue", &bits) && bits == 0)
            break;
    }
    if (!rc)
        rc = put(out, out_len, out_cap, best, best_len);
    free(best);
    return rc;
}

int swx__grib_cut(uint8_t **out, size_t *out_len, size_t *out_cap, const uint8_t *msg, size_t len,
                  const ggrid *g, const swx_area *area, const gparam *p, int edition,
                  uint8_t **simple, size_t *simple_len, const char *what)
{
    int err = 0, rc = 0;
    double *src = NULL, *dst = NULL;
    swx__grib_init();
    codes_handle *h = codes_handle_new_from_message_copy(NULL, msg, len);
    if (!h)
        return ec_fail(SWX_EPARSE, what, "read a message", CODES_INVALID_MESSAGE);
    src_grid sg = {0};
    if ((rc = read_grid(&sg, h, what)))
        goto done;
    size_t n = (size_t)sg.ni * (size_t)sg.nj, got = n;
    if ((err = codes_set_double(h, "missingValue", SENTINEL))) {
        rc = ec_fail(SWX_EPARSE, what, "set the missing value", err);
        goto done;
    }
    if (!(src = malloc(n * sizeof *src))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    if ((err = codes_get_double_array(h, "values", src, &got)) || got != n) {
        rc = ec_fail(SWX_EPARSE, what, "decode the values", err ? err : CODES_WRONG_ARRAY_SIZE);
        goto done;
    }
    if (simple && (rc = pack_simple(simple, simple_len, h, src, n, what)))
        goto done;
    size_t m = (size_t)g->ni * g->nj;
    if (m == 0 || m > MAX_POINTS) {
        rc = swx_error_set(SWX_ETOOBIG, "a grid of %u x %u points (at most %u)", g->ni, g->nj,
                           MAX_POINTS);
        goto done;
    }
    if (!(dst = malloc(m * sizeof *dst))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    size_t missing = resample(dst, g, area, &sg, src);
    rc = edition == 1 ? grib1(out, out_len, out_cap, h, g, dst, m, missing, p, what)
                      : write_grib2(out, out_len, out_cap, h, g, dst, m, missing, p, what);
done:
    codes_handle_delete(h);
    free(src);
    free(dst);
    return rc;
}
