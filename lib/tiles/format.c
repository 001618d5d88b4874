/* format.c: the table of tile formats (seawx/tile_format.h). */
#include "seawx/tile_format.h"

#include "encode.h"
#include "seawx/error.h"

#include <stdio.h>
#include <string.h>

/* In the order of swx_tile_format. */
static const swx_tile_format_info formats[] = {
    [SWX_FORMAT_PNG] = {.name = "png",
                        .label = "PNG",
                        .mbtiles = "png",
                        .mime = "image/png",
                        .props = SWX_TF_TRANSPARENCY,
                        .viewers = SWX_VIEWER_ALL},
    [SWX_FORMAT_PNG8] = {.name = "png8",
                         .label = "PNG",
                         .mbtiles = "png",
                         .mime = "image/png",
                         .props = SWX_TF_REENCODED | SWX_TF_TRANSPARENCY,
                         .viewers = SWX_VIEWER_ALL},
    /* OpenCPN does not decode WebP; GDAL reads it in MBTiles from 3.8. */
    [SWX_FORMAT_WEBP] = {.name = "webp",
                         .label = "WebP",
                         .mbtiles = "webp",
                         .mime = "image/webp",
                         .props = SWX_TF_REENCODED | SWX_TF_TRANSPARENCY | SWX_TF_QUALITY,
                         .viewers = SWX_VIEWER_MAPLIBRE,
                         .default_quality = 0},
    [SWX_FORMAT_JPEG] = {.name = "jpeg",
                         .label = "JPEG",
                         .mbtiles = "jpg",
                         .mime = "image/jpeg",
                         .props = SWX_TF_REENCODED | SWX_TF_QUALITY,
                         .viewers = SWX_VIEWER_ALL,
                         .default_quality = SWX_JPEG_DEFAULT_QUALITY},
};

#define NFORMATS ((int)(sizeof formats / sizeof formats[0]))

const swx_tile_format_info *swx_tile_format_get(int f)
{
    return f >= 0 && f < NFORMATS ? &formats[f] : NULL;
}

int swx_tile_format_parse(swx_tile_format *out, const char *name)
{
    for (int i = 0; i < NFORMATS; i++)
        if (name && strcmp(name, formats[i].name) == 0) {
            *out = (swx_tile_format)i;
            return 0;
        }
    char names[128];
    return swx_error_set(SWX_EINVAL, "unknown tile format '%s': use %s", name ? name : "",
                         swx_tile_format_names(names, sizeof names, 0, 0, -1));
}

const char *swx_tile_format_name(swx_tile_format f)
{
    const swx_tile_format_info *t = swx_tile_format_get((int)f);
    return t ? t->name : "?";
}

const char *swx_tile_format_names(char *buf, size_t n, unsigned props, unsigned viewers, int first)
{
    int pick[NFORMATS], np = 0;
    for (int k = -1; k < NFORMATS; k++) {
        int i = k < 0 ? first : k;
        if (i < 0 || i >= NFORMATS || (k >= 0 && i == first))
            continue;
        if ((formats[i].props & props) == props && (formats[i].viewers & viewers) == viewers)
            pick[np++] = i;
    }
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    for (int j = 0; j < np && len < n; j++) {
        int w = snprintf(buf + len, n - len, "%s%s",
                         j == 0        ? ""
                         : j == np - 1 ? " or "
                                       : ", ",
                         formats[pick[j]].name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}
