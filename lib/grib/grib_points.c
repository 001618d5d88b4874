/* grib_points.c: a GRIB file's fields at given points (see grib_points.h),
 * through ecCodes: each message decoded whole, the nearest grid node to each
 * point found by ecCodes (codes_grib_nearest_find_multiple). */
#define _GNU_SOURCE
#include "grib_codes.h"
#include "grib_points.h"
#include "grib_priv.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/readfile.h"

#include <bzlib.h>
#include <eccodes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The parameter of a message, in any centre's encoding (grib_codes.c), of
 * the variables a voyage GRIB's points read. */
static const gparam *param_of(codes_handle *h)
{
    const swx_gcode *c = swx__gcode_of(h);
    if (!c || c->q == SWX_GQ_CUR_U || c->q == SWX_GQ_CUR_V)
        return NULL;
    return swx__grib_param_of(c->q);
}

/* The value of the grid node nearest to each point: on a regular lat/lon
 * grid by rounding in each axis (NaN for a point outside the grid: a voyage
 * GRIB cut to a window covers part of the route only), on any other grid
 * through ecCodes. */
static int nearest_values(double *val, codes_handle *h, const double *qlat, const double *qlon,
                          double *olat, double *olon, double *dist, int *idx, size_t n,
                          const gparam *p, const char *path, size_t count)
{
    char type[64];
    size_t tl = sizeof type;
    int err;
    if (codes_get_string(h, "gridType", type, &tl) == 0 && strcmp(type, "regular_ll") == 0) {
        long ni, nj, ineg = 0, jpos = 0, jcons = 0;
        double lat1, lon1, di, dj;
        size_t nv = 0;
        if ((err = codes_get_long(h, "Ni", &ni)) || (err = codes_get_long(h, "Nj", &nj)) ||
            (err = codes_get_double(h, "latitudeOfFirstGridPointInDegrees", &lat1)) ||
            (err = codes_get_double(h, "longitudeOfFirstGridPointInDegrees", &lon1)) ||
            (err = codes_get_double(h, "iDirectionIncrementInDegrees", &di)) ||
            (err = codes_get_double(h, "jDirectionIncrementInDegrees", &dj)) ||
            (err = codes_get_size(h, "values", &nv)))
            return swx_error_set(SWX_EPARSE,
                                 "%s: message %zu (%s): ecCodes cannot read its grid (%s)", path,
                                 count, p->label, codes_get_error_message(err));
        codes_get_long(h, "iScansNegatively", &ineg);
        codes_get_long(h, "jScansPositively", &jpos);
        codes_get_long(h, "jPointsAreConsecutive", &jcons);
        if (ni <= 0 || nj <= 0 || !(di > 0) || !(dj > 0) || (size_t)(ni * nj) != nv || jcons)
            return swx_error_set(SWX_EPARSE,
                                 "%s: message %zu (%s): a grid of %ld x %ld points "
                                 "for %zu values",
                                 path, count, p->label, ni, nj, nv);
        double *all = malloc(nv * sizeof *all);
        if (!all)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        if ((err = codes_get_double_array(h, "values", all, &nv))) {
            free(all);
            return swx_error_set(SWX_EPARSE, "%s: message %zu (%s): ecCodes cannot decode it (%s)",
                                 path, count, p->label, codes_get_error_message(err));
        }
        int global = (double)ni * di >= 360.0 - 1e-6;
        for (size_t k = 0; k < n; k++) {
            double fj = (qlat[k] - lat1) / (jpos ? dj : -dj);
            double dl = fmod((ineg ? lon1 - qlon[k] : qlon[k] - lon1) + 720.0, 360.0);
            long j = lround(fj), i = lround(dl / di);
            if (global)
                i %= ni;
            else if (i >= ni) /* just west of the first column, or outside */
                i = lround((dl - 360.0) / di) == 0 ? 0 : ni;
            val[k] = j < 0 || j >= nj || i < 0 || i >= ni ? NAN : all[j * ni + i];
        }
        free(all);
        return 0;
    }
    err = codes_grib_nearest_find_multiple(h, 0, qlat, qlon, (long)n, olat, olon, val, dist, idx);
    if (err)
        return swx_error_set(SWX_EPARSE,
                             "%s: message %zu (%s): ecCodes cannot find the nearest "
                             "grid nodes (%s)",
                             path, count, p->label, codes_get_error_message(err));
    return 0;
}

