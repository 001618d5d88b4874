/* cmd_fleet.c: `seawx fleet`, the voyage packages of a fleet in one run: the
 * options, the progress line, each ship's lines and the summary. The fleet
 * is planned and built by the library (swx_fleet_plan_new, swx_fleet_build
 * in seawx/fleet.h): each ship's package in DIR/NAME, exactly what `seawx
 * voyage` writes for that ship alone, with every distinct GetMap asked of
 * the service once for the whole fleet through a share kept until every
 * package is complete.
 *
 * Everything typed and every ship is checked (the fleet file, routes, layers
 * against the capabilities, the package folders) before any GetMap.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "route_run.h"

#include "seawx/atomicfile.h"
#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/fleet.h"
#include "seawx/iso8601.h"
#include "seawx/package.h"
#include "seawx/shard.h"
#include "seawx/wms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define FLEET_FAILURES_SHOWN 10
#define FLEET_DEFAULT_SHARE_MB 4096

const cli_opt cmd_fleet_opts[] = {
    {"output", 'o', "DIR",
     "the fleet's folder: each ship's package is DIR/NAME, as seawx voyage makes it (required)", 0,
     NULL},
    {"shard", 0, "K/N",
     "build only the ships of shard K of N: ships are dealt heaviest first, each to the shard "
     "whose ships share most of its maps, within a tenth of the mean (every shard computes the "
     "same deal alone)",
     0, NULL},
    {"share-max", 0, "MB",
     "the most the shared answers (DIR/.fleet-share) may hold on disk, in megabytes (0: no "
     "limit); past it the least recently used are dropped and asked again if needed",
     0, CLI_STR(FLEET_DEFAULT_SHARE_MB)},
    CLI_OPTS_GRIB,
    CLI_OPT_NOW,
    CLI_OPT_GETMAPS_IN_FLIGHT,
    {"dry-run", 'n', NULL,
     "count tiles and GetMaps per ship and for the fleet (each ship alone against shared); "
     "fetch no map",
     0, NULL},
    {"quiet", 'q', NULL, "no progress, only errors and the summary", 0, NULL},
    {0},
};

typedef struct ui {
    int quiet, failures_shown;
    double last;
    size_t failures_k; /* the ship failures_shown counts for */
    int exit_code;     /* of the first ship that failed */
} ui;

static void ui_progress(void *ud, const swx_fleet_progress *fp)
{
    ui *u = ud;
    const swx_package_progress *pr = fp->package;
    if (u->quiet || !cli_progress_due(&u->last))
        return;
    char ts[SWX_ISO8601_LEN];
    swx_iso8601_format(ts, pr->time);
    cli_progress(0, "ship %zu/%zu %s: %llu/%llu tiles (%.0f%%), %.2f MiB: %s %s", fp->k, fp->n,
                 fp->ship, (unsigned long long)pr->done, (unsigned long long)pr->total,
                 pr->total ? 100.0 * (double)pr->done / (double)pr->total : 100.0,
                 (double)pr->bytes / 1048576.0, pr->variable ? pr->variable : "", ts);
}

static void ui_failed(void *ud, const swx_fleet_progress *ship, int z, uint32_t x, uint32_t y,
                      int n, const char *why)
{
    ui *u = ud;
    if (u->failures_k != ship->k) {
        u->failures_k = ship->k;
        u->failures_shown = 0;
    }
    if (u->failures_shown < FLEET_FAILURES_SHOWN) {
        cli_progress(0, NULL);
        cli_warn("ship %s: %d tile%s from %d/%u/%u failed: %s", ship->ship, n, n == 1 ? "" : "s", z,
                 x, y, why);
    }
    u->failures_shown++;
}

/* A ship's lines: what failed, where the budget cut it, what it holds. */
static void ui_ship_done(void *ud, const swx_fleet_ship_result *r)
{
    ui *u = ud;
    cli_progress(0, NULL);
    if (r->rc == SWX_ECANCEL || r->res.interrupted)
        return;
    if (r->rc) {
        int code = cli_fail(r->rc);
        if (u->exit_code == EXIT_OK)
            u->exit_code = code;
        return;
    }
    if (r->res.cut)
        cli_warn("ship %s: %s", r->ship, r->res.cut_line);
    if (r->res.failed)
        cli_error("ship %s: %llu tiles failed and are missing", r->ship,
                  (unsigned long long)r->res.failed);
    cli_info("ship %zu/%zu %s: %zu files, %llu tiles, %.2f MiB, %llu GetMaps sent, %llu "
             "answered from the fleet's share",
             r->k, r->n, r->ship, r->res.files, (unsigned long long)r->res.tiles,
             (double)r->res.bytes / 1048576.0, (unsigned long long)r->res.requests,
             (unsigned long long)r->res.shared);
}

