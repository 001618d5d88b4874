/* test_fleet_build.c: planning and building a fleet (lib/voyage/fleet_build.c)
 * against seawx-sim on a fixed clock: every ship planned with the shard
 * swx_fleet_deal gives it, a ship the capabilities cannot serve refused by
 * name, a folder in the way refused before anything is asked; a fleet built
 * earliest departure first through one share, which is removed once every
 * package is complete (a second build asks nothing); a rejected key stopping
 * the fleet after its first ship. */
#define _GNU_SOURCE
#include "cu_support.h"

#include "seawx/error.h"
#include "seawx/fleet.h"
#include "seawx/http.h"
#include "seawx/wms.h"
#include "seawx/wms_caps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KEY "fleet-build-key"
#define NOW "2026-03-02T11:00:00Z"

/* Three ships on the stand-in's valid times from NOW. */
#define SHIPS(second_layer)                                                                        \
    "{\"bundle\": \"maritime\", \"layers\": [\"swh\"], \"zoom\": \"2\", \"format\": \"png\", "     \
    "\"ships\": ["                                                                                 \
    "{\"name\": \"a\", \"route_csv\": \"lat,lon\\n36,-14\\n33,-20\\n\", \"depart\": "              \
    "\"2026-03-02T13:00:00Z\", \"speed\": 10},"                                                    \
    "{\"name\": \"b\", \"route_csv\": \"lat,lon\\n36,-14\\n33,-20\\n\", \"depart\": "              \
    "\"2026-03-02T11:00:00Z\", \"speed\": 10, \"layers\": [\"" second_layer "\"]},"                \
    "{\"name\": \"c\", \"route_csv\": \"lat,lon\\n50,-30\\n51,-25\\n\", \"depart\": "              \
    "\"2026-03-02T11:00:00Z\", \"speed\": \"8-12\"}]}"

static cu_sim sim;
static swx_caps *caps;

static int setup(void)
{
    const char *args[] = {"--key", KEY, "--now", NOW, NULL};
    swx_client *c = NULL;
    if (cu_sim_start(&sim, args))
        return -1;
    swx_client_opts co = {.base_url = sim.base_url, .api_key = KEY};
    int rc = swx_client_new(&c, &co);
    if (!rc)
        rc = swx_wms_get_caps(&caps, c, "maritime");
    if (rc)
        fprintf(stderr, "test_fleet_build: capabilities: %s\n", swx_error_last());
    swx_client_free(c);
    return rc ? -1 : 0;
}

static int teardown(void)
{
    swx_caps_free(caps);
    cu_sim_stop(&sim);
    return 0;
}

static swx_fleet *fleet(const char *text)
{
    swx_fleet *f = NULL;
    int rc = swx_fleet_parse(&f, text, strlen(text), NULL);
    if (rc)
        fprintf(stderr, "unexpected: %s\n", swx_error_last());
    CU_ASSERT_EQUAL(rc, 0);
    return f;
}

static void test_plan(void)
{
    swx_fleet *f = fleet(SHIPS("swh"));
    swx_fleet_plan *p = NULL;
    if (!f)
        return;
    swx_fleet_plan_opts o = {.dir = "/tmp", .now = cu_time(NOW), .shards = 2};
    int rc = swx_fleet_plan_new(&p, f, caps, &o);
    if (rc)
        fprintf(stderr, "unexpected: %s\n", swx_error_last());
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    swx_package *pkgs[3];
    int want[3];
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_PTR_NOT_NULL(swx_fleet_plan_package(p, i));
        CU_ASSERT(swx_fleet_plan_shard(p, i) >= 1 && swx_fleet_plan_shard(p, i) <= 2);
        pkgs[i] = (swx_package *)swx_fleet_plan_package(p, i);
    }
    /* The plan's deal is the one swx_fleet_deal makes of the same packages. */
    CU_ASSERT_EQUAL(swx_fleet_deal(want, pkgs, 3, 2), 0);
    for (size_t i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(swx_fleet_plan_shard(p, i), want[i]);
    swx_fleet_plan_free(p);
    swx_fleet_free(f);
}

static void test_plan_refused(void)
{
    swx_fleet *f = fleet(SHIPS("nope"));
    swx_fleet_plan *p = (swx_fleet_plan *)1;
    if (!f)
        return;
    swx_fleet_plan_opts o = {.dir = NULL, .now = cu_time(NOW), .shards = 0};
    int rc = swx_fleet_plan_new(&p, f, caps, &o);
    CU_ASSERT(rc < 0);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "ship 2 (b)"));
    swx_fleet_free(f);
}

