/* test_storm.c: the storm model: categories, ATCF ids, JSON parsing with nulls
 * kept, the streaming reader, and query checks. */
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

static void test_categories(void)
{
    static const char *const order[] = {"XX", "DS",  "IN",  "PT",  "LO",  "SS", "TD",
                                        "TS", "TC1", "TC2", "TC3", "TC4", "TC5"};
    for (int i = 0; i < 13; i++) {
        CU_ASSERT_EQUAL(swx_storm_category_rank(order[i]), i);
        CU_ASSERT_STRING_EQUAL(swx_storm_category_code(i), order[i]);
    }
    CU_ASSERT_EQUAL(swx_storm_category_rank("tc3"), 10);
    CU_ASSERT_EQUAL(swx_storm_category_rank("H1"), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank(NULL), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank(""), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank("T"), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank("TC12"), -1);
    CU_ASSERT_EQUAL(swx_storm_category_rank("tC5"), 12);
    CU_ASSERT_EQUAL(swx_storm_category_rank("xx"), 0);
    CU_ASSERT_PTR_NULL(swx_storm_category_code(13));
    CU_ASSERT_TRUE(swx_storm_category_rank("TC1") > swx_storm_category_rank("TS"));
    CU_ASSERT_TRUE(swx_storm_basin_known("WP"));
    CU_ASSERT_TRUE(swx_storm_subbasin_known("GM"));
    CU_ASSERT_FALSE(swx_storm_basin_known("GM"));
}

static void test_atcf(void)
{
    char basin[3];
    int num = 0, year = 0;
    CU_ASSERT_EQUAL(swx_storm_atcf_parse("AL022024", basin, &num, &year), 0);
    CU_ASSERT_STRING_EQUAL(basin, "AL");
    CU_ASSERT_EQUAL(num, 2);
    CU_ASSERT_EQUAL(year, 2024);
    CU_ASSERT_EQUAL(swx_storm_atcf_parse("wp311990", basin, &num, &year), 0);
    CU_ASSERT_STRING_EQUAL(basin, "WP");
    CU_ASSERT_EQUAL(num, 31);
    CU_ASSERT_EQUAL(swx_storm_atcf_parse("AL2024", basin, &num, &year), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "AL2024"));
    CU_ASSERT_EQUAL(swx_storm_atcf_parse("A1022024", basin, &num, &year), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_atcf_parse("AL02202X", basin, &num, &year), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_storm_atcf_parse(NULL, basin, &num, &year), SWX_EINVAL);
}

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

/* The reader gives the same storms whatever the chunks the bytes arrive in. */
static void test_reader_chunks(void)
{
    size_t len;
    char *text = cu_fixture("storms/edge.json", &len);
    size_t sizes[] = {1, 2, 7, 64, 1000, 4096};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        swx_storm_list l = {0};
        swx_storm_reader *r = NULL;
        CU_ASSERT_EQUAL_FATAL(swx_storm_reader_new(&r, swx_storm_list_add, &l), 0);
        int rc = 0;
        /* Each chunk in a buffer of its own, gone after the call, as a
         * network chunk is: nothing may point into an earlier one. */
        for (size_t at = 0; at < len && !rc; at += sizes[k]) {
            size_t n = len - at < sizes[k] ? len - at : sizes[k];
            char *chunk = malloc(n);
            CU_ASSERT_PTR_NOT_NULL_FATAL(chunk);
            memcpy(chunk, text + at, n);
            rc = swx_storm_reader_feed(r, chunk, n);
            memset(chunk, '#', n);
            free(chunk);
        }
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(swx_storm_reader_finish(r), 0);
        CU_ASSERT_EQUAL(l.count, 5);
        if (l.count == 5) {
            CU_ASSERT_STRING_EQUAL(l.items[4]->atcf_id, "SP052024");
            CU_ASSERT_EQUAL(l.items[1]->nforecast, 7);
        }
        swx_storm_reader_free(r);
        swx_storm_list_clear(&l);
    }
    free(text);
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

