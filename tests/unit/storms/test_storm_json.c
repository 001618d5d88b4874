/* test_storm_json.c: one storm from JSON (storm_json.c): every field, nulls
 * kept, json-c's rules, syntax errors with element and byte, bad documents. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/http.h"
#include "seawx/storm.h"
#include "storm_priv.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_fixture(const char *rel, swx_storm_list *l)
{
    size_t len;
    char *text = cu_fixture(rel, &len);
    swx_storm_reader *r = NULL;
    int rc = swx_storm_reader_new(&r, swx_storm_list_add, l);
    if (!rc)
        rc = swx_storm_reader_feed(r, text, len);
    if (!rc)
        rc = swx_storm_reader_finish(r);
    swx_storm_reader_free(r);
    free(text);
    return rc;
}

static void test_parse_edge(void)
{
    swx_storm_list l = {0};
    CU_ASSERT_EQUAL_FATAL(read_fixture("storms/edge.json", &l), 0);
    CU_ASSERT_EQUAL_FATAL(l.count, 5);
    const swx_storm *h = l.items[0];
    CU_ASSERT_STRING_EQUAL(h->atcf_id, "AL092024");
    CU_ASSERT_STRING_EQUAL(h->storm_name, "HELGA");
    CU_ASSERT_STRING_EQUAL(h->atcf_basin, "AL");
    CU_ASSERT_EQUAL(h->atcf_number, 9);
    CU_ASSERT_EQUAL(h->atcf_year, 2024);
    CU_ASSERT_EQUAL(h->season, 2024);
    CU_ASSERT_EQUAL(h->is_active, 1);
    CU_ASSERT_EQUAL(h->advisory_number, 23);
    CU_ASSERT_EQUAL(h->advisory_issuance_time, 1728378000); /* 2024-10-08T09:00:00Z */
    CU_ASSERT_EQUAL(h->max_category, 12);
    CU_ASSERT_STRING_EQUAL(h->end_date, "ongoing");
    CU_ASSERT_EQUAL(h->nobserved, 12);
    CU_ASSERT_EQUAL(h->nforecast, 8);
    /* Observed times carry +00:00, forecast times no offset: both UTC. */
    CU_ASSERT_EQUAL(h->observed[0].time, 1728129600); /* 2024-10-05T12:00:00Z */
    CU_ASSERT_EQUAL(h->forecast[1].forecast_hour, 12);
    CU_ASSERT_EQUAL(h->forecast[1].forecast_time, h->observed[11].time + 12 * 3600);
    CU_ASSERT_EQUAL(h->forecast[1].time, SWX_STORM_NULL);
    CU_ASSERT_EQUAL(h->observed[0].forecast_hour, SWX_STORM_NULL);
    /* An empty radii object and thresholds. */
    CU_ASSERT_TRUE(h->observed[0].has_radii_object);
    CU_ASSERT_FALSE(h->observed[0].radii[SWX_STORM_R34].present);
    CU_ASSERT_TRUE(h->observed[5].radii[SWX_STORM_R64].present);
    CU_ASSERT_TRUE(h->observed[5].radii[SWX_STORM_R34].r[0] >
                   h->observed[5].radii[SWX_STORM_R34].r[2]);
    CU_ASSERT_TRUE(isnan(h->forecast[6].min_mslp)); /* null kept */

    const swx_storm *o = l.items[2];
    CU_ASSERT_STRING_EQUAL(o->atcf_id, "EP142023");
    CU_ASSERT_EQUAL(o->is_active, 0);
    CU_ASSERT_EQUAL(o->advisory_number, SWX_STORM_NULL);
    CU_ASSERT_EQUAL(o->advisory_issuance_time, SWX_STORM_NULL);
    CU_ASSERT_EQUAL(o->nforecast, 0);
    CU_ASSERT_STRING_EQUAL(swx_storm_status(o), "inactive");

    const swx_storm *d = l.items[3];
    CU_ASSERT_STRING_EQUAL(d->storm_name, "");
    CU_ASSERT_STRING_EQUAL(swx_storm_title(d), "NI032024");
    CU_ASSERT_EQUAL(d->nobserved, 1);
    CU_ASSERT_TRUE(isnan(d->observed[0].wind_gusts));
    CU_ASSERT_TRUE(isnan(d->observed[0].movement_speed));

    const swx_storm *t = l.items[1];
    for (size_t i = 0; i < t->nobserved; i++)
        CU_ASSERT_TRUE(t->observed[i].lon >= -180 && t->observed[i].lon < 180);
    swx_storm_list_clear(&l);
}

