/* test_format.c: the table of tile formats (lib/tiles/format.c) and the rules
 * read from it: the choices messages name, what a voyage package takes. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/package.h"
#include "seawx/tile_format.h"

#include <string.h>

/* Every row complete, named once, and found again by its name. */
static void test_rows(void)
{
    int n = 0;
    while (swx_tile_format_get(n))
        n++;
    CU_ASSERT_EQUAL(n, SWX_FORMAT_JPEG + 1);
    CU_ASSERT_PTR_NULL(swx_tile_format_get(-1));
    CU_ASSERT_STRING_EQUAL(swx_tile_format_name((swx_tile_format)n), "?");
    for (int i = 0; i < n; i++) {
        const swx_tile_format_info *f = swx_tile_format_get(i);
        CU_ASSERT(f->name && f->label && f->mbtiles && f->mime);
        CU_ASSERT_PTR_NOT_NULL(strstr(f->mime, "image/"));
        CU_ASSERT(f->viewers != 0 && (f->viewers & ~SWX_VIEWER_ALL) == 0);
        /* Only a format that takes a quality has a default one. */
        CU_ASSERT(f->default_quality == 0 || (f->props & SWX_TF_QUALITY));
        swx_tile_format back = (swx_tile_format)-1;
        CU_ASSERT(swx_tile_format_parse(&back, f->name) == 0 && (int)back == i);
        for (int j = 0; j < i; j++)
            CU_ASSERT(strcmp(swx_tile_format_get(j)->name, f->name) != 0);
    }
    /* The seeder's default keeps the service's bytes, and every viewer reads it. */
    const swx_tile_format_info *png = swx_tile_format_get(0);
    CU_ASSERT(!(png->props & SWX_TF_REENCODED) && png->viewers == SWX_VIEWER_ALL);
    CU_ASSERT_STRING_EQUAL(swx_tile_format_get(SWX_FORMAT_JPEG)->mbtiles, "jpg");
    CU_ASSERT(!(swx_tile_format_get(SWX_FORMAT_JPEG)->props & SWX_TF_TRANSPARENCY));
}

static void test_names(void)
{
    char b[128];
    CU_ASSERT_STRING_EQUAL(swx_tile_format_names(b, sizeof b, 0, 0, -1), "png, png8, webp or jpeg");
    CU_ASSERT_STRING_EQUAL(swx_tile_format_names(b, sizeof b, SWX_TF_QUALITY, 0, -1),
                           "webp or jpeg");
    CU_ASSERT_STRING_EQUAL(swx_tile_format_names(b, sizeof b, SWX_TF_TRANSPARENCY, 0, -1),
                           "png, png8 or webp");
    CU_ASSERT_STRING_EQUAL(
        swx_tile_format_names(b, sizeof b, SWX_TF_REENCODED, SWX_VIEWER_OPENCPN, -1),
        "png8 or jpeg");
    CU_ASSERT_STRING_EQUAL(
        swx_tile_format_names(b, sizeof b, 0, SWX_PACKAGE_VIEWERS, SWX_FORMAT_PNG8),
        "png8, png or jpeg");
    CU_ASSERT_STRING_EQUAL(
        swx_tile_format_names(b, sizeof b, SWX_TF_QUALITY, SWX_VIEWER_ALL, SWX_FORMAT_PNG), "jpeg");
    /* A short buffer is cut, never overrun. */
    char small[6];
    memset(small, 'x', sizeof small);
    swx_tile_format_names(small, sizeof small, 0, 0, -1);
    CU_ASSERT_EQUAL(strlen(small), sizeof small - 1);
}

/* A package's formats are those QGIS 3.22 and OpenCPN both decode. */
static int layer_check(int format, int quality)
{
    swx_package_layer l = {.variable = "swh", .zooms = 1, .format = format, .quality = quality};
    return swx_package_layer_check(&l, NULL);
}

static void test_package(void)
{
    CU_ASSERT_EQUAL(layer_check(SWX_FORMAT_PNG8, 0), 0);
    CU_ASSERT_EQUAL(layer_check(SWX_FORMAT_JPEG, 40), 0);
    CU_ASSERT_EQUAL(layer_check(SWX_FORMAT_WEBP, 0), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "layer swh: webp cannot be shown by QGIS 3.22 "
                                             "(GDAL 3.6) or OpenCPN; use png8, png or jpeg");
    CU_ASSERT_EQUAL(layer_check(SWX_FORMAT_PNG, 40), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "layer swh: quality goes with format jpeg, not png");
    CU_ASSERT_EQUAL(layer_check(17, 0), SWX_EINVAL);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("format", NULL, NULL);
    CU_add_test(s, "rows complete and named once", test_rows);
    CU_add_test(s, "the choices named in messages", test_names);
    CU_add_test(s, "what a package takes", test_package);
    return cu_run();
}
