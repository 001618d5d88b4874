/* test_fleet.c: the fleet file (lib/voyage/fleet.c): defaults applied to each
 * ship, the three forms of route, and each bad input refused with the line
 * that names its ship and field. */
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/fleet.h"
#include "seawx/plan.h"
#include "seawx/voyage.h"

#include <stdio.h>
#include <string.h>

static swx_fleet *parse(const char *text)
{
    swx_fleet *f = NULL;
    int rc = swx_fleet_parse(&f, text, strlen(text), cu_fixture_path("fleet"));
    if (rc)
        fprintf(stderr, "unexpected: %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    return f;
}

static void test_defaults(void)
{
    swx_fleet *f = parse(
        "{\"bundle\": \"maritime\", \"run\": \"2026030200\", \"layers\": [\"swh\", "
        "\"sst:zoom=3\"], \"zoom\": \"3-4\", \"format\": \"png\", \"buffer_nm\": 5, \"budget\": "
        "\"2MB\", \"tile_size\": 512, \"ships\": ["
        "{\"name\": \"a\", \"route\": \"lane_a.csv\", \"depart\": \"2026-03-02T11:00:00Z\", "
        "\"speed\": \"8-10\"},"
        "{\"name\": \"b\", \"route\": {\"type\": \"LineString\", \"coordinates\": [[178, 30], "
        "[-178, 31]]}, \"depart\": \"2026-03-02T12:00:00Z\", \"speed\": 10, \"layers\": "
        "[\"swh:format=jpeg:quality=70\"], \"budget\": 900000, \"buffer_nm\": 20},"
        "{\"name\": \"c_3.x\", \"route_csv\": "
        "\"lat,lon,eta\\n36,-14,2026-03-02T12:00:00Z\\n33,-20,2026-03-03T12:00:00Z\\n\"}]}");
    if (!f)
        return;
    CU_ASSERT_STRING_EQUAL(swx_fleet_bundle(f), "maritime");
    CU_ASSERT_STRING_EQUAL(swx_fleet_run(f), "2026030200");
    CU_ASSERT_EQUAL(swx_fleet_tile_size(f), 512);
    CU_ASSERT_EQUAL(swx_fleet_ship_count(f), 3);
    const swx_fleet_ship *a = swx_fleet_ship_at(f, 0), *b = swx_fleet_ship_at(f, 1),
                         *c = swx_fleet_ship_at(f, 2);
    CU_ASSERT_PTR_NULL(swx_fleet_ship_at(f, 3));
    CU_ASSERT_STRING_EQUAL(a->name, "a");
    CU_ASSERT_EQUAL(a->nlayers, 2);
    CU_ASSERT_EQUAL(a->layers[0].zooms, (1u << 3) | (1u << 4));
    CU_ASSERT_EQUAL(a->layers[0].format, SWX_FORMAT_PNG);
    CU_ASSERT_EQUAL(a->layers[1].zooms, 1u << 3);
    CU_ASSERT_DOUBLE_EQUAL(a->buffer_m, 5 * SWX_NM_M, 1e-6);
    CU_ASSERT_EQUAL(a->budget, 2000000);
    double vmin, vmax;
    swx_voyage_speed(&vmin, &vmax, a->voyage);
    CU_ASSERT_DOUBLE_EQUAL(vmin, 8, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(vmax, 10, 1e-9);
    CU_ASSERT_EQUAL(b->nlayers, 1);
    CU_ASSERT_EQUAL(b->layers[0].format, SWX_FORMAT_JPEG);
    CU_ASSERT_EQUAL(b->layers[0].quality, 70);
    CU_ASSERT_EQUAL(b->budget, 900000);
    CU_ASSERT_DOUBLE_EQUAL(b->buffer_m, 20 * SWX_NM_M, 1e-6);
    swx_voyage_speed(&vmin, &vmax, b->voyage);
    CU_ASSERT_DOUBLE_EQUAL(vmin, 10, 1e-9);
    CU_ASSERT(swx_voyage_timed(c->voyage));
    CU_ASSERT_EQUAL(c->nlayers, 2);
    swx_fleet_free(f);
}

/* A routed ship, by a polar read relative to the fleet file's folder. */
static void test_routed(void)
{
    swx_fleet *f = parse("{\"bundle\": \"maritime\", \"layers\": [\"swh\"], \"ships\": ["
                         "{\"name\": \"a\", \"route\": \"lane_a.csv\", \"routed\": true, "
                         "\"polar\": \"cruiser.pol\", \"depart\": \"2026-03-02T11:00:00Z\", "
                         "\"speed\": 5},"
                         "{\"name\": \"b\", \"route\": \"lane_a.csv\", \"routed\": false, "
                         "\"depart\": \"2026-03-02T11:00:00Z\", \"speed\": 5}]}");
    if (!f)
        return;
    const swx_fleet_ship *a = swx_fleet_ship_at(f, 0), *b = swx_fleet_ship_at(f, 1);
    CU_ASSERT_EQUAL(a->routed, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a->polar);
    CU_ASSERT_DOUBLE_EQUAL(swx_polar_speed(a->polar, 10, 90), 7.2, 1e-9);
    CU_ASSERT_EQUAL(b->routed, 0);
    CU_ASSERT_PTR_NULL(b->polar);
    /* the route found replaces the ship's voyage */
    swx_voyage *v = NULL;
    const char *track = "lat,lon,eta\n36,-14,2026-03-02T12:00:00Z\n33,-20,2026-03-03T12:00:00Z\n";
    CU_ASSERT_EQUAL_FATAL(swx_voyage_from_route(&v, track, strlen(track)), 0);
    CU_ASSERT_EQUAL(swx_fleet_set_voyage(f, 0, v), 0);
    CU_ASSERT(swx_voyage_timed(swx_fleet_ship_at(f, 0)->voyage));
    CU_ASSERT_EQUAL(swx_fleet_set_voyage(f, 2, v), SWX_EINVAL);
    swx_fleet_free(f);
}

/* Each bad fleet is refused with code and a line holding want. */
static void refused(const char *text, int code, const char *want)
{
    swx_fleet *f = (swx_fleet *)1;
    int rc = swx_fleet_parse(&f, text, strlen(text), cu_fixture_path("fleet"));
    CU_ASSERT_EQUAL(rc, code);
    CU_ASSERT_PTR_NULL(f);
    if (!strstr(swx_error_last(), want) || strchr(swx_error_last(), '\n'))
        fprintf(stderr, "want '%s' in '%s'\n", want, swx_error_last());
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), want));
    CU_ASSERT_PTR_NULL(strchr(swx_error_last(), '\n'));
}

