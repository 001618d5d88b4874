/* storm_qlr.c: the QGIS layer definition of a storm folder (see storm_qlr.h).
 *
 * A .qlr holds a layer tree and the map layers it names. Each map layer is
 * the OGR provider on "./<layer>.geojson", the kind's file (QGIS resolves it against the
 * .qlr's own folder, so the folder can be moved whole) with the renderer of
 * the layer's .qml and the kind's time settings (the layers follow QGIS's
 * Temporal Controller), all from the kind's row. The layers are listed in
 * the rows' drawing order, points first so that QGIS draws them on top. */
#include "storm_qlr.h"

#include "seawx/qgs.h"
#include "seawx/storm_geojson.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* The group "seawx storms" with a layer per kind in mask, in drawing order,
 * their legends open. */
static void put_tree(FILE *f, unsigned mask)
{
    swx_qgs_group_begin(f, 1, "seawx storms", 1);
    swx_storm_qgs_tree(f, 2, mask, 1);
    swx_qgs_group_end(f, 1);
}

int cli_storm_qlr_write(FILE *f, unsigned mask)
{
    swx_qgs_frame q = {
        .qlr = 1,
        .comment =
            "seawx: the storm layers of this folder with their styles. Open in QGIS: Layer > "
            "Add from Layer Definition File, or drag this file onto the map. The layers follow "
            "the Temporal Controller, whose range becomes the span of every storm written "
            "(months for storms of a whole season) and whose step stays the project's (1 hour "
            "unless set): choose animated navigation and a step of 6 hours, the spacing of the "
            "fixes, and narrow the range to the days wanted. A layer definition cannot set them."};
    swx_qgs_begin(f, &q);
    put_tree(f, mask);
    swx_qgs_layers(f, &q);
    swx_storm_qgs_layers(f, mask, cli_storm_qml_by_kind(), NULL);
    swx_qgs_end(f, &q);
    return ferror(f) ? -1 : 0;
}

void cli_storm_span_add(cli_storm_span *sp, const swx_storm *s)
{
    for (int fc = 0; fc < 2; fc++) {
        size_t n = fc ? s->nforecast : s->nobserved;
        const swx_storm_pos *pos = fc ? s->forecast : s->observed;
        for (size_t i = 0; i < n; i++) {
            int64_t t = fc ? pos[i].forecast_time : pos[i].time;
            if (t == SWX_STORM_NULL || !isfinite(pos[i].lon) || !isfinite(pos[i].lat))
                continue;
            if (!sp->n || t < sp->t0)
                sp->t0 = t;
            if (!sp->n || t > sp->t1)
                sp->t1 = t;
            if (!sp->n || pos[i].lon < sp->w)
                sp->w = pos[i].lon;
            if (!sp->n || pos[i].lon > sp->e)
                sp->e = pos[i].lon;
            if (!sp->n || pos[i].lat < sp->s)
                sp->s = pos[i].lat;
            if (!sp->n || pos[i].lat > sp->nn)
                sp->nn = pos[i].lat;
            sp->n++;
        }
    }
}

/* The view: the positions' box with a margin of 5 degrees, within the world. */
static void view_box(double box[4], const cli_storm_span *sp)
{
    double w = -180, s = -90, e = 180, n = 90;
    if (sp->n) {
        w = fmax(sp->w - 5, -180);
        e = fmin(sp->e + 5, 180);
        s = fmax(sp->s - 5, -90);
        n = fmin(sp->nn + 5, 90);
    }
    box[0] = w, box[1] = s, box[2] = e, box[3] = n;
}

int cli_storm_qgs_write(FILE *f, unsigned mask, const cli_storm_span *sp)
{
    swx_qgs_frame q = {.name = "seawx storms",
                       .comment = "seawx: the storm layers of this folder with their styles, as a "
                                  "project that opens with the Temporal Controller animated over "
                                  "the storms' span, a step of 6 hours (the spacing of the "
                                  "fixes), and the view on the storms.",
                       .srs = SWX_QGS_SRS_WGS84,
                       .units = "degrees",
                       .decimals = 3};
    view_box(q.view, sp);
    /* The range: the first fix to the last time of any track, observed or
     * forecast; no storm, no range (QGIS keeps its own). */
    if (sp->n) {
        q.t0 = sp->t0;
        q.t1 = sp->t1 > sp->t0 ? sp->t1 : sp->t0 + CLI_STORM_STEP_S;
        q.step = CLI_STORM_STEP_S;
    }
    swx_qgs_begin(f, &q);
    put_tree(f, mask);
    swx_qgs_layers(f, &q);
    swx_storm_qgs_layers(f, mask, cli_storm_qml_by_kind(), NULL);
    swx_qgs_end(f, &q);
    return ferror(f) ? -1 : 0;
}

const char *cli_storm_qml(int kind)
{
    const char *layer = swx_storm_kind_layer(kind);
    for (size_t i = 0; layer && i < cli_storm_nstyles; i++)
        if (strcmp(cli_storm_styles[i].layer, layer) == 0)
            return cli_storm_styles[i].qml;
    return NULL;
}

const char *const *cli_storm_qml_by_kind(void)
{
    static const char *qml[SWX_SK_COUNT];
    for (int k = 0; k < SWX_SK_COUNT; k++)
        qml[k] = cli_storm_qml(k);
    return qml;
}