static int dry_run(const swx_fleet *fleet, const swx_fleet_plan *plan, int shard)
{
    swx_fleet_count *cnt = NULL;
    uint64_t sum = 0, distinct = 0;
    size_t ships = 0;
    int rc;
    if ((rc = swx_fleet_count_new(&cnt)))
        return cli_fail(rc);
    printf("%-24s %6s %6s %10s %10s\n", "ship", "shard", "files", "getmaps", "new");
    for (size_t i = 0; i < swx_fleet_ship_count(fleet); i++) {
        if (shard && swx_fleet_plan_shard(plan, i) != shard)
            continue;
        const swx_package *pkg = swx_fleet_plan_package(plan, i);
        uint64_t g, added;
        if ((rc = swx_fleet_count_add(&g, &added, cnt, pkg))) {
            swx_fleet_count_free(cnt);
            return cli_fail(rc);
        }
        size_t files = 0;
        for (size_t l = 0; l < swx_package_layer_count(pkg); l++)
            files += swx_package_file_count(pkg, l);
        printf("%-24s %6d %6zu %10llu %10llu\n", swx_fleet_ship_at(fleet, i)->name,
               shard ? shard : 1, files, (unsigned long long)g, (unsigned long long)added);
        sum += g;
        distinct += added;
        ships++;
    }
    swx_fleet_count_free(cnt);
    printf("ships: %zu\n", ships);
    printf("getmaps, each ship alone: %llu\n", (unsigned long long)sum);
    printf("getmaps, the fleet shared: %llu (%.1f %% of each ship alone)\n",
           (unsigned long long)distinct, sum ? 100.0 * (double)distinct / (double)sum : 100.0);
    return fflush(stdout) != 0 ? EXIT_IO : EXIT_OK;
}

/* The summary after a build: how many ships, files, tiles and GetMaps, and
 * what to do about what is missing; the exit code. */
static int summary(const swx_fleet_result *r, int rc, const ui *u, double t0)
{
    int exit_code = u->exit_code;
    if (r->interrupted) {
        exit_code = cli_interrupted("%zu of %zu ships built; the others were left as they were; "
                                    "run the same command again to continue (what was fetched "
                                    "is kept in %s)",
                                    r->built, r->ships, r->share_dir);
    } else if (rc && exit_code == EXIT_OK) {
        exit_code = cli_exit_code(rc);
    }
    cli_summary("fleet: %zu of %zu ships built, %zu files, %llu tiles; %llu GetMaps sent, %llu "
                "answered from the share (%.1f %% of %llu), in %.1f s",
                r->built, r->ships, r->files, (unsigned long long)r->tiles,
                (unsigned long long)r->requests, (unsigned long long)r->shared,
                r->requests + r->shared
                    ? 100.0 * (double)r->shared / (double)(r->requests + r->shared)
                    : 0.0,
                (unsigned long long)(r->requests + r->shared), cli_now() - t0);
    if (!r->interrupted && r->partial && exit_code == EXIT_OK) {
        cli_error("%llu tiles failed and are missing; run the same command again to fetch them",
                  (unsigned long long)r->partial);
        exit_code = EXIT_PARTIAL;
    }
    if (r->failed_ships && exit_code != EXIT_INTERRUPTED)
        cli_error("%zu ship%s failed (named above); run the same command again to build %s",
                  r->failed_ships, r->failed_ships == 1 ? "" : "s",
                  r->failed_ships == 1 ? "it" : "them");
    return exit_code;
}

