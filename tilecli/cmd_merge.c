/* cmd_merge.c: `seawx merge`, the shards of a seed (seawx seed --shard K/N)
 * checked and merged into the file an unsharded seed would have written
 * (lib/tiles/merge.c).
 *
 * For orchestrators: when a shard is missing, incomplete, of another seed or
 * damaged (its images do not hash to their keys, its file is cut short),
 * nothing is written, the exit code is EXIT_SHARDS and stdout lists the
 * shards to run again, one number per line (or, with --json, an object). A
 * file too damaged to tell its shard is named on stderr (and in the JSON's
 * "damaged_files"); its shard is among the missing ones.
 *
 * The output is checked before any shard is read (swx_atomicfile_target()):
 * a device, a folder, a link to nothing or one of the shards (the same file,
 * whatever its name) is refused with exit 2.
 */
#include "cli.h"

#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "seawx/jsonw.h"
#include "seawx/shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cli_opt cmd_merge_opts[] = {
    {"output", 'o', "FILE", "the merged MBTiles file (required); replaced atomically", 0, NULL},
    {"shards", 'N', "N",
     "the number of shards (default: as the files say); needed with a {shard} name", 0, NULL},
    {"json", 0, NULL, "print the shards' states and the result as JSON on stdout", 0, NULL},
    {"quiet", 'q', NULL, "only errors", 0, NULL},
    {0},
};

static const char *state_name(swx_shard_state s)
{
    switch (s) {
    case SWX_SHARD_OK:
        return "complete";
    case SWX_SHARD_MISSING:
        return "missing";
    case SWX_SHARD_INCOMPLETE:
        return "incomplete";
    case SWX_SHARD_DAMAGED:
        return "damaged";
    default:
        return "other-seed";
    }
}

/* The report on stdout: the shards to run again one per line, or JSON. */
static int report(const swx_merge *m, int json, const char *output, long long tiles,
                  long long images, int merged)
{
    int n = swx_merge_shard_count(m);
    if (!json) {
        for (int k = 1; k <= n; k++)
            if (swx_merge_state(m, k, NULL) != SWX_SHARD_OK)
                printf("%d\n", k);
        return fflush(stdout) != 0 ? -1 : 0;
    }
    swx_jsonw *w = NULL;
    if (swx_jsonw_new(&w, stdout, 2))
        return -1;
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "shards");
    swx_jsonw_int(w, n);
    swx_jsonw_key(w, "merged");
    swx_jsonw_bool(w, merged);
    swx_jsonw_key(w, "output");
    swx_jsonw_string(w, merged ? output : NULL);
    swx_jsonw_key(w, "tiles");
    swx_jsonw_int(w, tiles);
    swx_jsonw_key(w, "images");
    swx_jsonw_int(w, images);
    swx_jsonw_key(w, "rerun");
    swx_jsonw_array_begin(w);
    for (int k = 1; k <= n; k++)
        if (swx_merge_state(m, k, NULL) != SWX_SHARD_OK)
            swx_jsonw_int(w, k);
    swx_jsonw_array_end(w);
    swx_jsonw_key(w, "states");
    swx_jsonw_array_begin(w);
    for (int k = 1; k <= n; k++) {
        const char *path;
        swx_shard_state st = swx_merge_state(m, k, &path);
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "shard");
        swx_jsonw_int(w, k);
        swx_jsonw_key(w, "state");
        swx_jsonw_string(w, state_name(st));
        swx_jsonw_key(w, "path");
        swx_jsonw_string(w, path);
        swx_jsonw_object_end(w);
    }
    swx_jsonw_array_end(w);
    swx_jsonw_key(w, "damaged_files");
    swx_jsonw_array_begin(w);
    for (size_t i = 0; swx_merge_damaged_file(m, i); i++)
        swx_jsonw_string(w, swx_merge_damaged_file(m, i));
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
    int rc = swx_jsonw_finish(w);
    return rc || fflush(stdout) != 0 ? -1 : 0;
}

/* "3 (missing: parts/t2m.shard-3-of-8.mbtiles), 5 (incomplete: ...)" for the error
 * line; names (may be NULL) are the files expected for each shard. */
