/* test_storm_geojson.c: storm features and their GeoJSON: geometry rules
 * (points, lines, antimeridian cuts, counter-clockwise radii rings), nulls,
 * titles, counts, and the written document read back by json-c. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/storm.h"
#include "seawx/storm_geojson.h"

#include <CUnit/CUnit.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static swx_storm_list edge, nulls;

static int load(const char *rel, swx_storm_list *l)
{
    return swx_storm_read_file(cu_fixture_path(rel), swx_storm_list_add, l);
}

static int setup(void)
{
    return load("storms/edge.json", &edge) || load("storms/nulls.json", &nulls);
}

static int teardown(void)
{
    swx_storm_list_clear(&edge);
    swx_storm_list_clear(&nulls);
    return 0;
}

/* What the features of one storm look like, gathered by a callback. */
struct seen {
    size_t count[SWX_SK_COUNT];
    size_t multi[SWX_SK_COUNT];
    size_t bad_ring, bad_coord, one_point_line, empty;
    size_t nonfinite_value;
    double max_ring_area;
};

static double ring_area(const double *xy, size_t n)
{
    double a = 0;
    for (size_t i = 0; i + 1 < n; i++)
        a += xy[2 * i] * xy[2 * i + 3] - xy[2 * i + 2] * xy[2 * i + 1];
    return a / 2;
}

static int observe(void *ud, const swx_storm_feature *f)
{
    struct seen *s = ud;
    s->count[f->kind]++;
    if (f->geom == SWX_GEOM_MULTILINESTRING || f->geom == SWX_GEOM_MULTIPOLYGON)
        s->multi[f->kind]++;
    const double *xy = f->xy;
    for (size_t p = 0; p < f->nparts; p++) {
        size_t n = f->part_len[p];
        if (n == 0)
            s->empty++;
        if ((f->geom == SWX_GEOM_LINESTRING || f->geom == SWX_GEOM_MULTILINESTRING) && n < 2)
            s->one_point_line++;
        for (size_t i = 0; i < n; i++) {
            double x = xy[2 * i], y = xy[2 * i + 1];
            /* in range, and no more than 6 decimals */
            if (!isfinite(x) || !isfinite(y) || x < -180 || x > 180 || y < -90 || y > 90 ||
                fabs(x * 1e6 - nearbyint(x * 1e6)) > 1e-6 ||
                fabs(y * 1e6 - nearbyint(y * 1e6)) > 1e-6)
                s->bad_coord++;
            if (i && xy[2 * i] == xy[2 * i - 2] && xy[2 * i + 1] == xy[2 * i - 1])
                s->bad_coord++; /* repeated position */
        }
        if (f->geom == SWX_GEOM_POLYGON || f->geom == SWX_GEOM_MULTIPOLYGON) {
            double a = ring_area(xy, n);
            if (n < 4 || xy[0] != xy[2 * n - 2] || xy[1] != xy[2 * n - 1] || !(a > 0))
                s->bad_ring++;
            if (a > s->max_ring_area)
                s->max_ring_area = a;
        }
        xy += 2 * n;
    }
    const swx_storm_field *tab;
    size_t nf = swx_storm_fields(f->kind, &tab);
    for (size_t i = 0; i < nf; i++) {
        swx_storm_value v;
        swx_storm_feature_value(f, i, &v);
        if (!v.null && tab[i].type == SWX_SF_REAL && !isfinite(v.d))
            s->nonfinite_value++;
    }
    return 0;
}

static void features_of(const swx_storm *st, struct seen *s)
{
    swx_storm_geo *g = NULL;
    memset(s, 0, sizeof *s);
    CU_ASSERT_EQUAL_FATAL(swx_storm_geo_new(&g), 0);
    CU_ASSERT_EQUAL(swx_storm_features(g, st, SWX_SK_ALL, observe, s), 0);
    swx_storm_geo_free(g);
    for (int k = 0; k < SWX_SK_COUNT; k++)
        CU_ASSERT_EQUAL(s->count[k], swx_storm_feature_count(st, k));
    CU_ASSERT_EQUAL(s->bad_ring, 0);
    CU_ASSERT_EQUAL(s->bad_coord, 0);
    CU_ASSERT_EQUAL(s->one_point_line, 0);
    CU_ASSERT_EQUAL(s->empty, 0);
    CU_ASSERT_EQUAL(s->nonfinite_value, 0);
}