static void test_parse_nulls(void)
{
    swx_storm_list l = {0};
    CU_ASSERT_EQUAL_FATAL(read_fixture("storms/nulls.json", &l), 0);
    CU_ASSERT_EQUAL_FATAL(l.count, 1);
    const swx_storm *s = l.items[0];
    CU_ASSERT_PTR_NULL(s->storm_name);
    CU_ASSERT_PTR_NULL(s->subbasin);
    CU_ASSERT_PTR_NULL(s->max_development_category);
    CU_ASSERT_EQUAL(s->max_category, -1);
    CU_ASSERT_EQUAL(s->is_active, -1);
    CU_ASSERT_PTR_NULL(swx_storm_status(s));
    CU_ASSERT_TRUE(isnan(s->max_sustained_wind));
    CU_ASSERT_PTR_NULL(s->observed[0].category_code);
    CU_ASSERT_EQUAL(s->observed[0].category, -1);
    CU_ASSERT_DOUBLE_EQUAL(s->observed[0].lon, -110.0, 1e-9); /* 250 east normalised */
    CU_ASSERT_EQUAL(s->observed[0].time, 1748736000);         /* no offset: UTC */
    CU_ASSERT_STRING_EQUAL(swx_storm_title(s), "EP012025");
    swx_storm_list_clear(&l);
}

/* Reads a short JSON text through a reader, in chunks of `chunk` bytes (0:
 * at once). */
static int read_text(const char *text, size_t chunk, swx_storm_list *l)
{
    size_t len = strlen(text);
    swx_storm_reader *r = NULL;
    int rc = swx_storm_reader_new(&r, swx_storm_list_add, l);
    if (!chunk)
        chunk = len;
    for (size_t at = 0; at < len && !rc; at += chunk)
        rc = swx_storm_reader_feed(r, text + at, len - at < chunk ? len - at : chunk);
    if (!rc)
        rc = swx_storm_reader_finish(r);
    swx_storm_reader_free(r);
    return rc;
}

/* The parser keeps json-c's rules: the last of a member given twice wins,
 * keys may be escaped, integers may come as strings or whole doubles, and
 * type errors come out in the interface's order of members, naming the
 * storm wherever its atcf_id stands. */
static void test_parse_rules(void)
{
    swx_storm_list l = {0};
    CU_ASSERT_EQUAL_FATAL(
        read_text("[{\"atcf_id\":\"AL012024\",\"season\":\"x\",\"season\":2024,"
                  "\"st\\u006frm_name\":\"ANA\",\"observed_track\":[{\"lat\":1,\"lon\":2}],"
                  "\"observed_track\":[{\"lat\":3,\"lon\":4,\"lat\":5},{\"lat\":7,\"lon\":8}]}]",
                  0, &l),
        0);
    CU_ASSERT_EQUAL_FATAL(l.count, 1);
    CU_ASSERT_EQUAL(l.items[0]->season, 2024);
    CU_ASSERT_STRING_EQUAL(l.items[0]->storm_name, "ANA");
    CU_ASSERT_EQUAL(l.items[0]->nobserved, 2);
    CU_ASSERT_DOUBLE_EQUAL(l.items[0]->observed[0].lat, 5, 0);
    swx_storm_list_clear(&l);

    CU_ASSERT_EQUAL_FATAL(
        read_text("[{\"atcf_id\":\"AL012024\",\"season\":\"2024\",\"advisory_number\":12.0,"
                  "\"observed_track\":[{\"lat\":1,\"lon\":2,\"wind_extent_radii\":[],"
                  "\"forecast_hour\":\"6\"}]}]",
                  0, &l),
        0);
    CU_ASSERT_EQUAL_FATAL(l.count, 1);
    CU_ASSERT_EQUAL(l.items[0]->season, 2024);
    CU_ASSERT_EQUAL(l.items[0]->advisory_number, 12);
    CU_ASSERT_TRUE(l.items[0]->observed[0].has_radii_object);
    CU_ASSERT_EQUAL(l.items[0]->observed[0].forecast_hour, 6);
    swx_storm_list_clear(&l);

    CU_ASSERT_EQUAL(read_text("[{\"observed_track\":[{\"lat\":\"x\",\"lon\":2}],"
                              "\"season\":\"y\",\"atcf_id\":\"AL012024\"}]",
                              0, &l),
                    SWX_EPARSE);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "storm AL012024: 'season' is not an integer");
    CU_ASSERT_EQUAL(read_text("[{\"atcf_id\":\"AL012024\",\"observed_track\":[{\"lat\":1,"
                              "\"lon\":2},{\"lon\":\"x\",\"lat\":\"y\"},{\"lat\":true}]}]",
                              0, &l),
                    SWX_EPARSE);
    CU_ASSERT_STRING_EQUAL(swx_error_last(),
                           "storm AL012024 observed_track[1]: 'lat' is not a number");
    CU_ASSERT_EQUAL(read_text("[{\"atcf_id\":\"AL012024\",\"observed_track\":[{\"lat\":1,"
                              "\"lon\":2,\"wind_extent_radii\":{\"34kts\":{\"ne\":-5}}}]}]",
                              0, &l),
                    SWX_EPARSE);
    CU_ASSERT_STRING_EQUAL(swx_error_last(),
                           "storm AL012024 observed_track[0]: 'ne' is not a radius >= 0");
    CU_ASSERT_EQUAL(read_text("[{\"season\":2024}]", 0, &l), SWX_EPARSE);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "a storm object has no atcf_id");
    CU_ASSERT_EQUAL(l.count, 0);
}

