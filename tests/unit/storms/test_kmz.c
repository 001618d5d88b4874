/* test_kmz.c: storm KMZ files: the main document found whatever its name, the
 * same storms as the JSON, and hostile archives refused (zip bomb, path
 * escapes, too many entries, truncation, entity declarations). The archives are built
 * here with minizip from the KML fixtures. */
#include "cu_support.h"

#include "seawx/error.h"
#include "kmz_priv.h"
#include "seawx/kmz.h"
#include "seawx/storm.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <minizip/zip.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static int setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/seawx-kmz.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

struct entry {
    const char *name;
    const char *data; /* NULL: zeros */
    size_t len;
};

/* Writes a zip of the entries to dir/name; returns the path (static buffer). */
static const char *make_zip(const char *name, const struct entry *e, size_t n)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    zipFile z = zipOpen(path, APPEND_STATUS_CREATE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(z);
    static char zeros[1 << 16];
    for (size_t i = 0; i < n; i++) {
        zip_fileinfo zi;
        memset(&zi, 0, sizeof zi);
        CU_ASSERT_EQUAL_FATAL(
            zipOpenNewFileInZip(z, e[i].name, &zi, NULL, 0, NULL, 0, NULL, Z_DEFLATED, 9), ZIP_OK);
        if (e[i].data) {
            zipWriteInFileInZip(z, e[i].data, (unsigned)e[i].len);
        } else {
            for (size_t left = e[i].len; left;) {
                size_t k = left < sizeof zeros ? left : sizeof zeros;
                zipWriteInFileInZip(z, zeros, (unsigned)k);
                left -= k;
            }
        }
        zipCloseFileInZip(z);
    }
    zipClose(z, NULL);
    return path;
}

static void json_storms(swx_storm_list *l)
{
    CU_ASSERT_EQUAL_FATAL(
        swx_storm_read_file(cu_fixture_path("storms/edge.json"), swx_storm_list_add, l), 0);
}