static void test_hurricane(void)
{
    struct seen s;
    features_of(edge.items[0], &s);
    CU_ASSERT_EQUAL(s.count[SWX_SK_STORM], 1);
    CU_ASSERT_EQUAL(s.count[SWX_SK_TRACK_POINT], 12);
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_POINT], 8);
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_LINE], 1);
    CU_ASSERT_TRUE(s.count[SWX_SK_WIND_RADII] > 20);
    CU_ASSERT_EQUAL(s.multi[SWX_SK_STORM] + s.multi[SWX_SK_WIND_RADII], 0);
}

static void test_antimeridian(void)
{
    struct seen s;
    features_of(edge.items[1], &s); /* TAKARA: east across 180 */
    CU_ASSERT_EQUAL(s.multi[SWX_SK_STORM], 1);
    CU_ASSERT_TRUE(s.multi[SWX_SK_WIND_RADII] >= 1);
    features_of(edge.items[4], &s); /* VAIANA: west across 180 */
    CU_ASSERT_EQUAL(s.multi[SWX_SK_STORM], 1);
    CU_ASSERT_EQUAL(s.multi[SWX_SK_FORECAST_LINE], 0);
}

/* The cut line meets the meridian at the same latitude on both sides. */
static int check_cut(void *ud, const swx_storm_feature *f)
{
    int *ok = ud;
    if (f->kind != SWX_SK_STORM)
        return 0;
    *ok = f->geom == SWX_GEOM_MULTILINESTRING && f->nparts == 2;
    if (!*ok)
        return 0;
    size_t n0 = f->part_len[0];
    const double *end0 = f->xy + 2 * (n0 - 1), *start1 = f->xy + 2 * n0;
    *ok = end0[0] == 180 && start1[0] == -180 && end0[1] == start1[1] &&
          end0[1] > f->xy[2 * n0 - 3] && end0[1] < start1[3];
    return 0;
}

static void test_cut_point(void)
{
    swx_storm_geo *g = NULL;
    int ok = 0;
    CU_ASSERT_EQUAL_FATAL(swx_storm_geo_new(&g), 0);
    CU_ASSERT_EQUAL(swx_storm_features(g, edge.items[1], 1u << SWX_SK_STORM, check_cut, &ok), 0);
    CU_ASSERT_TRUE(ok);
    swx_storm_geo_free(g);
}

static void test_inactive_and_single(void)
{
    struct seen s;
    features_of(edge.items[2], &s); /* OTILDA: no forecast */
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_POINT], 0);
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_LINE], 0);
    CU_ASSERT_EQUAL(s.count[SWX_SK_TRACK_POINT], 20);
    features_of(edge.items[3], &s); /* the unnamed depression: one position */
    CU_ASSERT_EQUAL(s.count[SWX_SK_STORM], 1);
    CU_ASSERT_EQUAL(s.count[SWX_SK_WIND_RADII], 0);
    CU_ASSERT_EQUAL(s.count[SWX_SK_FORECAST_LINE], 0);
    features_of(nulls.items[0], &s); /* radii all zero: no polygon */
    CU_ASSERT_EQUAL(s.count[SWX_SK_WIND_RADII], 0);
}

/* Radii: the 34 kt polygon of a position with ne = 100 NM reaches about
 * 100 NM (1.667 degrees of latitude) north of the centre. */
