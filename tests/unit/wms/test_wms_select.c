/* test_wms_select.c: what a user names of a bundle resolved against its
 * capabilities (lib/wms/wms_select.c): runs in each form, a layer by name or
 * by variable and run (the newest complete run by the rule of
 * seawx/wms_caps.h, worked out here from the fixture), valid times one by one
 * and in lists and intervals up to SWX_SELECT_MAX_TIMES, styles and CRSs by
 * every name they go by; each refusal with its code and the names it lists. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/wms_caps.h"
#include "seawx/wms_select.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static swx_caps *nested, *interval, *sel;

static swx_caps *load(const char *fixture)
{
    char path[256];
    size_t len = 0;
    snprintf(path, sizeof path, "caps/%s", fixture);
    char *xml = cu_fixture(path, &len);
    swx_caps *caps = NULL;
    if (swx_caps_parse(&caps, xml, len))
        fprintf(stderr, "%s: %s\n", fixture, swx_error_last());
    free(xml);
    return caps;
}

static int setup(void)
{
    nested = load("nested.xml");
    interval = load("interval.xml");
    sel = load("select.xml");
    return nested && interval && sel ? 0 : -1;
}

static int teardown(void)
{
    swx_caps_free(nested);
    swx_caps_free(interval);
    swx_caps_free(sel);
    return 0;
}

/* rc is code and the error line holds each of the NULL-terminated strings
 * (line: the caller's, for the report). */
#define fails(...) fails_at(__LINE__, __VA_ARGS__)
static void fails_at(int line, int rc, int code, ...)
{
    if (rc != code)
        fprintf(stderr, "\n  line %d: %d, not %d (%s)\n", line, rc, code, swx_error_last());
    CU_ASSERT_EQUAL(rc, code);
    va_list ap;
    va_start(ap, code);
    for (const char *s; (s = va_arg(ap, const char *));) {
        if (!strstr(swx_error_last(), s)) {
            fprintf(stderr, "\n  line %d: error line '%s' lacks '%s'\n", line, swx_error_last(), s);
            CU_FAIL("error line lacks an expected part");
        }
    }
    va_end(ap);
}

