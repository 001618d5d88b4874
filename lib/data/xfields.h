/*
 * xfields.h: the X-Fields field mask of the point endpoints.
 *
 * Grammar (what the service documents, checked before anything is sent):
 *   mask  = "{" item *( "," item ) "}"
 *   item  = name [ mask ]
 *   name  = 1*( ALPHA / DIGIT / "_" / "-" / "*" )
 * Blanks around names and punctuation are allowed. Example:
 *   {data{times,values{air_temperature,wind_speed}}}
 * At most SWX_XFIELDS_MAX_LEN characters and SWX_XFIELDS_MAX_DEPTH levels.
 */
#ifndef SEAWX_XFIELDS_H
#define SEAWX_XFIELDS_H

#include "seawx/visibility.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_XFIELDS_MAX_LEN 1024
#define SWX_XFIELDS_MAX_DEPTH 16

/* 0 when mask is well formed; otherwise SWX_EINVAL with a line naming the
 * position and what was expected. */
int swx_xfields_check(const char *mask);

/* Whether the mask keeps the member at path (n names, outermost first): every
 * name on the path is listed at its level, or the mask stops above it (a name
 * without braces keeps all below it). */
int swx_xfields_selects(const char *mask, const char *const *path, int n);

#ifdef __cplusplus
}
#endif
#endif
