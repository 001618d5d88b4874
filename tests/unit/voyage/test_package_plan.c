/* test_package_plan.c: planning a voyage package (lib/voyage/package_plan.c)
 * against the capabilities of tests/fixtures/voyage/plan_caps.xml, with no
 * request sent: which valid times a package keeps (from the frame a viewer
 * shows at departure, or now, to the last whose window starts before the
 * latest arrival), worked out here from the voyage's definition in
 * seawx/voyage.h with the route's length from the sphere; the limits on
 * layers (none, one, 16, 17, twice, two that make one file name); the least
 * a budget must hold, at that figure and one byte under it; the estimate of
 * the route, manifest and project. */
#include "cu_support.h"

#include "package_int.h"
#include "seawx/error.h"
#include "seawx/package.h"
#include "seawx/sphere.h"
#include "seawx/voyage.h"
#include "seawx/wms_caps.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOUR 3600
#define NM 1852.0
/* Along the meridian 10 E from 10 N to 11 N: one degree of arc, inside one
 * tile at every zoom to 4 (x 8, y 7 at zoom 4: 0 to 22.5 E, 0 to 21.9 N). */
#define ROUTE "lat,lon\n10,10\n11,10\n"
#define ROUTE3 "lat,lon\n10,10\n10.5,10\n11,10\n"
#define KNOTS 10.0
/* What a package plan counts with (documented in lib/voyage/package_priv.h):
 * the fixed cost of an MBTiles file, the least a tile adds, the room for the
 * route, manifest and project, and the route's GeoJSON. */
#define FILE_BYTES 28672.0
#define MIN_TILE_BYTES 40.0
#define EXTRA_FIXED 12288.0
#define EXTRA_PER_FILE 2560.0
#define ROUTE_BYTES(waypoints) (400.0 + 90.0 * (waypoints))
/* The budget's arithmetic is checked without the project's land (no GSHHG
 * there), then the land once with Debian's GSHHG: test_land_counted. */
static const char *land = "/nonexistent/gshhg";

static swx_caps *caps;

static int setup(void)
{
    size_t len = 0;
    char *xml = cu_fixture("voyage/plan_caps.xml", &len);
    int rc = swx_caps_parse(&caps, xml, len);
    if (rc)
        fprintf(stderr, "plan_caps.xml: %s\n", swx_error_last());
    free(xml);
    return rc ? -1 : 0;
}

static int teardown(void)
{
    swx_caps_free(caps);
    return 0;
}

/* A package planned for its test, with what it borrows. */
typedef struct planned {
    swx_voyage *v;
    swx_package_layer layers[SWX_PACKAGE_MAX_LAYERS + 1];
    swx_package_opts o;
    swx_package *p;
    int rc;
} planned;

/* Plans the layers (NULL-terminated specs, each with its zooms and format
 * set here when it gives none) for ROUTE, or route, at KNOTS from depart. */
static void plan_route(planned *pl, const char *route, const char *depart, const char *now,
                       uint64_t budget, const char *const *specs)
{
    memset(pl, 0, sizeof *pl);
    CU_ASSERT_EQUAL_FATAL(swx_voyage_from_route(&pl->v, route, strlen(route)), 0);
    CU_ASSERT_EQUAL_FATAL(swx_voyage_set_speed(pl->v, cu_time(depart), KNOTS, KNOTS), 0);
    size_t n = 0;
    for (; specs[n]; n++) {
        CU_ASSERT_FATAL(n <= SWX_PACKAGE_MAX_LAYERS);
        CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&pl->layers[n], specs[n]), 0);
        if (!pl->layers[n].zooms)
            pl->layers[n].zooms = 1u << 2;
        if (pl->layers[n].format < 0)
            pl->layers[n].format = 0;
    }
    pl->o = (swx_package_opts){.bundle = "maritime",
                               .path = "/nonexistent/package",
                               .voyage = pl->v,
                               .buffer_m = 10 * NM,
                               .layers = pl->layers,
                               .nlayers = n,
                               .tile_size = 256,
                               .budget = budget,
                               .now = cu_time(now),
                               .gshhg = land};
    pl->p = (swx_package *)1;
    pl->rc = swx_package_new(&pl->p, caps, &pl->o);
    if (pl->rc)
        CU_ASSERT_PTR_NULL(pl->p);
}