static const swx_layer *leaf(const swx_caps *caps, const char *name)
{
    const swx_layer *l = swx_caps_find(caps, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    return l;
}

/* ---- runs ---- */

static void test_run_parse(void)
{
    int64_t t = 0;
    const char *latest[] = {NULL, "", "latest", "LATEST", "Latest"};
    for (size_t i = 0; i < sizeof latest / sizeof *latest; i++) {
        t = 0;
        CU_ASSERT_EQUAL(swx_select_run_parse(&t, latest[i]), 0);
        CU_ASSERT_EQUAL(t, INT64_MIN);
    }
    /* YYYYMMDDHH and ISO 8601 name the same instant. */
    int64_t want = cu_time("2024-10-01T06:00:00Z");
    CU_ASSERT_EQUAL(swx_select_run_parse(&t, "2024100106"), 0);
    CU_ASSERT_EQUAL(t, want);
    CU_ASSERT_EQUAL(swx_select_run_parse(&t, "2024-10-01T06:00:00Z"), 0);
    CU_ASSERT_EQUAL(t, want);
    CU_ASSERT_EQUAL(swx_select_run_parse(&t, "2024-10-01T08:00:00+02:00"), 0);
    CU_ASSERT_EQUAL(t, want);
    CU_ASSERT_EQUAL(swx_select_run_parse(NULL, "2024100106"), 0); /* only checked */
    /* Nine and eleven digits, a month 13, words. */
    fails(swx_select_run_parse(&t, "202410010"), SWX_EINVAL, "'202410010'", NULL);
    fails(swx_select_run_parse(&t, "20241001066"), SWX_EINVAL, "'20241001066'", NULL);
    fails(swx_select_run_parse(&t, "2024130100"), SWX_EINVAL, "'2024130100'", NULL);
    fails(swx_select_run_parse(&t, "newest"), SWX_EINVAL, "'newest'", "latest", "YYYYMMDDHH", NULL);
    fails(swx_select_run_parse(NULL, " latest"), SWX_EINVAL, NULL);
}

/* ---- layers ---- */

static void selects(const char *variable, const char *run, const char *want)
{
    const swx_layer *l = (const swx_layer *)1;
    int rc = swx_select_layer(&l, nested, "basic", NULL, variable, run);
    if (rc)
        fprintf(stderr, "\n  %s %s: %s\n", variable, run ? run : "(null)", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    if (strcmp(swx_layer_name(l), want))
        fprintf(stderr, "\n  %s %s: %s, not %s\n", variable, run ? run : "(null)",
                swx_layer_name(l), want);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(l), want);
}

static void test_layer_by_name(void)
{
    const swx_layer *l = NULL;
    CU_ASSERT_EQUAL(swx_select_layer(&l, nested, "basic", "sof-d/20241001/06/r", NULL, NULL), 0);
    CU_ASSERT_PTR_EQUAL(l, swx_caps_find(nested, "sof-d/20241001/06/r"));
    /* The name wins over variable and run. */
    CU_ASSERT_EQUAL(swx_select_layer(&l, nested, "basic", "sof-d/20241001/00/t2m:F", "r", "bad"),
                    0);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(l), "sof-d/20241001/00/t2m:F");
    /* A name is matched whole: no prefix, no other case. */
    l = (const swx_layer *)1;
    fails(swx_select_layer(&l, nested, "basic", "sof-d/20241001/06/R", NULL, NULL), SWX_ENOTFOUND,
          "'sof-d/20241001/06/R'", "bundle basic", "t2m, r, 10u, tcc", NULL);
    CU_ASSERT_PTR_NULL(l);
    fails(swx_select_layer(&l, nested, "basic", "sof-d/20241001/06", NULL, NULL), SWX_ENOTFOUND,
          NULL);
    /* Neither a layer nor a variable. */
    l = (const swx_layer *)1;
    fails(swx_select_layer(&l, nested, "basic", NULL, NULL, NULL), SWX_EINVAL,
          "name a layer or a variable of bundle basic", NULL);
    CU_ASSERT_PTR_NULL(l);
    fails(swx_select_layer(&l, nested, "basic", "", "", "latest"), SWX_EINVAL, NULL);
}

/* The fixture's runs, valid times counted by hand:
 *   t2m:K  20241001/00 (10), 20241001/06 (6), 20241002/00 (4: fewer than the
 *          10 of 20241001/00, the same hour: incomplete)
 *   t2m:F  20241001/00 (10)
 *   r      20241001/00 (10), 20241001/06 (6), 20241002/00 (10: complete)
 *   10u    20241001/00 (10), 20241001/06 (6)
 *   tcc:%  20241002/00 (no time dimension) */
static void test_layer_latest(void)
{
    selects("t2m:K", NULL, "sof-d/20241001/06/t2m:K");
    selects("t2m:K", "latest", "sof-d/20241001/06/t2m:K");
    selects("t2m:K", "LATEST", "sof-d/20241001/06/t2m:K");
    selects("r", NULL, "sof-d/20241002/00/r");
    selects("t2m:F", "", "sof-d/20241001/00/t2m:F");
    selects("10u:m s-1", NULL, "sof-d/20241001/06/10u:m s-1");
    selects("10u", NULL, "sof-d/20241001/06/10u:m s-1");
    selects("tcc:%", NULL, "sof-d/20241002/00/tcc:%");
    /* Without a unit, the runs of every unit: K's 06 run is the newest
     * complete one of t2m. */
    selects("t2m", NULL, "sof-d/20241001/06/t2m:K");
}