static int same_num(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int same_pos(const swx_storm_pos *a, const swx_storm_pos *b)
{
    int ok = a->lat == b->lat && a->lon == b->lon && same_str(a->category_code, b->category_code) &&
             same_str(a->basin, b->basin) && same_str(a->subbasin, b->subbasin) &&
             same_num(a->wind_gusts, b->wind_gusts) &&
             same_num(a->max_sustained_wind, b->max_sustained_wind) &&
             same_num(a->min_mslp, b->min_mslp) &&
             same_num(a->movement_direction, b->movement_direction) &&
             same_num(a->movement_speed, b->movement_speed) && a->time == b->time &&
             a->forecast_time == b->forecast_time && a->forecast_hour == b->forecast_hour &&
             a->has_radii_object == b->has_radii_object;
    for (int t = 0; t < SWX_STORM_NRADII; t++) {
        ok = ok && a->radii[t].present == b->radii[t].present &&
             same_num(a->radii[t].wind_speed, b->radii[t].wind_speed);
        for (int q = 0; q < 4; q++)
            ok = ok && same_num(a->radii[t].r[q], b->radii[t].r[q]);
    }
    return ok;
}

static int same_storm(const swx_storm *a, const swx_storm *b)
{
    int ok = same_str(a->atcf_id, b->atcf_id) && same_str(a->storm_name, b->storm_name) &&
             same_str(a->basin, b->basin) && same_str(a->subbasin, b->subbasin) &&
             a->season == b->season && a->is_active == b->is_active &&
             a->advisory_number == b->advisory_number &&
             a->advisory_issuance_time == b->advisory_issuance_time &&
             same_str(a->max_development_category, b->max_development_category) &&
             same_num(a->max_sustained_wind, b->max_sustained_wind) &&
             same_num(a->min_mslp, b->min_mslp) && same_str(a->start_date, b->start_date) &&
             same_str(a->end_date, b->end_date) && a->nobserved == b->nobserved &&
             a->nforecast == b->nforecast;
    for (size_t i = 0; ok && i < a->nobserved; i++)
        ok = same_pos(&a->observed[i], &b->observed[i]);
    for (size_t i = 0; ok && i < a->nforecast; i++)
        ok = same_pos(&a->forecast[i], &b->forecast[i]);
    return ok;
}

/* The service's KMZ: main document not named doc.kml, a resource beside it. */
static void test_same_as_json(void)
{
    size_t len;
    char *kml = cu_fixture("storms/edge.kml", &len);
    struct entry e[] = {{"files/README.txt", "readme", 6}, {"seawx_storms.kml", kml, len}};
    const char *path = make_zip("edge.kmz", e, 2);
    swx_storm_list k = {0}, j = {0};
    char *doc = NULL, *entry = NULL;
    size_t dlen = 0;
    CU_ASSERT_EQUAL(swx_kmz_read_kml(&doc, &dlen, &entry, path), 0);
    CU_ASSERT_STRING_EQUAL(entry ? entry : "", "seawx_storms.kml");
    CU_ASSERT_EQUAL(dlen, len);
    free(doc);
    free(entry);
    CU_ASSERT_EQUAL(swx_kmz_read_storms(path, swx_storm_list_add, &k), 0);
    json_storms(&j);
    CU_ASSERT_EQUAL_FATAL(k.count, j.count);
    for (size_t i = 0; i < k.count; i++)
        CU_ASSERT_TRUE(same_storm(k.items[i], j.items[i]));
    swx_storm_list_clear(&k);
    swx_storm_list_clear(&j);
    free(kml);
}

/* doc.kml wins over other .kml entries. */
static void test_doc_kml_first(void)
{
    size_t len;
    char *kml = cu_fixture("storms/edge.kml", &len);
    const char other[] = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document/></kml>";
    struct entry e[] = {{"a.kml", other, sizeof other - 1}, {"doc.kml", kml, len}};
    const char *path = make_zip("doc.kmz", e, 2);
    swx_storm_list k = {0};
    CU_ASSERT_EQUAL(swx_kmz_read_storms(path, swx_storm_list_add, &k), 0);
    CU_ASSERT_EQUAL(k.count, 5);
    swx_storm_list_clear(&k);
    free(kml);
}

static void test_hostile(void)
{
    swx_storm_list k = {0};
    const char kml[] = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document/></kml>";
    /* 64 MiB of zeros deflate to about 64 KiB: a ratio near 1000. */
    struct entry bomb[] = {{"doc.kml", NULL, (size_t)64 << 20}};
    CU_ASSERT_EQUAL(swx_kmz_read_storms(make_zip("bomb.kmz", bomb, 1), swx_storm_list_add, &k),
                    SWX_ETOOBIG);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "zip bomb"));

    struct entry esc[] = {{"doc.kml", kml, sizeof kml - 1}, {"../../etc/evil.kml", kml, 5}};
    CU_ASSERT_EQUAL(swx_kmz_read_storms(make_zip("escape.kmz", esc, 2), swx_storm_list_add, &k),
                    SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "outside the archive"));
    struct entry abs_[] = {{"/etc/doc.kml", kml, sizeof kml - 1}};
    CU_ASSERT_EQUAL(swx_kmz_read_storms(make_zip("abs.kmz", abs_, 1), swx_storm_list_add, &k),
                    SWX_EPARSE);
    CU_ASSERT_FALSE(swx_kmz_name_safe("a/../../b.kml"));
    CU_ASSERT_FALSE(swx_kmz_name_safe("C:/x.kml"));
    CU_ASSERT_FALSE(swx_kmz_name_safe("a\\..\\b.kml"));
    CU_ASSERT_TRUE(swx_kmz_name_safe("files/a..b.kml"));

    struct entry *many = calloc(SWX_KMZ_MAX_ENTRIES + 1, sizeof *many);
    char(*names)[16] = calloc(SWX_KMZ_MAX_ENTRIES + 1, sizeof *names);
    for (int i = 0; i <= SWX_KMZ_MAX_ENTRIES; i++) {
        snprintf(names[i], sizeof names[i], "f%d.txt", i);
        many[i].name = names[i];
        many[i].data = "x";
        many[i].len = 1;
    }
    CU_ASSERT_EQUAL(swx_kmz_read_storms(make_zip("many.kmz", many, SWX_KMZ_MAX_ENTRIES + 1),
                                        swx_storm_list_add, &k),
                    SWX_ETOOBIG);
    free(many);
    free(names);

    struct entry none[] = {{"readme.txt", "x", 1}};
    CU_ASSERT_EQUAL(swx_kmz_read_storms(make_zip("none.kmz", none, 1), swx_storm_list_add, &k),
                    SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "no .kml"));

    /* A truncated archive: the good one cut in half. */
    size_t len;
    char *edge = cu_fixture("storms/edge.kml", &len);
    struct entry good[] = {{"doc.kml", edge, len}};
    const char *path = make_zip("cut.kmz", good, 1);
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    CU_ASSERT_EQUAL(truncate(path, size / 2), 0);
    CU_ASSERT_EQUAL(swx_kmz_read_storms(path, swx_storm_list_add, &k), SWX_EPARSE);
    free(edge);

    CU_ASSERT_EQUAL(swx_kmz_read_storms("/nonexistent.kmz", swx_storm_list_add, &k), SWX_EIO);
    CU_ASSERT_EQUAL(k.count, 0);
    swx_storm_list_clear(&k);
}

static void test_kml_refused(void)
{
    size_t len;
    swx_storm_list k = {0};
    char *doc = cu_fixture("storms/doctype.kml", &len);
    CU_ASSERT_EQUAL(swx_kml_parse_storms(doc, len, swx_storm_list_add, &k), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(swx_error_last(), "malformed storm KML: entity declarations are not allowed"));
    free(doc);
    doc = cu_fixture("storms/not_kml.xml", &len);
    CU_ASSERT_EQUAL(swx_kml_parse_storms(doc, len, swx_storm_list_add, &k), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "not KML"));
    free(doc);
    const char broken[] = "<kml><Document><Folder>";
    CU_ASSERT_EQUAL(swx_kml_parse_storms(broken, sizeof broken - 1, swx_storm_list_add, &k),
                    SWX_EPARSE);
    CU_ASSERT_EQUAL(k.count, 0);
    swx_storm_list_clear(&k);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("kmz", setup, teardown);
    CU_add_test(s, "storm KMZ gives the same storms as the JSON", test_same_as_json);
    CU_add_test(s, "doc.kml is the main document when present", test_doc_kml_first);
    CU_add_test(s, "hostile archives refused", test_hostile);
    CU_add_test(s, "entity declarations, non-KML and broken XML refused", test_kml_refused);
    return cu_run();
}
