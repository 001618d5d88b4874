/* package_grib.c: the voyage GRIB of a package (seawx/grib.h): voyage.grb2,
 * cut to the package's voyage and buffer, made anew by every build (the
 * messages come from the cache after the first), written before any tile and
 * counted first against the budget, listed in the manifest's "grib". */
#include "package_priv.h"

#include "seawx/error.h"
#include "seawx/grib.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/qgs.h"

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

/* The QGIS project's layer of the GRIB: a mesh layer (QGIS reads GRIB
 * through MDAL, the variables as its dataset groups, wind as vectors) whose
 * times the Temporal Controller steps through. MDAL gives a file one grid,
 * so only a GRIB of one grid (the route cut) is shown; a window cut's grids
 * change from time to time, and the project leaves it out (it is in the
 * package and its manifest all the same). */
static int shown(const swx_package *p)
{
    return p->grib && p->grib->written && p->grib->o.cut == SWX_GRIB_CUT_ROUTE;
}

/* The forecast as QGIS's mesh layer (MDAL) with its own times; name holds
 * its name "forecast (wind,prmsl)". */
static swx_qgs_layer grib_layer(char *name, size_t n, const char *temporal, const swx_package *p,
                                const char *srs)
{
    snprintf(name, n, "forecast (%s)", p->grib->vars);
    return (swx_qgs_layer){.id = "voyage_grib",
                           .type = "mesh",
                           .provider = "mdal",
                           .source = "./" GRIB_FILE,
                           .name = name,
                           .srs = srs,
                           .expanded = 1,
                           .temporal = temporal};
}

void swx_pkg_grib_tree(FILE *f, const swx_package *p)
{
    if (!shown(p))
        return;
    char name[256];
    swx_qgs_layer l = grib_layer(name, sizeof name, NULL, p, NULL);
    swx_qgs_tree_layer(f, 1, &l);
}

/* MDAL (QGIS's reader of GRIB) names a file's dataset groups by their
 * parameters and sorts them by name; the 10 m wind components make one
 * vector group, "wind". The groups of each variable, in that order, each
 * with the colour ramp QGIS shows it in: stops at the values a navigator
 * reads, in the units they read (knots, hectopascals), while the file holds
 * SI units (MDAL reads GDAL's: m/s, Pa, m, s, degrees, degrees Celsius), so
 * each stop is its value in the file and its label in the navigator's unit.
 * The same colours from one package to the next. */
#define KN_MS (1852.0 / 3600.0)
#define NSTOPS 6
typedef struct mesh_group {
    const char *var;
    double stop[NSTOPS];      /* in the label's unit */
    double scale;             /* the file's unit per label unit */
    const char *unit;         /* XML text */
    const char *note[NSTOPS]; /* after the label, or NULL */
} mesh_group;
/* wind and gust: calm blue to hurricane purple, gale, storm and hurricane
 * force (34, 48, 64 kn) at orange, red and purple */
#define WIND_STOPS                                                                                 \
    {0, 10, 20, 34, 48, 64}, KN_MS, "kn",                                                          \
    {                                                                                              \
        NULL, NULL, NULL, "gale", "storm", "hurricane"                                             \
    }
static const mesh_group mesh_groups[] = {
    {"rain", {0, 1, 2, 5, 10, 20}, 1, "mm", {0}},             /* "03 hr Total precipitation" */
    {"waves", {0, 60, 120, 180, 240, 300}, 1, "&#176;", {0}}, /* "Direction of Combined ..." */
    {"waves", {0, 4, 8, 12, 16, 20}, 1, "s", {0}},            /* "Mean Period of Combined ..." */
    {"prmsl",
     {940, 960, 980, 1000, 1020, 1040},
     100,
     "hPa",
     {0}},                                                 /* "Pressure reduced to MSL" [Pa] */
    {"waves", {0, 1, 2, 4, 6, 9}, 1, "m", {0}},            /* "Significant height of ..." */
    {"temp", {-10, 0, 10, 20, 30, 40}, 1, "&#176;C", {0}}, /* "Temperature [C]" */
    {"gust", WIND_STOPS},                                  /* "Wind speed (gust) [m/s]" */
    {"wind", WIND_STOPS},                                  /* "wind [m/s]" */
};
#define NGROUPS (sizeof mesh_groups / sizeof mesh_groups[0])

