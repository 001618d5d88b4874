/* test_warp.c: EPSG:4326 rows into Web Mercator rows (lib/tiles/warp.c), against
 * latitudes computed here from the Mercator formula. */
#include "cu_support.h"

#include "seawx/error.h"
#include "warp.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The latitude of fractional tile row y at zoom z (northern edge), written out
 * from the inverse Mercator projection rather than taken from lib/tiles/tile.c. */
static double lat_of_row(int z, double y)
{
    double n = M_PI * (1.0 - 2.0 * y / (double)(1u << z));
    return atan(0.5 * (exp(n) - exp(-n))) * 180.0 / M_PI;
}

static void test_plan_spans_the_rows(void)
{
    static const struct {
        int z;
        uint32_t y0;
        int rows;
    } cases[] = {{0, 0, 1}, {1, 0, 2}, {3, 1, 1}, {5, 0, 4}, {6, 31, 2}, {9, 100, 4}, {12, 0, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double south, north;
        int h;
        CU_ASSERT_EQUAL_FATAL(swx_warp_4326_plan(&south, &north, &h, cases[i].z, cases[i].y0,
                                                 cases[i].rows, 256, 4096),
                              0);
        CU_ASSERT_DOUBLE_EQUAL(north, lat_of_row(cases[i].z, cases[i].y0), 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(south, lat_of_row(cases[i].z, cases[i].y0 + cases[i].rows), 1e-9);
        CU_ASSERT(h >= cases[i].rows * 256);
        CU_ASSERT(h <= 4096);
        /* Unless clamped, no source row is taller than the thinnest Mercator
         * pixel row of the block. */
        if (h < 4096) {
            double thin = 1e9;
            for (int r = 0; r < cases[i].rows * 256; r++) {
                double a = lat_of_row(cases[i].z, cases[i].y0 + r / 256.0);
                double b = lat_of_row(cases[i].z, cases[i].y0 + (r + 1) / 256.0);
                thin = fmin(thin, a - b);
            }
            CU_ASSERT((north - south) / h <= thin * (1 + 1e-9));
        }
    }
}

static void test_plan_clamps_and_refuses(void)
{
    double s, n;
    int h;
    /* Zoom 0 spans 170 degrees; its thinnest rows near the poles would ask for
     * more rows than allowed. */
    CU_ASSERT_EQUAL(swx_warp_4326_plan(&s, &n, &h, 0, 0, 1, 256, 1000), 0);
    CU_ASSERT_EQUAL(h, 1000);
    CU_ASSERT_EQUAL(swx_warp_4326_plan(&s, &n, &h, -1, 0, 1, 256, 4096), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_warp_4326_plan(&s, &n, &h, 3, 0, 0, 256, 4096), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_warp_4326_plan(&s, &n, &h, 3, 0, 1, 0, 4096), SWX_EINVAL);
}

/* Each destination row must be the source row under its centre's latitude. */
static void check_rows(int z, uint32_t y0, int rows, int ts, int cap, int *distinct)
{
    double south, north;
    int h;
    CU_ASSERT_EQUAL_FATAL(swx_warp_4326_plan(&south, &north, &h, z, y0, rows, ts, cap), 0);
    size_t stride = 8; /* two pixels: the source row number, twice */
    uint8_t *src = malloc(stride * (size_t)h), *dst = malloc(stride * (size_t)rows * ts);
    CU_ASSERT_FATAL(src && dst);
    for (int r = 0; r < h; r++)
        for (size_t k = 0; k < stride; k += 4) {
            src[stride * r + k] = (uint8_t)(r & 0xff);
            src[stride * r + k + 1] = (uint8_t)(r >> 8);
            src[stride * r + k + 2] = 0x5a;
            src[stride * r + k + 3] = 0xff;
        }
    memset(dst, 0, stride * (size_t)rows * ts);
    swx_warp_4326_rows(dst, src, h, south, north, stride, z, y0, rows, ts);
    int bad = 0, prev = -1;
    *distinct = 1;
    for (int r = 0; r < rows * ts; r++) {
        double lat = lat_of_row(z, y0 + (r + 0.5) / ts);
        int want = (int)floor((north - lat) / (north - south) * h);
        int got = dst[stride * r] | dst[stride * r + 1] << 8;
        /* A centre a hair from a source row boundary may round either way. */
        double edge = (north - lat) / (north - south) * h - want;
        if (got != want && !(edge < 1e-6 || edge > 1 - 1e-6))
            bad++;
        if (memcmp(dst + stride * r, src + stride * got, stride) != 0)
            bad++;
        if (got <= prev)
            *distinct = 0;
        prev = got;
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(src);
    free(dst);
}

static void test_rows_are_nearest_neighbour(void)
{
    int distinct;
    check_rows(2, 0, 1, 256, 4096, &distinct); /* 66.5-85 N: rows stretch by 2.5x */
    CU_ASSERT(distinct);
    check_rows(4, 7, 2, 256, 4096, &distinct); /* across the equator */
    CU_ASSERT(distinct);
    check_rows(7, 20, 4, 512, 4096, &distinct);
    CU_ASSERT(distinct);
    /* Clamped, some Mercator rows near the pole share a source row; the
     * mapping is still the nearest one. */
    check_rows(0, 0, 1, 256, 600, &distinct);
    CU_ASSERT(!distinct);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("warp", NULL, NULL);
    CU_add_test(s, "the plan spans the rows, no source row too tall", test_plan_spans_the_rows);
    CU_add_test(s, "the plan clamps and refuses bad input", test_plan_clamps_and_refuses);
    CU_add_test(s, "rows are the nearest source rows", test_rows_are_nearest_neighbour);
    return cu_run();
}
