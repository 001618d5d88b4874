/* test_storm_geojson.c: storm feature values and their GeoJSON
 * (storm_feature.c, storm_geojson.c): nulls, titles, kinds and colours, and
 * the written document read back by json-c, and how long each fix stands
 * (valid_until). */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/storm.h"
#include "seawx/storm_geojson.h"
#include "storm_feature.h"
#include "storm_priv.h"

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
    size_t n = swx_storm_fields(&tab, f->kind);
    for (size_t i = 0; i < n; i++) {
        swx_storm_value x;
        swx_storm_feature_value(&x, f, i);
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
    CU_ASSERT_EQUAL(swx_storm_kinds_parse(&m, "storm,wind_radii"), 0);
    CU_ASSERT_EQUAL(m, (1u << SWX_SK_STORM) | (1u << SWX_SK_WIND_RADII));
    CU_ASSERT_EQUAL(swx_storm_kinds_parse(&m, "track_points"), 0);
    CU_ASSERT_EQUAL(m, 1u << SWX_SK_TRACK_POINT);
    CU_ASSERT_EQUAL(swx_storm_kinds_parse(&m, "storm,,radii"), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_kinds_parse(&m, ""), SWX_EINVAL);
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

/* valid_until, collected by kind and track in feature order. */
struct untils {
    int64_t obs[8], fc[8], radii_obs[8], radii_fc[8];
    size_t nobs, nfc, nradii_obs, nradii_fc;
};

static int collect_until(void *ud, const swx_storm_feature *f)
{
    struct untils *u = ud;
    const swx_storm_field *tab;
    size_t n = swx_storm_fields(&tab, f->kind);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(tab[i].name, "valid_until") != 0)
            continue;
        swx_storm_value x;
        swx_storm_feature_value(&x, f, i);
        int64_t t = x.null ? -1 : x.i;
        if (f->kind == SWX_SK_FORECAST_POINT && u->nfc < 8)
            u->fc[u->nfc++] = t;
        else if (f->kind == SWX_SK_WIND_RADII && f->forecast && u->nradii_fc < 8)
            u->radii_fc[u->nradii_fc++] = t;
        else if (f->kind == SWX_SK_WIND_RADII && u->nradii_obs < 8)
            u->radii_obs[u->nradii_obs++] = t;
        else if (u->nobs < 8)
            u->obs[u->nobs++] = t;
    }
    return 0;
}

/* A fix stands until the next fix along the track (observed, then forecast)
 * with a later time: a repeated time and the last observed position's twin
 * at forecast hour 0 are passed over, a 72 h gap is held whole, the last fix
 * stands 12 h, and a fix with no time has no end. */
static void test_valid_until(void)
{
    const int64_t T = 1700000000, H = 3600;
    const int64_t obs[] = {T, T + 6 * H, T + 6 * H, T + 12 * H};
    const int64_t fc[] = {T + 12 * H, T + 24 * H, SWX_STORM_NULL, T + 96 * H};
    swx_storm *s = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_new_empty(&s), 0);
    s->atcf_id = swx_storm_str(s, "AL012024", 8);
    for (int i = 0; i < 8; i++) {
        swx_storm_pos *p;
        CU_ASSERT_EQUAL_FATAL(swx_storm_add_pos(&p, s, i >= 4), 0);
        p->lon = -40;
        p->lat = 10 + i;
        p->radii[0].present = 1;
        p->radii[0].r[0] = 60;
        p->radii[0].r[1] = p->radii[0].r[2] = p->radii[0].r[3] = 0;
        if (i < 4)
            p->time = obs[i];
        else
            p->forecast_time = fc[i - 4];
    }
    CU_ASSERT_EQUAL_FATAL(swx_storm_finish(s), 0);
    swx_storm_geo *g = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_geo_new(&g), 0);
    struct untils u = {0};
    CU_ASSERT_EQUAL(swx_storm_features(g, s,
                                       (1u << SWX_SK_FORECAST_POINT) | (1u << SWX_SK_WIND_RADII) |
                                           (1u << SWX_SK_TRACK_POINT),
                                       collect_until, &u),
                    0);
    CU_ASSERT_EQUAL(u.nobs, 0); /* track points have no valid_until */
    const int64_t want_obs[] = {T + 6 * H, T + 12 * H, T + 12 * H, T + 24 * H};
    const int64_t want_fc[] = {T + 24 * H, T + 96 * H, -1, T + 108 * H};
    CU_ASSERT_EQUAL_FATAL(u.nradii_obs, 4);
    CU_ASSERT_EQUAL_FATAL(u.nfc, 4);
    CU_ASSERT_EQUAL_FATAL(u.nradii_fc, 4);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(u.radii_obs[i], want_obs[i]);
        CU_ASSERT_EQUAL(u.fc[i], want_fc[i]);
        CU_ASSERT_EQUAL(u.radii_fc[i], want_fc[i]);
    }
    swx_storm_geo_free(g);
    swx_storm_free(s);
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
    CU_add_test(s, "titles and nulls", test_titles_and_nulls);
    CU_add_test(s, "kinds and colours", test_kinds);
    CU_add_test(s, "document read back", test_document);
    CU_add_test(s, "numbers: six decimals, huge values whole", test_numbers);
    CU_add_test(s, "one file per kind", test_split);
    CU_add_test(s, "a fix stands until the next later one", test_valid_until);
    return cu_run();
}
