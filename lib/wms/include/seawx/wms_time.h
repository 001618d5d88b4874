/*
 * seawx/wms_time.h: a WMS time dimension's values.
 *
 * A Dimension (1.3.0) or Extent (1.1.1) value is a comma-separated list whose
 * items are single instants or intervals "start/end/period" (period an ISO 8601
 * duration of fixed length; "start/end" with no period is refused for time).
 * Intervals are not expanded in memory: counting, indexing and searching work
 * on the items, so "1990-01-01T00:00:00Z/2100-01-01T00:00:00Z/PT1M" costs as
 * little as one instant. Values are kept sorted and without duplicates.
 */
#ifndef SEAWX_WMS_TIME_H
#define SEAWX_WMS_TIME_H

#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct swx_timedim swx_timedim;

/* Parses the text of a dimension (n bytes) and its default attribute (NULL or
 * "" when absent; "current" is accepted as the newest value). On failure *out is
 * NULL and the error line quotes the bad item. */
SWX_API int swx_timedim_parse(swx_timedim **out, const char *text, size_t n,
                              const char *default_attr);
SWX_API void swx_timedim_free(swx_timedim *d);

/* How many instants the dimension holds. */
SWX_API size_t swx_timedim_count(const swx_timedim *d);
/* The i-th instant in increasing order (0 <= i < count). */
SWX_API int64_t swx_timedim_get(const swx_timedim *d, size_t i);
SWX_API int64_t swx_timedim_first(const swx_timedim *d);
SWX_API int64_t swx_timedim_last(const swx_timedim *d);
/* The default: the default attribute when it names a valid instant, else the
 * first instant. */
SWX_API int64_t swx_timedim_default(const swx_timedim *d);
/* Whether t is one of the instants. */
SWX_API int swx_timedim_contains(const swx_timedim *d, int64_t t);
/* Index of the first instant >= t (count when none). */
SWX_API size_t swx_timedim_lower_bound(const swx_timedim *d, int64_t t);
/* Up to max instants nearest to t, nearest first; returns how many were written. */
SWX_API size_t swx_timedim_nearest(const swx_timedim *d, int64_t t, int64_t *out, size_t max);

#ifdef __cplusplus
}
#endif
#endif
