/*
 * storm_feature.h: what the feature tables, the geometry and the GeoJSON
 * writer of storms share (internal).
 */
#ifndef SWX_STORM_FEATURE_H
#define SWX_STORM_FEATURE_H

#include "seawx/storm_geojson.h"
#include "storm_priv.h"

/* ---- not exported ---- */

/* "storm", "track_point", ... (the GeoJSON "kind" property). */
const char *swx_storm_kind_name(int kind);
/* The kind of a kind or layer name, or -1. */
int swx_storm_kind_parse(const char *name);
/* The simplestyle colour of a category rank ("#ffc140"); rank -1 gives grey. */
const char *swx_storm_category_color(int rank);

/* The most properties a kind has (the writer sizes its key tables by it). */
#define SWX_STORM_MAX_FIELDS 32

/* The geometry of a kind (storm_geometry.c): calls fn for each feature of
 * that kind a storm gives, or counts them without building them. */
typedef int (*swx_storm_build_fn)(swx_storm_geo *g, const swx_storm *s, int kind,
                                  swx_storm_feature_fn fn, void *ud);
typedef size_t (*swx_storm_count_fn)(const swx_storm *s, int kind);
/* Each kind's: the observed track, its positions, the forecast's positions
 * and line from the last observed position, the wind radii, one danger
 * polygon of the forecast (cone, danger area: storm_danger_int.h) and a
 * swath per track and threshold. */
#define SWX_STORM_GEOMETRY(name)                                                                   \
    int swx_storm_build_##name(swx_storm_geo *g, const swx_storm *s, int kind,                     \
                               swx_storm_feature_fn fn, void *ud);                                 \
    size_t swx_storm_count_##name(const swx_storm *s, int kind)
SWX_STORM_GEOMETRY(track);
SWX_STORM_GEOMETRY(track_points);
SWX_STORM_GEOMETRY(forecast_points);
SWX_STORM_GEOMETRY(forecast_line);
SWX_STORM_GEOMETRY(radii);
SWX_STORM_GEOMETRY(danger);
SWX_STORM_GEOMETRY(swath);

/* A kind's row: what seawx/storm_geojson.h shows of it, its property table
 * and its geometry. */
typedef struct swx_storm_kind_row {
    swx_storm_kind_info info;
    const swx_storm_field *fields;
    size_t nfields;
    swx_storm_build_fn build;
    swx_storm_count_fn count;
} swx_storm_kind_row;

/* The row of a kind, or NULL. */
const swx_storm_kind_row *swx_storm_kind_row_of(int kind);

/* The last observed position, where the forecast line starts; NULL when
 * the storm has none. */
static inline const swx_storm_pos *swx_storm_last_observed(const swx_storm *s)
{
    return s->nobserved ? &s->observed[s->nobserved - 1] : NULL;
}

/* The value of the field with internal id `id` (swx_storm_field.id_) of a
 * feature: the writer reads the table's ids, the driver the table's order. */
void swx_storm_value_of(swx_storm_value *v, const swx_storm_feature *f, int id);

#endif