static int has_var(const char *vars, const char *v)
{
    size_t n = strlen(v);
    for (const char *s = vars; s && *s;) {
        const char *c = strchr(s, ',');
        size_t len = c ? (size_t)(c - s) : strlen(s);
        if (len == n && strncmp(s, v, n) == 0)
            return 1;
        s = c ? c + 1 : NULL;
    }
    return 0;
}

/* The group QGIS colours: the wind, else the wave height, else the
 * pressure, else the first; *vector: the wind's group, whose arrows are
 * drawn over any colours (-1 without wind); -1 when the order is not known
 * (wind100, whose group MDAL names as it names the wind; currents, whose
 * groups' names are not in the table above). */
static int shown_group(const char *vars, const mesh_group **g, int *vector)
{
    static const int prefer[] = {7, 4, 3, 6, 5, 0};
    int index[NGROUPS], n = 0;
    *vector = -1;
    *g = NULL;
    if (has_var(vars, "wind100") || has_var(vars, "currents"))
        return -1;
    for (size_t i = 0; i < NGROUPS; i++)
        index[i] = has_var(vars, mesh_groups[i].var) ? n++ : -1;
    *vector = index[7];
    for (size_t k = 0; k < sizeof prefer / sizeof prefer[0]; k++)
        if (index[prefer[k]] >= 0) {
            *g = &mesh_groups[prefer[k]];
            return index[prefer[k]];
        }
    return -1;
}

/* The group's colour ramp: its stops, labelled in the navigator's unit. */
static void ramp(FILE *f, int group, const mesh_group *g)
{
    static const char *const colors[NSTOPS] = {"#2c7bb6", "#abd9e9", "#ffffbf",
                                               "#fdae61", "#d7191c", "#7b3294"};
    double min = g->stop[0] * g->scale, max = g->stop[NSTOPS - 1] * g->scale;
    fprintf(f,
            "        <scalar-settings group=\"%d\" min-val=\"%.10g\" max-val=\"%.10g\" "
            "opacity=\"0.8\" interpolation-method=\"none\">\n"
            "          <colorrampshader colorRampType=\"INTERPOLATED\" classificationMode=\"1\" "
            "clip=\"0\" minimumValue=\"%.10g\" maximumValue=\"%.10g\">\n",
            group, min, max, min, max);
    for (int i = 0; i < NSTOPS; i++) {
        fprintf(f,
                "            <item value=\"%.10g\" color=\"%s\" alpha=\"255\" label=\"%g "
                "%s%s%s%s\"/>\n",
                g->stop[i] * g->scale, colors[i], g->stop[i], g->unit, g->note[i] ? " (" : "",
                g->note[i] ? g->note[i] : "", g->note[i] ? ")" : "");
    }
    fputs("          </colorrampshader>\n        </scalar-settings>\n", f);
}

void swx_pkg_grib_layers(FILE *f, const swx_package *p, const char *srs)
{
    if (!shown(p))
        return;
    const mesh_group *g;
    int vector, scalar = shown_group(p->grib->vars, &g, &vector);
    char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN], r[SWX_ISO8601_LEN], temporal[256], name[256];
    swx_iso8601_format(a, p->grib->res.first);
    swx_iso8601_format(b, p->grib->res.last);
    swx_iso8601_format(r, p->grib->res.run);
    snprintf(temporal, sizeof temporal,
             "<temporal temporal-active=\"1\" matching-method=\"0\" reference-time=\"%s\" "
             "start-time-extent=\"%s\" end-time-extent=\"%s\"/>",
             r, a, b);
    swx_qgs_layer l = grib_layer(name, sizeof name, temporal, p, srs);
    swx_qgs_maplayer_begin(f, &l);
    if (scalar >= 0) {
        fprintf(f,
                "      <mesh-renderer-settings>\n        <active-dataset-group scalar=\"%d\" "
                "vector=\"%d\"/>\n",
                scalar, vector);
        ramp(f, scalar, g);
        fputs("      </mesh-renderer-settings>\n", f);
    }
    swx_qgs_maplayer_end(f);
}
