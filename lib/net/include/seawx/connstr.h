/*
 * seawx/connstr.h: GDAL connection strings, "SEAWX:key=value,key=value".
 *
 * Grammar: "SEAWX:" then items separated by ','. An item is key=value, or,
 * first only, a bare word naming the kind of dataset ("storms"). Keys are
 * letters, digits, '_' and '-', compared without case and kept in lower case.
 * Values are everything after the first '=', with %XX escapes decoded; '/' and
 * ':' need no escape, so layer names read as they are. Writing escapes '%', ','
 * '"', spaces and control characters, so every value round-trips. The API key
 * is never part of a connection string: items named key, api_key, apikey or
 * service-api-key are refused.
 */
#ifndef SEAWX_CONNSTR_H
#define SEAWX_CONNSTR_H

#include "seawx/visibility.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_CONNSTR_PREFIX "SEAWX:"
#define SWX_CONNSTR_MAX_ITEMS 64
#define SWX_CONNSTR_MAX_LEN 8192

typedef struct swx_connstr swx_connstr;

/* Parses s, with or without the prefix. */
SWX_API int swx_connstr_parse(swx_connstr **out, const char *s);
SWX_API int swx_connstr_new(swx_connstr **out);
SWX_API void swx_connstr_free(swx_connstr *cs);

/* The bare word that opens the string, or NULL. */
SWX_API const char *swx_connstr_kind(const swx_connstr *cs);
SWX_API int swx_connstr_set_kind(swx_connstr *cs, const char *kind);
SWX_API size_t swx_connstr_count(const swx_connstr *cs);
SWX_API const char *swx_connstr_key(const swx_connstr *cs, size_t i);
SWX_API const char *swx_connstr_value(const swx_connstr *cs, size_t i);
/* The value of key (any case), or NULL. */
SWX_API const char *swx_connstr_get(const swx_connstr *cs, const char *key);
/* Sets or replaces key; a NULL value removes it. */
SWX_API int swx_connstr_set(swx_connstr *cs, const char *key, const char *value);
/* "SEAWX:..." with every value escaped as needed; caller frees. NULL (with
 * SWX_ETOOBIG) when that would be longer than SWX_CONNSTR_MAX_LEN, so that
 * what is formatted always parses again. */
SWX_API char *swx_connstr_format(const swx_connstr *cs);

#ifdef __cplusplus
}
#endif
#endif
