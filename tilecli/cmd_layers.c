/* cmd_layers.c: `seawx layers`, the map layers of the service's bundles. */
#include "cli.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/wms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cli_opt cmd_layers_opts[] = {
    {"bundle", 'b', "NAME", "list this bundle (default: all twelve)", 1, NULL},
    {"variable", 'v', "VAR", "only this variable (t2m) or variable and unit (t2m:K)", 0, NULL},
    {"latest", 0, NULL, "only the newest complete run of each variable", 0, NULL},
    {"json", 0, NULL, "print a JSON array of layer objects instead of a table", 0, NULL},
    {0},
};

/* "t2m:K" or "r": the key that groups a variable's runs. */
static void var_key(const swx_layer *l, char *out, size_t n)
{
    const char *unit = swx_layer_unit(l);
    snprintf(out, n, "%s%s%s", swx_layer_variable(l), unit ? ":" : "", unit ? unit : "");
}

static int wanted(const swx_layer *l, const char *filter)
{
    if (!filter)
        return 1;
    if (strchr(filter, ':')) {
        char key[256];
        var_key(l, key, sizeof key);
        return strcmp(key, filter) == 0;
    }
    return strcmp(swx_layer_variable(l), filter) == 0;
}

static int is_latest(const swx_caps *caps, const swx_layer *l)
{
    const swx_layer *latest = NULL;
    const char *unit = swx_layer_unit(l);
    if (swx_caps_latest(&latest, caps, swx_layer_variable(l), unit ? unit : ""))
        return 0;
    return latest == l;
}

static void fmt_time(int64_t t, char *out)
{
    swx_iso8601_format(out, t);
}

static void json_layer(swx_jsonw *w, const char *bundle, const swx_caps *caps, const swx_layer *l)
{
    char ts[SWX_ISO8601_LEN];
    int64_t run;
    double west, south, east, north;
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "name");
    swx_jsonw_string(w, swx_layer_name(l));
    swx_jsonw_key(w, "bundle");
    swx_jsonw_string(w, bundle);
    swx_jsonw_key(w, "product");
    swx_jsonw_string(w, swx_layer_product(l));
    swx_jsonw_key(w, "variable");
    swx_jsonw_string(w, swx_layer_variable(l));
    swx_jsonw_key(w, "unit");
    swx_jsonw_string(w, swx_layer_unit(l));
    swx_jsonw_key(w, "title");
    swx_jsonw_string(w, swx_layer_title(l));
    swx_jsonw_key(w, "run");
    if (swx_layer_run_time(&run, l) == 0)
        swx_jsonw_time(w, run);
    else
        swx_jsonw_null(w);
    swx_jsonw_key(w, "complete");
    swx_jsonw_bool(w, swx_caps_run_is_complete(caps, l));
    swx_jsonw_key(w, "latest");
    swx_jsonw_bool(w, is_latest(caps, l));
    const swx_timedim *td = swx_layer_time(l);
    swx_jsonw_key(w, "time_count");
    swx_jsonw_int(w, td ? (int64_t)swx_timedim_count(td) : 0);
    swx_jsonw_key(w, "times");
    swx_jsonw_array_begin(w);
    for (size_t i = 0; td && i < swx_timedim_count(td); i++) {
        fmt_time(swx_timedim_get(td, i), ts);
        swx_jsonw_string(w, ts);
    }
    swx_jsonw_array_end(w);
    swx_jsonw_key(w, "default_time");
    if (td)
        swx_jsonw_time(w, swx_timedim_default(td));
    else
        swx_jsonw_null(w);
    swx_jsonw_key(w, "styles");
    swx_jsonw_array_begin(w);
    for (size_t i = 0; i < swx_layer_style_count(l); i++)
        swx_jsonw_string(w, swx_layer_style(l, i)->name);
    swx_jsonw_array_end(w);
    swx_jsonw_key(w, "crs");
    swx_jsonw_array_begin(w);
    for (size_t i = 0; i < swx_layer_crs_count(l); i++)
        swx_jsonw_string(w, swx_layer_crs(l, i));
    swx_jsonw_array_end(w);
    swx_jsonw_key(w, "bbox");
    if (swx_layer_geo_bbox(&west, &south, &east, &north, l) == 0) {
        swx_jsonw_array_begin(w);
        swx_jsonw_number(w, west, 6);
        swx_jsonw_number(w, south, 6);
        swx_jsonw_number(w, east, 6);
        swx_jsonw_number(w, north, 6);
        swx_jsonw_array_end(w);
    } else {
        swx_jsonw_null(w);
    }
    swx_jsonw_object_end(w);
}

