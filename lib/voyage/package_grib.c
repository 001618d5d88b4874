/* package_grib.c: the voyage GRIB of a package (seawx/grib.h): voyage.grb2,
 * cut to the package's voyage and buffer, made anew by every build (the
 * messages come from the cache after the first), written before any tile and
 * counted first against the budget, listed in the manifest's "grib". */
#include "package_priv.h"

#include "seawx/error.h"
#include "seawx/grib.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRIB_FILE "voyage.grb2"

struct swx_pkg_grib {
    swx_package_grib o;
    char vars[128];
    swx_grib_result res;
    uint64_t bytes;
    char sha[SWX_SHA256_HEX_LEN];
    int written;
};

static const char *const cut_names[] = {"window", "route", "box"};

int swx_package_set_grib(swx_package *p, const swx_package_grib *g)
{
    if (!g || !g->vars)
        return swx_error_set(SWX_EINVAL, "a voyage GRIB needs its variables");
    int rc = swx_grib_vars_check(g->vars);
    if (rc)
        return rc;
    if (strlen(g->vars) >= sizeof(((swx_pkg_grib *)0)->vars))
        return swx_error_set(SWX_EINVAL, "too many GRIB variables");
    if (g->cut == SWX_GRIB_CUT_BOX)
        return swx_error_set(SWX_EINVAL,
                             "a package's GRIB follows the voyage: cut window or route");
    if (g->grid_deg < 0 || g->grid_deg > 10 || g->step_h < 0 || g->step_h > 240)
        return swx_error_set(SWX_EINVAL,
                             "a GRIB grid of 0.01 to 10 degrees and a step of 1 to 240 h");
    swx_pkg_grib *x = calloc(1, sizeof *x);
    if (!x)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    x->o = *g;
    snprintf(x->vars, sizeof x->vars, "%s", g->vars);
    x->o.vars = x->vars;
    free(p->grib);
    p->grib = x;
    return 0;
}

static void spec_of(swx_grib_spec *s, const swx_package *p)
{
    memset(s, 0, sizeof *s);
    s->vars = p->grib->o.vars;
    s->grid_deg = p->grib->o.grid_deg;
    s->step_h = p->grib->o.step_h;
    s->cut = p->grib->o.cut;
    s->voyage = p->o.voyage;
    s->buffer_m = p->o.buffer_m;
    s->now = p->o.now;
}

int swx_pkg_grib_write(swx_package *p, swx_client *c, const char *dir,
                       volatile sig_atomic_t *cancel)
{
    if (!p->grib)
        return 0;
    swx_pkg_grib *x = p->grib;
    char path[PATH_MAX];
    swx_pkg_pathf(path, sizeof path, "%s/" GRIB_FILE, dir);
    swx_grib_spec s;
    spec_of(&s, p);
    swx_grib_opts go = {.cache = x->o.cache, .cancel = cancel};
    int rc = swx_grib_build(&x->res, c, &s, path, &go);
    if (rc)
        return rc;
    x->bytes = swx_pkg_file_size(path);
    if ((rc = swx_package_file_sha256(x->sha, path)))
        return rc;
    x->written = 1;
    return 0;
}

uint64_t swx_pkg_grib_bytes(const swx_package *p)
{
    return p->grib && p->grib->written ? p->grib->bytes : 0;
}

int swx_package_quote_grib(double *bytes, double *to_fetch, swx_package *p, swx_client *c)
{
    *bytes = *to_fetch = 0;
    if (!p->grib)
        return 0;
    swx_grib_spec s;
    spec_of(&s, p);
    swx_grib_opts go = {.cache = p->grib->o.cache};
    swx_grib_result r;
    int rc = swx_grib_quote(&r, c, &s, &go);
    if (rc)
        return rc;
    *bytes = (double)r.bytes;
    *to_fetch = (double)r.to_fetch;
    return 0;
}

int swx_package_grib_result(swx_grib_result *out, const swx_package *p)
{
    if (!p->grib || !p->grib->written)
        return SWX_ENOTFOUND;
    *out = p->grib->res;
    return 0;
}

void swx_pkg_grib_manifest(swx_jsonw *w, const swx_package *p)
{
    const swx_pkg_grib *x = p->grib;
    char t[SWX_ISO8601_LEN];
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "file");
    swx_jsonw_string(w, GRIB_FILE);
    swx_jsonw_key(w, "bytes");
    swx_jsonw_int(w, (int64_t)x->bytes);
    swx_jsonw_key(w, "sha256");
    swx_jsonw_string(w, x->sha);
    swx_jsonw_key(w, "variables");
    swx_jsonw_string(w, x->vars);
    swx_jsonw_key(w, "grid_degrees");
    swx_jsonw_number(w, x->o.grid_deg > 0 ? x->o.grid_deg : SWX_GRIB_DEFAULT_GRID, 2);
    swx_jsonw_key(w, "step_hours");
    swx_jsonw_int(w, x->o.step_h > 0 ? x->o.step_h : SWX_GRIB_DEFAULT_STEP);
    swx_jsonw_key(w, "cut");
    swx_jsonw_string(w, cut_names[x->o.cut]);
    swx_jsonw_key(w, "run");
    swx_iso8601_format(t, x->res.run);
    swx_jsonw_string(w, t);
    swx_jsonw_key(w, "region");
    swx_jsonw_string(w, x->res.region);
    swx_jsonw_key(w, "times");
    swx_jsonw_int(w, (int64_t)x->res.times);
    swx_jsonw_key(w, "first_time");
    swx_iso8601_format(t, x->res.first);
    swx_jsonw_string(w, t);
    swx_jsonw_key(w, "last_time");
    swx_iso8601_format(t, x->res.last);
    swx_jsonw_string(w, t);
    swx_jsonw_key(w, "fields");
    swx_jsonw_int(w, (int64_t)x->res.messages);
    swx_jsonw_object_end(w);
}
