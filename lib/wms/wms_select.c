/* wms_select.c: a layer, its times, style and CRS, named by a user and
 * resolved against a bundle's capabilities (grammar in seawx/wms_select.h). */
#include "seawx/wms_select.h"

#include "buf.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/wms_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void list_variables(const swx_caps *caps, char *out, size_t n)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < swx_caps_variable_count(caps); i++)
        swx_list_append(out, n, &at, swx_caps_variable(caps, i));
}

static int is_latest(const char *run)
{
    return !run || !*run || strcasecmp(run, "latest") == 0;
}

int swx_select_run_parse(int64_t *out, const char *run)
{
    int64_t t = INT64_MIN;
    if (!is_latest(run)) {
        size_t n = strlen(run);
        int rc;
        if (n == 10 && strspn(run, "0123456789") == 10) {
            char iso[24];
            snprintf(iso, sizeof iso, "%.4s-%.2s-%.2sT%.2s:00:00Z", run, run + 4, run + 6, run + 8);
            rc = swx_iso8601_parse(&t, iso);
        } else {
            rc = swx_iso8601_parse(&t, run);
        }
        if (rc)
            return swx_error_set(SWX_EINVAL,
                                 "run '%.64s' is neither 'latest', YYYYMMDDHH nor an ISO 8601 "
                                 "instant",
                                 run);
    }
    if (out)
        *out = t;
    return 0;
}

int swx_select_layer(const swx_layer **out, const swx_caps *caps, const char *bundle,
                     const char *layer, const char *variable, const char *run)
{
    char vars[512];
    *out = NULL;
    if (layer && *layer) {
        *out = swx_caps_find(caps, layer);
        if (*out)
            return 0;
        list_variables(caps, vars, sizeof vars);
        return swx_error_set(SWX_ENOTFOUND,
                             "layer '%.200s' is not in bundle %s; its variables are %s", layer,
                             bundle, vars);
    }
    if (!variable || !*variable)
        return swx_error_set(SWX_EINVAL, "name a layer or a variable of bundle %s", bundle);
    int64_t want;
    int rc = swx_select_run_parse(&want, run);
    if (rc)
        return rc;
    char var[128];
    snprintf(var, sizeof var, "%s", variable);
    char *colon = strchr(var, ':');
    const char *unit = NULL;
    if (colon) {
        *colon = '\0';
        unit = colon + 1;
    }
    size_t nruns = swx_caps_runs(caps, var, unit, NULL, 0);
    if (nruns == 0) {
        list_variables(caps, vars, sizeof vars);
        return swx_error_set(SWX_ENOTFOUND,
                             "variable '%s' is not in bundle %s; its variables are %s", variable,
                             bundle, vars);
    }
    if (want == INT64_MIN) {
        rc = swx_caps_latest(out, caps, var, unit);
        return rc ? swx_error_prefix(rc, "no complete run of %s in bundle %s", variable, bundle)
                  : 0;
    }
    const swx_layer **runs = calloc(nruns, sizeof *runs);
    if (!runs)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    swx_caps_runs(caps, var, unit, runs, nruns);
    char list[400] = "";
    size_t at = 0;
    for (size_t i = 0; i < nruns; i++) {
        int64_t t;
        if (swx_layer_run_time(&t, runs[i]) == 0) {
            if (t == want) {
                *out = runs[i];
                break;
            }
            char s[SWX_ISO8601_LEN];
            swx_iso8601_format(s, t);
            s[13] = '\0'; /* YYYY-MM-DDTHH */
            swx_list_append(list, sizeof list, &at, s);
        }
    }
    free(runs);
    if (*out)
        return 0;
    return swx_error_set(SWX_ENOTFOUND, "no run %s of %s in bundle %s; runs are %s", run, variable,
                         bundle, list);
}

/* SWX_ENOTFOUND for an instant l does not have, naming the nearest ones. */
static int not_a_time(const swx_layer *l, const swx_timedim *td, int64_t t)
{
    int64_t near[3];
    size_t k = swx_timedim_nearest(td, t, near, 3);
    char list[100] = "", asked[SWX_ISO8601_LEN], first[SWX_ISO8601_LEN], last[SWX_ISO8601_LEN];
    size_t at = 0;
    for (size_t i = 0; i < k; i++) {
        char s[SWX_ISO8601_LEN];
        swx_iso8601_format(s, near[i]);
        swx_list_append(list, sizeof list, &at, s);
    }
    swx_iso8601_format(asked, t);
    swx_iso8601_format(first, swx_timedim_first(td));
    swx_iso8601_format(last, swx_timedim_last(td));
    return swx_error_set(SWX_ENOTFOUND,
                         "time %s is not a valid time of layer %s; nearest: %s (%zu valid times "
                         "from %s to %s)",
                         asked, swx_layer_name(l), list, swx_timedim_count(td), first, last);
}

