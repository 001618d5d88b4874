/*
 * seawx/jsonw.h: a streaming JSON writer.
 *
 * Output goes straight to a FILE, so that documents of any size are written in
 * constant memory. The writer places commas and colons itself; nesting is
 * limited to SWX_JSONW_DEPTH levels. Numbers that are not finite are written as
 * null (JSON has no NaN). The first write error sticks: swx_jsonw_finish()
 * reports it.
 */
#ifndef SEAWX_JSONW_H
#define SEAWX_JSONW_H

#include "seawx/visibility.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_JSONW_DEPTH 32

typedef struct swx_jsonw swx_jsonw;

/* pretty: 0 compact, n > 0 indent by n spaces. */
SWX_API int swx_jsonw_new(swx_jsonw **out, FILE *f, int pretty);
/* Checks that every container was closed and that writing succeeded; frees w. */
SWX_API int swx_jsonw_finish(swx_jsonw *w);
SWX_API void swx_jsonw_free(swx_jsonw *w);

SWX_API void swx_jsonw_object_begin(swx_jsonw *w);
SWX_API void swx_jsonw_object_end(swx_jsonw *w);
SWX_API void swx_jsonw_array_begin(swx_jsonw *w);
SWX_API void swx_jsonw_array_end(swx_jsonw *w);
/* The key of the next member (inside an object). */
SWX_API void swx_jsonw_key(swx_jsonw *w, const char *key);
SWX_API void swx_jsonw_string(swx_jsonw *w, const char *s); /* NULL writes null */
SWX_API void swx_jsonw_int(swx_jsonw *w, int64_t v);
/* A number with up to `decimals` digits after the point, trailing zeros cut;
 * decimals < 0 writes the shortest form that reads back the same double. */
SWX_API void swx_jsonw_number(swx_jsonw *w, double v, int decimals);
SWX_API void swx_jsonw_bool(swx_jsonw *w, int v);
SWX_API void swx_jsonw_null(swx_jsonw *w);
/* An instant as "YYYY-MM-DDTHH:MM:SSZ". */
SWX_API void swx_jsonw_time(swx_jsonw *w, int64_t t);

#ifdef __cplusplus
}
#endif
#endif
