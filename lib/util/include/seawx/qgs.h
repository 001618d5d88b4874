/*
 * seawx/qgs.h: the QGIS documents seawx writes, projects (.qgs) and layer
 * definitions (.qlr), and their layers, written here once for every writer
 * (the package's project, the storms' project and layer definition, seawx
 * qlr, the GDAL plugin's layer definition of a run, which the QGIS plugin
 * reads):
 *
 *   swx_qgs_begin   a project: <!DOCTYPE>, a comment, <qgis>, homePath,
 *                   title, projectCrs; a layer definition: <!DOCTYPE>, a
 *                   comment, <qlr>; then the opening <layer-tree-group>
 *   (the caller)    the tree: swx_qgs_group_begin/_end, swx_qgs_tree_layer
 *   swx_qgs_layers  the tree's end and the map layers' start
 *   (the caller)    the layers: swx_qgs_maplayer, or swx_qgs_maplayer_begin,
 *                   its settings, swx_qgs_maplayer_end
 *   swx_qgs_end     a project: the map canvas and default view on an extent,
 *                   the properties (relative paths, the project CRS on, the
 *                   Temporal Controller animated) and the time settings; a
 *                   layer definition: its end
 *
 * QGIS 3.22 reads NavigationMode when it opens a project (1: animated; 0
 * would draw every time at once until the user pressed the film strip), and
 * ignores <projectCrs> without ProjectionsEnabled. It takes a CRS's authid
 * only beside a srsid of its own database: SWX_QGS_SRS_WGS84 and
 * SWX_QGS_SRS_MERC are complete <spatialrefsys> elements.
 */
#ifndef SEAWX_QGS_H
#define SEAWX_QGS_H

#include "seawx/visibility.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_QGS_SRS_WGS84                                                                          \
    "<spatialrefsys><proj4>+proj=longlat +datum=WGS84 +no_defs</proj4><srsid>3452</srsid>"         \
    "<srid>4326</srid><authid>EPSG:4326</authid><description>WGS 84</description>"                 \
    "<projectionacronym>longlat</projectionacronym><ellipsoidacronym>EPSG:7030</ellipsoidacronym>" \
    "<geographicflag>true</geographicflag></spatialrefsys>"
#define SWX_QGS_SRS_MERC                                                                           \
    "<spatialrefsys><proj4>+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 "     \
    "+k=1 +units=m +nadgrids=@null +wktext +no_defs</proj4><srsid>3857</srsid><srid>3857</srid>"   \
    "<authid>EPSG:3857</authid><description>WGS 84 / Pseudo-Mercator</description>"                \
    "<projectionacronym>merc</projectionacronym><ellipsoidacronym>EPSG:7030</ellipsoidacronym>"    \
    "<geographicflag>false</geographicflag></spatialrefsys>"

typedef struct swx_qgs_frame {
    int qlr;             /* 1: a layer definition (.qlr), of a comment and layers only */
    const char *name;    /* the project's name and title (XML-escaped here) */
    const char *comment; /* an XML comment's text after the DOCTYPE, or NULL */
    const char *srs;     /* the project CRS: a whole <spatialrefsys> element */
    const char *units;   /* the canvas's: "degrees" or "meters" */
    int decimals;        /* digits after the point of the extent's numbers */
    double view[4];      /* the extent shown: xmin, ymin, xmax, ymax */
    /* The project's time range [t0, t1] stepped by step seconds, shown in
     * whole hours, minutes or seconds; none when step is 0. */
    int64_t t0, t1, step;
} swx_qgs_frame;

SWX_API void swx_qgs_begin(FILE *f, const swx_qgs_frame *q);
SWX_API void swx_qgs_layers(FILE *f, const swx_qgs_frame *q);
SWX_API void swx_qgs_end(FILE *f, const swx_qgs_frame *q);

/* A group of the layer tree at depth (1: under the document's root group),
 * open; unticked when checked is 0 (QGIS draws every layer of a ticked group
 * when temporal navigation is off). */
SWX_API void swx_qgs_group_begin(FILE *f, int depth, const char *name, int checked);
SWX_API void swx_qgs_group_end(FILE *f, int depth);

/* One layer, written twice: its node in the tree and its <maplayer>. The
 * strings are XML-escaped here but for srs and temporal, which are XML. */
typedef struct swx_qgs_layer {
    const char *id;       /* ties the tree's node to its map layer */
    const char *type;     /* "raster", "vector" or "mesh" */
    const char *provider; /* "gdal", "ogr" or "mdal" (the provider element follows it) */
    const char *source;   /* a connection string, or a path beside the document ("./f") */
    const char *name;     /* its name in the Layers panel */
    const char *srs;      /* a whole <spatialrefsys> element */
    const char *geometry; /* a vector layer's, as QGIS names it ("Line"), else NULL */
    const char *wkb;      /* a vector layer's WKB type ("MultiLineString"), else NULL */
    const char *legend;   /* the legend image's path, or NULL for QGIS's own legend */
    int expanded;         /* its legend open in the Layers panel */
    /* When it is shown: from start to end, both included (QGIS 3.22 takes
     * both ends of a fixed range, and of a frame, as inclusive) when ranged;
     * else the whole <temporal> element given, or always when NULL. */
    int ranged;
    int64_t start, end;
    const char *temporal;
} swx_qgs_layer;

SWX_API void swx_qgs_tree_layer(FILE *f, int depth, const swx_qgs_layer *l);
/* The <maplayer> open, through its time settings; the caller may write its
 * renderer or settings before swx_qgs_maplayer_end. */
SWX_API void swx_qgs_maplayer_begin(FILE *f, const swx_qgs_layer *l);
SWX_API void swx_qgs_maplayer_end(FILE *f);
/* The <maplayer> whole, with the <renderer-v2> element found in style (a
 * .qml's text, or the element alone), or none when style is NULL or has
 * none: QGIS then makes its default. */
SWX_API void swx_qgs_maplayer(FILE *f, const swx_qgs_layer *l, const char *style);

#ifdef __cplusplus
}
#endif
#endif