int cmd_fleet(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_fleet *fleet = NULL;
    swx_client *client = NULL;
    swx_caps *caps = NULL;
    swx_fleet_plan *plan = NULL;
    swx_diskcache *gcache = NULL;
    int exit_code = EXIT_OK, rc;
    cli_signals sigs = {0};
    ui u = {0};

    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    if (a.npositional != 1) {
        cli_error(a.npositional ? "one fleet file, not %zu (see 'seawx fleet --help')"
                                : "a fleet file is required (see 'seawx fleet --help')",
                  a.npositional);
        return EXIT_USAGE;
    }
    u.quiet = cli_has(&a, "quiet");
    cli_set_quiet(u.quiet);
    int dry = cli_has(&a, "dry-run");
    const char *out = cli_get(&a, "output");
    if (!out && !dry) {
        cli_error("--output DIR is required (see 'seawx fleet --help')");
        return EXIT_USAGE;
    }
    char dir[4096] = "";
    if (out) {
        size_t n = strlen(out);
        while (n > 1 && out[n - 1] == '/')
            n--;
        if (n + SWX_FLEET_NAME_MAX + 32 >= sizeof dir) {
            cli_error("--output is too long");
            return EXIT_USAGE;
        }
        memcpy(dir, out, n);
        dir[n] = '\0';
    }
    long in_flight;
    if (cli_get_int(&in_flight, &a, "in-flight", 1, 256))
        return EXIT_USAGE;
    int shard = 0, nshards = 0;
    if (cli_get(&a, "shard") && swx_shard_parse(&shard, &nshards, cli_get(&a, "shard"))) {
        swx_error_prefix(SWX_EINVAL, "--shard");
        return cli_fail(SWX_EINVAL);
    }
    uint64_t share_max = 0;
    if (swx_diskcache_parse_mb(&share_max, cli_value(&a, "share-max"))) {
        swx_error_prefix(SWX_EINVAL, "--share-max");
        return cli_fail(SWX_EINVAL);
    }
    int64_t now = (int64_t)time(NULL);
    if (cli_get(&a, "now") && swx_iso8601_parse(&now, cli_get(&a, "now"))) {
        cli_error("--now '%.60s' is not an ISO 8601 instant (2026-03-01T06:00:00Z)",
                  cli_get(&a, "now"));
        return EXIT_USAGE;
    }
    if ((rc = swx_fleet_read(&fleet, a.positional[0]))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    struct stat st;
    if (!dry && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        cli_error("--output %s exists and is not a folder", dir);
        exit_code = EXIT_USAGE;
        goto done;
    }
    if (!dry && stat(dir, &st) != 0 && (rc = swx_atomicfile_folder_check(dir))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (!dry && (rc = swx_fleet_check_folder(fleet, dir))) {
        exit_code = cli_fail(rc);
        goto done;
    }

    /* ---- every ship's package, planned against the capabilities ---- */
    /* Ctrl-C and SIGTERM stop every phase from the first request on. */
    cli_signals_catch(&sigs);
    /* routed ships: each one's route found first (its waypoints on land
     * refused before anything is sent) */
    if ((exit_code = fleet_route_ships(fleet, &a, nshards > 0)))
        goto done;
    if ((exit_code = cli_client(&client, &a)))
        goto done;
    if ((rc = swx_wms_get_caps(&caps, client, swx_fleet_bundle(fleet)))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    swx_package_grib pg;
    int grib = 0;
    if ((exit_code = cli_grib_read(&pg, &grib, &gcache, &a)))
        goto done;
    swx_fleet_plan_opts po = {.dir = dir,
                              .now = now,
                              .shards = nshards,
                              .grib = grib ? &pg : NULL,
                              .gshhg = getenv("SEAWX_GSHHG")};
    if ((rc = swx_fleet_plan_new(&plan, fleet, caps, &po))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (dry) {
        exit_code = dry_run(fleet, plan, shard);
        goto done;
    }

    /* ---- the packages, one ship after another, through one share ---- */
    double t0 = cli_now();
    u.last = t0;
    swx_fleet_build_opts bo = {
        .shard = shard,
        .share_max = share_max,
        .in_flight = (int)in_flight,
        .stop = cli_stop_asked,
        .cancel = &cli_stop_hard,
        .progress = ui_progress,
        .failed = ui_failed,
        .ship_done = ui_ship_done,
        .ud = &u,
    };
    swx_fleet_result res;
    rc = swx_fleet_build(&res, plan, client, &bo);
    if (rc && !res.interrupted && !res.failed_ships) {
        exit_code = cli_fail(rc);
        goto done;
    }
    exit_code = summary(&res, rc, &u, t0);
done:
    cli_signals_release(&sigs);
    swx_fleet_plan_free(plan);
    swx_diskcache_free(gcache);
    swx_caps_free(caps);
    swx_client_free(client);
    swx_fleet_free(fleet);
    return exit_code;
}
