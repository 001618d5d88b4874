/* storm_qlr.c: the QGIS layer definition of a storm folder (see storm_qlr.h).
 *
 * A .qlr holds a layer tree and the map layers it names. Each map layer is
 * the OGR provider on "./<layer>.geojson" (QGIS resolves it against the
 * .qlr's own folder, so the folder can be moved whole) with the renderer of
 * the layer's .qml and the kind's time settings (the layers follow QGIS's
 * Temporal Controller). Points are listed first so that QGIS draws them on
 * top. */
#include "storm_qlr.h"

#include "seawx/storm_geojson.h"

#include <string.h>

/* Drawing order, top first. */
static const int tree_order[SWX_SK_COUNT] = {
    SWX_SK_TRACK_POINT, SWX_SK_FORECAST_POINT, SWX_SK_STORM,       SWX_SK_FORECAST_LINE,
    SWX_SK_WIND_RADII,  SWX_SK_WIND_SWATH,     SWX_SK_DANGER_AREA, SWX_SK_CONE};

int cli_storm_qlr_write(FILE *f, unsigned mask)
{
    fputs("<!DOCTYPE qgis-layer-definition>\n"
          "<!-- seawx: the storm layers of this folder with their styles. Open in QGIS: Layer > "
          "Add from Layer Definition File, or drag this file onto the map. -->\n"
          "<qlr>\n"
          "  <layer-tree-group expanded=\"1\" checked=\"Qt::Checked\" name=\"\">\n"
          "    <layer-tree-group expanded=\"1\" checked=\"Qt::Checked\" name=\"seawx storms\">\n",
          f);
    for (int i = 0; i < SWX_SK_COUNT; i++) {
        int k = tree_order[i];
        if (!(mask & (1u << k)))
            continue;
        const char *layer = swx_storm_kind_layer(k);
        fprintf(f,
                "      <layer-tree-layer expanded=\"1\" checked=\"Qt::Checked\" "
                "id=\"seawx_%s\" name=\"%s\" source=\"./%s.geojson\" providerKey=\"ogr\"/>\n",
                layer, layer, layer);
    }
    fputs("    </layer-tree-group>\n  </layer-tree-group>\n  <maplayers>\n", f);
    for (int i = 0; i < SWX_SK_COUNT; i++) {
        int k = tree_order[i];
        if (!(mask & (1u << k)))
            continue;
        const char *layer = swx_storm_kind_layer(k), *geom, *wkb;
        swx_storm_kind_qgis(k, &geom, &wkb);
        fprintf(f,
                "    <maplayer type=\"vector\" geometry=\"%s\" wkbType=\"%s\" "
                "styleCategories=\"AllStyleCategories\">\n"
                "      <id>seawx_%s</id>\n"
                "      <datasource>./%s.geojson</datasource>\n"
                "      <layername>%s</layername>\n"
                "      <srs>\n        <spatialrefsys>\n"
                "          <authid>EPSG:4326</authid>\n"
                "        </spatialrefsys>\n      </srs>\n"
                "      <provider encoding=\"UTF-8\">ogr</provider>\n"
                "      %s\n",
                geom, wkb, layer, layer, layer, swx_storm_kind_qgis_temporal(k));
        /* The renderer of the layer's .qml, as it is. */
        const char *qml = cli_storm_qml[k];
        const char *a = strstr(qml, "<renderer-v2"), *b = strstr(qml, "</renderer-v2>");
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
