/* storm_qgs.c: the storm kinds as layers of a QGIS document, the storm
 * folder's layer definition and project and a voyage package's project alike
 * (see seawx/storm_geojson.h). */
#include "seawx/qgs.h"
#include "seawx/storm_geojson.h"

#include <limits.h>

/* The kind drawn i-th from the top as a layer in *out, its id and source
 * written into id and src; returns the kind, or -1 (*out untouched) when
 * mask leaves it out. */
static int kind_layer(swx_qgs_layer *out, char *id, size_t nid, char *src, size_t nsrc,
                      unsigned mask, int i)
{
    int kind = swx_storm_kind_drawn(i);
    const swx_storm_kind_info *k = swx_storm_kind_get(kind);
    if (!k || !(mask & (1u << kind)))
        return -1;
    snprintf(id, nid, "storm_%s", k->layer);
    snprintf(src, nsrc, "./%s", k->file);
    *out = (swx_qgs_layer){.id = id,
                           .type = "vector",
                           .provider = "ogr",
                           .source = src,
                           .name = k->layer,
                           .srs = SWX_QGS_SRS_WGS84,
                           .geometry = k->qgis_geometry,
                           .wkb = k->qgis_wkb,
                           .temporal = k->qgis_temporal};
    return kind;
}

void swx_storm_qgs_tree(FILE *f, int depth, unsigned mask, int expanded)
{
    for (int i = 0; i < SWX_SK_COUNT; i++) {
        char id[64], src[PATH_MAX];
        swx_qgs_layer l;
        if (kind_layer(&l, id, sizeof id, src, sizeof src, mask, i) < 0)
            continue;
        l.expanded = expanded;
        swx_qgs_tree_layer(f, depth, &l);
    }
}

void swx_storm_qgs_layers(FILE *f, unsigned mask, const char *const *qml, const char *srs)
{
    for (int i = 0; i < SWX_SK_COUNT; i++) {
        char id[64], src[PATH_MAX];
        swx_qgs_layer l;
        int kind = kind_layer(&l, id, sizeof id, src, sizeof src, mask, i);
        if (kind < 0)
            continue;
        l.srs = srs ? srs : l.srs;
        swx_qgs_maplayer(f, &l, qml ? qml[kind] : NULL);
    }
}