static void plan(planned *pl, const char *depart, const char *now, uint64_t budget,
                 const char *const *specs)
{
    plan_route(pl, ROUTE, depart, now, budget, specs);
}

static void unplan(planned *pl)
{
    if (pl->rc == 0)
        swx_package_free(pl->p);
    swx_voyage_free(pl->v);
}

/* The error line holds each of the NULL-terminated strings. */
static void says(const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *))
        if (!strstr(swx_error_last(), s)) {
            fprintf(stderr, "\n  error line '%s' lacks '%s'\n", swx_error_last(), s);
            CU_FAIL("error line lacks an expected part");
        }
    va_end(ap);
}

/* The valid times a package keeps of times t[0] < ... < t[n-1] for a voyage
 * from depart at KNOTS along `length` metres, built at now: from the first
 * whose window (half way to its neighbours) has not ended at max(depart,
 * now) (the last planned never counts as ended) to the last whose window
 * starts before the arrival. *first is the index of the first kept,
 * returns how many. */
static size_t kept_times(size_t *first, const int64_t *t, size_t n, int64_t depart, int64_t now,
                         double length)
{
    double arrival = (double)depart + length / (KNOTS * NM / 3600.0);
    size_t planned_n = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || (double)(t[i - 1] + t[i]) / 2 < arrival)
            planned_n = i + 1;
    int64_t from = depart > now ? depart : now;
    size_t f = 0;
    while (f + 1 < planned_n && t[f] + (t[f + 1] - t[f]) / 2 <= from)
        f++;
    *first = f;
    return planned_n - f;
}

static double one_degree(void)
{
    return SWX_EARTH_RADIUS_M * M_PI / 180.0;
}

/* The kept files of layer i against the times every `step` hours of
 * 2026-03-02 (inclusive of the next midnight). */
static void check_files(const planned *pl, size_t i, int step, size_t want_first, size_t want_count)
{
    int64_t t[25];
    size_t n = 0;
    for (int h = 0; h <= 24; h += step)
        t[n++] = cu_time("2026-03-02T00:00:00Z") + (int64_t)h * HOUR;
    int64_t depart;
    double arrival;
    CU_ASSERT_EQUAL_FATAL(swx_voyage_span(&depart, &arrival, pl->v), 0);
    size_t first = 99;
    size_t count = kept_times(&first, t, n, depart, pl->o.now, one_degree());
    /* The hand count and the rule agree... */
    CU_ASSERT_EQUAL(first, want_first);
    CU_ASSERT_EQUAL(count, want_count);
    /* ...and the package keeps those. */
    CU_ASSERT_EQUAL_FATAL(swx_package_file_count(pl->p, i), count);
    for (size_t f = 0; f < count; f++)
        CU_ASSERT_EQUAL(swx_package_file_time(pl->p, i, f), t[first + f]);
    size_t pfirst = 99;
    const swx_seed_plan *sp = swx_package_plan(pl->p, i, &pfirst);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
    CU_ASSERT_EQUAL(pfirst, first);
    CU_ASSERT_EQUAL(swx_seed_plan_file_count(sp), first + count);
}

static void test_route_length(void)
{
    /* The arrival the rule above uses: one degree at 10 kn is 6 h 0 min
     * 14.5 s, so 09:30:14 from 03:30. */
    swx_voyage *v = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_voyage_from_route(&v, ROUTE, strlen(ROUTE)), 0);
    CU_ASSERT_DOUBLE_EQUAL(swx_voyage_length(v), one_degree(), 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(one_degree() / (KNOTS * NM / 3600.0), 6 * HOUR + 14.5, 0.5);
    swx_voyage_free(v);
}