static void bad_list(char *out, size_t cap, const swx_merge *m, char *const *names)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; swx_merge_damaged_file(m, i) && at + 1 < cap; i++) {
        int w = snprintf(out + at, cap - at, "%sdamaged: %s", at ? ", " : "",
                         swx_merge_damaged_file(m, i));
        if (w < 0 || (size_t)w >= cap - at) {
            snprintf(out + (cap > 4 ? cap - 4 : 0), cap > 4 ? 4 : cap, "...");
            return;
        }
        at += (size_t)w;
    }
    for (int k = 1; k <= swx_merge_shard_count(m) && at + 1 < cap; k++) {
        const char *path;
        swx_shard_state st = swx_merge_state(m, k, &path);
        if (st == SWX_SHARD_OK)
            continue;
        if (!path && names)
            path = names[k - 1];
        int w = snprintf(out + at, cap - at, "%s%d (%s%s%s)", at ? ", " : "", k, state_name(st),
                         path ? ": " : "", path ? path : "");
        if (w < 0 || (size_t)w >= cap - at) {
            snprintf(out + (cap > 4 ? cap - 4 : 0), cap > 4 ? 4 : cap, "...");
            break;
        }
        at += (size_t)w;
    }
}

int cmd_merge(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_merge *m = NULL;
    char **names = NULL;
    size_t nnames = 0;
    int exit_code = EXIT_OK, rc;
    long shards = 0;

    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    cli_set_quiet(cli_has(&a, "quiet"));
    const char *output = cli_get(&a, "output");
    int json = cli_has(&a, "json");
    if (!output) {
        cli_error("--output FILE is required (see 'seawx merge --help')");
        return EXIT_USAGE;
    }
    if (!a.npositional) {
        cli_error("give the shards' files, or one name with {shard} and --shards N");
        return EXIT_USAGE;
    }
    if (cli_get_int(&shards, &a, "shards", 1, SWX_SHARD_MAX))
        return EXIT_USAGE;
    /* Checked again by the merge; here before any shard is even opened. */
    if (!strstr(a.positional[0], "{shard}") &&
        (rc = swx_atomicfile_target(NULL, NULL, output, 0, a.positional, a.npositional)))
        return cli_fail(rc);
    /* One name with {shard}: the file of shard K is that name with K-of-N. */
    const char *tpl = a.positional[0], *mark = strstr(tpl, "{shard}");
    if (mark) {
        if (a.npositional != 1 || !shards) {
            cli_error("a name with {shard} goes alone, with --shards N");
            return EXIT_USAGE;
        }
        names = calloc((size_t)shards, sizeof *names);
        if (!names) {
            exit_code = cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
            goto done;
        }
        for (long k = 1; k <= shards; k++) {
            size_t len = strlen(tpl) + 32;
            if (!(names[nnames] = malloc(len))) {
                exit_code = cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
                goto done;
            }
            snprintf(names[nnames++], len, "%.*s%ld-of-%ld%s", (int)(mark - tpl), tpl, k, shards,
                     mark + 7);
        }
        if ((rc = swx_atomicfile_target(NULL, NULL, output, 0, (const char *const *)names,
                                        nnames))) {
            exit_code = cli_fail(rc);
            goto done;
        }
        rc = swx_merge_open(&m, (const char *const *)names, nnames, (int)shards);
    } else {
        rc = swx_merge_open(&m, a.positional, a.npositional, (int)shards);
    }
    if (rc) {
        exit_code = cli_fail(rc);
        goto done;
    }
    int n = swx_merge_shard_count(m), bad = swx_merge_bad_count(m);
    if (bad) {
        char list[2048];
        bad_list(list, sizeof list, m, nnames ? names : NULL);
        cli_error("%d of %d shard%s must run again, nothing merged: %s", bad, n, n == 1 ? "" : "s",
                  list);
        exit_code = report(m, json, output, 0, 0, 0) ? EXIT_IO : EXIT_SHARDS;
        goto done;
    }
    long long tiles = 0, images = 0;
    /* Ctrl-C or SIGTERM stops the copy at once: nothing is put in place. */
    cli_signals sig;
    cli_signals_catch(&sig);
    swx_merge_set_cancel(m, &cli_stop_soft);
    rc = swx_merge_write(&tiles, &images, m, output);
    cli_signals_release(&sig);
    if (rc || cli_stop_soft) {
        exit_code = cli_stop_or_fail(rc, "nothing merged");
        goto done;
    }
    cli_info("merged %d shard%s into %s: %lld tiles, %lld distinct images", n, n == 1 ? "" : "s",
             output, tiles, images);
    if (json && report(m, json, output, tiles, images, 1))
        exit_code = EXIT_IO;
done:
    for (size_t i = 0; i < nnames; i++)
        free(names[i]);
    free(names);
    swx_merge_free(m);
    return exit_code;
}
