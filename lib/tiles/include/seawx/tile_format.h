/*
 * seawx/tile_format.h: how seeded map tiles are stored, one row per format
 * (lib/tiles/format.c). The seeder, the voyage packages and the command line
 * read every property of a format from its row: a new format is a row there
 * and its encoder in lib/tiles/encode.c.
 *
 * PNG keeps the service's bytes (a tile cut from a metatile is encoded as
 * RGBA PNG); the others decode each answer and encode it again on the
 * seeder's checker threads: png8 a 256-colour palette PNG, webp lossless
 * (quality 0) or lossy, jpeg for layers without transparency only.
 */
#ifndef SEAWX_TILE_FORMAT_H
#define SEAWX_TILE_FORMAT_H

#include "seawx/visibility.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rows of the table, in its order; 0 is the seeder's default. */
typedef enum swx_tile_format {
    SWX_FORMAT_PNG = 0,
    SWX_FORMAT_PNG8,
    SWX_FORMAT_WEBP,
    SWX_FORMAT_JPEG
} swx_tile_format;

/* The viewers on board whose decoders the table records (the viewers bits of
 * a row). */
#define SWX_VIEWER_OPENCPN 0x1u
#define SWX_VIEWER_QGIS 0x2u /* QGIS 3.22 with GDAL 3.6 */
#define SWX_VIEWER_MAPLIBRE 0x4u
#define SWX_VIEWER_ALL (SWX_VIEWER_OPENCPN | SWX_VIEWER_QGIS | SWX_VIEWER_MAPLIBRE)

/* The properties of a format (the props bits of a row). */
#define SWX_TF_REENCODED 0x1u    /* decoded and encoded again; without: the service's bytes */
#define SWX_TF_TRANSPARENCY 0x2u /* holds transparent pixels: empty tiles, clipping */
#define SWX_TF_QUALITY 0x4u      /* takes a quality, 1 to 100 */

typedef struct swx_tile_format_info {
    const char *name;    /* as users type it: "png8" */
    const char *label;   /* as messages name the encoding: "JPEG" */
    const char *mbtiles; /* the MBTiles `format` row, also a tile file's extension: "jpg" */
    const char *mime;    /* the tiles' media type, as tile servers send it */
    unsigned props;      /* SWX_TF_* */
    unsigned viewers;    /* SWX_VIEWER_* of the viewers that decode it */
    /* With SWX_TF_QUALITY, what quality 0 means: a quality, or 0 for
     * lossless (the encoding metadata row says "lossless"). */
    int default_quality;
} swx_tile_format_info;

/* The row of f, or NULL for a value that is no format. */
SWX_API const swx_tile_format_info *swx_tile_format_get(int f);

/* A name of the table into *out; SWX_EINVAL names the choices. */
SWX_API int swx_tile_format_parse(swx_tile_format *out, const char *name);
/* The row's name, or "?" for a value that is no format. */
SWX_API const char *swx_tile_format_name(swx_tile_format f);

/* The names of the formats with every property of `props` that every viewer
 * of `viewers` decodes (0 and 0: every format), `first` (a format, or -1)
 * before the others in table order, as "a, b or c" into buf (n bytes);
 * returns buf. For the messages that name the choices. */
SWX_API const char *swx_tile_format_names(char *buf, size_t n, unsigned props, unsigned viewers,
                                          int first);

#ifdef __cplusplus
}
#endif
#endif