static void test_times_from_departure(void)
{
    const char *swh[] = {"swh", NULL};
    planned pl;
    /* Departure at 03:30, the end of 03:00's window: 04:00 is the first
     * frame; the arrival at 09:30:14 is just inside 10:00's window. */
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, swh);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    CU_ASSERT_EQUAL(swx_package_layer_count(pl.p), 1);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_package_wms_layer(pl.p, 0)),
                           "maritime/20260302/00/swh");
    check_files(&pl, 0, 1, 4, 7);
    unplan(&pl);
    /* One second earlier, 03:00 is still shown at departure. */
    plan(&pl, "2026-03-02T03:29:59Z", "2026-03-01T00:00:00Z", 0, swh);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    check_files(&pl, 0, 1, 3, 8);
    unplan(&pl);
    /* Leaving at 03:29:45, the arrival (09:29:59.5) falls before 10:00's
     * window: one file fewer at the end. */
    plan(&pl, "2026-03-02T03:29:45Z", "2026-03-01T00:00:00Z", 0, swh);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    check_files(&pl, 0, 1, 3, 7);
    unplan(&pl);
}

static void test_times_from_now(void)
{
    const char *swh[] = {"swh", NULL};
    const char *sst[] = {"sst", NULL};
    planned pl;
    /* Built under way at 05:10: 05:00's window runs to 05:30, so it stays. */
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-02T05:10:00Z", 0, swh);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    check_files(&pl, 0, 1, 5, 6);
    unplan(&pl);
    /* At 05:30 exactly it has ended. */
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-02T05:30:00Z", 0, swh);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    check_files(&pl, 0, 1, 6, 5);
    unplan(&pl);
    /* Every 3 hours: 03:00's window runs to 04:30, 09:00's from 07:30 holds
     * the arrival, 12:00's starts at 10:30, after it. */
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, sst);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    check_files(&pl, 0, 3, 1, 3);
    unplan(&pl);
}

static void test_two_layers(void)
{
    const char *both[] = {"swh:style=swh/contour", "sst:zoom=3-4", NULL};
    planned pl;
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, both);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    CU_ASSERT_EQUAL(swx_package_layer_count(pl.p), 2);
    check_files(&pl, 0, 1, 4, 7);
    check_files(&pl, 1, 3, 1, 3);
    /* Each layer's plan has its own zooms: one tile at each, the route being
     * inside one tile down to zoom 4. */
    size_t first;
    const swx_seed_plan *sp = swx_package_plan(pl.p, 1, &first);
    CU_ASSERT_EQUAL(swx_seed_plan_tiles(sp, first, 3), 1);
    CU_ASSERT_EQUAL(swx_seed_plan_tiles(sp, first, 4), 1);
    CU_ASSERT_EQUAL(swx_seed_plan_tiles(sp, first, 2), 0);
    CU_ASSERT_EQUAL(swx_seed_plan_tiles(sp, first, -1), 2);
    /* The options are kept as given. */
    const swx_package_opts *o = swx_package_options(pl.p);
    CU_ASSERT_EQUAL(o->nlayers, 2);
    CU_ASSERT_PTR_EQUAL(o->voyage, pl.v);
    CU_ASSERT_STRING_EQUAL(o->layers[0].style, "swh/contour");
    unplan(&pl);
}

static void test_outside_times(void)
{
    const char *swh[] = {"swh", NULL};
    planned pl;
    /* Leaving after the last valid time, and arriving before the first. */
    plan(&pl, "2026-03-03T00:00:01Z", "2026-03-01T00:00:00Z", 0, swh);
    CU_ASSERT_EQUAL(pl.rc, SWX_ENOTFOUND);
    says("outside the valid times of layer maritime/20260302/00/swh", NULL);
    unplan(&pl);
    plan(&pl, "2026-03-01T17:00:00Z", "2026-03-01T00:00:00Z", 0, swh);
    CU_ASSERT_EQUAL(pl.rc, SWX_ENOTFOUND);
    says("outside the valid times", NULL);
    unplan(&pl);
    /* Leaving at the last valid time is inside: one file. */
    plan(&pl, "2026-03-03T00:00:00Z", "2026-03-01T00:00:00Z", 0, swh);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    CU_ASSERT_EQUAL(swx_package_file_count(pl.p, 0), 1);
    CU_ASSERT_EQUAL(swx_package_file_time(pl.p, 0, 0), cu_time("2026-03-03T00:00:00Z"));
    unplan(&pl);
}

