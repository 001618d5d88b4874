/* test_fleet_deal.c: the fleet's count of shared GetMaps and its deal of
 * ships to shards (lib/voyage/fleet.c), on packages planned against
 * tests/fixtures/voyage/plan_caps.xml with no request sent. Each ship sails
 * one degree of a meridian inside one tile at zooms 1 to 4 (lane A at 10 E,
 * 10 N; lane B at 40 W, 30 S; lane C at 100 E, 30 S: different tiles from
 * zoom 1 on, the same tile at zoom 0), so a ship's GetMaps are its files
 * times its zooms, counted here from the departure and speed by the rule of
 * seawx/voyage.h; the deal is then worked out by hand from the rule of
 * seawx/fleet.h, up to a shard filled exactly to its limit and one GetMap
 * over it. */
#include "cu_support.h"

#include "package_int.h"
#include "seawx/error.h"
#include "seawx/fleet.h"
#include "seawx/package.h"
#include "seawx/shard.h"
#include "seawx/voyage.h"
#include "seawx/wms_caps.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANE_A "lat,lon\n10,10\n11,10\n"
#define LANE_B "lat,lon\n-30,-40\n-31,-40\n"
#define LANE_C "lat,lon\n-30,100\n-31,100\n"
/* Every departure is at 03:30, when 04:00 becomes the frame shown; one
 * degree (60.04 nm) at K knots then arrives at 03:30 + 60.04 / K hours, and
 * the hourly files run from 04:00 to the last whose window (from half an
 * hour before it) starts before the arrival. */
#define DEPART "2026-03-02T03:30:00Z"
#define NOW "2026-03-01T00:00:00Z"
#define Z(z) (1u << (z))

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

typedef struct ship {
    swx_voyage *v;
    swx_package_layer layer;
    swx_package_opts o;
    swx_package *p;
} ship;

/* A ship on route at knots from depart with one layer of zooms (style and
 * tile size as given). */