static int radii_extent(void *ud, const swx_storm_feature *f)
{
    double *out = ud;
    if (f->kind != SWX_SK_WIND_RADII || f->threshold != SWX_STORM_R34 || out[0] != 0)
        return 0;
    double maxy = -90;
    for (size_t i = 0; i < f->part_len[0]; i++)
        if (f->xy[2 * i + 1] > maxy)
            maxy = f->xy[2 * i + 1];
    out[0] = maxy - f->pos->lat;
    out[1] = f->pos->radii[SWX_STORM_R34].r[0];
    out[2] = f->pos->radii[SWX_STORM_R34].r[3];
    return 0;
}

static void test_radii_size(void)
{
    double got[3] = {0};
    swx_storm_geo *g = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_geo_new(&g), 0);
    CU_ASSERT_EQUAL(
        swx_storm_features(g, edge.items[0], 1u << SWX_SK_WIND_RADII, radii_extent, got), 0);
    swx_storm_geo_free(g);
    /* North is reached at bearing 0 (ne arc start) and 360 (nw arc end). */
    double want = fmax(got[1], got[2]) * 1852.0 / 6371008.8 * 180 / M_PI;
    CU_ASSERT_DOUBLE_EQUAL(got[0], want, 1e-4);
}

struct values {
    const char *title;
    int title_null;
    int adv_null;
    int name_is_empty;
};

static int storm_values(void *ud, const swx_storm_feature *f)
{
    struct values *v = ud;
    const swx_storm_field *tab;
    size_t n = swx_storm_fields(f->kind, &tab);
    for (size_t i = 0; i < n; i++) {
        swx_storm_value x;
        swx_storm_feature_value(f, i, &x);
        if (strcmp(tab[i].name, "title") == 0) {
            v->title = x.s;
            v->title_null = x.null;
        } else if (strcmp(tab[i].name, "advisory_number") == 0) {
            v->adv_null = x.null;
        } else if (strcmp(tab[i].name, "storm_name") == 0) {
            v->name_is_empty = !x.null && x.s[0] == '\0';
        }
    }
    return 0;
}

static void test_titles_and_nulls(void)
{
    swx_storm_geo *g = NULL;
    struct values v = {0};
    CU_ASSERT_EQUAL_FATAL(swx_storm_geo_new(&g), 0);
    swx_storm_features(g, edge.items[3], 1u << SWX_SK_STORM, storm_values, &v);
    CU_ASSERT_STRING_EQUAL(v.title, "NI032024");
    CU_ASSERT_TRUE(v.name_is_empty);
    CU_ASSERT_FALSE(v.adv_null);
    memset(&v, 0, sizeof v);
    swx_storm_features(g, edge.items[2], 1u << SWX_SK_STORM, storm_values, &v);
    CU_ASSERT_STRING_EQUAL(v.title, "OTILDA");
    CU_ASSERT_TRUE(v.adv_null);
    swx_storm_geo_free(g);
}

static void test_kinds(void)
{
    unsigned m;
    CU_ASSERT_EQUAL(swx_storm_kinds_parse("storm,wind_radii", &m), 0);
    CU_ASSERT_EQUAL(m, (1u << SWX_SK_STORM) | (1u << SWX_SK_WIND_RADII));
    CU_ASSERT_EQUAL(swx_storm_kinds_parse("track_points", &m), 0);
    CU_ASSERT_EQUAL(m, 1u << SWX_SK_TRACK_POINT);
    CU_ASSERT_EQUAL(swx_storm_kinds_parse("storm,,radii", &m), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_kinds_parse("", &m), SWX_EINVAL);
    CU_ASSERT_STRING_EQUAL(swx_storm_kind_layer(SWX_SK_FORECAST_LINE), "forecast_lines");
    CU_ASSERT_STRING_EQUAL(swx_storm_category_color(swx_storm_category_rank("TC3")), "#ffc140");
    CU_ASSERT_STRING_EQUAL(swx_storm_category_color(swx_storm_category_rank("TD")), "#5ebaff");
    CU_ASSERT_STRING_EQUAL(swx_storm_category_color(-1), "#c0c0c0");
}

