/*
 * seawx/diskcache.h: answers kept on disk, by request.
 *
 * A cache is a handle on one folder with one size limit. An entry is one
 * file, DIR/xx/HASH.swx, holding a header line "SWXC1", the request's key
 * text on the next line, then the answer's bytes. The key (a request address
 * without the API key) is checked on reading, so a hash collision can never
 * hand back the wrong answer. Entries are written to a temporary name and
 * renamed, so a reader never sees half an entry.
 *
 * A hit marks its entry as used now; when a handle has written about a
 * sixteenth of its limit since it last looked (and on its first write), the
 * folder is measured and, when over the limit, the least recently used entries
 * are removed until it holds three quarters of it. Temporary files left by a
 * process that died are removed too.
 *
 * The core reads no environment for the cache: front ends choose the folder
 * and the limit (the plugin: SEAWX_CACHE_DIR and SEAWX_CACHE_MAX_MB) and open
 * the handle. A handle is thread-safe: any number of threads may get and put
 * through one handle (and through several handles on one folder) at once.
 *
 * Public: opening a handle and reading a size limit, what a front end does.
 * Getting, putting and pruning are the map reader's: lib/net/internal/diskcache_io.h.
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
/* The size limit front ends use when the user sets none. */
#define SWX_DISKCACHE_DEFAULT_MAX_MB 1024

typedef struct swx_diskcache swx_diskcache;

/* A cache in folder dir (created on the first write) kept within max_bytes
 * (0: no limit). */
SWX_API int swx_diskcache_open(swx_diskcache **out, const char *dir, uint64_t max_bytes);
SWX_API void swx_diskcache_free(swx_diskcache *dc);

/* A size limit as users write it, in megabytes (digits only: "0" for none),
 * to bytes; SWX_EINVAL otherwise. */
SWX_API int swx_diskcache_parse_mb(uint64_t *bytes, const char *text);

#ifdef __cplusplus
}
#endif
#endif