static swx_package *ship_new(ship *s, const char *route, const char *depart, double knots,
                             const char *variable, uint32_t zooms, const char *style, int tile_size)
{
    memset(s, 0, sizeof *s);
    CU_ASSERT_EQUAL_FATAL(swx_voyage_from_route(&s->v, route, strlen(route)), 0);
    CU_ASSERT_EQUAL_FATAL(swx_voyage_set_speed(s->v, cu_time(depart), knots, knots), 0);
    CU_ASSERT_EQUAL_FATAL(swx_package_layer_parse(&s->layer, variable), 0);
    s->layer.zooms = zooms;
    s->layer.format = 0;
    if (style)
        snprintf(s->layer.style, sizeof s->layer.style, "%s", style);
    s->o = (swx_package_opts){.bundle = "maritime",
                              .path = "/nonexistent/ship",
                              .voyage = s->v,
                              .buffer_m = 10 * 1852.0,
                              .layers = &s->layer,
                              .nlayers = 1,
                              .tile_size = tile_size,
                              .now = cu_time(NOW)};
    int rc = swx_package_new(&s->p, caps, &s->o);
    if (rc)
        fprintf(stderr, "\n  ship: %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return s->p;
}

static swx_package *lane(ship *s, const char *route, double knots, uint32_t zooms)
{
    return ship_new(s, route, DEPART, knots, "swh", zooms, NULL, 256);
}

static void ship_free(ship *s)
{
    swx_package_free(s->p);
    swx_voyage_free(s->v);
}

/* Adds p to c: what it asks alone and what no package before asked. */
static void adds(swx_fleet_count *c, const swx_package *p, uint64_t want_getmaps,
                 uint64_t want_added)
{
    uint64_t g = 99, a = 99;
    CU_ASSERT_EQUAL(swx_fleet_count_add(&g, &a, c, p), 0);
    if (g != want_getmaps || a != want_added)
        fprintf(stderr, "\n  %llu GetMaps, %llu new; expected %llu, %llu\n", (unsigned long long)g,
                (unsigned long long)a, (unsigned long long)want_getmaps,
                (unsigned long long)want_added);
    CU_ASSERT_EQUAL(g, want_getmaps);
    CU_ASSERT_EQUAL(a, want_added);
}

/* ---- counting ---- */

static void test_count(void)
{
    ship a, same, contour, big, later, sst, b;
    swx_fleet_count *c = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_fleet_count_new(&c), 0);
    /* 10 kn: arrival 09:30:14, files 04:00 to 10:00 (7), 5 zooms. */
    adds(c, lane(&a, LANE_A, 10, Z(0) | Z(1) | Z(2) | Z(3) | Z(4)), 35, 35);
    /* The same ship again asks nothing new. */
    adds(c, lane(&same, LANE_A, 10, Z(0) | Z(1) | Z(2) | Z(3) | Z(4)), 35, 0);
    /* A style, a tile size and a variable are other requests. */
    adds(c, ship_new(&contour, LANE_A, DEPART, 10, "swh", Z(1), "swh/contour", 256), 7, 7);
    adds(c, ship_new(&big, LANE_A, DEPART, 10, "swh", Z(1), NULL, 512), 7, 7);
    /* sst every 3 hours: 03:00 (its window ends at 04:30, after the
     * departure), 06:00 and 09:00 (whose window holds the arrival). */
    adds(c, ship_new(&sst, LANE_A, DEPART, 10, "sst", Z(1), NULL, 256), 3, 3);
    /* An hour later: 05:00 to 11:00, of which only 11:00 is new, at each
     * of 2 zooms. */
    adds(c, ship_new(&later, LANE_A, "2026-03-02T04:30:00Z", 10, "swh", Z(1) | Z(2), NULL, 256), 14,
         2);
    /* Another lane shares the one tile of zoom 0 only. */
    adds(c, lane(&b, LANE_B, 10, Z(0) | Z(1) | Z(2)), 21, 14);
    swx_fleet_count_free(c);

    /* A count starts empty: a package added to a new one is new whole. */
    CU_ASSERT_EQUAL_FATAL(swx_fleet_count_new(&c), 0);
    adds(c, b.p, 21, 21);
    adds(c, a.p, 35, 28);
    swx_fleet_count_free(c);
    swx_fleet_count_free(NULL);

    ship *all[] = {&a, &same, &contour, &big, &later, &sst, &b};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ship_free(all[i]);
}

/* At zooms where a stretch takes several tiles: a ship asks one GetMap for
 * each tile its plan counts (seawx/seed.h), and a slower ship on the same
 * lane asks again only for what lies beyond the faster one's stretches. */
static void test_count_many_tiles(void)
{
    ship fast, again;
    swx_fleet_count *c = NULL;
    lane(&fast, LANE_A, 10, Z(9) | Z(10));
    size_t first;
    const swx_seed_plan *sp = swx_package_plan(fast.p, 0, &first);
    uint64_t tiles = 0;
    for (size_t f = 0; f < swx_package_file_count(fast.p, 0); f++) {
        uint64_t z9 = swx_seed_plan_tiles(sp, first + f, 9);
        uint64_t z10 = swx_seed_plan_tiles(sp, first + f, 10);
        /* A zoom-10 tile is 0.35 degrees wide, its stretch with its 10 nm
         * on each side at least 0.33 and an hour's sailing more. */
        CU_ASSERT(z10 >= 2);
        CU_ASSERT(z10 >= z9);
        tiles += z9 + z10;
    }
    CU_ASSERT_EQUAL_FATAL(swx_fleet_count_new(&c), 0);
    adds(c, fast.p, tiles, tiles);
    /* The same plan once more: nothing new. */
    lane(&again, LANE_A, 10, Z(9) | Z(10));
    adds(c, again.p, tiles, 0);
    swx_fleet_count_free(c);
    ship_free(&fast);
    ship_free(&again);
}