/* The document: a FeatureCollection json-c reads, the counts of each kind,
 * nulls as JSON null, no number with more than 6 decimals. */
static void test_document(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    swx_storm_geojson *w = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_geojson_new(&w, f, SWX_SK_ALL), 0);
    size_t want[SWX_SK_COUNT] = {0};
    for (size_t i = 0; i < edge.count; i++) {
        CU_ASSERT_EQUAL(swx_storm_geojson_add(w, edge.items[i]), 0);
        for (int k = 0; k < SWX_SK_COUNT; k++)
            want[k] += swx_storm_feature_count(edge.items[i], k);
    }
    CU_ASSERT_EQUAL(swx_storm_geojson_add(w, nulls.items[0]), 0);
    for (int k = 0; k < SWX_SK_COUNT; k++)
        want[k] += swx_storm_feature_count(nulls.items[0], k);
    CU_ASSERT_EQUAL(swx_storm_geojson_finish(w), 0);
    fclose(f);
    json_object *doc = json_tokener_parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    json_object *feats, *type;
    CU_ASSERT_TRUE(json_object_object_get_ex(doc, "type", &type));
    CU_ASSERT_STRING_EQUAL(json_object_get_string(type), "FeatureCollection");
    CU_ASSERT_TRUE_FATAL(json_object_object_get_ex(doc, "features", &feats));
    size_t got[SWX_SK_COUNT] = {0};
    int null_name = 0, null_mslp = 0;
    for (size_t i = 0; i < json_object_array_length(feats); i++) {
        json_object *ft = json_object_array_get_idx(feats, i), *props, *kind, *v;
        json_object_object_get_ex(ft, "properties", &props);
        json_object_object_get_ex(props, "kind", &kind);
        int k = swx_storm_kind_parse(json_object_get_string(kind));
        CU_ASSERT_TRUE_FATAL(k >= 0);
        got[k]++;
        if (k == SWX_SK_STORM && json_object_object_get_ex(props, "storm_name", &v) && !v)
            null_name++;
        if (k == SWX_SK_FORECAST_POINT && json_object_object_get_ex(props, "min_mslp", &v) && !v)
            null_mslp++;
    }
    for (int k = 0; k < SWX_SK_COUNT; k++)
        CU_ASSERT_EQUAL(got[k], want[k]);
    CU_ASSERT_EQUAL(null_name, 1);
    CU_ASSERT_TRUE(null_mslp > 0);
    /* No number token with more than six decimals, no NaN. */
    int long_decimals = 0;
    for (char *p = text; *p; p++)
        if (*p == '.' && p > text && p[-1] >= '0' && p[-1] <= '9') {
            int n = 0;
            while (p[1 + n] >= '0' && p[1 + n] <= '9')
                n++;
            long_decimals += n > 6;
        }
    CU_ASSERT_EQUAL(long_decimals, 0);
    CU_ASSERT_PTR_NULL(strstr(text, "nan"));
    CU_ASSERT_PTR_NULL(strstr(text, "inf"));
    json_object_put(doc);
    free(text);
}

/* Numbers: at most six decimals, rounded half away from zero, no -0,
 * integers without a point, and magnitudes past 9e12 in the shortest form
 * that reads back the same (with an exponent past 1e17, so that json-c and
 * GDAL read a double, not a saturated 64-bit integer). */