static void test_query(void)
{
    swx_storm_query q;
    swx_storm_query_init(&q);
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), 0);
    q.status = "closed";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "closed"));
    swx_storm_query_init(&q);
    q.category = "H5";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    swx_storm_query_init(&q);
    q.region = "XY";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    q.region = "gm";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), 0);
    swx_storm_query_init(&q);
    q.period = "2024-06-01";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    q.period = "2024-06-01T00:00:00Z/2024-05-01T00:00:00Z";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    q.period = "2024-06-01T00:00:00Z/2024-11-30T23:59:59+00:00";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), 0);
    swx_storm_query_init(&q);
    q.limit = 101;
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    q.limit = 100;
    q.offset = -1;
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    swx_storm_query_init(&q);
    q.id = "AL2024";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    swx_storm_query_init(&q);
    q.data_filter = "observed";
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);
    swx_storm_query_init(&q);
    q.intensity = 400;
    CU_ASSERT_EQUAL(swx_storm_query_check(&q), SWX_EINVAL);

    /* The request carries every given filter, limit and offset. */
    swx_storm_query_init(&q);
    q.status = "all";
    q.region = "NA";
    q.intensity = 64;
    q.limit = 10;
    swx_request req;
    swx_query *qs = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_storm_request(&q, 0, 20, &req, &qs), 0);
    CU_ASSERT_STRING_EQUAL(req.path, "/storm/json");
    swx_client_opts o = {0};
    swx_client *c = NULL;
    o.base_url = "http://127.0.0.1:9";
    o.api_key = "secret";
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    char *url = swx_request_display_url(c, &req);
    CU_ASSERT_PTR_NOT_NULL_FATAL(url);
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "status=all"));
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "region=NA"));
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "intensity=64"));
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "limit=10"));
    CU_ASSERT_PTR_NOT_NULL(strstr(url, "offset=20"));
    CU_ASSERT_PTR_NULL(strstr(url, "secret"));
    free(url);
    swx_query_free(qs);
    CU_ASSERT_EQUAL(swx_storm_request(&q, 1, 0, &req, &qs), 0);
    CU_ASSERT_STRING_EQUAL(req.path, "/storm/kmz");
    swx_query_free(qs);
    swx_client_free(c);
}

/* Paging against seawx-sim: pages of 7 until a short one, every storm once. */
static int count_ids(void *ud, const swx_storm *s)
{
    size_t *n = ud;
    (*n)++;
    return s->atcf_id ? 0 : -1;
}

static void test_fetch_paging(void)
{
    cu_sim sim;
    CU_ASSERT_EQUAL_FATAL(cu_sim_start(&sim, NULL), 0);
    swx_client_opts o = {0};
    swx_client *c = NULL;
    o.base_url = sim.base_url;
    o.api_key = "sim-key";
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    swx_storm_query q;
    swx_storm_query_init(&q);
    q.status = "all";
    q.region = "NA";
    q.period = "1995-01-01T00:00:00Z/1996-12-31T23:59:59Z";
    size_t all = 0, paged = 0;
    int pages = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch(c, &q, count_ids, &all, &pages), 0);
    CU_ASSERT_EQUAL(pages, 1);
    CU_ASSERT_TRUE(all > 20);
    q.limit = 7;
    CU_ASSERT_EQUAL(swx_storm_fetch(c, &q, count_ids, &paged, &pages), 0);
    CU_ASSERT_EQUAL(paged, all);
    CU_ASSERT_EQUAL(pages, (int)(all / 7 + 1));
    /* More than 100 storms: several pages of 100. */
    swx_storm_query_init(&q);
    q.status = "inactive";
    q.region = "WP";
    size_t wp = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch(c, &q, count_ids, &wp, &pages), 0);
    CU_ASSERT_TRUE(wp > 1000);
    CU_ASSERT_EQUAL(pages, (int)(wp / 100 + 1));
    /* max_storms stops early. */
    q.max_storms = 150;
    wp = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch(c, &q, count_ids, &wp, &pages), 0);
    CU_ASSERT_EQUAL(wp, 150);
    CU_ASSERT_EQUAL(pages, 2);
    swx_client_free(c);
    cu_sim_stop(&sim);
}

/* The largest top-level element of a JSON array (bytes from '{' to '}'). */
static size_t largest_element(const char *j, size_t n)
{
    size_t best = 0, start = 0;
    int depth = 0, in_str = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = j[i];
        if (in_str) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_str = 0;
        } else if (ch == '"') {
            in_str = 1;
        } else if (ch == '{' || ch == '[') {
            if (depth++ == 1)
                start = i;
        } else if (ch == '}' || ch == ']') {
            if (--depth == 1 && i + 1 - start > best)
                best = i + 1 - start;
        }
    }
    return best;
}

struct ids {
    char **v;
    size_t n, cap;
};

static int keep_id(void *ud, const swx_storm *s)
{
    struct ids *l = ud;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return SWX_ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = strdup(s->atcf_id ? s->atcf_id : "(null)");
    return 0;
}