#define SHIP "\"name\": \"x\", \"route\": \"lane_a.csv\", \"depart\": \"2026-03-02T11:00:00Z\""
#define FLEET(ships) "{\"bundle\": \"maritime\", \"layers\": [\"swh\"], \"ships\": [" ships "]}"

static void test_refused(void)
{
    refused("{\"bundle\": \"maritime\", \"ships\": [", SWX_EINVAL, "not valid JSON");
    refused("[]", SWX_EINVAL, "one JSON object");
    refused("{\"ships\": [{" SHIP ", \"speed\": 7}]}", SWX_EINVAL, "no bundle");
    refused("{\"bundle\": \"maritime\", \"ships\": []}", SWX_EINVAL, "at least one ship");
    refused("{\"bundle\": \"maritime\", \"zom\": \"3\", \"ships\": []}", SWX_EINVAL,
            "unknown field 'zom'");
    refused("{\"bundle\": \"maritime\", \"zoom\": \"3-40\", \"ships\": [{" SHIP "}]}", SWX_EINVAL,
            "zoom");
    refused("{\"bundle\": \"maritime\", \"ships\": [{" SHIP ", \"speed\": 7}]}", SWX_EINVAL,
            "ship 1 (x): no layers");
    refused(FLEET("{" SHIP ", \"sped\": 7}"), SWX_EINVAL, "ship 1 (x): unknown field 'sped'");
    refused(FLEET("{" SHIP ", \"speed\": 7}, {" SHIP ", \"speed\": 7}"), SWX_EINVAL,
            "ship 2 (x): the name is ship 1's too");
    refused(FLEET("{\"name\": \"../up\", \"route\": \"lane_a.csv\"}"), SWX_EINVAL,
            "ship 1: name must be");
    refused(FLEET("{\"name\": \".hidden\", \"route\": \"lane_a.csv\"}"), SWX_EINVAL,
            "ship 1: name must be");
    refused(FLEET("{" SHIP ", \"speed\": \"0-3\"}"), SWX_EINVAL, "ship 1 (x): speed");
    refused(FLEET("{" SHIP "}"), SWX_EINVAL, "ship 1 (x): a voyage needs both depart and speed");
    refused(FLEET("{\"name\": \"x\", \"route\": \"lane_a.csv\", \"depart\": \"soon\", "
                  "\"speed\": 7}"),
            SWX_EINVAL, "ship 1 (x): depart 'soon'");
    refused(FLEET("{" SHIP ", \"speed\": 7, \"layers\": [\"swh:format=webp\"]}"), SWX_EINVAL,
            "ship 1 (x): layers[0] swh: webp");
    refused(FLEET("{" SHIP ", \"speed\": 7, \"buffer_nm\": -1}"), SWX_EINVAL,
            "ship 1 (x): buffer_nm must be");
    refused(FLEET("{" SHIP ", \"speed\": 7, \"budget\": \"lots\"}"), SWX_EINVAL,
            "ship 1 (x): budget");
    refused(FLEET("{\"name\": \"x\", \"route\": \"lane_a.csv\", \"route_csv\": \"lat,lon\\n1,2\\n\""
                  "}"),
            SWX_EINVAL, "ship 1 (x): give one route");
    refused(FLEET("{\"name\": \"x\", \"route\": \"missing.csv\", \"depart\": "
                  "\"2026-03-02T11:00:00Z\", \"speed\": 7}"),
            SWX_EIO, "ship 1 (x): route: cannot read");
    refused(FLEET("{\"name\": \"x\", \"route_csv\": \"lat,lon\\nnorth,2\\n\", \"depart\": "
                  "\"2026-03-02T11:00:00Z\", \"speed\": 7}"),
            SWX_EINVAL, "ship 1 (x): route");
    refused(FLEET("{" SHIP ", \"speed\": 7, \"routed\": \"yes\"}"), SWX_EINVAL,
            "ship 1 (x): routed must be true or false");
    refused(FLEET("{" SHIP ", \"speed\": 7, \"polar\": \"cruiser.pol\"}"), SWX_EINVAL,
            "ship 1 (x): polar goes with \"routed\": true");
    refused(FLEET("{" SHIP ", \"speed\": 7, \"routed\": true, \"polar\": \"gone.pol\"}"), SWX_EIO,
            "ship 1 (x): polar: cannot read");
    refused(FLEET("{" SHIP ", \"speed\": 7, \"routed\": true, \"polar\": \"lane_a.csv\"}"),
            SWX_EINVAL, "ship 1 (x): polar lane_a.csv");
    refused(
        FLEET("{\"name\": \"x\", \"routed\": true, \"route_csv\": "
              "\"lat,lon,eta\\n36,-14,2026-03-02T12:00:00Z\\n33,-20,2026-03-03T12:00:00Z\\n\"}"),
        SWX_EINVAL, "ship 1 (x): routed needs depart and speed");
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("fleet", NULL, NULL);
    CU_add_test(s, "defaults, the three forms of route", test_defaults);
    CU_add_test(s, "bad fleets refused with one line naming ship and field", test_refused);
    CU_add_test(s, "a routed ship and its polar; its voyage replaced", test_routed);
    return cu_run();
}
