/* test_package.c: what users type for voyage packages (lib/voyage/package.c):
 * layer specs and sizes, the package path check, and the rules of a
 * package as swx_package_new applies them. Building packages is
 * tested against seawx-sim in tests/integration/test_package.sh. */
#include "cu_support.h"

#include "seawx/error.h"
#include "package_int.h"
#include "seawx/package.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_layer_spec(void)
{
    swx_package_layer l;
    CU_ASSERT_EQUAL(swx_package_layer_parse(&l, "swh"), 0);
    CU_ASSERT_STRING_EQUAL(l.variable, "swh");
    CU_ASSERT(l.zooms == 0 && l.format == -1 && l.quality == -1 && l.style[0] == '\0');

    CU_ASSERT_EQUAL(swx_package_layer_parse(&l, "swh:zoom=3-6:format=png8"), 0);
    CU_ASSERT_STRING_EQUAL(l.variable, "swh");
    CU_ASSERT_EQUAL(l.zooms, 0x78u);
    CU_ASSERT_EQUAL(l.format, SWX_FORMAT_PNG8);

    /* A unit stays with the variable; a style may hold ':' and '/'. */
    CU_ASSERT_EQUAL(swx_package_layer_parse(&l, "t2m:K:style=temp:F/nearest:zoom=4"), 0);
    CU_ASSERT_STRING_EQUAL(l.variable, "t2m:K");
    CU_ASSERT_STRING_EQUAL(l.style, "temp:F/nearest");
    CU_ASSERT_EQUAL(l.zooms, 0x10u);
    CU_ASSERT_EQUAL(swx_package_layer_parse(&l, "10u:style=wind/barb"), 0);
    CU_ASSERT_STRING_EQUAL(l.style, "wind/barb");
    CU_ASSERT_EQUAL(swx_package_layer_parse(&l, "sst:format=jpeg:quality=70"), 0);
    CU_ASSERT(l.format == SWX_FORMAT_JPEG && l.quality == 70);

    const char *bad[] = {"",           ":zoom=3",        "swh:zoom=",     "swh:zoom=x",
                         "swh:hue=3",  "swh:format=gif", "swh:quality=0", "a/b",
                         "swh:K:oops", "swh:quality=101"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(swx_package_layer_parse(&l, bad[i]), SWX_EINVAL);
        CU_ASSERT(strlen(swx_error_last()) > 0);
    }
}

static void test_size(void)
{
    uint64_t n;
    CU_ASSERT(swx_size_parse(&n, "20MB") == 0 && n == 20000000u);
    CU_ASSERT(swx_size_parse(&n, "1.5MiB") == 0 && n == 1572864u);
    CU_ASSERT(swx_size_parse(&n, "800kB") == 0 && n == 800000u);
    CU_ASSERT(swx_size_parse(&n, "300000") == 0 && n == 300000u);
    CU_ASSERT(swx_size_parse(&n, "2GiB") == 0 && n == 2147483648u);
    const char *bad[] = {"", "MB", "-1MB", "0", "12XB", " 5MB", "1e30", "nan", "0.1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_ASSERT_EQUAL(swx_size_parse(&n, bad[i]), SWX_EINVAL);
}

typedef struct seen {
    char names[256];
    int n, stop_at;
} seen;

static int collect(void *ud, const char *name, const char *identity)
{
    seen *s = ud;
    size_t l = strlen(s->names);
    snprintf(s->names + l, sizeof s->names - l, "%s=%s;", name, identity);
    return ++s->n == s->stop_at ? -99 : 0;
}

/* What a refresh reads back of a package's manifest or resume file: plain
 * names with identities only. */
static void test_listing(void)
{
    const char *text = "{\"format\":\"seawx-package\",\"files\":["
                       "{\"path\":\"a.mbtiles\",\"identity\":\"11\",\"tiles\":3},"
                       "{\"path\":\"../b.mbtiles\",\"identity\":\"22\"},"
                       "{\"path\":\"..\",\"identity\":\"33\"},"
                       "{\"path\":\"c.mbtiles\",\"identity\":\"\"},"
                       "{\"path\":\"d.mbtiles\"},7,"
                       "{\"path\":\"e.mbtiles\",\"identity\":\"55\"}]}";
    seen s = {{0}, 0, 0};
    CU_ASSERT_EQUAL(swx_package_listing_read(text, strlen(text), "manifest", collect, &s), 0);
    CU_ASSERT_STRING_EQUAL(s.names, "a.mbtiles=11;e.mbtiles=55;");
    /* The walk stops at the callback's first non-zero return, which it gives back. */
    seen one = {{0}, 0, 1};
    CU_ASSERT_EQUAL(swx_package_listing_read(text, strlen(text), "manifest", collect, &one), -99);
    CU_ASSERT_STRING_EQUAL(one.names, "a.mbtiles=11;");
    /* Not a listing: refused with its name; no files: nothing. */
    seen none = {{0}, 0, 0};
    CU_ASSERT_EQUAL(swx_package_listing_read("[1,2]", 5, "resume", collect, &none), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "resume"));
    CU_ASSERT_EQUAL(swx_package_listing_read("{\"files\"", 9, "resume", collect, &none),
                    SWX_EPARSE);
    CU_ASSERT_EQUAL(swx_package_listing_read("{\"files\":{}}", 12, "resume", collect, &none), 0);
    CU_ASSERT_EQUAL(none.n, 0);
}

