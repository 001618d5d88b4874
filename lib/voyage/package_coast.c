/* package_coast.c: the package's coastline, coast.geojson: GSHHG's land
 * (seawx/land.h, the router's coastline) over the area the project opens
 * on, so that the project shows the route and the forecast against land
 * rather than on white. Made when the package is planned, so the budget
 * counts it with the route: the finest resolution whose file takes at most
 * a tenth of the budget (intermediate, low, then crude; intermediate when
 * there is no budget), none when even crude does not fit or GSHHG is not
 * installed (the result says why). Drawn first, under everything, filled
 * and without outline: GSHHG's rings are cut at its bins, and an outline
 * would show the cuts. */
#include "package_priv.h"

#include "seawx/error.h"
#include "seawx/jsonw.h"
#include "seawx/land.h"
#include "seawx/qgs.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COAST_FILE "coast.geojson"
/* no budget: at most this much coastline */
#define COAST_MAX (1u << 20)

struct swx_pkg_coast {
    char *text; /* the GeoJSON */
    size_t len;
    char res; /* 'i', 'l' or 'c' */
    uint64_t written;
};

static const char *res_name(char r)
{
    return r == 'i' ? "intermediate" : r == 'l' ? "low" : "crude";
}

/* The area the project opens on (the route with a fifth of its extent on
 * each side, as the view) widened by the buffer: degrees, a route across
 * 180 running on east of it. */
static void area_of(swx_land_opts *lo, const swx_package *p)
{
    double box[4];
    swx_voyage_box(box, p->o.voyage);
    double w = box[0], s = box[1], e = box[2], n = box[3];
    double buf = p->o.buffer_m / 111120.0;
    double dx = fmax((e - w) / 5, buf + 0.5), dy = fmax((n - s) / 5, buf + 0.5);
    lo->west = w - dx;
    lo->east = e + dx;
    lo->south = fmax(s - dy, -89.9);
    lo->north = fmin(n + dy, 89.9);
    if (lo->east - lo->west >= 360)
        lo->west = -180, lo->east = 180;
    lo->west = fmod(lo->west + 540, 360) - 180;
    lo->east = fmod(lo->east + 540, 360) - 180;
}

/* The land's rings as one GeoJSON feature, a MultiPolygon, to 4 decimals
 * (about 10 m, under GSHHG's intermediate resolution); *len its size.
 * NULL when out of memory. */
