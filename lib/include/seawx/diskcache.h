/*
 * seawx/diskcache.h: answers kept on disk, by request.
 *
 * An entry is one file, DIR/xx/HASH.swx, holding a header line "SWXC1", the
 * request's key text on the next line, then the answer's bytes. The key (a
 * request address without the API key) is checked on reading, so a hash
 * collision can never hand back the wrong answer. Entries are written to a
 * temporary name and renamed, so a reader never sees half an entry.
 */
#ifndef SEAWX_DISKCACHE_H
#define SEAWX_DISKCACHE_H

#include "seawx/visibility.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_DISKCACHE_MAX_ENTRY (64u * 1024u * 1024u)

/* $SEAWX_CACHE_DIR, else $XDG_CACHE_HOME/seawx, else $HOME/.cache/seawx; with
 * sub ("tiles") appended. Caller frees. NULL when no home is known. */
SWX_API char *swx_diskcache_default_dir(const char *sub);

/* 0 and a malloc'd copy of the answer, or SWX_ENOTFOUND when there is none. */
SWX_API int swx_diskcache_get(const char *dir, const char *key, void **data, size_t *len);
/* Stores an answer; creates folders as needed. */
SWX_API int swx_diskcache_put(const char *dir, const char *key, const void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