static void test_path_check(void)
{
    char dir[] = "/tmp/seawx-pkgtest.XXXXXX", p[256];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(p, sizeof p, "%s/new", dir);
    CU_ASSERT_EQUAL(swx_package_path_check(p), 0);
    /* A folder, a file, a link elsewhere: not packages, left alone. */
    CU_ASSERT_EQUAL(mkdir(p, 0777), 0);
    CU_ASSERT_EQUAL(swx_package_path_check(p), SWX_EINVAL);
    CU_ASSERT(strstr(swx_error_last(), "is not a voyage package") != NULL);
    rmdir(p);
    CU_ASSERT_EQUAL(symlink("/tmp", p), 0);
    CU_ASSERT_EQUAL(swx_package_path_check(p), SWX_EINVAL);
    unlink(p);
    /* A link to a version folder with a package's manifest. */
    char v[300], m[320];
    snprintf(v, sizeof v, "%s/.new.v4", dir);
    snprintf(m, sizeof m, "%s/manifest.json", v);
    CU_ASSERT_EQUAL(mkdir(v, 0777), 0);
    FILE *f = fopen(m, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("{\"format\": \"seawx-package\", \"files\": []}", f);
    fclose(f);
    CU_ASSERT_EQUAL(symlink(".new.v4", p), 0);
    CU_ASSERT_EQUAL(swx_package_path_check(p), 1);
    CU_ASSERT_EQUAL(swx_package_path_check("."), SWX_EINVAL);
    unlink(p);
    unlink(m);
    rmdir(v);
    rmdir(dir);
}

/* The rules of a package hold for a library caller as for seawx voyage: a
 * package of webp tiles, or of a quality without jpeg, is refused by
 * swx_package_new before the capabilities are read, in the CLI's words. */
static void test_rules(void)
{
    static const char route[] = "lat,lon\n24.0,-79.0\n29.0,-86.0\n";
    swx_voyage *v = NULL;
    swx_voyage_sailing sail = {.given = 1, .depart = 1772449200, .min_kn = 10, .max_kn = 14};
    CU_ASSERT_EQUAL_FATAL(swx_voyage_from_route(&v, route, strlen(route)), 0);
    CU_ASSERT_EQUAL_FATAL(swx_voyage_set_sailing(v, &sail), 0);
    swx_package_layer layers[SWX_PACKAGE_MAX_LAYERS + 1];
    CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&layers[0], "swh:zoom=3:format=webp"), 0);
    layers[0].quality = 0;
    swx_package_opts po = {
        .bundle = "maritime",
        .path = "pkg",
        .voyage = v,
        .layers = layers,
        .nlayers = 1,
        .tile_size = 256,
        .now = 1772449200,
    };
    swx_package *pkg = NULL;
    CU_ASSERT_EQUAL(swx_package_new(&pkg, NULL, &po), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(pkg);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "layer swh: webp cannot be shown by QGIS 3.22 "
                                             "(GDAL 3.6) or OpenCPN; use png8, png or jpeg");
    CU_ASSERT_EQUAL(swx_package_opts_check(&po), SWX_EINVAL);

    layers[0].format = SWX_FORMAT_PNG;
    layers[0].quality = 70;
    CU_ASSERT_EQUAL(swx_package_new(&pkg, NULL, &po), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "layer swh: quality goes with format jpeg, not png");

    layers[0].quality = 0;
    po.tile_size = 300;
    CU_ASSERT_EQUAL(swx_package_new(&pkg, NULL, &po), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "tile size must be 256 or 512");
    po.tile_size = 512;
    CU_ASSERT_EQUAL(swx_package_opts_check(&po), 0);

    po.nlayers = SWX_PACKAGE_MAX_LAYERS + 1;
    CU_ASSERT_EQUAL(swx_package_new(&pkg, NULL, &po), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "at most 16 layers in a package"));
    po.nlayers = 0;
    CU_ASSERT_EQUAL(swx_package_new(&pkg, NULL, &po), SWX_EINVAL);

    /* A front end names where the layer came from; the defaults fill what
     * the spec leaves out. */
    swx_package_layer l;
    CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&l, "sst"), 0);
    CU_ASSERT_EQUAL(swx_package_layer_complete(&l, 0x18u, SWX_FORMAT_WEBP, 0, "--layer"),
                    SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "--layer sst: webp cannot be shown"));
    CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&l, "sst:format=jpeg"), 0);
    CU_ASSERT_EQUAL(swx_package_layer_complete(&l, 0x18u, SWX_FORMAT_PNG8, 80, "layers[2]"), 0);
    CU_ASSERT(l.zooms == 0x18u && l.format == SWX_FORMAT_JPEG && l.quality == 80);
    CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&l, "sst:quality=80"), 0);
    CU_ASSERT_EQUAL(swx_package_layer_complete(&l, 0x18u, SWX_FORMAT_PNG8, 0, "layers[2]"),
                    SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "layers[2] sst: quality goes with format jpeg, not "
                                             "png8");
    swx_voyage_free(v);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("package", NULL, NULL);
    CU_add_test(s, "layer specs", test_layer_spec);
    CU_add_test(s, "sizes", test_size);
    CU_add_test(s, "package paths", test_path_check);
    CU_add_test(s, "manifest and resume listings", test_listing);
    CU_add_test(s, "a package's rules hold for every caller", test_rules);
    return cu_run();
}
