/*
 * seawx/qgs.h: the frame of the QGIS projects (.qgs) seawx writes, around the
 * layer tree and the layers the caller writes between its two halves:
 *
 *   swx_qgs_begin   <!DOCTYPE>, a comment, <qgis>, homePath, title,
 *                   projectCrs, and the opening <layer-tree-group>
 *   (the caller)    the tree, "</layer-tree-group>", <projectlayers>...
 *   swx_qgs_end     the map canvas and default view on an extent, the
 *                   properties (relative paths, the project CRS on, the
 *                   Temporal Controller animated) and the time settings
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
SWX_API void swx_qgs_end(FILE *f, const swx_qgs_frame *q);

#ifdef __cplusplus
}
#endif
#endif