static void test_numbers(void)
{
    static const char json[] =
        "[{\"atcf_id\":\"AL012024\",\"max_sustained_wind\":1.7976931348623157e308,"
        "\"min_mslp\":-1e300,\"observed_track\":[{\"lat\":12.0000006,\"lon\":-0.0000004,"
        "\"wind_gusts\":0.1,\"max_sustained_wind\":-2.25,\"min_mslp\":1013,"
        "\"movement_direction\":359.9999996,\"movement_speed\":123456.1234565}]}]";
    swx_storm_list l = {0};
    swx_storm_reader *r = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_reader_new(&r, swx_storm_list_add, &l), 0);
    CU_ASSERT_EQUAL(swx_storm_reader_feed(r, json, sizeof json - 1), 0);
    CU_ASSERT_EQUAL(swx_storm_reader_finish(r), 0);
    swx_storm_reader_free(r);
    CU_ASSERT_EQUAL_FATAL(l.count, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    swx_storm_geojson *w = NULL;
    CU_ASSERT_EQUAL_FATAL(
        swx_storm_geojson_new(&w, f, 1u << SWX_SK_TRACK_POINT | 1u << SWX_SK_STORM), 0);
    CU_ASSERT_EQUAL(swx_storm_geojson_add(w, l.items[0]), 0);
    CU_ASSERT_EQUAL(swx_storm_geojson_finish(w), 0);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"lat\":12.000001,\"lon\":0,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"wind_gusts\":0.1,\"max_sustained_wind\":-2.25,"
                                        "\"min_mslp\":1013,\"movement_direction\":360,"
                                        "\"movement_speed\":123456.123457,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"coordinates\":[0,12.000001]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"max_sustained_wind\":1.7976931348623157e+308,"
                                        "\"min_mslp\":-1e+300,"));
    /* Whole, and read back as the same doubles. */
    json_object *doc = json_tokener_parse(text), *feats, *props, *v;
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_TRUE_FATAL(json_object_object_get_ex(doc, "features", &feats));
    CU_ASSERT_TRUE_FATAL(
        json_object_object_get_ex(json_object_array_get_idx(feats, 0), "properties", &props));
    CU_ASSERT_TRUE_FATAL(json_object_object_get_ex(props, "max_sustained_wind", &v));
    CU_ASSERT_TRUE(json_object_get_double(v) == 1.7976931348623157e308);
    CU_ASSERT_TRUE_FATAL(json_object_object_get_ex(props, "min_mslp", &v));
    CU_ASSERT_TRUE(json_object_get_double(v) == -1e300);
    json_object_put(doc);
    free(text);
    swx_storm_list_clear(&l);
}

static void test_split(void)
{
    char *texts[SWX_SK_COUNT] = {0};
    size_t lens[SWX_SK_COUNT] = {0};
    FILE *files[SWX_SK_COUNT] = {0};
    for (int k = 0; k < SWX_SK_COUNT; k++)
        if (k != SWX_SK_TRACK_POINT)
            files[k] = open_memstream(&texts[k], &lens[k]);
    swx_storm_geojson *w = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_geojson_new_split(&w, files), 0);
    CU_ASSERT_EQUAL(swx_storm_geojson_add(w, edge.items[2]), 0);
    CU_ASSERT_EQUAL(swx_storm_geojson_finish(w), 0);
    for (int k = 0; k < SWX_SK_COUNT; k++) {
        if (!files[k])
            continue;
        fclose(files[k]);
        json_object *doc = json_tokener_parse(texts[k]), *feats;
        CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
        CU_ASSERT_TRUE(json_object_object_get_ex(doc, "features", &feats));
        CU_ASSERT_EQUAL(json_object_array_length(feats), swx_storm_feature_count(edge.items[2], k));
        json_object_put(doc);
        free(texts[k]);
    }
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("storm_geojson", setup, teardown);
    CU_add_test(s, "hurricane: every kind, counts match", test_hurricane);
    CU_add_test(s, "tracks and radii across 180 are cut", test_antimeridian);
    CU_add_test(s, "the cut meets the meridian on both sides", test_cut_point);
    CU_add_test(s, "inactive, single-position and zero-radii storms", test_inactive_and_single);
    CU_add_test(s, "radii polygons reach the radius", test_radii_size);
    CU_add_test(s, "titles and nulls", test_titles_and_nulls);
    CU_add_test(s, "kinds and colours", test_kinds);
    CU_add_test(s, "document read back", test_document);
    CU_add_test(s, "numbers: six decimals, huge values whole", test_numbers);
    CU_add_test(s, "one file per kind", test_split);
    return cu_run();
}
