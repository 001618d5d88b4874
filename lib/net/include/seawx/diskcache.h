/*
 * seawx/diskcache.h: answers kept on disk, by request.
 *
 * An entry is one file, DIR/xx/HASH.swx, holding a header line "SWXC1", the
 * request's key text on the next line, then the answer's bytes. The key (a
 * request address without the API key) is checked on reading, so a hash
 * collision can never hand back the wrong answer. Entries are written to a
 * temporary name and renamed, so a reader never sees half an entry.
 *
 * The cache has a size limit: $SEAWX_CACHE_MAX_MB megabytes (default 1024; 0
 * for none), or what swx_diskcache_set_max() set. A hit marks its entry as
 * used now; when a process has written about a sixteenth of the limit since it
 * last looked (and on its first write), the folder is measured and, when over
 * the limit, the least recently used entries are removed until it holds three
 * quarters of it. Temporary files left by a process that died are removed too.
 */
#ifndef SEAWX_DISKCACHE_H
#define SEAWX_DISKCACHE_H

#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_DISKCACHE_MAX_ENTRY (64u * 1024u * 1024u)

/* $SEAWX_CACHE_DIR, else $XDG_CACHE_HOME/seawx, else $HOME/.cache/seawx; with
 * sub ("tiles") appended. Caller frees. NULL when no home is known. */
SWX_API char *swx_diskcache_default_dir(const char *sub);

/* 0 and a malloc'd copy of the answer, or SWX_ENOTFOUND when there is none. */
SWX_API int swx_diskcache_get(const char *dir, const char *key, void **data, size_t *len);
/* Stores an answer; creates folders as needed; prunes as described above. */
SWX_API int swx_diskcache_put(const char *dir, const char *key, const void *data, size_t len);

/* The size limit in bytes for this process (0: none); overrides the environment. */
SWX_API void swx_diskcache_set_max(uint64_t max_bytes);
/* The same from text in megabytes (digits only); SWX_EINVAL otherwise. */
SWX_API int swx_diskcache_set_max_mb(const char *text);
/* The limit in force: swx_diskcache_set_max()'s, else $SEAWX_CACHE_MAX_MB's, else 1 GiB. */
SWX_API uint64_t swx_diskcache_max(void);

/* Brings the entries under dir within max_bytes (when over it, down to three
 * quarters of it, least recently used first) and removes temporary files older
 * than an hour. *kept and *removed (may be NULL) receive the bytes left and
 * the entries removed. */
SWX_API int swx_diskcache_prune(const char *dir, uint64_t max_bytes, uint64_t *kept,
                                size_t *removed);

#ifdef __cplusplus
}
#endif
#endif