static void test_folder_in_the_way(void)
{
    swx_fleet *f = fleet(SHIPS("swh"));
    char dir[] = "/tmp/seawx-fleet-test.XXXXXX", path[64];
    if (!f || !mkdtemp(dir))
        return;
    CU_ASSERT_EQUAL(swx_fleet_check_folder(f, dir), 0);
    snprintf(path, sizeof path, "%s/c", dir);
    FILE *in_the_way = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in_the_way);
    fclose(in_the_way);
    CU_ASSERT_EQUAL(swx_fleet_check_folder(f, dir), SWX_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "ship 3 (c)"));
    unlink(path);
    rmdir(dir);
    swx_fleet_free(f);
}

typedef struct seen {
    size_t ships;
    char order[16];
    int first_rc;
} seen;

static void on_ship(void *ud, const swx_fleet_ship_result *r)
{
    seen *s = ud;
    if (!s->ships)
        s->first_rc = r->rc;
    if (s->ships < sizeof s->order - 1)
        s->order[s->ships] = r->ship[0];
    s->ships++;
}

/* One build of SHIPS("swh") into a folder of its own. */
typedef struct run {
    char dir[40];
    swx_fleet_result res;
    seen s;
} run;

static int run_start(run *r)
{
    snprintf(r->dir, sizeof r->dir, "/tmp/seawx-fleet-test.XXXXXX");
    return mkdtemp(r->dir) ? 0 : -1;
}

static void run_end(const run *r)
{
    char cmd[80];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", r->dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* Builds the fleet into r->dir with key; r->res and r->s filled. */
static int build(run *r, const char *key)
{
    swx_fleet *f = fleet(SHIPS("swh"));
    swx_fleet_plan *p = NULL;
    swx_client *c = cu_client(sim.base_url, key, NULL);
    int rc = -1;
    memset(&r->s, 0, sizeof r->s);
    swx_fleet_plan_opts po = {.dir = r->dir, .now = cu_time(NOW), .shards = 0};
    if (f && c && swx_fleet_plan_new(&p, f, caps, &po) == 0) {
        swx_fleet_build_opts bo = {.in_flight = 4, .ship_done = on_ship, .ud = &r->s};
        rc = swx_fleet_build(&r->res, p, c, &bo);
    }
    swx_client_free(c);
    swx_fleet_plan_free(p);
    swx_fleet_free(f);
    return rc;
}

static void test_build_shares(void)
{
    run r;
    struct stat st;
    if (run_start(&r))
        return;
    CU_ASSERT_EQUAL(build(&r, KEY), 0);
    /* Earliest departure first, then as in the file: b and c at 11, a at 13. */
    CU_ASSERT_STRING_EQUAL(r.s.order, "bca");
    CU_ASSERT_EQUAL(r.res.ships, 3);
    CU_ASSERT_EQUAL(r.res.built, 3);
    CU_ASSERT_EQUAL(r.res.partial, 0);
    CU_ASSERT(r.res.requests > 0);
    CU_ASSERT(r.res.shared > 0);                        /* a and b share a lane */
    CU_ASSERT_NOT_EQUAL(stat(r.res.share_dir, &st), 0); /* every package complete */
    /* Again: every file is copied from the version before. */
    CU_ASSERT_EQUAL(build(&r, KEY), 0);
    CU_ASSERT_EQUAL(r.res.built, 3);
    CU_ASSERT_EQUAL(r.res.requests, 0);
    run_end(&r);
}

static void test_rejected_key_stops(void)
{
    run r;
    struct stat st;
    char b[80];
    if (run_start(&r))
        return;
    CU_ASSERT_EQUAL(build(&r, "wrong-key"), SWX_EAUTH);
    CU_ASSERT_EQUAL(r.s.ships, 1); /* every other ship would fail the same way */
    CU_ASSERT_EQUAL(r.s.first_rc, SWX_EAUTH);
    CU_ASSERT_PTR_NOT_NULL(strstr(swx_error_last(), "ship 2 (b)"));
    CU_ASSERT_EQUAL(r.res.ships, 3);
    CU_ASSERT_EQUAL(r.res.failed_ships, 1);
    CU_ASSERT_EQUAL(r.res.built, 0);
    CU_ASSERT_FALSE(r.res.interrupted);
    snprintf(b, sizeof b, "%s/b", r.dir);
    CU_ASSERT_NOT_EQUAL(lstat(b, &st), 0); /* no package where the build failed */
    run_end(&r);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("fleet_build", setup, teardown);
    CU_add_test(s, "every ship planned, dealt as swx_fleet_deal deals", test_plan);
    CU_add_test(s, "a ship the capabilities cannot serve, refused by name", test_plan_refused);
    CU_add_test(s, "a package folder in the way, refused by ship", test_folder_in_the_way);
    CU_add_test(s, "the fleet built in order through one share, removed when complete",
                test_build_shares);
    CU_add_test(s, "a rejected key stops the fleet after its first ship", test_rejected_key_stops);
    return cu_run();
}