int swx_select_time(int64_t *out, const swx_layer *l, const char *time)
{
    const swx_timedim *td = swx_layer_time(l);
    *out = INT64_MIN;
    if (!td) {
        if (time && *time)
            return swx_error_set(SWX_EINVAL, "layer %s has no time dimension; give no time",
                                 swx_layer_name(l));
        return 0;
    }
    if (!time || !*time) {
        *out = swx_timedim_default(td);
        return 0;
    }
    int64_t t;
    if (swx_iso8601_parse(&t, time))
        return swx_error_prefix(SWX_EINVAL, "time");
    if (!swx_timedim_contains(td, t))
        return not_a_time(l, td, t);
    *out = t;
    return 0;
}

int swx_select_times(int64_t **out, size_t *n, const swx_layer *l, const char *spec)
{
    const swx_timedim *td = swx_layer_time(l);
    swx_timedim *want = NULL;
    int64_t *v = NULL;
    size_t c = 0;
    int rc = 0;
    *out = NULL;
    *n = 0;
    if (!td) {
        if (spec && *spec)
            return swx_error_set(SWX_EINVAL, "layer %s has no time dimension; give no time",
                                 swx_layer_name(l));
        return 0;
    }
    const swx_timedim *from = td;
    if (!spec || !*spec) {
        c = 1;
    } else if (strcmp(spec, "all") == 0) {
        c = swx_timedim_count(td);
    } else {
        if ((rc = swx_timedim_parse(&want, spec, strlen(spec), NULL)))
            goto done;
        from = want;
        c = swx_timedim_count(want);
    }
    if (c > SWX_SELECT_MAX_TIMES) {
        rc = swx_error_set(SWX_ETOOBIG, "%zu times asked of layer %s; at most %d at once", c,
                           swx_layer_name(l), SWX_SELECT_MAX_TIMES);
        goto done;
    }
    v = malloc((c ? c : 1) * sizeof *v);
    if (!v) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    if (!spec || !*spec) {
        v[0] = swx_timedim_default(td);
    } else {
        for (size_t i = 0; i < c; i++) {
            v[i] = swx_timedim_get(from, i);
            if (from != td && !swx_timedim_contains(td, v[i])) {
                rc = not_a_time(l, td, v[i]);
                goto done;
            }
        }
    }
done:
    swx_timedim_free(want);
    if (rc) {
        free(v);
        return rc;
    }
    *out = v;
    *n = c;
    return 0;
}

int swx_select_style(const char **out, const swx_layer *l, const char *style)
{
    size_t n = swx_layer_style_count(l);
    *out = NULL;
    if (!style || !*style) {
        *out = n ? swx_layer_style(l, 0)->name : "";
        return 0;
    }
    char list[600] = "";
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = swx_layer_style(l, i)->name;
        if (strcmp(name, style) == 0) {
            *out = name;
            return 0;
        }
        swx_list_append(list, sizeof list, &at, name);
    }
    return swx_error_set(SWX_ENOTFOUND, "style '%.100s' is not a style of layer %s; styles are %s",
                         style, swx_layer_name(l), n ? list : "(none)");
}

int swx_select_crs(const char **out, int *epsg, const swx_layer *l, const char *crs)
{
    /* Each CRS seawx supports, with the names a layer may advertise it by,
     * preferred first. */
    static const char *const geo[] = {"EPSG:4326", "CRS:84", NULL};
    static const char *const merc[] = {"EPSG:3857", "EPSG:900913", NULL};
    const char *want = crs && *crs ? crs : "EPSG:4326";
    const char *const *names = NULL;
    *out = NULL;
    *epsg = 0;
    if (strcasecmp(want, "EPSG:4326") == 0 || strcmp(want, "4326") == 0 ||
        strcasecmp(want, "CRS:84") == 0 || strcasecmp(want, "OGC:CRS84") == 0)
        names = geo;
    else if (strcasecmp(want, "EPSG:3857") == 0 || strcmp(want, "3857") == 0 ||
             strcasecmp(want, "EPSG:900913") == 0)
        names = merc;
    if (!names)
        return swx_error_set(SWX_EINVAL, "CRS '%.64s' is not supported: use EPSG:4326 or EPSG:3857",
                             want);
    for (int i = 0; names[i]; i++)
        if (swx_layer_has_crs(l, names[i])) {
            *out = names[i];
            *epsg = names == geo ? 4326 : 3857;
            return 0;
        }
    char list[300] = "";
    size_t at = 0;
    for (size_t i = 0; i < swx_layer_crs_count(l); i++)
        swx_list_append(list, sizeof list, &at, swx_layer_crs(l, i));
    return swx_error_set(SWX_EINVAL, "layer %s does not advertise %s; it offers %s",
                         swx_layer_name(l), names[0], list[0] ? list : "no CRS");
}
