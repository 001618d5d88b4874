/*
 * sha256.h: SHA-256 (FIPS 180-4), to name tile images by their content so
 * that identical tiles are stored once.
 */
#ifndef SEAWX_SHA256_INT_H
#define SEAWX_SHA256_INT_H

#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_SHA256_LEN 32
#define SWX_SHA256_HEX_LEN 65 /* 64 hex digits and a NUL */

/* The running state of one hash; fill with swx_sha256_init(). */
typedef struct swx_sha256_ctx {
    uint32_t h[8];
    uint64_t bits;     /* message length so far, in bits */
    uint8_t block[64]; /* the partial block */
    size_t used;       /* bytes in block */
} swx_sha256_ctx;

void swx_sha256_init(swx_sha256_ctx *s);
void swx_sha256_update(swx_sha256_ctx *s, const void *data, size_t len);
/* Writes the digest; s must be initialised again before reuse. */
void swx_sha256_final(uint8_t out[SWX_SHA256_LEN], swx_sha256_ctx *s);
/* One call: the digest of len bytes, as raw bytes and (if hex is not NULL) as
 * 64 lowercase hex digits. */
void swx_sha256(uint8_t out[SWX_SHA256_LEN], char hex[SWX_SHA256_HEX_LEN], const void *data,
                size_t len);

#ifdef __cplusplus
}
#endif
#endif
