/*
 * seawx/storm_geojson.h: storms as map features, and their RFC 7946 output.
 *
 * One storm gives five kinds of features:
 *   storm           the observed track: a LineString (a Point when the track
 *                   has one distinct position, no geometry when it has none)
 *                   with the summary's properties;
 *   track_point     one Point per observed position;
 *   forecast_point  one Point per forecast position (forecast_time, forecast_hour,
 *                   valid_until: the time of the next later fix along the
 *                   track, or 12 h after the last; wind_radii have it too);
 *   forecast_line   the last observed position through the forecast, when that
 *                   makes at least two distinct positions;
 *   wind_radii      one Polygon per position and threshold (34, 50, 64 kt) with
 *                   a radius > 0: the ne/se/sw/nw quadrant arcs built on the
 *                   sphere (great circles, mean Earth radius 6371.0088 km,
 *                   1 NM = 1852 m), 15 degree steps;
 *   cone            the track forecast cone of the storm's forecast, one
 *                   MultiPolygon (seawx/storm_danger.h gives the radii);
 *   danger_area     the mariners' 1-2-3 danger area of the forecast;
 *   wind_swath      for each track (observed; forecast from the last observed
 *                   position) and threshold (34, 50, 64 kt), the area its wind
 *                   radii swept, one MultiPolygon.
 * The last three are the danger kinds: not in the default selection
 * (swx_storm_kinds_default) of the CLI, always layers of the driver. Their polygons
 * may have holes (a track that loops).
 * Geometries are in longitude/latitude (EPSG:4326 / OGC CRS84), longitudes in
 * [-180, 180], coordinates rounded to 6 decimals (0.11 m); lines and polygons
 * that cross the antimeridian are cut there into MultiLineString and
 * MultiPolygon; polygon rings are counter-clockwise; consecutive duplicate
 * positions are dropped. The properties of each kind are a fixed, typed table
 * (swx_storm_fields) shared by the GeoJSON writer and the GDAL driver; null
 * values stay null.
 */
#ifndef SEAWX_STORM_GEOJSON_H
#define SEAWX_STORM_GEOJSON_H

#include "seawx/qgs.h"
#include "seawx/storm.h"
#include "seawx/visibility.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds, in the order of their rows (lib/storms/storm_feature.c): every
 * part of seawx reads what it needs of a kind from its row
 * (swx_storm_kind_get), so a new kind is a row there and its geometry. */
typedef enum swx_storm_kind {
    SWX_SK_STORM = 0,
    SWX_SK_TRACK_POINT,
    SWX_SK_FORECAST_POINT,
    SWX_SK_FORECAST_LINE,
    SWX_SK_WIND_RADII,
    SWX_SK_CONE,
    SWX_SK_DANGER_AREA,
    SWX_SK_WIND_SWATH,
    SWX_SK_COUNT
} swx_storm_kind;
#define SWX_SK_ALL ((1u << SWX_SK_COUNT) - 1)

/* The one geometry type of a kind's layer (and of its file of a split
 * writer): every feature is written as the Multi- type. */
typedef enum swx_storm_shape {
    SWX_SHAPE_POINT = 0,
    SWX_SHAPE_LINE,
    SWX_SHAPE_POLYGON
} swx_storm_shape;

typedef struct swx_storm_kind_info {
    const char *name;    /* "track_point": the GeoJSON "kind" property */
    const char *layer;   /* "track_points": the layer, and its style styles/seawx_<layer>.qml */
    const char *file;    /* "track_points.geojson": its file in a folder of storm files */
    const char *summary; /* "track points": as the CLI counts them; NULL: counted as storms */
    int per_storm;       /* one feature per storm, with the storm's summary */
    swx_storm_shape shape;
    /* How QGIS reads the layer: its geometry ("Point", "Line", "Polygon") and
     * WKB type (the Multi- one), for a project's or a .qlr's <maplayer>. */
    const char *qgis_geometry, *qgis_wkb;
    /* The <temporal> element (one line) by which the layer follows QGIS's
     * Temporal Controller: spans from start/end fields, the observed track
     * growing, each fix shown until its valid_until. */
    const char *qgis_temporal;
    int drawn;  /* place in QGIS's drawing order, 0 on top (swx_storm_kind_drawn) */
    int danger; /* a danger kind: not in the CLI's default selection */
} swx_storm_kind_info;

/* The row of a kind, or NULL for a value that is no kind. */
SWX_API const swx_storm_kind_info *swx_storm_kind_get(int kind);
/* The kind drawn i-th from the top in QGIS (points over lines over
 * polygons), 0 <= i < SWX_SK_COUNT. */
SWX_API int swx_storm_kind_drawn(int i);
/* The kinds written when none are asked for: all but the danger kinds. */
SWX_API unsigned swx_storm_kinds_default(void);

/* The storm kinds in mask as layers of a QGIS document (seawx/qgs.h), in
 * drawing order (points on top): each the OGR layer of its kind's file beside
 * the document ("./track_points.geojson"), id "storm_<layer>", following the
 * Temporal Controller by its kind's time settings. Their nodes at depth in
 * the tree, legends open when expanded; their <maplayer>s in srs (a whole
 * <spatialrefsys>; NULL: SWX_QGS_SRS_WGS84) with the <renderer-v2> of
 * qml[kind] (a .qml's text; NULL, or qml NULL: QGIS's default). */
SWX_API void swx_storm_qgs_tree(FILE *f, int depth, unsigned mask, int expanded);
SWX_API void swx_storm_qgs_layers(FILE *f, unsigned mask, const char *const *qml, const char *srs);