/* ---- the deal ---- */

static void dealt(const int *got, const int *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i])
            fprintf(stderr, "\n  ship %zu: shard %d, not %d\n", i, got[i], want[i]);
        CU_ASSERT_EQUAL(got[i], want[i]);
    }
}

static void test_deal_small(void)
{
    ship a, b;
    int shard[3] = {-1, -1, -1};
    /* No ship: nothing to deal. */
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, NULL, 0, 2), 0);
    CU_ASSERT_EQUAL(shard[0], -1);
    swx_package *one[] = {lane(&a, LANE_A, 10, Z(1))};
    /* One ship: the first shard, however many there are. */
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, one, 1, 1), 0);
    CU_ASSERT_EQUAL(shard[0], 1);
    shard[0] = -1;
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, one, 1, 3), 0);
    CU_ASSERT_EQUAL(shard[0], 1);
    CU_ASSERT_EQUAL(shard[1], -1);
    /* No shard, or fewer: refused, nothing dealt (it divided by zero). */
    shard[0] = -1;
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, one, 1, 0), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, one, 1, -2), SWX_EINVAL);
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, one, 1, SWX_SHARD_MAX + 1), SWX_EINVAL);
    CU_ASSERT_EQUAL(shard[0], -1);
    /* The same ship twice: into one shard they ask 14 GetMaps, over the
     * limit of 7 (the mean) and no more (7 / 10 is 0): one each. In one
     * shard, together. */
    swx_package *twice[] = {a.p, lane(&b, LANE_A, 10, Z(1))};
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, twice, 2, 2), 0);
    dealt(shard, (int[]){1, 2}, 2);
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, twice, 2, 1), 0);
    dealt(shard, (int[]){1, 1}, 2);
    /* More shards than ships: the rest stay empty. */
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, twice, 2, 5), 0);
    dealt(shard, (int[]){1, 2}, 2);
    ship_free(&a);
    ship_free(&b);
}

/* Heaviest first (ties: the earlier ship), each to the emptiest shard when
 * nothing is shared. */
static void test_deal_heaviest_first(void)
{
    ship light, heavy, middle;
    /* 7 kn: 60.04 nm in 8 h 34 min, arrival 12:04: files 04:00 to 12:00 (9);
     * 8 kn: 7 h 30 min, 11:00: 04:00 to 11:00 (8); 40 kn: 1 h 30 min,
     * 05:00: 04:00 and 05:00 (2). */
    swx_package *p[] = {lane(&light, LANE_C, 40, Z(2)), lane(&heavy, LANE_A, 7, Z(2)),
                        lane(&middle, LANE_B, 8, Z(2))};
    CU_ASSERT_EQUAL(swx_package_file_count(light.p, 0), 2);
    CU_ASSERT_EQUAL(swx_package_file_count(heavy.p, 0), 9);
    CU_ASSERT_EQUAL(swx_package_file_count(middle.p, 0), 8);
    int shard[3] = {0};
    /* 19 GetMaps over 3 shards: a limit of 7. 9 goes to 1; 8 does not fit
     * there, to 2 (empty, lower than 3); 2 fits in neither, to 3. */
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, p, 3, 3), 0);
    dealt(shard, (int[]){3, 1, 2}, 3);
    /* Over 2 shards (a limit of 11): 9 to 1, 8 to 2, and 2 to 1 (9 + 2 is
     * the limit) or 2 (8 + 2): both fit and neither holds its GetMaps, the
     * lighter takes it. */
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, p, 3, 2), 0);
    dealt(shard, (int[]){2, 1, 2}, 3);
    /* The same ships dealt again: the same deal. */
    int again[3] = {0};
    CU_ASSERT_EQUAL(swx_fleet_deal(again, p, 3, 2), 0);
    dealt(again, shard, 3);
    ship_free(&light);
    ship_free(&heavy);
    ship_free(&middle);
}