/* Syntax errors name the element and the byte, whether the element came in
 * one chunk or in many; what json-c's lenient mode took is refused. */
static void test_parse_syntax(void)
{
    static const char *const texts[] = {
        "[{\"atcf_id\":\"AL012024\",}]",                 /* trailing comma */
        "[{\"atcf_id\":\"AL012024\" /* c */}]",          /* comment */
        "[{\"atcf_id\":\"AL012024\",\"season\":02024}]", /* leading zero */
    };
    static const char *const want[] = {
        "malformed storm JSON in element 1 at byte 24: a member name expected, found '}'",
        "malformed storm JSON in element 1 at byte 24: ',' or '}' expected, found '/'",
        "malformed storm JSON in element 1 at byte 34: a number with a leading zero",
    };
    swx_storm_list l = {0};
    for (size_t i = 0; i < 3; i++)
        for (size_t chunk = 0; chunk < 6; chunk += 5) {
            CU_ASSERT_EQUAL(read_text(texts[i], chunk, &l), SWX_EPARSE);
            CU_ASSERT_STRING_EQUAL(swx_error_last(), want[i]);
        }
    /* A second element, after a good first one. */
    CU_ASSERT_EQUAL(read_text("[{\"atcf_id\":\"AL012024\"},\n{\"atcf_id\" \"AL022024\"}]", 0, &l),
                    SWX_EPARSE);
    CU_ASSERT_STRING_EQUAL(
        swx_error_last(), "malformed storm JSON in element 2 at byte 37: ':' expected, found '\"'");
    CU_ASSERT_EQUAL(l.count, 1);
    swx_storm_list_clear(&l);
    /* Nesting past 64 levels, whole and in pieces. */
    char deep[256];
    int n = snprintf(deep, sizeof deep, "[{\"atcf_id\":\"AL012024\",\"x\":");
    for (int k = 0; k < 70; k++)
        deep[n++] = '[';
    for (int k = 0; k < 70; k++)
        deep[n++] = ']';
    snprintf(deep + n, sizeof deep - (size_t)n, "}]");
    for (size_t chunk = 0; chunk < 20; chunk += 13) {
        CU_ASSERT_EQUAL(read_text(deep, chunk, &l), SWX_EPARSE);
        CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "nested too deeply"));
    }
    CU_ASSERT_EQUAL(l.count, 0);

    /* One object on its own. */
    swx_storm *s = NULL;
    static const char one[] =
        "{\"atcf_id\":\"AL012024\",\"observed_track\":[{\"lat\":1,\"lon\":2}]}\n";
    CU_ASSERT_EQUAL_FATAL(swx_storm_parse_json(&s, one, strlen(one)), 0);
    CU_ASSERT_EQUAL(s->nobserved, 1);
    swx_storm_free(s);
    CU_ASSERT_EQUAL(swx_storm_parse_json(&s, "{\"atcf_id\":\"AL012024\"} x", 24), SWX_EPARSE);
    CU_ASSERT_STRING_EQUAL(
        swx_error_last(),
        "malformed storm JSON at byte 24: the end of the text expected, found 'x'");
    CU_ASSERT_PTR_NULL(s);
    CU_ASSERT_EQUAL(swx_storm_parse_json(&s, "[1]", 3), SWX_EPARSE);
    CU_ASSERT_STRING_EQUAL(swx_error_last(), "a storm is not a JSON object");
}

static void test_bad_json(void)
{
    swx_storm_list l = {0};
    CU_ASSERT_EQUAL(read_fixture("storms/malformed.json", &l), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "malformed"));
    swx_storm_list_clear(&l);
    CU_ASSERT_EQUAL(read_fixture("storms/truncated.json", &l), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "truncated"));
    swx_storm_list_clear(&l);
    CU_ASSERT_EQUAL(read_fixture("storms/object.json", &l), SWX_ESERVICE);
    swx_storm_list_clear(&l);
    CU_ASSERT_EQUAL(read_fixture("storms/bad_type.json", &l), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "season"));
    swx_storm_list_clear(&l);
    CU_ASSERT_EQUAL(read_fixture("storms/bad_latlon.json", &l), SWX_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "lat"));
    swx_storm_list_clear(&l);
    CU_ASSERT_EQUAL(read_fixture("storms/empty.json", &l), 0);
    CU_ASSERT_EQUAL(l.count, 0);
    swx_storm_list_clear(&l);
    CU_ASSERT_EQUAL(swx_storm_read_file("/nonexistent/storms.json", NULL, NULL), SWX_EIO);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("storm_json", NULL, NULL);
    CU_add_test(s, "edge storms parsed with every field", test_parse_edge);
    CU_add_test(s, "nulls stay null", test_parse_nulls);
    CU_add_test(s, "parser: json-c's rules, errors in the interface's order", test_parse_rules);
    CU_add_test(s, "parser: syntax errors with element and byte", test_parse_syntax);
    CU_add_test(s, "bad JSON: one clear error", test_bad_json);
    return cu_run();
}
