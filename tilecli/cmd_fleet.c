/* cmd_fleet.c: `seawx fleet`, the voyage packages of a fleet in one run
 * (seawx/fleet.h, seawx/package.h): each ship's package in DIR/NAME, exactly
 * what `seawx voyage` writes for that ship alone, with every distinct GetMap
 * asked of the service once for the whole fleet.
 *
 * What is shared: every package asks one GetMap per tile on the global tile
 * grid, so the same tile of the same layer, time, style and tile size is the
 * same request for every ship. The ships' packages are built one after
 * another through one share (a disk cache in DIR/.fleet-share, keyed by the
 * request without the key): an answer one ship fetched serves every later
 * ship. The share is removed once every ship's package is complete; a run
 * that was stopped or had failed tiles keeps it, so running it again fetches
 * only what is still missing.
 *
 * Everything typed and every ship is checked (the fleet file, routes, layers
 * against the capabilities, the package folders) before any GetMap.
 */
#define _GNU_SOURCE
#include "cli.h"

#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/fleet.h"
#include "seawx/iso8601.h"
#include "seawx/package.h"
#include "seawx/shard.h"
#include "seawx/wms.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FLEET_FAILURES_SHOWN 10
#define FLEET_DEFAULT_SHARE_MB 4096

const cli_opt cmd_fleet_opts[] = {
    {"output", 'o', "DIR",
     "the fleet's folder: each ship's package is DIR/NAME, as seawx voyage makes it (required)", 0},
    {"shard", 0, "K/N",
     "build only the ships of shard K of N: ships are dealt heaviest first, each to the shard "
     "whose ships share most of its maps, within a tenth of the mean (every shard computes the "
     "same deal alone)",
     0},
    {"share-max", 0, "MB",
     "the most the shared answers (DIR/.fleet-share) may hold on disk, in megabytes (default "
     "4096; 0: no limit); past it the least recently used are dropped and asked again if needed",
     0},
    {"now", 0, "TIME", "count valid times as past from this instant, ISO 8601 (default: the clock)",
     0},
    {"in-flight", 'j', "N", "requests under way at once (default 32)", 0},
    {"dry-run", 'n', NULL,
     "count tiles and GetMaps per ship and for the fleet (each ship alone against shared); "
     "fetch no map",
     0},
    {"quiet", 'q', NULL, "no progress, only errors and the summary", 0},
    {0},
};

typedef struct ui {
    int quiet, failures_shown;
    double t0, last;
    size_t k, n; /* the ship under way, of the ships built */
    const char *ship;
} ui;

static void ui_progress(void *ud, const swx_package_progress *pr)
{
    ui *u = ud;
    if (u->quiet || !cli_progress_due(&u->last))
        return;
    char ts[SWX_ISO8601_LEN];
    swx_iso8601_format(ts, pr->time);
    cli_progress(0, "ship %zu/%zu %s: %llu/%llu tiles (%.0f%%), %.2f MiB: %s %s", u->k, u->n,
                 u->ship, (unsigned long long)pr->done, (unsigned long long)pr->total,
                 pr->total ? 100.0 * (double)pr->done / (double)pr->total : 100.0,
                 (double)pr->bytes / 1048576.0, pr->variable ? pr->variable : "", ts);
}

static void ui_failed(void *ud, int z, uint32_t x, uint32_t y, int n, const char *why)
{
    ui *u = ud;
    if (u->failures_shown < FLEET_FAILURES_SHOWN) {
        cli_progress(0, NULL);
        cli_warn("ship %s: %d tile%s from %d/%u/%u failed: %s", u->ship, n, n == 1 ? "" : "s", z, x,
                 y, why);
    }
    u->failures_shown++;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(p);
    return 0;
}

/* Ships in the order they are built: earliest departure first, then as in
 * the file. */
typedef struct order {
    size_t i;
    int64_t depart;
} order;