static int bunzip(char **out, size_t *len, const char *in, size_t n, const char *path)
{
    bz_stream z;
    size_t cap = n * 4 + 4096, used = 0;
    char *buf = malloc(cap);
    int rc = 0, e;
    *out = NULL;
    if (!buf)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    memset(&z, 0, sizeof z);
    if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK) {
        free(buf);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    z.next_in = (char *)in;
    z.avail_in = (unsigned)n;
    for (;;) {
        if (used == cap) {
            if (cap >= SWX_GRIB_POINTS_MAX_FILE) {
                rc = swx_error_set(SWX_ETOOBIG, "%s: more than %u MiB once uncompressed", path,
                                   SWX_GRIB_POINTS_MAX_FILE >> 20);
                break;
            }
            char *g = realloc(buf, cap * 2);
            if (!g) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory");
                break;
            }
            buf = g;
            cap *= 2;
        }
        z.next_out = buf + used;
        z.avail_out = (unsigned)(cap - used);
        e = BZ2_bzDecompress(&z);
        used = cap - z.avail_out;
        if (e == BZ_STREAM_END)
            break;
        if (e != BZ_OK || (z.avail_in == 0 && z.avail_out != 0)) {
            rc = swx_error_set(SWX_EPARSE, "%s: not a whole bzip2 stream", path);
            break;
        }
    }
    BZ2_bzDecompressEnd(&z);
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    *len = used;
    return 0;
}

int swx__grib_points_read(const char *path, const double *lon, const double *lat, size_t n,
                          swx_grib_points_fn fn, void *ud)
{
    char *file = NULL, *plain = NULL;
    size_t len = 0, off = 0, count = 0;
    double *qlat = NULL, *qlon = NULL, *olat = NULL, *olon = NULL, *val = NULL, *dist = NULL;
    int *idx = NULL;
    codes_handle *h = NULL;
    int rc;
    swx__grib_init();
    if ((rc = swx_read_file(&file, &len, path, SWX_GRIB_POINTS_MAX_FILE)))
        return rc;
    if (len >= 3 && memcmp(file, "BZh", 3) == 0) {
        if ((rc = bunzip(&plain, &len, file, len, path)))
            goto done;
        free(file);
        file = plain;
        plain = NULL;
    }
    if (!(qlat = malloc(n * sizeof *qlat)) || !(qlon = malloc(n * sizeof *qlon)) ||
        !(olat = malloc(n * sizeof *olat)) || !(olon = malloc(n * sizeof *olon)) ||
        !(val = malloc(n * sizeof *val)) || !(dist = malloc(n * sizeof *dist)) ||
        !(idx = malloc(n * sizeof *idx))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        qlat[i] = lat[i];
        qlon[i] = lon[i] < 0 ? lon[i] + 360 : lon[i];
    }
    while (off + 16 <= len) {
        const char *g = memmem(file + off, len - off, "GRIB", 4);
        if (!g)
            break;
        off = (size_t)(g - file);
        int err = 0;
        h = codes_handle_new_from_message(NULL, file + off, len - off);
        if (!h) {
            rc = swx_error_set(SWX_EPARSE,
                               "%s: message %zu at byte %zu: not a GRIB message "
                               "ecCodes reads",
                               path, count + 1, off);
            goto done;
        }
        long total = 0, date = 0, tim = 0, bitmap = 0;
        double missing = 9999;
        if ((err = codes_get_long(h, "totalLength", &total)) || total <= 0 ||
            (size_t)total > len - off) {
            rc = swx_error_set(SWX_EPARSE, "%s: message %zu is cut short", path, count + 1);
            goto done;
        }
        count++;
        const gparam *p = param_of(h);
        if (p) {
            if ((err = codes_get_long(h, "validityDate", &date)) ||
                (err = codes_get_long(h, "validityTime", &tim))) {
                rc = swx_error_set(SWX_EPARSE, "%s: message %zu has no valid time (%s)", path,
                                   count, codes_get_error_message(err));
                goto done;
            }
            codes_get_long(h, "bitmapPresent", &bitmap);
            codes_get_double(h, "missingValue", &missing);
            if ((rc = nearest_values(val, h, qlat, qlon, olat, olon, dist, idx, n, p, path, count)))
                goto done;
            for (size_t i = 0; i < n; i++)
                if (bitmap && val[i] == missing)
                    val[i] = NAN;
            int64_t day = swx_days_from_civil((int)(date / 10000), (unsigned)(date / 100 % 100),
                                              (unsigned)(date % 100));
            int64_t valid = day * 86400 + (tim / 100) * 3600 + (tim % 100) * 60;
            if ((rc = fn(ud, p, valid, val, n)))
                goto done;
        }
        codes_handle_delete(h);
        h = NULL;
        off += (size_t)total;
    }
    if (count == 0)
        rc = swx_error_set(SWX_EPARSE, "%s: not a GRIB file (no message)", path);
done:
    if (h)
        codes_handle_delete(h);
    free(file);
    free(plain);
    free(qlat);
    free(qlon);
    free(olat);
    free(olon);
    free(val);
    free(dist);
    free(idx);
    return rc;
}