/* A ship joins the shard that already asks its GetMaps while it fits
 * there: up to the limit exactly, not one GetMap over. */
static void test_deal_lanes_and_limit(void)
{
    ship a1, a2, b, a3;
    /* a1: 9 files of lane A; b: 8 of lane B; a2: the first 2 of a1's
     * (40 kn), all at zoom 2. 19 GetMaps: a limit of 10 + 1 = 11. a1 to 1;
     * b does not fit there (17), to 2; a2 fits in 1 exactly (9 + 2 = 11)
     * and asks nothing new there: with its lane. */
    swx_package *p[] = {lane(&a1, LANE_A, 7, Z(2)), lane(&a2, LANE_A, 40, Z(2)),
                        lane(&b, LANE_B, 8, Z(2))};
    int shard[3] = {0};
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, p, 3, 2), 0);
    dealt(shard, (int[]){1, 1, 2}, 3);
    /* a3: the first 3 of a1's (24 kn: 2 h 30 min, 06:00). 20 GetMaps: the
     * limit is still 11, and 9 + 3 is one over it: a3 goes where it fits,
     * to 2 (8 + 3). */
    swx_package *q[] = {a1.p, lane(&a3, LANE_A, 24, Z(2)), b.p};
    CU_ASSERT_EQUAL(swx_package_file_count(a3.p, 0), 3);
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, q, 3, 2), 0);
    dealt(shard, (int[]){1, 2, 2}, 3);
    /* The counts the deal went by. */
    swx_fleet_count *c = NULL;
    CU_ASSERT_EQUAL_FATAL(swx_fleet_count_new(&c), 0);
    adds(c, a1.p, 9, 9);
    adds(c, a2.p, 2, 0);
    adds(c, a3.p, 3, 0);
    adds(c, b.p, 8, 8);
    swx_fleet_count_free(c);
    ship_free(&a1);
    ship_free(&a2);
    ship_free(&a3);
    ship_free(&b);
}

/* Ships of two lanes, interleaved in the file: each lane in one shard. */
static void test_deal_keeps_lanes(void)
{
    ship s[4];
    swx_package *p[] = {lane(&s[0], LANE_A, 10, Z(1) | Z(2)), lane(&s[1], LANE_B, 10, Z(1) | Z(2)),
                        lane(&s[2], LANE_A, 10, Z(1) | Z(2)), lane(&s[3], LANE_B, 10, Z(1) | Z(2))};
    int shard[4] = {0};
    /* 14 each, 56 in all: a limit of 28 + 2 = 30. A to 1; B fits in 1 (28)
     * but asks 14 new GetMaps there as in the empty 2: the lighter, 2; the
     * second A fits in 1 and asks nothing new; the second B, 2. */
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, p, 4, 2), 0);
    dealt(shard, (int[]){1, 2, 1, 2}, 4);
    /* Four shards: a limit of 14 + 1 = 15; no second ship fits anywhere
     * taken, so each lane splits and every shard gets one ship. */
    CU_ASSERT_EQUAL(swx_fleet_deal(shard, p, 4, 4), 0);
    dealt(shard, (int[]){1, 2, 3, 4}, 4);
    for (size_t i = 0; i < 4; i++)
        ship_free(&s[i]);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("fleet_deal", setup, teardown);
    CU_add_test(s, "shared GetMaps counted once", test_count);
    CU_add_test(s, "several tiles a file", test_count_many_tiles);
    CU_add_test(s, "no ship, one, the same twice", test_deal_small);
    CU_add_test(s, "heaviest first, to the emptiest shard", test_deal_heaviest_first);
    CU_add_test(s, "with its lane up to the limit, not one over", test_deal_lanes_and_limit);
    CU_add_test(s, "two lanes interleaved", test_deal_keeps_lanes);
    return cu_run();
}
