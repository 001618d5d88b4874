/*
 * seawx/kmz.h: the storm KMZ of /storm/kmz, read back into the storm model.
 *
 * A KMZ is a zip archive holding one main KML document and its resources. The
 * main document is "doc.kml" when the archive has one, else the first entry
 * whose name ends in ".kml" (the service names its own differently). Reading
 * is guarded against hostile archives before anything is inflated: at most
 * SWX_KMZ_MAX_ENTRIES entries, no entry name that is absolute, holds "..",
 * a backslash or a drive letter (path escapes are refused even though nothing
 * is written to disk), a declared size of at most SWX_KMZ_MAX_KML bytes for
 * the main document and SWX_KMZ_MAX_TOTAL for all entries, and a compression
 * ratio of at most SWX_KMZ_MAX_RATIO; while inflating, the bytes actually
 * produced are counted against the same limits (declared sizes can lie).
 *
 * The KML is parsed by the core's one hardened XML reader (no network, no DTD,
 * no entity expansion); a document with entity declarations is refused. Storms are Folders whose
 * ExtendedData holds the summary fields under their JSON names
 * (dates_active.start, dates_active.end); their positions are Placemarks with
 * a Point and ExtendedData fields (track = observed or forecast; radii as
 * 34kts.wind_speed, 34kts.ne, ...; wind_extent_radii = {} for an empty radii
 * object). SimpleData is read like Data. A missing field is null.
 */
#ifndef SEAWX_KMZ_H
#define SEAWX_KMZ_H

#include "seawx/storm.h"
#include "seawx/visibility.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_KMZ_MAX_ENTRIES 1000
#define SWX_KMZ_MAX_KML (256u << 20)
#define SWX_KMZ_MAX_TOTAL (512ull << 20)
#define SWX_KMZ_MAX_RATIO 200

/* Every storm of a KMZ file, in document order. */
SWX_API int swx_kmz_read_storms(const char *path, swx_storm_fn fn, void *ud);

#ifdef __cplusplus
}
#endif
#endif
