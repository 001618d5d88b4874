/* package_spec.c: what users type for a voyage package (seawx/package.h):
 * a layer's spec (VAR[:style=S][:zoom=Z][:format=F][:quality=Q]) and a size
 * with its unit. */
#define _GNU_SOURCE
#include "seawx/package.h"

#include "package_int.h"
#include "seawx/error.h"
#include "seawx/number.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int swx_package_layer_parse(swx_package_layer *out, const char *spec)
{
    memset(out, 0, sizeof *out);
    out->format = -1;
    out->quality = -1;
    if (!spec || !*spec)
        return swx_error_set(SWX_EINVAL, "an empty layer; give VAR[:style=S][:zoom=Z][:format=F]");
    const char *p = spec;
    const char *colon = strchr(p, ':');
    size_t vn = colon ? (size_t)(colon - p) : strlen(p);
    /* A unit: the part after the variable, when it has no '='. */
    if (colon) {
        const char *next = strchr(colon + 1, ':');
        size_t un = next ? (size_t)(next - colon - 1) : strlen(colon + 1);
        if (!memchr(colon + 1, '=', un)) {
            vn += 1 + un;
            colon = next;
        }
    }
    if (vn == 0 || vn >= sizeof out->variable)
        return swx_error_set(SWX_EINVAL, "layer '%.80s': no variable, or too long", spec);
    memcpy(out->variable, p, vn);
    out->variable[vn] = '\0';
    for (size_t i = 0; i < vn; i++)
        if (out->variable[i] == '/' || out->variable[i] == ' ' || out->variable[i] == '=')
            return swx_error_set(SWX_EINVAL, "layer '%.80s': '%s' is not a variable", spec,
                                 out->variable);
    while (colon) {
        const char *k = colon + 1;
        const char *next = strchr(k, ':');
        /* A style name may hold ':' ("temp:F/nearest"): it runs to the next
         * ":name=" that is an option. */
        const char *eq = strchr(k, '=');
        size_t kn = eq && (!next || eq < next) ? (size_t)(eq - k) : 0;
        if (!kn)
            return swx_error_set(SWX_EINVAL, "layer '%.80s': '%.*s' is not NAME=VALUE", spec,
                                 (int)(next ? (size_t)(next - k) : strlen(k)), k);
        const char *v = eq + 1;
        if (kn == 5 && strncmp(k, "style", 5) == 0) {
            const char *e = v;
            for (;;) {
                e = strchr(e, ':');
                if (!e || strncmp(e + 1, "zoom=", 5) == 0 || strncmp(e + 1, "format=", 7) == 0 ||
                    strncmp(e + 1, "quality=", 8) == 0 || strncmp(e + 1, "style=", 6) == 0)
                    break;
                e++;
            }
            next = e;
        }
        size_t len = next ? (size_t)(next - v) : strlen(v);
        char val[160];
        if (len == 0 || len >= sizeof val)
            return swx_error_set(SWX_EINVAL, "layer '%.80s': %.*s has no value, or a too long one",
                                 spec, (int)kn, k);
        memcpy(val, v, len);
        val[len] = '\0';
        int rc = 0;
        if (kn == 5 && strncmp(k, "style", 5) == 0) {
            snprintf(out->style, sizeof out->style, "%s", val);
        } else if (kn == 4 && strncmp(k, "zoom", 4) == 0) {
            rc = swx_zoom_list_parse(&out->zooms, val);
        } else if (kn == 6 && strncmp(k, "format", 6) == 0) {
            swx_tile_format f;
            rc = swx_tile_format_parse(&f, val);
            out->format = (int)f;
        } else if (kn == 7 && strncmp(k, "quality", 7) == 0) {
            char *e;
            long q = strtol(val, &e, 10);
            if (*e || q < 1 || q > 100)
                rc = swx_error_set(SWX_EINVAL, "quality must be from 1 to 100, not '%s'", val);
            out->quality = (int)q;
        } else {
            return swx_error_set(SWX_EINVAL,
                                 "layer '%.80s': unknown option '%.*s'; use style, zoom, format "
                                 "or quality",
                                 spec, (int)kn, k);
        }
        if (rc)
            return swx_error_prefix(SWX_EINVAL, "layer '%.80s'", spec);
        colon = next;
    }
    return 0;
}

