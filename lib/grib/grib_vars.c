/* grib_vars.c: the variables of a voyage GRIB, by the names sailors use, and
 * the fields and precision each is written with (docs/grib.md); a field is
 * known by any of its encodings (grib_codes.c). */
#include "grib_codes.h"
#include "grib_priv.h"

#include "seawx/error.h"

#include <math.h>
#include <string.h>

/* The precision is what a navigator reads, not what the model carries: wind
 * and gust to 0.1 m/s, pressure to 10 Pa (0.1 hPa), temperature to 0.1 K,
 * rain to 0.1 kg/m2 (0.1 mm), wave height to 0.1 m, direction to 1 degree,
 * period to 1 s, ocean current to 0.01 m/s (a router's 0.02 kn). Currents
 * (WMO discipline 10, category 1, at the sea surface: depth below sea level
 * 0, GRIB1 level type 160) are in the maritime bundle's files where the
 * service's files hold them (the stand-in's with SEAWX_SIM_GRIB_CURRENTS). */
/* GRIB1 codes: WMO table 2 (version 3), levels of table 3 (105 height above
 * ground, 102 mean sea level, 1 surface). GRIB1 has no code for the mean
 * direction and period of the total sea: they are written as the primary
 * wave's (107, 108), as WAVEWATCH III's GRIB1 files carry them and viewers
 * show them; the gust has no code outside centres' local tables, so GRIB1
 * leaves it out (refused). */
static const gparam params[] = {
    {"wind", "basic", "10 m wind (u)", SWX_GQ_WIND_U, 1, 0, 33, 105, 10},
    {"wind", "basic", "10 m wind (v)", SWX_GQ_WIND_V, 1, 0, 34, 105, 10},
    {"gust", "basic", "10 m gust", SWX_GQ_GUST, 1, 0, 0, 0, 0},
    {"prmsl", "basic", "mean sea-level pressure", SWX_GQ_PRMSL, -1, 0, 2, 102, 0},
    {"temp", "basic", "2 m temperature", SWX_GQ_TEMP, 1, 0, 11, 105, 2},
    {"rain", "basic", "total precipitation", SWX_GQ_RAIN, 1, 1, 61, 1, 0},
    {"waves", "maritime", "significant wave height", SWX_GQ_SWH, 1, 0, 100, 1, 0},
    {"waves", "maritime", "mean wave direction", SWX_GQ_MWD, 0, 0, 107, 1, 0},
    {"waves", "maritime", "mean wave period", SWX_GQ_MWP, 0, 0, 108, 1, 0},
    {"wind100", "wind", "100 m wind (u)", SWX_GQ_WIND100_U, 1, 0, 33, 105, 100},
    {"wind100", "wind", "100 m wind (v)", SWX_GQ_WIND100_V, 1, 0, 34, 105, 100},
    {"currents", "maritime", "ocean current (u)", SWX_GQ_CUR_U, 2, 0, 49, 160, 0},
    {"currents", "maritime", "ocean current (v)", SWX_GQ_CUR_V, 2, 0, 50, 160, 0},
};
#define NPARAMS (sizeof params / sizeof params[0])
#define KNOWN "wind, gust, prmsl, temp, rain, waves, wind100, currents"

static int known(const char *name, size_t n)
{
    for (size_t i = 0; i < NPARAMS; i++)
        if (strlen(params[i].var) == n && strncmp(params[i].var, name, n) == 0)
            return 1;
    return 0;
}

int swx__grib_params(const gparam **out, size_t *n, const char *vars)
{
    if (!vars)
        vars = SWX_GRIB_DEFAULT_VARS;
    char seen[NPARAMS] = {0};
    const char *p = vars;
    *n = 0;
    if (!*p)
        return swx_error_set(SWX_EINVAL, "no variable given (known: " KNOWN ")");
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || !known(p, len))
            return swx_error_set(SWX_EINVAL, "unknown variable '%.*s' (known: " KNOWN ")",
                                 (int)(len > 40 ? 40 : len), p);
        for (size_t i = 0; i < NPARAMS; i++) {
            if (strlen(params[i].var) != len || strncmp(params[i].var, p, len) != 0)
                continue;
            if (seen[i])
                return swx_error_set(SWX_EINVAL, "variable '%.*s' is given twice", (int)len, p);
            seen[i] = 1;
        }
        p += len + (comma ? 1 : 0);
        if (comma && !*p)
            return swx_error_set(SWX_EINVAL, "a variable list ends with a comma");
    }
    for (size_t i = 0; i < NPARAMS; i++)
        if (seen[i] && out)
            out[(*n)++] = &params[i];
        else if (seen[i])
            (*n)++;
    return 0;
}

int swx_grib_vars_check(const char *vars)
{
    size_t n;
    return swx__grib_params(NULL, &n, vars);
}

int swx__grib_is(const gparam *p, const swx_grib_head *h)
{
    const swx_gcode *c =
        swx__gcode_grib2(h->discipline, h->category, h->number, h->surface, h->level);
    return c && c->q == p->q;
}

const gparam *swx__grib_param_of(int q)
{
    for (size_t i = 0; i < NPARAMS; i++)
        if (params[i].q == q)
            return &params[i];
    return NULL;
}

int swx__grib_is_same(const swx_grib_head *a, const swx_grib_head *b)
{
    return a->discipline == b->discipline && a->category == b->category && a->number == b->number &&
           a->surface == b->surface && fabs(a->level - b->level) < 1e-9 &&
           a->reftime == b->reftime && a->forecast == b->forecast && a->ni == b->ni &&
           a->nj == b->nj && fabs(a->lat1 - b->lat1) < 1e-9 && fabs(a->lon1 - b->lon1) < 1e-9 &&
           fabs(a->di - b->di) < 1e-9 && fabs(a->dj - b->dj) < 1e-9;
}

int swx_grib_cut_parse(swx_grib_cut *out, const char *text)
{
    static const char *const names[] = {"window", "route", "box"};
    for (int i = 0; i < 3; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = (swx_grib_cut)i;
            return 0;
        }
    return swx_error_set(SWX_EINVAL, "unknown cut '%.40s': use window, route or box", text);
}