static int order_cmp(const void *a, const void *b)
{
    const order *x = a, *y = b;
    if (x->depart != y->depart)
        return x->depart < y->depart ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int dry_run(const swx_fleet *fleet, swx_package **pkgs, const int *shard_of, int shard)
{
    swx_fleet_count *cnt = NULL;
    uint64_t sum = 0, distinct = 0;
    size_t ships = 0;
    int rc;
    if ((rc = swx_fleet_count_new(&cnt)))
        return cli_fail(rc);
    printf("%-24s %6s %6s %10s %10s\n", "ship", "shard", "files", "getmaps", "new");
    for (size_t i = 0; i < swx_fleet_ship_count(fleet); i++) {
        if (shard && shard_of[i] != shard)
            continue;
        uint64_t g, added;
        if ((rc = swx_fleet_count_add(&g, &added, cnt, pkgs[i]))) {
            swx_fleet_count_free(cnt);
            return cli_fail(rc);
        }
        size_t files = 0;
        for (size_t l = 0; l < swx_package_layer_count(pkgs[i]); l++)
            files += swx_package_file_count(pkgs[i], l);
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

int cmd_fleet(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_fleet *fleet = NULL;
    swx_client *client = NULL;
    swx_caps *caps = NULL;
    swx_package **pkgs = NULL;
    char(*paths)[4200] = NULL; /* the packages' paths, borrowed by them */
    swx_diskcache *share = NULL;
    int *shard_of = NULL;
    order *ord = NULL;
    int exit_code = EXIT_OK, rc;
    cli_signals sigs = {0};
    char share_dir[4200] = "";
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
    if (cli_get_int(&in_flight, &a, "in-flight", 32, 1, 256))
        return EXIT_USAGE;
    int shard = 0, nshards = 0;
    if (cli_get(&a, "shard") && swx_shard_parse(&shard, &nshards, cli_get(&a, "shard"))) {
        swx_error_prefix(SWX_EINVAL, "--shard");
        return cli_fail(SWX_EINVAL);
    }
    uint64_t share_max = (uint64_t)FLEET_DEFAULT_SHARE_MB << 20;
    if (cli_get(&a, "share-max") && swx_diskcache_parse_mb(&share_max, cli_get(&a, "share-max"))) {
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
    size_t nships = swx_fleet_ship_count(fleet);
    struct stat st;
    if (!dry && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        cli_error("--output %s exists and is not a folder", dir);
        exit_code = EXIT_USAGE;
        goto done;
    }
    if (!dry && stat(dir, &st) != 0 && (rc = cli_check_output_folder(dir))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    char path[4200];
    int dir_exists = !dry && stat(dir, &st) == 0;
    for (size_t i = 0; i < nships && dir_exists; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, swx_fleet_ship_at(fleet, i)->name);
        if ((rc = swx_package_path_check(path)) < 0) {
            swx_error_prefix(rc, "ship %zu (%s)", i + 1, swx_fleet_ship_at(fleet, i)->name);
            exit_code = cli_fail(rc);
            goto done;
        }
    }

    /* ---- every ship's package, planned against the capabilities ---- */
    if ((exit_code = cli_client(&client, &a)))
        goto done;
    if ((rc = swx_wms_get_caps(&caps, client, swx_fleet_bundle(fleet)))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    pkgs = calloc(nships, sizeof *pkgs);
    shard_of = calloc(nships, sizeof *shard_of);
    ord = calloc(nships, sizeof *ord);
    paths = calloc(nships, sizeof *paths);
    if (!pkgs || !shard_of || !ord || !paths) {
        exit_code = cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
        goto done;
    }
    for (size_t i = 0; i < nships; i++) {
        const swx_fleet_ship *s = swx_fleet_ship_at(fleet, i);
        snprintf(paths[i], sizeof paths[i], "%s/%s", dir[0] ? dir : ".", s->name);
        swx_package_opts po = {swx_fleet_bundle(fleet),
                               swx_fleet_run(fleet),
                               paths[i],
                               s->voyage,
                               s->buffer_m,
                               s->layers,
                               s->nlayers,
                               swx_fleet_tile_size(fleet),
                               s->budget,
                               now};
        if ((rc = swx_package_new(&pkgs[i], caps, &po))) {
            swx_error_prefix(rc, "ship %zu (%s)%s", i + 1, s->name,
                             rc == SWX_EINVAL && s->budget ? ": budget" : "");
            exit_code = cli_fail(rc);
            goto done;
        }
        int64_t dep;
        double arr;
        swx_voyage_span(&dep, &arr, s->voyage);
        ord[i] = (order){i, dep};
    }
    if (nshards && (rc = swx_fleet_deal(shard_of, pkgs, nships, nshards))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    if (dry) {
        exit_code = dry_run(fleet, pkgs, shard_of, shard);
        goto done;
    }

    /* ---- the packages, one ship after another, through one share ---- */
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        exit_code = cli_fail(swx_error_set(SWX_EIO, "cannot create %s: %s", dir, strerror(errno)));
        goto done;
    }
    if (nshards)
        snprintf(share_dir, sizeof share_dir, "%s/.fleet-share.%d-of-%d", dir, shard, nshards);
    else
        snprintf(share_dir, sizeof share_dir, "%s/.fleet-share", dir);
    if ((rc = swx_diskcache_open(&share, share_dir, share_max))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    qsort(ord, nships, sizeof *ord, order_cmp);
    cli_signals_catch(&sigs);
    u.t0 = u.last = cli_now();
    for (size_t k = 0; k < nships; k++)
        u.n += !nshards || shard_of[ord[k].i] == shard;
    uint64_t sent = 0, shared = 0, tiles = 0, partial = 0;
    size_t files = 0, built = 0, failed_ships = 0;
    int interrupted = 0;
    for (size_t k = 0; k < nships && !interrupted; k++) {
        size_t i = ord[k].i;
        const swx_fleet_ship *s = swx_fleet_ship_at(fleet, i);
        if (nshards && shard_of[i] != shard)
            continue;
        u.k = built + failed_ships + 1;
        u.ship = s->name;
        u.failures_shown = 0;
        swx_package_run_opts ro = {
            (int)in_flight, cli_stop_asked, &cli_stop_hard, ui_progress, ui_failed, &u, share};
        swx_package_result res;
        rc = swx_package_build(&res, pkgs[i], client, &ro);
        cli_progress(0, NULL);
        sent += res.requests;
        shared += res.shared;
        if (rc == SWX_ECANCEL || res.interrupted) {
            interrupted = 1;
            break;
        }
        if (rc) {
            swx_error_prefix(rc, "ship %zu (%s)", i + 1, s->name);
            int code = cli_fail(rc);
            if (exit_code == EXIT_OK)
                exit_code = code;
            failed_ships++;
            /* The key or the service: every other ship would fail the same way. */
            if (code == EXIT_AUTH || code == EXIT_CONFIG || code == EXIT_NETWORK)
                break;
            continue;
        }
        if (res.cut)
            cli_warn("ship %s: %s", s->name, res.cut_line);
        if (res.failed) {
            cli_error("ship %s: %llu tiles failed and are missing", s->name,
                      (unsigned long long)res.failed);
            partial += res.failed;
        }
        cli_info("ship %zu/%zu %s: %zu files, %llu tiles, %.2f MiB, %llu GetMaps sent, %llu "
                 "answered from the fleet's share",
                 u.k, u.n, s->name, res.files, (unsigned long long)res.tiles,
                 (double)res.bytes / 1048576.0, (unsigned long long)res.requests,
                 (unsigned long long)res.shared);
        files += res.files;
        tiles += res.tiles;
        built++;
    }
    if (interrupted) {
        cli_error("interrupted: %zu of %zu ships built; the others were left as they were; run the "
                  "same command again to continue (what was fetched is kept in %s)",
                  built, u.n, share_dir);
        exit_code = EXIT_INTERRUPTED;
    }
    cli_info("fleet: %zu of %zu ships built, %zu files, %llu tiles; %llu GetMaps sent, %llu "
             "answered from the share (%.1f %% of %llu), in %.1f s",
             built, u.n, files, (unsigned long long)tiles, (unsigned long long)sent,
             (unsigned long long)shared,
             sent + shared ? 100.0 * (double)shared / (double)(sent + shared) : 0.0,
             (unsigned long long)(sent + shared), cli_now() - u.t0);
    if (!interrupted && partial && exit_code == EXIT_OK) {
        cli_error("%llu tiles failed and are missing; run the same command again to fetch them",
                  (unsigned long long)partial);
        exit_code = EXIT_PARTIAL;
    }
    if (failed_ships && exit_code != EXIT_INTERRUPTED)
        cli_error("%zu ship%s failed (named above); run the same command again to build %s",
                  failed_ships, failed_ships == 1 ? "" : "s", failed_ships == 1 ? "it" : "them");
    /* Every package complete: the shared answers have served. */
    if (exit_code == EXIT_OK) {
        swx_diskcache_free(share);
        share = NULL;
        nftw(share_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
done:
    cli_signals_release(&sigs);
    swx_diskcache_free(share);
    for (size_t i = 0; pkgs && i < swx_fleet_ship_count(fleet); i++)
        swx_package_free(pkgs[i]);
    free(pkgs);
    free(paths);
    free(shard_of);
    free(ord);
    swx_caps_free(caps);
    swx_client_free(client);
    swx_fleet_free(fleet);
    return exit_code;
}
