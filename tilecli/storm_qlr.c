/* storm_qlr.c: the QGIS layer definition of a storm folder (see storm_qlr.h).
 *
 * A .qlr holds a layer tree and the map layers it names. Each map layer is
 * the OGR provider on "./<layer>.geojson", the kind's file (QGIS resolves it against the
 * .qlr's own folder, so the folder can be moved whole) with the renderer of
 * the layer's .qml and the kind's time settings (the layers follow QGIS's
 * Temporal Controller), all from the kind's row. The layers are listed in
 * the rows' drawing order, points first so that QGIS draws them on top. */
#include "storm_qlr.h"

#include "seawx/storm_geojson.h"

#include <string.h>

/* The i-th kind in drawing order (its number in *k when k is not NULL), or
 * NULL when mask leaves it out. */
static const swx_storm_kind_info *drawn(unsigned mask, int i, int *k)
{
    int kind = swx_storm_kind_drawn(i);
    if (k)
        *k = kind;
    return mask & (1u << kind) ? swx_storm_kind_get(kind) : NULL;
}

int cli_storm_qlr_write(FILE *f, unsigned mask)
{
    fputs("<!DOCTYPE qgis-layer-definition>\n"
          "<!-- seawx: the storm layers of this folder with their styles. Open in QGIS: Layer > "
          "Add from Layer Definition File, or drag this file onto the map. The layers follow the "
          "Temporal Controller, whose range becomes the span of every storm written (months for "
          "storms of a whole season) and whose step stays the project's (1 hour unless set): "
          "choose animated navigation and a step of 6 hours, the spacing of the fixes, and "
          "narrow the range to the days wanted. A layer definition cannot set them. -->\n"
          "<qlr>\n"
          "  <layer-tree-group expanded=\"1\" checked=\"Qt::Checked\" name=\"\">\n"
          "    <layer-tree-group expanded=\"1\" checked=\"Qt::Checked\" name=\"seawx storms\">\n",
          f);
    for (int i = 0; i < SWX_SK_COUNT; i++) {
        const swx_storm_kind_info *r = drawn(mask, i, NULL);
        if (!r)
            continue;
        fprintf(f,
                "      <layer-tree-layer expanded=\"1\" checked=\"Qt::Checked\" "
                "id=\"seawx_%s\" name=\"%s\" source=\"./%s\" providerKey=\"ogr\"/>\n",
                r->layer, r->layer, r->file);
    }
    fputs("    </layer-tree-group>\n  </layer-tree-group>\n  <maplayers>\n", f);
    for (int i = 0; i < SWX_SK_COUNT; i++) {
        int k;
        const swx_storm_kind_info *r = drawn(mask, i, &k);
        if (!r)
            continue;
        fprintf(f,
                "    <maplayer type=\"vector\" geometry=\"%s\" wkbType=\"%s\" "
                "styleCategories=\"AllStyleCategories\">\n"
                "      <id>seawx_%s</id>\n"
                "      <datasource>./%s</datasource>\n"
                "      <layername>%s</layername>\n"
                "      <srs>\n        <spatialrefsys>\n"
                "          <authid>EPSG:4326</authid>\n"
                "        </spatialrefsys>\n      </srs>\n"
                "      <provider encoding=\"UTF-8\">ogr</provider>\n"
                "      %s\n",
                r->qgis_geometry, r->qgis_wkb, r->layer, r->file, r->layer, r->qgis_temporal);
        /* The renderer of the layer's .qml, as it is. */
        const char *qml = cli_storm_qml(k);
        const char *a = qml ? strstr(qml, "<renderer-v2") : NULL;
        const char *b = qml ? strstr(qml, "</renderer-v2>") : NULL;
        if (a && b && b > a) {
            fputs("      ", f);
            fwrite(a, 1, (size_t)(b - a) + strlen("</renderer-v2>"), f);
            fputc('\n', f);
        }
        fputs("    </maplayer>\n", f);
    }
    fputs("  </maplayers>\n</qlr>\n", f);
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
