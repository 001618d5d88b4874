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
