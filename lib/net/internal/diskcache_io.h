/*
 * diskcache_io.h: reading, writing and pruning the disk cache: the core's own (the map
 * reader and the tests), not part of the public API. Front ends only open a
 * handle and hand it to the map options.
 */
#ifndef SEAWX_DISKCACHE_IO_H
#define SEAWX_DISKCACHE_IO_H

#include "seawx/diskcache.h"

const char *swx_diskcache_dir(const swx_diskcache *dc);
/* The size limit in bytes (0: none). */
uint64_t swx_diskcache_max(const swx_diskcache *dc);
/* 0 and a malloc'd copy of the answer, or SWX_ENOTFOUND when there is none. */
int swx_diskcache_get(void **data, size_t *len, swx_diskcache *dc, const char *key);
/* Stores an answer; creates folders as needed; prunes as described above. */
int swx_diskcache_put(swx_diskcache *dc, const char *key, const void *data, size_t len);
/* Brings the entries under dir within max_bytes (when over it, down to three
 * quarters of it, least recently used first) and removes temporary files older
 * than an hour. *kept and *removed (may be NULL) receive the bytes left and
 * the entries removed. */
int swx_diskcache_prune(uint64_t *kept, size_t *removed, const char *dir, uint64_t max_bytes);

#endif