static void table_run(const swx_caps *caps, const swx_layer *l)
{
    char run_s[SWX_ISO8601_LEN] = "-", first[SWX_ISO8601_LEN] = "-", last[SWX_ISO8601_LEN] = "-";
    int64_t run;
    if (swx_layer_run_time(&run, l) == 0)
        fmt_time(run, run_s);
    const swx_timedim *td = swx_layer_time(l);
    size_t n = td ? swx_timedim_count(td) : 0;
    if (n) {
        fmt_time(swx_timedim_first(td), first);
        fmt_time(swx_timedim_last(td), last);
    }
    const char *state = !td                                  ? "no time dimension"
                        : is_latest(caps, l)                 ? "latest"
                        : !swx_caps_run_is_complete(caps, l) ? "in production"
                                                             : "";
    printf("    %-21s %5zu  %-21s %-21s %s\n", run_s, n, first, last, state);
}

/* Prints one bundle as a table, grouped by variable (and unit). */
static size_t table_bundle(const char *bundle, const swx_caps *caps, const char *filter,
                           int latest_only)
{
    size_t nlayers = swx_caps_layer_count(caps), shown = 0;
    const char *product = nlayers ? swx_layer_product(swx_caps_layer(caps, 0)) : NULL;
    char **seen = calloc(nlayers ? nlayers : 1, sizeof *seen);
    size_t nseen = 0;
    if (!seen)
        return 0;
    printf("Bundle %s%s%s%s: %zu layers\n", bundle, product ? " (product " : "",
           product ? product : "", product ? ")" : "", nlayers);
    for (size_t i = 0; i < nlayers; i++) {
        const swx_layer *l = swx_caps_layer(caps, i);
        if (!wanted(l, filter))
            continue;
        char key[256];
        var_key(l, key, sizeof key);
        int dup = 0;
        for (size_t k = 0; k < nseen && !dup; k++)
            dup = strcmp(seen[k], key) == 0;
        if (dup)
            continue;
        seen[nseen] = strdup(key);
        if (!seen[nseen])
            break;
        nseen++;
        const char *title = swx_layer_title(l);
        printf("\n  %s%s%s\n", key, title ? "  " : "", title ? title : "");
        printf("    %-21s %5s  %-21s %-21s\n", "RUN", "TIMES", "FIRST VALID TIME",
               "LAST VALID TIME");
        const char *unit = swx_layer_unit(l);
        size_t nruns = swx_caps_runs(caps, swx_layer_variable(l), unit ? unit : "", NULL, 0);
        const swx_layer **runs = calloc(nruns ? nruns : 1, sizeof *runs);
        if (!runs)
            break;
        swx_caps_runs(caps, swx_layer_variable(l), unit ? unit : "", runs, nruns);
        for (size_t r = 0; r < nruns; r++) {
            if (latest_only && !is_latest(caps, runs[r]) && swx_layer_time(runs[r]))
                continue;
            table_run(caps, runs[r]);
            shown++;
        }
        free(runs);
    }
    printf("\n");
    for (size_t k = 0; k < nseen; k++)
        free(seen[k]);
    free(seen);
    return shown;
}

