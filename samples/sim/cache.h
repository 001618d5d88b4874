/* cache.h: a thread-safe LRU cache of blobs keyed by strings, bounded in bytes.
 *
 * Holds rendered GetMap images. A hit returns a new reference, so an entry
 * evicted while a connection still sends it stays alive until that connection
 * lets go. A NULL cache (size 0) caches nothing. */
#ifndef SIM_CACHE_H
#define SIM_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "blob.h"

struct sim_cache;

/* max_bytes 0 gives *out == NULL, a valid cache that caches nothing. */
int sim_cache_new(size_t max_bytes, struct sim_cache **out);
void sim_cache_free(struct sim_cache *c);

struct sim_blob *sim_cache_get(struct sim_cache *c, const char *key);
/* Stores b under key (the cache takes its own reference); replaces an entry with
 * the same key. Blobs larger than an eighth of the cache are not kept. */
void sim_cache_put(struct sim_cache *c, const char *key, struct sim_blob *b);
void sim_cache_clear(struct sim_cache *c);
void sim_cache_stats(struct sim_cache *c, uint64_t *hits, uint64_t *misses, size_t *bytes,
                     size_t *entries);

#endif