static void test_layer_by_run(void)
{
    /* A run named is taken even while incomplete. */
    selects("t2m:K", "2024100200", "sof-d/20241002/00/t2m:K");
    selects("t2m:K", "2024-10-02T00:00:00Z", "sof-d/20241002/00/t2m:K");
    selects("t2m:K", "2024100100", "sof-d/20241001/00/t2m:K");
    selects("r", "2024-10-01T06:00:00Z", "sof-d/20241001/06/r");
    selects("t2m:F", "2024100100", "sof-d/20241001/00/t2m:F");

    const swx_layer *l = (const swx_layer *)1;
    /* A run the variable does not have lists those it has, newest first. */
    fails(swx_select_layer(&l, nested, "basic", NULL, "t2m:K", "2024100112"), SWX_ENOTFOUND,
          "no run 2024100112 of t2m:K in bundle basic",
          "2024-10-02T00, 2024-10-01T06, 2024-10-01T00", NULL);
    CU_ASSERT_PTR_NULL(l);
    /* t2m:F has one run: 06 is not one of its runs though t2m:K has it. */
    fails(swx_select_layer(&l, nested, "basic", NULL, "t2m:F", "2024100106"), SWX_ENOTFOUND,
          "runs are 2024-10-01T00", NULL);
    /* Unknown variables and units, listing the bundle's variables. */
    fails(swx_select_layer(&l, nested, "basic", NULL, "t2m:C", NULL), SWX_ENOTFOUND,
          "variable 't2m:C' is not in bundle basic", "t2m, r, 10u, tcc", NULL);
    fails(swx_select_layer(&l, nested, "basic", NULL, "swh", "2024100100"), SWX_ENOTFOUND, "'swh'",
          NULL);
    fails(swx_select_layer(&l, nested, "basic", NULL, "T2M:K", NULL), SWX_ENOTFOUND, NULL);
    /* A malformed run is refused before the variable is looked up. */
    fails(swx_select_layer(&l, nested, "basic", NULL, "swh", "tomorrow"), SWX_EINVAL, "'tomorrow'",
          NULL);
    CU_ASSERT_PTR_NULL(l);
}

/* ---- times ---- */