static int check_variable(const char *const *bundles, swx_caps **caps, size_t n, const char *filter)
{
    for (size_t b = 0; b < n; b++)
        for (size_t i = 0; caps[b] && i < swx_caps_layer_count(caps[b]); i++)
            if (wanted(swx_caps_layer(caps[b], i), filter))
                return 0;
    char list[600] = "";
    size_t at = 0;
    for (size_t b = 0; b < n && at < sizeof list; b++)
        for (size_t v = 0; caps[b] && v < swx_caps_variable_count(caps[b]) && at < sizeof list; v++)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "",
                                   swx_caps_variable(caps[b], v));
    return swx_error_set(SWX_ENOTFOUND, "no variable '%s' in bundle%s %s%s%s", filter,
                         n > 1 ? "s" : "", n > 1 ? "asked for" : bundles[0],
                         list[0] ? ": variables are " : "", list);
}

int cmd_layers(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_client *client = NULL;
    const char *names[64];
    swx_caps *caps[64] = {0};
    int rcs[64] = {0};
    char *errors[64] = {0};
    size_t n = 0;
    int exit_code = EXIT_OK;
    int pr = cli_parse(&a, cmd, argc, argv);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    if (a.npositional) {
        cli_error("unexpected argument '%s' (bundles go after --bundle)", a.positional[0]);
        return EXIT_USAGE;
    }
    /* Everything the user typed is checked before anything is sent. */
    if (cli_count(&a, "bundle")) {
        for (size_t i = 0; i < cli_count(&a, "bundle") && n < 64; i++) {
            const char *b = cli_get_at(&a, "bundle", i);
            if (swx_wms_bundle_check(b))
                return cli_fail(SWX_EINVAL);
            names[n++] = b;
        }
    } else {
        for (size_t i = 0; i < swx_wms_bundle_count(); i++)
            names[n++] = swx_wms_bundle(i);
    }
    const char *filter = cli_get(&a, "variable");
    int latest_only = cli_has(&a, "latest");
    if ((exit_code = cli_client(&client, &a)))
        return exit_code;

    swx_wms_get_caps_many(caps, rcs, errors, client, names, n, 4);
    /* A problem every bundle shares (the key, the address) is said once. */
    int said_global = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
        if (!rcs[i])
            continue;
        failed++;
        int global = rcs[i] == SWX_EAUTH || rcs[i] == SWX_ECONFIG || rcs[i] == SWX_ENET;
        if (global && said_global)
            continue;
        said_global |= global;
        cli_error("%s", errors[i] ? errors[i] : swx_error_name(rcs[i]));
        if (exit_code == EXIT_OK)
            exit_code = cli_exit_code(rcs[i]);
    }
    if (failed == (int)n)
        goto done;
    if (filter && check_variable(names, caps, n, filter)) {
        exit_code = cli_fail(SWX_ENOTFOUND);
        goto done;
    }
    if (cli_has(&a, "json")) {
        swx_jsonw *w = NULL;
        if (swx_jsonw_new(&w, stdout, 2)) {
            exit_code = cli_fail(SWX_ENOMEM);
            goto done;
        }
        swx_jsonw_array_begin(w);
        for (size_t b = 0; b < n; b++)
            for (size_t i = 0; caps[b] && i < swx_caps_layer_count(caps[b]); i++) {
                const swx_layer *l = swx_caps_layer(caps[b], i);
                if (wanted(l, filter) && (!latest_only || is_latest(caps[b], l)))
                    json_layer(w, names[b], caps[b], l);
            }
        swx_jsonw_array_end(w);
        int rc = swx_jsonw_finish(w);
        if (rc)
            exit_code = cli_fail(rc);
    } else {
        for (size_t b = 0; b < n; b++)
            if (caps[b])
                table_bundle(names[b], caps[b], filter, latest_only);
        if (fflush(stdout) != 0) {
            cli_error("writing the output failed");
            exit_code = EXIT_IO;
        }
    }
    if (exit_code == EXIT_OK && failed)
        exit_code = EXIT_PARTIAL;
done:
    for (size_t i = 0; i < n; i++) {
        swx_caps_free(caps[i]);
        free(errors[i]);
    }
    swx_client_free(client);
    return exit_code;
}