static void ids_free(struct ids *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static swx_client *sim_client(const cu_sim *sim, int retries)
{
    swx_client_opts o = {0};
    swx_client *c = NULL;
    o.base_url = sim->base_url;
    o.api_key = "sim-key";
    o.max_retries = retries;
    o.retry_base_ms = 10;
    o.retry_max_ms = 50;
    CU_ASSERT_EQUAL_FATAL(swx_client_new(&c, &o), 0);
    return c;
}

/* The whole archive in pages of 100, read as it arrives: the storm JSON held
 * at once is bounded by the largest storm (plus one network chunk), not by a
 * page, which the same reader fed whole pages does hold. */
static void test_fetch_held_by_storm(void)
{
    cu_sim sim;
    CU_ASSERT_EQUAL_FATAL(cu_sim_start(&sim, NULL), 0);
    swx_client *c = sim_client(&sim, 0);
    swx_storm_query q;
    swx_storm_query_init(&q);
    q.status = "all";
    struct ids got = {0};
    int pages = 0;
    size_t held = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch_held(c, &q, keep_id, &got, &pages, &held), 0);
    CU_ASSERT_TRUE(got.n > 1000);
    CU_ASSERT_EQUAL(pages, (int)(got.n / 100 + 1));

    /* The same pages fetched whole: their largest storm and largest page. */
    size_t largest = 0, largest_page = 0, whole_held = 0, n = 0;
    for (long off = 0;; off += 100) {
        swx_request req;
        swx_query *qs = NULL;
        swx_response *resp = NULL;
        swx_storm_reader *r = NULL;
        CU_ASSERT_EQUAL_FATAL(swx_storm_request(&q, 0, off, &req, &qs), 0);
        CU_ASSERT_EQUAL_FATAL(swx_http_get(c, &req, &resp), 0);
        size_t e = largest_element(resp->body, resp->len);
        largest = e > largest ? e : largest;
        largest_page = resp->len > largest_page ? resp->len : largest_page;
        CU_ASSERT_EQUAL_FATAL(swx_storm_reader_new(&r, NULL, NULL), 0);
        CU_ASSERT_EQUAL(swx_storm_reader_feed(r, resp->body, resp->len), 0);
        CU_ASSERT_EQUAL(swx_storm_reader_finish(r), 0);
        size_t k = swx_storm_reader_count(r);
        n += k;
        if (swx_storm_reader_held_max(r) > whole_held)
            whole_held = swx_storm_reader_held_max(r);
        swx_storm_reader_free(r);
        swx_response_free(resp);
        swx_query_free(qs);
        if (k < 100)
            break;
    }
    CU_ASSERT_EQUAL(n, got.n);
    CU_ASSERT_TRUE(largest > 0);
    CU_ASSERT_TRUE(held <= largest + 64 * 1024);
    CU_ASSERT_TRUE(whole_held == largest_page);
    CU_ASSERT_TRUE(held < largest_page / 4);
    if (!(held <= largest + 64 * 1024) || !(held < largest_page / 4))
        fprintf(stderr, "\n  held %zu, largest storm %zu, largest page %zu\n", held, largest,
                largest_page);
    ids_free(&got);
    swx_client_free(c);
    cu_sim_stop(&sim);
}

/* Pages that break off half way are asked for again; the storms the broken
 * answer already gave are not given twice, none is lost. */
static void test_fetch_broken_pages(void)
{
    cu_sim sim, faulty;
    const char *const args[] = {"--ptrunc",     "0.5", "--faults-on", "other",
                                "--fault-seed", "7",   NULL};
    CU_ASSERT_EQUAL_FATAL(cu_sim_start(&sim, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(cu_sim_start(&faulty, args), 0);
    swx_client *c = sim_client(&sim, 0), *cf = sim_client(&faulty, 30);
    swx_storm_query q;
    swx_storm_query_init(&q);
    q.status = "inactive";
    q.region = "WP";
    q.limit = 50;
    struct ids a = {0}, b = {0};
    int pa = 0, pb = 0;
    CU_ASSERT_EQUAL(swx_storm_fetch(c, &q, keep_id, &a, &pa), 0);
    int rc = swx_storm_fetch(cf, &q, keep_id, &b, &pb);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        fprintf(stderr, "\n  %s\n", swx_error_last());
    CU_ASSERT_TRUE(a.n > 1000);
    CU_ASSERT_EQUAL(a.n, b.n);
    CU_ASSERT_EQUAL(pa, pb);
    int same = a.n == b.n;
    for (size_t i = 0; same && i < a.n; i++)
        same = strcmp(a.v[i], b.v[i]) == 0;
    CU_ASSERT_TRUE(same);
    ids_free(&a);
    ids_free(&b);
    swx_client_free(c);
    swx_client_free(cf);
    cu_sim_stop(&sim);
    cu_sim_stop(&faulty);
}

int main(void)
{
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("storm", NULL, NULL);
    CU_add_test(s, "category order and codes", test_categories);
    CU_add_test(s, "ATCF ids", test_atcf);
    CU_add_test(s, "edge storms parsed with every field", test_parse_edge);
    CU_add_test(s, "nulls stay null", test_parse_nulls);
    CU_add_test(s, "parser: json-c's rules, errors in the interface's order", test_parse_rules);
    CU_add_test(s, "parser: syntax errors with element and byte", test_parse_syntax);
    CU_add_test(s, "reader: same storms in any chunks", test_reader_chunks);
    CU_add_test(s, "bad JSON: one clear error", test_bad_json);
    CU_add_test(s, "queries checked and written", test_query);
    CU_add_test(s, "paging against seawx-sim", test_fetch_paging);
    CU_add_test(s, "the archive read as it arrives: held JSON bounded by a storm",
                test_fetch_held_by_storm);
    CU_add_test(s, "broken pages asked again, no storm twice", test_fetch_broken_pages);
    return cu_run();
}