static char *geojson(const swx_land *land, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fputs("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":"
          "{\"source\":\"GSHHG\"},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[",
          f);
    size_t nr = swx_land_rings(land), put = 0;
    for (size_t r = 0; r < nr; r++) {
        size_t np = 0;
        const double *ll = swx_land_ring(land, r, &np, NULL);
        if (np < 4)
            continue;
        fputs(put++ ? ",[[" : "[[", f);
        long px = LONG_MIN, py = LONG_MIN, first_x = 0, first_y = 0;
        size_t kept = 0;
        for (size_t i = 0; i < np; i++) {
            long x = lround(ll[2 * i] * 1e4), y = lround(ll[2 * i + 1] * 1e4);
            if (x == px && y == py && i + 1 < np)
                continue;
            if (!kept)
                first_x = x, first_y = y;
            fprintf(f, "%s[%.4f,%.4f]", kept++ ? "," : "", x / 1e4, y / 1e4);
            px = x, py = y;
        }
        if (px != first_x || py != first_y)
            fprintf(f, ",[%.4f,%.4f]", first_x / 1e4, first_y / 1e4);
        fputs("]]", f);
    }
    fputs("]}}]}\n", f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

void swx_pkg_coast_plan(swx_package *p)
{
    char *note = p->coast_note;
    size_t nn = sizeof p->coast_note;
    uint64_t cap = p->o.budget ? p->o.budget / 10 : COAST_MAX;
    static const char ladder[] = {'i', 'l', 'c'};
    note[0] = '\0';
    for (size_t k = 0; k < sizeof ladder; k++) {
        swx_land_opts lo = {.path = p->o.gshhg, .resolution = ladder[k]};
        area_of(&lo, p);
        swx_land *land = NULL;
        int rc = swx_land_open(&land, &lo);
        if (rc) {
            snprintf(note, nn, "no coastline in the project: %s", swx_error_last());
            swx_error_clear();
            return;
        }
        size_t len = 0;
        char *text = geojson(land, &len);
        swx_land_free(land);
        if (!text) {
            snprintf(note, nn, "no coastline in the project: out of memory");
            return;
        }
        if (len <= cap) {
            struct swx_pkg_coast *c = calloc(1, sizeof *c);
            if (!c) {
                free(text);
                return;
            }
            *c = (struct swx_pkg_coast){text, len, ladder[k], 0};
            p->coast = c;
            p->route_bytes += (double)len;
            return;
        }
        free(text);
    }
    snprintf(note, nn,
             "no coastline in the project: even GSHHG's crude one takes more than a tenth of "
             "the budget");
}

void swx_pkg_coast_free(struct swx_pkg_coast *c)
{
    if (c)
        free(c->text);
    free(c);
}

int swx_pkg_coast_write(swx_package *p, const char *dir)
{
    if (!p->coast)
        return 0;
    char path[PATH_MAX];
    swx_pkg_pathf(path, sizeof path, "%s/" COAST_FILE, dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
    int bad = fwrite(p->coast->text, 1, p->coast->len, f) != p->coast->len;
    int e = errno;
    if (fclose(f) != 0 && !bad)
        bad = 1, e = errno;
    if (bad)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(e ? e : EIO));
    p->coast->written = p->coast->len;
    return 0;
}

uint64_t swx_pkg_coast_bytes(const swx_package *p)
{
    return p->coast ? p->coast->written : 0;
}

void swx_pkg_coast_manifest(swx_jsonw *w, const swx_package *p)
{
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "file");
    swx_jsonw_string(w, COAST_FILE);
    swx_jsonw_key(w, "bytes");
    swx_jsonw_int(w, (int64_t)p->coast->written);
    swx_jsonw_key(w, "source");
    swx_jsonw_string(w, "GSHHG");
    swx_jsonw_key(w, "resolution");
    swx_jsonw_string(w, res_name(p->coast->res));
    swx_jsonw_object_end(w);
}

/* The land: sand coloured, no outline, under everything. */
static swx_qgs_layer coast_layer(const char *srs)
{
    return (swx_qgs_layer){.id = "voyage_coast",
                           .type = "vector",
                           .provider = "ogr",
                           .source = "./" COAST_FILE,
                           .name = "land",
                           .srs = srs,
                           .geometry = "Polygon",
                           .wkb = "MultiPolygon"};
}
static const char coast_renderer[] =
    "<renderer-v2 type=\"singleSymbol\" symbollevels=\"0\" enableorderby=\"0\">"
    "<symbols><symbol type=\"fill\" name=\"0\" alpha=\"1\" clip_to_extent=\"1\">"
    "<layer class=\"SimpleFill\" enabled=\"1\" locked=\"0\" pass=\"0\">"
    "<Option type=\"Map\"><Option type=\"QString\" name=\"color\" "
    "value=\"226,220,200,255\"/><Option type=\"QString\" name=\"outline_style\" "
    "value=\"no\"/><Option type=\"QString\" name=\"style\" value=\"solid\"/></Option>"
    "</layer></symbol></symbols></renderer-v2>";

void swx_pkg_coast_tree(FILE *f, const swx_package *p)
{
    if (!swx_pkg_coast_bytes(p))
        return;
    swx_qgs_layer l = coast_layer(NULL);
    swx_qgs_tree_layer(f, 1, &l);
}

void swx_pkg_coast_layers(FILE *f, const swx_package *p, const char *srs)
{
    if (!swx_pkg_coast_bytes(p))
        return;
    swx_qgs_layer l = coast_layer(srs);
    swx_qgs_maplayer(f, &l, coast_renderer);
}