static void test_layer_limits(void)
{
    planned pl;
    const char *none[] = {NULL};
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, none);
    CU_ASSERT_EQUAL(pl.rc, SWX_EINVAL);
    says("a package needs at least one layer", NULL);
    unplan(&pl);

    const char *sixteen[] = {"swh", "sst", "wind:kn", "v01", "v02", "v03", "v04", "v05", "v06",
                             "v07", "v08", "v09",     "v10", "v11", "v12", "v13", NULL};
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, sixteen);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    CU_ASSERT_EQUAL(swx_package_layer_count(pl.p), SWX_PACKAGE_MAX_LAYERS);
    CU_ASSERT_STRING_EQUAL(swx_layer_name(swx_package_wms_layer(pl.p, 15)),
                           "maritime/20260302/00/v13");
    unplan(&pl);

    const char *seventeen[] = {"swh", "sst", "wind:kn", "wind_kn", "v01", "v02",
                               "v03", "v04", "v05",     "v06",     "v07", "v08",
                               "v09", "v10", "v11",     "v12",     "v13", NULL};
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, seventeen);
    CU_ASSERT_EQUAL(pl.rc, SWX_EINVAL);
    says("at most 16 layers in a package", NULL);
    unplan(&pl);

    /* One layer twice; two whose files would have the same name. */
    const char *twice[] = {"swh", "sst", "swh:zoom=3", NULL};
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, twice);
    CU_ASSERT_EQUAL(pl.rc, SWX_EINVAL);
    says("layer swh is given twice", NULL);
    unplan(&pl);
    const char *same_file[] = {"wind:kn", "wind_kn", NULL};
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, same_file);
    CU_ASSERT_EQUAL(pl.rc, SWX_EINVAL);
    says("layer wind_kn is given twice", NULL);
    unplan(&pl);

    /* A variable or style the bundle lacks. */
    const char *unknown[] = {"swh", "hs", NULL};
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, unknown);
    CU_ASSERT_EQUAL(pl.rc, SWX_ENOTFOUND);
    says("'hs'", NULL);
    unplan(&pl);
    const char *bad_style[] = {"swh:style=swh/barbs", NULL};
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, bad_style);
    CU_ASSERT_EQUAL(pl.rc, SWX_ENOTFOUND);
    says("swh/barbs", NULL);
    unplan(&pl);

    /* No voyage. */
    swx_package_layer l;
    CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&l, "swh:zoom=2:format=png"), 0);
    swx_package_opts o = {.bundle = "maritime", .layers = &l, .nlayers = 1, .tile_size = 256};
    swx_package *p = (swx_package *)1;
    CU_ASSERT_EQUAL(swx_package_new(&p, caps, &o), SWX_EINVAL);
    CU_ASSERT_PTR_NULL(p);
    says("voyage", NULL);
}

/* The least a budget must hold: the route, manifest and project, and for
 * each layer an MBTiles file with the tiles of its first valid time at the
 * lowest zoom at their smallest. Here one tile each. */
static void test_budget_least(void)
{
    const char *one[] = {"swh:zoom=2-4", NULL};
    const char *two[] = {"swh:zoom=2-3", "sst:zoom=3-4", NULL};
    double least1 = EXTRA_FIXED + ROUTE_BYTES(2) + FILE_BYTES + EXTRA_PER_FILE + MIN_TILE_BYTES;
    double least2 =
        EXTRA_FIXED + ROUTE_BYTES(2) + 2 * (FILE_BYTES + EXTRA_PER_FILE + MIN_TILE_BYTES);
    char line[160];
    planned pl;

    CU_ASSERT_EQUAL(least1, 44140.0);
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", (uint64_t)least1, one);
    CU_ASSERT_EQUAL(pl.rc, 0);
    unplan(&pl);
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", (uint64_t)least1 - 1, one);
    CU_ASSERT_EQUAL(pl.rc, SWX_EINVAL);
    snprintf(line, sizeof line,
             "a budget of %.0f bytes cannot hold even the first valid time at zoom 2 (at least "
             "%.0f bytes in 1 layer)",
             least1 - 1, least1);
    says(line, NULL);
    unplan(&pl);

    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", (uint64_t)least2, two);
    CU_ASSERT_EQUAL(pl.rc, 0);
    unplan(&pl);
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", (uint64_t)least2 - 1, two);
    CU_ASSERT_EQUAL(pl.rc, SWX_EINVAL);
    snprintf(line, sizeof line, "at zoom 2 (at least %.0f bytes in 2 layers)", least2);
    says(line, NULL);
    unplan(&pl);

    /* A budget of 1 byte is a budget; 0 is none. */
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 1, one);
    CU_ASSERT_EQUAL(pl.rc, SWX_EINVAL);
    unplan(&pl);
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, one);
    CU_ASSERT_EQUAL(pl.rc, 0);
    unplan(&pl);
}