int swx_size_parse(uint64_t *out, const char *text)
{
    *out = 0;
    if (!text || !*text)
        return swx_error_set(SWX_EINVAL, "an empty size; give bytes or 20MB, 1.5MiB, 800kB");
    const char *e;
    double v = 0;
    if (swx_number_scan(&v, text, &e) || !(v > 0) || text[0] == '-' || text[0] == '+' ||
        text[0] == ' ' || text[0] == '\t')
        return swx_error_set(SWX_EINVAL, "'%.40s' is not a size (20MB, 1.5MiB, 800kB)", text);
    static const struct {
        const char *unit;
        double mul;
    } units[] = {{"", 1},    {"B", 1},    {"k", 1e3},           {"kB", 1e3},
                 {"K", 1e3}, {"KB", 1e3}, {"Ki", 1024.0},       {"KiB", 1024.0},
                 {"M", 1e6}, {"MB", 1e6}, {"Mi", 1048576.0},    {"MiB", 1048576.0},
                 {"G", 1e9}, {"GB", 1e9}, {"Gi", 1073741824.0}, {"GiB", 1073741824.0}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(e, units[i].unit) == 0) {
            double b = floor(v * units[i].mul);
            if (b < 1 || b > 1e15)
                return swx_error_set(SWX_EINVAL, "size '%.40s' is out of range", text);
            *out = (uint64_t)b;
            return 0;
        }
    return swx_error_set(SWX_EINVAL,
                         "'%.40s': unknown unit '%s'; use B, kB, MB, GB, KiB, MiB or GiB", text, e);
}

int swx_package_layer_count_check(size_t n)
{
    if (n < 1)
        return swx_error_set(SWX_EINVAL, "a package needs at least one layer");
    if (n > SWX_PACKAGE_MAX_LAYERS)
        return swx_error_set(SWX_EINVAL, "at most %d layers in a package", SWX_PACKAGE_MAX_LAYERS);
    return 0;
}

int swx_package_quality_check(int format, int quality)
{
    const swx_tile_format_info *f = swx_tile_format_get(format);
    char names[128];
    if (quality > 0 && !(f && (f->props & SWX_TF_QUALITY) &&
                         (f->viewers & SWX_PACKAGE_VIEWERS) == SWX_PACKAGE_VIEWERS))
        return swx_error_set(
            SWX_EINVAL, "quality goes with format %s, not %s",
            swx_tile_format_names(names, sizeof names, SWX_TF_QUALITY, SWX_PACKAGE_VIEWERS, -1),
            swx_tile_format_name((swx_tile_format)format));
    return 0;
}

int swx_package_layer_check(const swx_package_layer *l, const char *what)
{
    const swx_tile_format_info *f = swx_tile_format_get(l->format);
    char names[128];
    if (!what)
        what = "layer";
    if (!f)
        return swx_error_set(SWX_EINVAL, "%s %s: unknown tile format %d", what, l->variable,
                             l->format);
    if ((f->viewers & SWX_PACKAGE_VIEWERS) != SWX_PACKAGE_VIEWERS)
        return swx_error_set(SWX_EINVAL,
                             "%s %s: %s cannot be shown by QGIS 3.22 (GDAL 3.6) or OpenCPN; use %s",
                             what, l->variable, f->name,
                             swx_tile_format_names(names, sizeof names, 0, SWX_PACKAGE_VIEWERS,
                                                   SWX_PACKAGE_DEFAULT_FORMAT));
    if (swx_package_quality_check(l->format, l->quality))
        return swx_error_prefix(SWX_EINVAL, "%s %s", what, l->variable);
    return 0;
}

int swx_package_layer_complete(swx_package_layer *l, uint32_t zooms, int format, int quality,
                               const char *what)
{
    if (!l->zooms)
        l->zooms = zooms;
    if (l->format < 0)
        l->format = format;
    if (l->quality < 0)
        l->quality = quality;
    return swx_package_layer_check(l, what);
}

int swx_package_opts_check(const swx_package_opts *o)
{
    int rc;
    if ((rc = swx_package_layer_count_check(o->nlayers)))
        return rc;
    if (!o->voyage)
        return swx_error_set(SWX_EINVAL, "a package needs a voyage");
    if ((rc = swx_tile_size_check(o->tile_size, NULL)))
        return rc;
    for (size_t i = 0; i < o->nlayers; i++)
        if ((rc = swx_package_layer_check(&o->layers[i], NULL)))
            return rc;
    return 0;
}
