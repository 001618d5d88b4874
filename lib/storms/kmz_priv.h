/*
 * kmz_priv.h: the steps of reading a storm KMZ (internal): the archive checks
 * and the KML reader, which swx_kmz_read_storms() chains (see seawx/kmz.h for
 * the formats and limits).
 */
#ifndef SWX_KMZ_PRIV_H
#define SWX_KMZ_PRIV_H

#include "seawx/kmz.h"

#include <stddef.h>

/* Whether an entry name stays inside the archive's folder. */
int swx_kmz_name_safe(const char *name);

/* Checks the archive and reads its main KML document whole (NUL-terminated,
 * *len bytes; caller frees). entry (may be NULL) receives its name (caller
 * frees). */
int swx_kmz_read_kml(char **kml, size_t *len, char **entry, const char *path);

/* Parses a storm KML document and hands each storm to fn, in document order. */
int swx_kml_parse_storms(const char *kml, size_t len, swx_storm_fn fn, void *ud);

#endif
