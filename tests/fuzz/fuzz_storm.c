/* fuzz_storm.c: the streaming storm JSON reader (its element scanner and the
 * pull parser of lib/util/jsonscan.c) fed in two pieces (the first one freed
 * before the second is fed), then every feature of
 * each storm written as GeoJSON; polygon rings must come out closed and
 * counter-clockwise, coordinates in range. The same bytes also go to
 * swx_storm_parse_json as one object, and the reader must agree with itself
 * when they come at once. */
#include "fuzz.h"

#include "seawx/storm.h"
#include "seawx/storm_geojson.h"
#include "storm_feature.h"
#include "storm_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_feature(void *ud, const swx_storm_feature *f)
{
    const double *xy = f->xy;
    (void)ud;
    /* Danger kinds: polygon i has poly_rings[i] rings, the outer one first;
     * holes run clockwise (RFC 7946). */
    size_t poly = 0, ring_in_poly = 0;
    for (size_t p = 0; p < f->nparts; p++) {
        int hole = f->poly_rings && ring_in_poly > 0;
        if (f->poly_rings) {
            if (poly >= f->npolys)
                abort();
            if (++ring_in_poly == f->poly_rings[poly]) {
                poly++;
                ring_in_poly = 0;
            }
        }
        size_t n = f->part_len[p];
        if (n == 0)
            abort();
        double a = 0;
        for (size_t i = 0; i < n; i++) {
            if (!(xy[2 * i] >= -180 && xy[2 * i] <= 180 && xy[2 * i + 1] >= -90 &&
                  xy[2 * i + 1] <= 90))
                abort();
            if (i + 1 < n)
                a += xy[2 * i] * xy[2 * i + 3] - xy[2 * i + 2] * xy[2 * i + 1];
        }
        if ((f->geom == SWX_GEOM_POLYGON || f->geom == SWX_GEOM_MULTIPOLYGON) &&
            (n < 4 || !(hole ? a < 0 : a > 0) || xy[0] != xy[2 * n - 2] || xy[1] != xy[2 * n - 1]))
            abort();
        xy += 2 * n;
    }
    return 0;
}

struct ctx {
    swx_storm_geo *geo;
    swx_storm_geojson *w;
};

static int on_storm(void *ud, const swx_storm *s)
{
    struct ctx *c = ud;
    swx_storm_features(c->geo, s, SWX_SK_ALL, check_feature, NULL);
    return swx_storm_geojson_add(c->w, s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    struct ctx c = {0};
    swx_storm_reader *r = NULL;
    int rc_pieces = -1, rc;
    size_t n_pieces = 0;
    if (!f)
        return 0;
    if (swx_storm_geo_new(&c.geo) == 0 && swx_storm_geojson_new(&c.w, f, SWX_SK_ALL) == 0 &&
        swx_storm_reader_new(&r, on_storm, &c) == 0) {
        /* The first piece in a copy freed before the second comes, as a
         * network chunk is gone after its call: nothing may point into it. */
        size_t half = size / 2;
        char *first = malloc(half ? half : 1);
        if (first) {
            memcpy(first, data, half);
            rc_pieces = swx_storm_reader_feed(r, first, half);
            free(first);
            if (rc_pieces == 0 &&
                (rc_pieces = swx_storm_reader_feed(r, (const char *)data + half, size - half)) == 0)
                rc_pieces = swx_storm_reader_finish(r);
        }
        n_pieces = swx_storm_reader_count(r);
    }
    swx_storm_reader_free(r);
    r = NULL;
    /* At once, an element that lies whole in the bytes is parsed in place
     * rather than after the scan: the same storms, the same outcome. */
    if (c.w && swx_storm_reader_new(&r, NULL, NULL) == 0) {
        if ((rc = swx_storm_reader_feed(r, (const char *)data, size)) == 0)
            rc = swx_storm_reader_finish(r);
        if (rc != rc_pieces || swx_storm_reader_count(r) != n_pieces)
            abort();
    }
    swx_storm_reader_free(r);
    swx_storm *one = NULL;
    if (swx_storm_parse_json(&one, (const char *)data, size) == 0)
        swx_storm_features(c.geo, one, SWX_SK_ALL, check_feature, NULL);
    swx_storm_free(one);
    swx_storm_geojson_free(c.w);
    swx_storm_geo_free(c.geo);
    fclose(f);
    free(text);
    return 0;
}