static void test_time(void)
{
    const swx_layer *k00 = leaf(nested, "sof-d/20241001/00/t2m:K");
    int64_t t = 0;
    CU_ASSERT_EQUAL(swx_select_time(&t, k00, NULL), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T00:00:00Z"));
    t = 0;
    CU_ASSERT_EQUAL(swx_select_time(&t, k00, ""), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T00:00:00Z"));
    /* The first and last instants, and one after a gap. */
    CU_ASSERT_EQUAL(swx_select_time(&t, k00, "2024-10-01T17:00:00Z"), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T17:00:00Z"));
    CU_ASSERT_EQUAL(swx_select_time(&t, k00, "2024-10-01T08:00:00Z"), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T08:00:00Z"));
    CU_ASSERT_EQUAL(swx_select_time(&t, k00, "2024-10-01T10:00:00+02:00"), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T08:00:00Z"));
    /* In the gap 05 .. 08: the nearest is 05, then 04 or 08 (two hours each). */
    fails(swx_select_time(&t, k00, "2024-10-01T06:00:00Z"), SWX_ENOTFOUND,
          "time 2024-10-01T06:00:00Z is not a valid time of layer sof-d/20241001/00/t2m:K",
          "nearest: 2024-10-01T05:00:00Z, ", "10 valid times",
          "from 2024-10-01T00:00:00Z to 2024-10-01T17:00:00Z", NULL);
    CU_ASSERT_EQUAL(t, INT64_MIN);
    /* One second past the last, one before the first. */
    fails(swx_select_time(&t, k00, "2024-10-01T17:00:01Z"), SWX_ENOTFOUND,
          "nearest: 2024-10-01T17:00:00Z", NULL);
    fails(swx_select_time(&t, k00, "2024-09-30T23:59:59Z"), SWX_ENOTFOUND,
          "nearest: 2024-10-01T00:00:00Z", NULL);
    fails(swx_select_time(&t, k00, "noon"), SWX_EINVAL, "time", NULL);

    /* Defaults: "+00:00" written out, and "current" as the newest. */
    CU_ASSERT_EQUAL(swx_select_time(&t, leaf(nested, "sof-d/20241002/00/t2m:K"), NULL), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-02T01:00:00Z"));
    CU_ASSERT_EQUAL(swx_select_time(&t, leaf(nested, "sof-d/20241001/06/t2m:K"), NULL), 0);
    CU_ASSERT_EQUAL(t, cu_time("2024-10-01T11:00:00Z"));

    /* A layer without a time dimension takes no time. */
    const swx_layer *tcc = leaf(nested, "sof-d/20241002/00/tcc:%");
    t = 0;
    CU_ASSERT_EQUAL(swx_select_time(&t, tcc, NULL), 0);
    CU_ASSERT_EQUAL(t, INT64_MIN);
    CU_ASSERT_EQUAL(swx_select_time(&t, tcc, ""), 0);
    fails(swx_select_time(&t, tcc, "2024-10-02T00:00:00Z"), SWX_EINVAL, "no time dimension", NULL);
}

static void times_are(const swx_layer *l, const char *spec, size_t n, const char *const *want)
{
    int64_t *v = NULL;
    size_t got = 99;
    int rc = swx_select_times(&v, &got, l, spec);
    if (rc)
        fprintf(stderr, "\n  %s: %s\n", spec ? spec : "(null)", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(got, n);
    for (size_t i = 0; i < n && i < got; i++)
        CU_ASSERT_EQUAL(v[i], cu_time(want[i]));
    free(v);
}

static void test_times(void)
{
    const swx_layer *k00 = leaf(nested, "sof-d/20241001/00/t2m:K");
    const char *all[] = {"2024-10-01T00:00:00Z", "2024-10-01T01:00:00Z", "2024-10-01T02:00:00Z",
                         "2024-10-01T03:00:00Z", "2024-10-01T04:00:00Z", "2024-10-01T05:00:00Z",
                         "2024-10-01T08:00:00Z", "2024-10-01T11:00:00Z", "2024-10-01T14:00:00Z",
                         "2024-10-01T17:00:00Z"};
    times_are(k00, NULL, 1, all);
    times_are(k00, "", 1, all);
    times_are(k00, "all", 10, all);
    times_are(k00, "2024-10-01T00:00:00Z/2024-10-01T05:00:00Z/PT1H", 6, all);
    /* 08 to 17 every 3 hours: exactly the tail after the gap. */
    times_are(k00, "2024-10-01T08:00:00Z/2024-10-01T17:00:00Z/PT3H", 4, all + 6);
    /* A list comes back in increasing order, duplicates once. */
    const char *two[] = {"2024-10-01T01:00:00Z", "2024-10-01T08:00:00Z"};
    times_are(k00, "2024-10-01T08:00:00Z,2024-10-01T01:00:00Z,2024-10-01T08:00:00Z", 2, two);
    times_are(k00, "2024-10-01T17:00:00Z", 1, all + 9);

    int64_t *v = (int64_t *)1;
    size_t n = 99;
    /* One instant the layer lacks spoils the whole list: the first such is named. */
    fails(swx_select_times(&v, &n, k00, "2024-10-01T00:00:00Z/2024-10-01T08:00:00Z/PT1H"),
          SWX_ENOTFOUND, "time 2024-10-01T06:00:00Z is not a valid time", NULL);
    CU_ASSERT_PTR_NULL(v);
    CU_ASSERT_EQUAL(n, 0);
    fails(swx_select_times(&v, &n, k00, "2024-10-01T01:00:00Z,2024-10-01T01:30:00Z"), SWX_ENOTFOUND,
          "2024-10-01T01:30:00Z", NULL);
    /* Text that is no time at all: refused, naming it. */
    CU_ASSERT(swx_select_times(&v, &n, k00, "yesterday") < 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "'yesterday'"));
    CU_ASSERT_PTR_NULL(v);

    /* No time dimension: no times, and none may be asked. */
    const swx_layer *tcc = leaf(nested, "sof-d/20241002/00/tcc:%");
    v = (int64_t *)1;
    n = 99;
    CU_ASSERT_EQUAL(swx_select_times(&v, &n, tcc, NULL), 0);
    CU_ASSERT_EQUAL(n, 0);
    free(v);
    fails(swx_select_times(&v, &n, tcc, "all"), SWX_EINVAL, "no time dimension", NULL);
    CU_ASSERT_PTR_NULL(v);
}

/* SWX_SELECT_MAX_TIMES instants of a layer by the minute, and one more. */
static void test_times_limit(void)
{
    const swx_layer *archive = leaf(interval, "archive");
    const int64_t start = cu_time("2000-01-01T00:00:00Z");
    /* 99 999 minutes after midnight on 1 January 2000 (a leap year: 31 + 29
     * days to 1 March): 69 days 10 h 39 min, 10 March 10:39. */
    CU_ASSERT_EQUAL(start + (int64_t)(SWX_SELECT_MAX_TIMES - 1) * 60,
                    cu_time("2000-03-10T10:39:00Z"));
    int64_t *v = NULL;
    size_t n = 0;
    int rc = swx_select_times(&v, &n, archive, "2000-01-01T00:00:00Z/2000-03-10T10:39:00Z/PT1M");
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(n, SWX_SELECT_MAX_TIMES);
    size_t steps = 0;
    for (size_t i = 0; i < n; i++)
        steps += v[i] == start + (int64_t)i * 60;
    CU_ASSERT_EQUAL(steps, SWX_SELECT_MAX_TIMES);
    free(v);

    v = (int64_t *)1;
    n = 99;
    fails(swx_select_times(&v, &n, archive, "2000-01-01T00:00:00Z/2000-03-10T10:40:00Z/PT1M"),
          SWX_ETOOBIG, "100001 times asked of layer archive", "at most 100000", NULL);
    CU_ASSERT_PTR_NULL(v);
    CU_ASSERT_EQUAL(n, 0);
    /* "all" of a century by the minute: 110 years with 27 leap days
     * (1992 to 2096; 2000 is one, 2100 is past the end). */
    char all[64];
    long long minutes = (110LL * 365 + 27) * 1440 + 1;
    CU_ASSERT_EQUAL(minutes,
                    (cu_time("2100-01-01T00:00:00Z") - cu_time("1990-01-01T00:00:00Z")) / 60 + 1);
    snprintf(all, sizeof all, "%lld times asked of layer archive", minutes);
    fails(swx_select_times(&v, &n, archive, "all"), SWX_ETOOBIG, all, NULL);
    /* The default alone is fine: "current", the newest. */
    CU_ASSERT_EQUAL(swx_select_times(&v, &n, archive, NULL), 0);
    CU_ASSERT_EQUAL(n, 1);
    if (n == 1)
        CU_ASSERT_EQUAL(v[0], cu_time("2100-01-01T00:00:00Z"));
    free(v);
}

/* ---- styles and CRSs ---- */

static void test_style(void)
{
    const swx_layer *k00 = leaf(nested, "sof-d/20241001/00/t2m:K");
    const char *s = NULL;
    CU_ASSERT_EQUAL(swx_select_style(&s, k00, NULL), 0);
    CU_ASSERT_STRING_EQUAL(s, "t2m:K/nearest");
    s = NULL;
    CU_ASSERT_EQUAL(swx_select_style(&s, k00, ""), 0);
    CU_ASSERT_STRING_EQUAL(s, "t2m:K/nearest");
    CU_ASSERT_EQUAL(swx_select_style(&s, k00, "t2m:K/nearestcontour"), 0);
    /* The capabilities' own string, which lives as long as they do. */
    CU_ASSERT_PTR_EQUAL(s, swx_layer_style(k00, 1)->name);
    /* Matched whole and with its case. */
    s = "x";
    fails(swx_select_style(&s, k00, "t2m:K/NEAREST"), SWX_ENOTFOUND,
          "style 't2m:K/NEAREST' is not a style of layer sof-d/20241001/00/t2m:K",
          "styles are t2m:K/nearest, t2m:K/nearestcontour", NULL);
    CU_ASSERT_PTR_NULL(s);
    fails(swx_select_style(&s, k00, "t2m:K/near"), SWX_ENOTFOUND, NULL);
    /* Another layer's style is not this one's. */
    fails(swx_select_style(&s, leaf(nested, "sof-d/20241001/00/t2m:F"), "t2m:K/nearest"),
          SWX_ENOTFOUND, "styles are temp:F/nearest", NULL);

    /* A layer without styles: "" for the default, nothing by name. */
    const swx_layer *bare = leaf(sel, "geographic_only");
    CU_ASSERT_EQUAL(swx_layer_style_count(bare), 0);
    s = NULL;
    CU_ASSERT_EQUAL(swx_select_style(&s, bare, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(s);
    if (s)
        CU_ASSERT_STRING_EQUAL(s, "");
    fails(swx_select_style(&s, bare, "default"), SWX_ENOTFOUND, "styles are (none)", NULL);
}

static void crs_is(const swx_layer *l, const char *crs, const char *want, int want_epsg)
{
    const char *out = NULL;
    int epsg = 0;
    int rc = swx_select_crs(&out, &epsg, l, crs);
    if (rc)
        fprintf(stderr, "\n  %s: %s\n", crs ? crs : "(null)", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(out, want);
    CU_ASSERT_EQUAL(epsg, want_epsg);
}

static void test_crs(void)
{
    /* CRS:84, EPSG:4326, EPSG:3857 from the root, EPSG:3395 from the product. */
    const swx_layer *k00 = leaf(nested, "sof-d/20241001/00/t2m:K");
    crs_is(k00, NULL, "EPSG:4326", 4326);
    crs_is(k00, "", "EPSG:4326", 4326);
    crs_is(k00, "4326", "EPSG:4326", 4326);
    crs_is(k00, "epsg:4326", "EPSG:4326", 4326);
    /* Every name of the geographic CRS asks the preferred one advertised. */
    crs_is(k00, "CRS:84", "EPSG:4326", 4326);
    crs_is(k00, "OGC:CRS84", "EPSG:4326", 4326);
    crs_is(k00, "3857", "EPSG:3857", 3857);
    crs_is(k00, "EPSG:900913", "EPSG:3857", 3857);
    crs_is(k00, "Epsg:3857", "EPSG:3857", 3857);

    /* A layer that knows them by their other names. */
    const swx_layer *other = leaf(sel, "other_names");
    crs_is(other, NULL, "CRS:84", 4326);
    crs_is(other, "EPSG:4326", "CRS:84", 4326);
    crs_is(other, "EPSG:3857", "EPSG:900913", 3857);

    const char *out = "x";
    int epsg = 7;
    /* Advertised but not supported, and supported but not advertised. */
    fails(swx_select_crs(&out, &epsg, k00, "EPSG:3395"), SWX_EINVAL,
          "CRS 'EPSG:3395' is not supported: use EPSG:4326 or EPSG:3857", NULL);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_EQUAL(epsg, 0);
    fails(swx_select_crs(&out, &epsg, k00, "EPSG:43260"), SWX_EINVAL, "not supported", NULL);
    fails(swx_select_crs(&out, &epsg, k00, "43"), SWX_EINVAL, "not supported", NULL);
    fails(swx_select_crs(&out, &epsg, leaf(sel, "geographic_only"), "3857"), SWX_EINVAL,
          "layer geographic_only does not advertise EPSG:3857; it offers EPSG:4326", NULL);
    crs_is(leaf(sel, "geographic_only"), "CRS:84", "EPSG:4326", 4326);
    fails(swx_select_crs(&out, &epsg, leaf(sel, "no_crs"), NULL), SWX_EINVAL,
          "layer no_crs does not advertise EPSG:4326; it offers no CRS", NULL);
    CU_ASSERT_PTR_NULL(out);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("wms_select", setup, teardown);
    CU_add_test(s, "runs: latest, YYYYMMDDHH, ISO 8601, malformed", test_run_parse);
    CU_add_test(s, "a layer by its full name", test_layer_by_name);
    CU_add_test(s, "a variable's newest complete run", test_layer_latest);
    CU_add_test(s, "a variable's run by name", test_layer_by_run);
    CU_add_test(s, "one valid time", test_time);
    CU_add_test(s, "several valid times", test_times);
    CU_add_test(s, "at most SWX_SELECT_MAX_TIMES times", test_times_limit);
    CU_add_test(s, "styles", test_style);
    CU_add_test(s, "CRSs by every name", test_crs);
    return cu_run();
}
