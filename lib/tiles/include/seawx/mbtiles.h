/*
 * seawx/mbtiles.h: what a viewer needs to show an MBTiles file seawx wrote.
 *
 * MapLibre GL JS and other web maps take a raster source from TileJSON; a tile
 * server (any that serves an MBTiles file's tiles at {z}/{x}/{y} URLs, XYZ
 * rows) and this document are all they need. MapLibre assumes 512-pixel
 * tiles unless the TileJSON says `tileSize`.
 */
#ifndef SEAWX_MBTILES_PUBLIC_H
#define SEAWX_MBTILES_PUBLIC_H

#include "seawx/visibility.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the TileJSON 3.0.0 document of the MBTiles file at path to f:
 * name, description, attribution, bounds, center, minzoom, maxzoom and
 * format from its metadata; "scheme": "xyz"; "tileSize" from its tile_size
 * row (256 when it has none); and "tiles": [url], url a template with {z},
 * {x} and {y}. A file that is not MBTiles, or lacks bounds, minzoom or
 * maxzoom, is SWX_EINVAL; nothing is written then. */
SWX_API int swx_mbtiles_tilejson(FILE *f, const char *path, const char *url);

#ifdef __cplusplus
}
#endif
#endif