static void test_quote_extra(void)
{
    const char *two[] = {"swh", "sst", NULL};
    planned pl;
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, two);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    /* 7 files of swh and 3 of sst. */
    CU_ASSERT_DOUBLE_EQUAL(swx_package_quote_extra(pl.p),
                           EXTRA_FIXED + ROUTE_BYTES(2) + 10 * EXTRA_PER_FILE, 1e-9);
    unplan(&pl);
    /* Built later, fewer files: 05:30 leaves swh 06:00 to 10:00 and sst 06:00
     * and 09:00. */
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-02T05:30:00Z", 0, two);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    CU_ASSERT_EQUAL(swx_package_file_count(pl.p, 1), 2);
    CU_ASSERT_DOUBLE_EQUAL(swx_package_quote_extra(pl.p),
                           EXTRA_FIXED + ROUTE_BYTES(2) + 7 * EXTRA_PER_FILE, 1e-9);
    unplan(&pl);
    /* A waypoint more on the same line: the same files, a longer route. */
    plan_route(&pl, ROUTE3, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, two);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    CU_ASSERT_EQUAL(swx_package_file_count(pl.p, 0), 7);
    CU_ASSERT_DOUBLE_EQUAL(swx_package_quote_extra(pl.p),
                           EXTRA_FIXED + ROUTE_BYTES(3) + 10 * EXTRA_PER_FILE, 1e-9);
    unplan(&pl);
}

/* The project's land (GSHHG) is counted with the route: a package with it
 * keeps more room for route, manifest and project than one without, and
 * under a budget that room is at most a tenth of the budget more. */
static void test_land_counted(void)
{
    const char *one[] = {"swh", NULL};
    planned pl;
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, one);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    double bare = swx_package_quote_extra(pl.p);
    unplan(&pl);
    land = NULL;
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 0, one);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    double with = swx_package_quote_extra(pl.p);
    unplan(&pl);
    plan(&pl, "2026-03-02T03:30:00Z", "2026-03-01T00:00:00Z", 400000, one);
    CU_ASSERT_EQUAL_FATAL(pl.rc, 0);
    double budgeted = swx_package_quote_extra(pl.p);
    unplan(&pl);
    land = "/nonexistent/gshhg";
    CU_ASSERT(with > bare + 1000);
    CU_ASSERT(budgeted > bare && budgeted <= bare + 40000);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("package_plan", setup, teardown);
    CU_add_test(s, "the route's length and arrival", test_route_length);
    CU_add_test(s, "valid times from the departure's frame to the arrival's",
                test_times_from_departure);
    CU_add_test(s, "valid times from now, when later", test_times_from_now);
    CU_add_test(s, "two layers, each with its times and zooms", test_two_layers);
    CU_add_test(s, "a voyage outside the valid times", test_outside_times);
    CU_add_test(s, "none, 16 and 17 layers, twice, unknown", test_layer_limits);
    CU_add_test(s, "the least a budget holds, and a byte less", test_budget_least);
    CU_add_test(s, "the estimate of route, manifest and project", test_quote_extra);
    CU_add_test(s, "the project's land counted with the route", test_land_counted);
    return cu_run();
}