/* "storms", "track_points", ... (layer and file names); NULL for no kind. */
SWX_API const char *swx_storm_kind_layer(int kind);
/* A comma-separated list of kind or layer names into a bit mask (1 << kind). */
SWX_API int swx_storm_kinds_parse(unsigned *mask, const char *list);

typedef enum swx_storm_ftype {
    SWX_SF_STRING,
    SWX_SF_INT,
    SWX_SF_REAL,
    SWX_SF_DATETIME, /* seconds since 1970, UTC */
    SWX_SF_DATE,     /* "YYYY-MM-DD" in s */
    SWX_SF_BOOL
} swx_storm_ftype;

typedef struct swx_storm_field {
    const char *name;
    swx_storm_ftype type;
    int id_; /* internal */
} swx_storm_field;

/* The property table of a kind; returns the number of fields. */
SWX_API size_t swx_storm_fields(const swx_storm_field **out, int kind);

typedef struct swx_storm_value {
    int null;
    int64_t i;     /* INT, DATETIME, BOOL */
    double d;      /* REAL */
    const char *s; /* STRING, DATE */
} swx_storm_value;

typedef enum swx_geom_type {
    SWX_GEOM_NONE = 0,
    SWX_GEOM_POINT,
    SWX_GEOM_LINESTRING,
    SWX_GEOM_POLYGON,
    SWX_GEOM_MULTILINESTRING,
    SWX_GEOM_MULTIPOLYGON
} swx_geom_type;

/* One feature, valid during the callback only. Geometry: nparts parts of
 * part_len[i] positions each, read one after the other from xy (lon, lat
 * pairs). A Polygon part is one closed ring; Multi* have one part per member,
 * except when poly_rings is set (danger kinds): then the MultiPolygon has
 * npolys polygons, polygon i made of the next poly_rings[i] parts (the outer
 * ring, counter-clockwise, then its holes, clockwise). */
typedef struct swx_storm_feature {
    int kind;
    const swx_storm *storm;
    const swx_storm_pos *pos; /* track_point, forecast_point, wind_radii */
    size_t seq;               /* index of pos in its track */
    int forecast;             /* pos is on the forecast track */
    int threshold;            /* wind_radii: SWX_STORM_R34.. */
    swx_geom_type geom;
    size_t nparts;
    const size_t *part_len;
    const double *xy;
    size_t npolys;
    const size_t *poly_rings;
    /* danger kinds: the chain's first and last time, its last lead (hours)
     * and its largest radius (nm) */
    int64_t start_time, end_time;
    double max_lead_h, max_nm;
} swx_storm_feature;

SWX_API void swx_storm_feature_value(swx_storm_value *v, const swx_storm_feature *f, size_t field);

/* Reusable geometry buffers: one per thread of work. */
typedef struct swx_storm_geo swx_storm_geo;
SWX_API int swx_storm_geo_new(swx_storm_geo **out);
SWX_API void swx_storm_geo_free(swx_storm_geo *g);
/* The settings of the danger kinds (seawx/storm_danger.h; NULL: the
 * defaults). d must outlive g. */
struct swx_storm_danger;
SWX_API void swx_storm_geo_set_danger(swx_storm_geo *g, const struct swx_storm_danger *d);

typedef int (*swx_storm_feature_fn)(void *ud, const swx_storm_feature *f);
/* Calls fn for each feature of the kinds in mask, kind by kind in the order of
 * swx_storm_kind. Returns fn's first non-zero result, or 0. */
SWX_API int swx_storm_features(swx_storm_geo *g, const swx_storm *s, unsigned mask,
                               swx_storm_feature_fn fn, void *ud);
/* How many features of a kind a storm gives, without building them. */
SWX_API size_t swx_storm_feature_count(const swx_storm *s, int kind);

/* Streaming RFC 7946 writer: a FeatureCollection per file, features added
 * storm by storm, every feature with a "kind" property and simplestyle
 * properties (stroke, fill, marker-color...) for geojson.io and GitHub. */
typedef struct swx_storm_geojson swx_storm_geojson;
/* Every kind in mask into one file. */
SWX_API int swx_storm_geojson_new(swx_storm_geojson **out, FILE *f, unsigned mask);
/* One file per kind: files[kind], NULL for a kind not written. */
SWX_API int swx_storm_geojson_new_split(swx_storm_geojson **out, FILE *const *files);
/* Every file of a split writer has one geometry type: points are
 * MultiPoint, lines MultiLineString (a storm whose track is one position has
 * no geometry there), polygons MultiPolygon. The single-file writer keeps
 * the simplest type of each feature. */
/* The settings of the danger kinds (NULL: the defaults); d must outlive w. */
SWX_API void swx_storm_geojson_set_danger(swx_storm_geojson *w, const struct swx_storm_danger *d);
/* An swx_storm_fn: writes the features of one storm. */
SWX_API int swx_storm_geojson_add(void *w, const swx_storm *s);
/* Features written so far of each kind. */
SWX_API void swx_storm_geojson_counts(size_t counts[SWX_SK_COUNT], const swx_storm_geojson *w);
/* Closes every collection and flushes; reports the first write error; frees w.
 * The files stay open (the caller closes them). */
SWX_API int swx_storm_geojson_finish(swx_storm_geojson *w);
SWX_API void swx_storm_geojson_free(swx_storm_geojson *w);

#ifdef __cplusplus
}
#endif
#endif
